/**
 * Terminal columns: what a text takes on screen, not how many code points it has. Wide
 * East Asian characters and emoji take two columns, combining marks none; text is cut only
 * between graphemes (what a reader sees as one character), never inside one.
 */
const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

// East Asian Wide and Fullwidth blocks (as wcwidth counts them), emoji drawn as emoji, and
// a variation selector 16 asking for emoji presentation.
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{2fffd}\u{30000}-\u{3fffd}]|\ufe0f|\p{Emoji_Presentation}/u
const ZERO_WIDTH = /^[\p{Mn}\p{Me}]+$/u

/** The graphemes of `text`, in order. */
export function graphemes(text: string): string[] {
  return Array.from(SEGMENTER.segment(text), (part) => part.segment)
}

/** Columns one grapheme takes: 0, 1 or 2. */
export function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0
  return WIDE.test(grapheme) ? 2 : 1
}

/** Columns `text` takes on a terminal (one line, controls already made visible). */
export function displayWidth(text: string): number {
  // Printable ASCII is one column a character: most text never needs segmenting.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length
  return graphemes(text).reduce((sum, g) => sum + graphemeWidth(g), 0)
}
