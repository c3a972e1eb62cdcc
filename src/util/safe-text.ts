/**
 * Receipt text is hostile. Before it reaches a terminal, control and format characters
 * (ANSI escapes, carriage returns, bidi overrides, zero-width characters, soft hyphens,
 * tag characters that hide ASCII, interlinear annotation marks) are shown as visible
 * `\u{…}` escapes instead of acting on the screen or hiding text.
 */
// By Unicode's categories, not a list: every control (Cc) and format character (Cf),
// the line and paragraph separators, and the whole tag block (its unassigned code points
// would hide text as well once assigned); tab and newline aside. One set for every
// renderer of hostile text (terminal, Markdown, HTML, annotations).
export const CONTROL_CHARS = /(?![\t\n])[\p{Cc}\p{Cf}\u2028\u2029\u{e0000}-\u{e007f}]/gu
/** The same, plus tab and newline: for one-line text. */
export const LINE_CONTROL_CHARS = /[\p{Cc}\p{Cf}\u2028\u2029\u{e0000}-\u{e007f}]/gu

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
