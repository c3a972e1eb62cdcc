/**
 * The task-list bullets of a Markdown body that a reader sees: a line inside an HTML
 * comment or another HTML block, or inside a fenced or indented code block, renders as no
 * checkbox (a comment not at all), so it cannot name anything. The block structure is
 * CommonMark's for the blocks that hide text, with list items as the only containers;
 * one pass, linear in the body.
 *
 * Errors must lean one way: a hidden line taken for a visible one is a bypass, while a
 * visible one taken for hidden only fails a body that the hint then explains. So every
 * rule here opens a hiding block where CommonMark does and never closes one before it.
 */

/** A block that spans lines and hides them: a fence, an HTML block, indented code. */
type Hiding =
  | { kind: 'fence'; char: string; length: number; depth: number }
  | { kind: 'html'; end: RegExp | null; depth: number }
  | { kind: 'code'; depth: number }

interface State {
  /** The content columns of the open list items, innermost last. */
  items: number[]
  hiding: Hiding | null
  /** The last line was paragraph text (a lazy continuation or an interrupted paragraph follows). */
  paragraph: boolean
}

const FENCE = /^(`{3,}|~{3,})(.*)$/
// CommonMark's HTML block starts: kinds 1–5 end at a marker, 6 and 7 at a blank line.
const HTML_ENDS: ReadonlyArray<[RegExp, RegExp | null]> = [
  [/^<(?:script|pre|style|textarea)(?:\s|>|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
  [
    /^<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$)/i,
    null
  ]
]
/** Kind 7: any complete open or closing tag alone on its line (it cannot interrupt a paragraph). */
const HTML_TAG_LINE =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)\s*$/
const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/
const ATX_HEADING = /^#{1,6}(?:[ \t]|$)/
const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/
/** A list marker and the spaces after it (none: an empty item). */
const LIST_MARKER = /^(?:[-*+]|(\d{1,9})[.)])(?=[ \t]|$)( *)/
const TASK_BOX = /^[-*+] \[[ xX]\] /

/** Tabs to spaces at four-column stops, as CommonMark measures indentation. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line
  let out = ''
  for (const char of line) out += char === '\t' ? ' '.repeat(4 - (out.length % 4)) : char
  return out
}

const indentOf = (text: string): number => text.length - text.trimStart().length

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

/** The column where a list item's content starts, or null when `text` opens no item. */
function listItem(text: string, column: number, paragraph: boolean): number | null {
  const marker = LIST_MARKER.exec(text)
  if (!marker || THEMATIC_BREAK.test(text)) return null
  const spaces = marker[2]?.length ?? 0
  const empty = text.trim().length === marker[0].trim().length
  // An item interrupts a paragraph only when it has content and, ordered, starts at 1.
  if (paragraph && (empty || (marker[1] !== undefined && marker[1] !== '1'))) return null
  const width = marker[0].length - spaces
  return column + width + (empty || spaces > 4 ? 1 : spaces)
}

/** The hiding block `text` opens (at its container's indentation), or null. */
function opensHiding(text: string, depth: number, paragraph: boolean): Hiding | null {
  const fence = FENCE.exec(text)
  if (fence && !(fence[1]?.startsWith('`') && fence[2]?.includes('`'))) {
    const run = fence[1] ?? ''
    return { kind: 'fence', char: run.charAt(0), length: run.length, depth }
  }
  if (!text.startsWith('<')) return null
  for (const [start, end] of HTML_ENDS) {
    if (start.test(text)) return { kind: 'html', end, depth }
  }
  return !paragraph && HTML_TAG_LINE.test(text) ? { kind: 'html', end: null, depth } : null
}

/** Whether `text`, not inside a hiding block, starts a block (so it ends a paragraph). */
function startsBlock(text: string, column: number, state: State): boolean {
  return (
    opensHiding(text, 0, true) !== null ||
    text.startsWith('>') ||
    ATX_HEADING.test(text) ||
    THEMATIC_BREAK.test(text) ||
    listItem(text, column, state.paragraph) !== null
  )
}

/**
 * One line inside an open hiding block: true when it belongs to it (and is hidden), false
 * when a list item it sat in has ended, which ends the block too.
 */
function continuesHiding(line: string, state: State): boolean {
  const hiding = state.hiding
  if (hiding === null) return false
  const base = hiding.depth > 0 ? (state.items[hiding.depth - 1] ?? 0) : 0
  const blank = line.trim() === ''
  if (blank) {
    if (hiding.kind === 'html' && hiding.end === null) state.hiding = null
    return true
  }
  const indent = indentOf(line)
  if (indent < base) {
    state.hiding = null
    return false
  }
  const rel = indent - base
  if (hiding.kind === 'code') {
    if (rel >= 4) return true
    state.hiding = null
    return false
  }
  if (hiding.kind === 'fence') {
    const text = line.trimStart()
    const run = new RegExp(`^\\${hiding.char}{${hiding.length},}[ \\t]*$`)
    if (rel < 4 && run.test(text)) state.hiding = null
    return true
  }
  if (hiding.end?.test(line)) state.hiding = null
  return true
}

/**
 * The body's visible task-list bullets (`- [ ] …`, `*`, `+`, ticked or not), each from its
 * marker on with inline comments taken out.
 */
export function visibleTaskBullets(body: string): string[] {
  const state: State = { items: [], hiding: null, paragraph: false }
  const out: string[] = []
  for (const raw of body.split(/\r?\n/)) {
    const line = expandTabs(raw)
    if (continuesHiding(line, state)) continue
    const bullet = readLine(line, state)
    if (bullet !== null) out.push(bullet)
  }
  return out
}

/** One line outside any hiding block: updates the state; the task bullet it is, or null. */
function readLine(line: string, state: State): string | null {
  if (line.trim() === '') {
    state.paragraph = false
    return null
  }
  let column = indentOf(line)
  let text = line.slice(column)
  // The list items this line's indentation leaves open; a lazy paragraph line closes none.
  const open = state.items.filter((col) => col <= column).length
  if (open < state.items.length) {
    if (state.paragraph && !startsBlock(text, column, state)) return null
    state.items.length = open
  }
  for (;;) {
    const base = state.items[state.items.length - 1] ?? 0
    if (column - base >= 4) {
      // Indented code, unless it continues a paragraph: hidden either way.
      if (!state.paragraph) state.hiding = { kind: 'code', depth: state.items.length }
      return null
    }
    const hiding = opensHiding(text, state.items.length, state.paragraph)
    if (hiding !== null) {
      // An HTML block whose end marker is on its first line is that line alone.
      const oneLine = hiding.kind === 'html' && hiding.end?.test(text) === true
      state.hiding = oneLine ? null : hiding
      state.paragraph = false
      return null
    }
    if (
      text.startsWith('>') ||
      ATX_HEADING.test(text) ||
      THEMATIC_BREAK.test(text) ||
      (state.paragraph && SETEXT_UNDERLINE.test(text))
    ) {
      // A quote's lines are never counted; its paragraph may go on lazily.
      state.paragraph = text.startsWith('>')
      return null
    }
    const content = listItem(text, column, state.paragraph)
    if (content === null) {
      state.paragraph = true
      return null
    }
    state.items.push(content)
    // A task box opens the item's paragraph: the line is a bullet a reader sees.
    state.paragraph = TASK_BOX.test(text)
    if (state.paragraph) return withoutComments(text)
    const rest = line.slice(Math.min(content, line.length))
    // The item's first line is read as a line of its own, inside the item.
    if (rest.trim() === '') return null
    column = content + indentOf(rest)
    text = rest.trimStart()
    line = ' '.repeat(column) + text
  }
}
