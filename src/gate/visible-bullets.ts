/**
 * The task-list bullets of a Markdown body that a reader sees, by commonmark.js (the
 * CommonMark reference, whose block structure GitHub's renderer shares): a line inside an
 * HTML comment or another HTML block, or inside fenced or indented code, is no list item,
 * so it cannot name anything.
 */
import { Parser, type Node } from 'commonmark'

/** A bullet item's first line as GitHub makes it a task: marker, one space, box, space. */
const TASK_BOX = /^[-*+] \[[ xX]\] /

/**
 * A line opening more than 100 containers (`>`, list markers): commonmark.js takes time
 * quadratic in the nesting, so the body is read up to that line only. Cutting lines can
 * only keep a hiding block open, never show a hidden line: the audit stays strict.
 */
const TOO_DEEP = /^(?:[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))){101}/

/**
 * The block parser alone: inlines never change the block structure, and commonmark.js's
 * inline pass takes quadratic time on some hostile text (`[a](b` repeated: 7 s for 64 KiB).
 */
const parser = Object.assign(new Parser(), { processInlines: () => undefined })

/**
 * The body's visible task-list bullets (`- [ ] …`, `*`, `+`, ticked or not, outside block
 * quotes), each from its marker on, on its first line, with inline comments taken out.
 */
export function visibleTaskBullets(body: string): string[] {
  const lines = body.split(/\r\n|\r|\n/)
  const deep = lines.findIndex((line) => TOO_DEEP.test(line))
  if (deep >= 0) lines.length = deep
  const walker = parser.parse(lines.join('\n')).walker()
  const bullets: string[] = []
  for (let step = walker.next(); step; step = walker.next()) {
    const { node, entering } = step
    if (!entering) continue
    // A quote's content is another's words: its bullets name nothing, nor do its items'.
    if (node.type === 'block_quote') walker.resumeAt(node, false)
    const text = node.type === 'item' ? taskLine(node, lines) : null
    if (text !== null) bullets.push(withoutComments(text))
  }
  return bullets
}

/** An item's first line from its marker, when the item opens with a task box in a paragraph. */
function taskLine(item: Node, lines: readonly string[]): string | null {
  const [line, column] = item.sourcepos[0]
  const text = lines[line - 1]?.slice(column - 1) ?? ''
  const first = item.firstChild
  const opens = first?.type === 'paragraph' && first.sourcepos[0][0] === line
  return opens && TASK_BOX.test(text) ? text : null
}

/** The text a reader sees of one line: inline HTML comments out (an unclosed one hides the rest). */
function withoutComments(text: string): string {
  let out = ''
  let at = 0
  for (;;) {
    const open = text.indexOf('<!--', at)
    if (open < 0) return out + text.slice(at)
    out += text.slice(at, open)
    const close = text.indexOf('-->', open + 4)
    if (close < 0) return out
    at = close + 3
  }
}
