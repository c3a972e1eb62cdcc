/**
 * Receipt text is hostile. Before it reaches a terminal, control characters (ANSI
 * escapes, carriage returns), bidi overrides and zero-width characters are shown as
 * visible `\u{…}` escapes instead of acting on the screen.
 */
// C0 and C1 controls except tab and newline, DEL, bidi controls, zero-width and BOM.
// One set for every renderer of hostile text (terminal, Markdown, HTML, annotations).
export const CONTROL_CHARS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g
/** The same, plus tab, newline and the Unicode line separators: for one-line text. */
export const LINE_CONTROL_CHARS =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

/** A character shown as a visible `\\u{…}` escape, for every renderer of hostile text. */
export function visibleEscape(ch: string): string {
  return `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`
}

/** Text safe for a terminal: newlines and tabs kept, every other control made visible. */
export function terminalText(value: string): string {
  return value.replace(CONTROL_CHARS, visibleEscape)
}

/** One terminal line: newlines and tabs made visible too. */
export function terminalLine(value: string): string {
  return value.replace(LINE_CONTROL_CHARS, visibleEscape)
}
