/**
 * Receipt text is hostile. Before it reaches a terminal, control characters (ANSI
 * escapes, carriage returns), bidi overrides and zero-width characters are shown as
 * visible `\u{…}` escapes instead of acting on the screen.
 */
// C0 and C1 controls except tab and newline, DEL, bidi controls, zero-width and BOM.
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g
const UNSAFE_LINE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

function visible(ch: string): string {
  return `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`
}

/** Text safe for a terminal: newlines and tabs kept, every other control made visible. */
export function terminalText(value: string): string {
  return value.replace(UNSAFE, visible)
}

/** One terminal line: newlines and tabs made visible too. */
export function terminalLine(value: string): string {
  return value.replace(UNSAFE_LINE, visible)
}
