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
  | { kind: 'fence'; char: string; length: number }
  | { kind: 'html'; end: RegExp | null }
  | { kind: 'code' }

/**
 * A container block: a list item (its content `width` columns in; `empty` while it holds
 * nothing, when a blank line ends it) or a block quote.
 */
type Container = { kind: 'item'; width: number; empty: boolean } | { kind: 'quote' }

interface State {
  containers: Container[]
  /** The hiding block open in the innermost container, if any. */
  hiding: Hiding | null
  /** The last line was paragraph text (a lazy continuation or an interrupted paragraph follows). */
  paragraph: boolean
  bullets: string[]
  /** The last bullet's paragraph is still open: an underline below makes it a heading, no box. */
  pending: boolean
}

/**
 * Containers deeper than this end the reading: no bullet below counts. Each line is matched
 * against every open container, so an unbounded depth would make the pass quadratic.
 */
const MAX_DEPTH = 100

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

/** The width of a list item's marker and spaces, or null when `text` opens no item. */
function listItem(text: string, paragraph: boolean): number | null {
  const marker = LIST_MARKER.exec(text)
  if (!marker || THEMATIC_BREAK.test(text)) return null
  const spaces = marker[2]?.length ?? 0
  const empty = text.trim().length === marker[0].trim().length
  // An item interrupts a paragraph only when it has content and, ordered, starts at 1.
  if (paragraph && (empty || (marker[1] !== undefined && marker[1] !== '1'))) return null
  return marker[0].length - spaces + (empty || spaces > 4 ? 1 : spaces)
}

/** The hiding block `text` opens (at its container's indentation), or null. */
function opensHiding(text: string, paragraph: boolean): Hiding | null {
  const fence = FENCE.exec(text)
  if (fence && !(fence[1]?.startsWith('`') && fence[2]?.includes('`'))) {
    const run = fence[1] ?? ''
    return { kind: 'fence', char: run.charAt(0), length: run.length }
  }
  if (!text.startsWith('<')) return null
  for (const [start, end] of HTML_ENDS) if (start.test(text)) return { kind: 'html', end }
  return !paragraph && HTML_TAG_LINE.test(text) ? { kind: 'html', end: null } : null
}

/**
 * Whether `rest`, below an open paragraph but outside its containers, cannot continue it
 * lazily. It is read where the containers it continued end, not in the paragraph, so any
 * block but a lone tag (kind 7, which never ends a paragraph) may start there.
 */
function endsLazyParagraph(rest: string): boolean {
  const text = rest.trimStart()
  return (
    opensHiding(text, true) !== null ||
    text.startsWith('>') ||
    ATX_HEADING.test(text) ||
    THEMATIC_BREAK.test(text) ||
    listItem(text, false) !== null
  )
}

/**
 * How many open containers `line` continues, and where its rest starts: an item by
 * its indentation (or a blank line), a quote by its `>`.
 */
function matchContainers(
  line: string,
  containers: readonly Container[]
): [number, number] {
  let at = 0
  let matched = 0
  for (const container of containers) {
    const rest = line.slice(at)
    const indent = indentOf(rest)
    if (container.kind === 'item') {
      const blank = rest.trim() === ''
      if (blank ? container.empty : indent < container.width) break
      container.empty &&= blank
      at += Math.min(container.width, indent)
    } else {
      if (indent > 3 || rest.charAt(indent) !== '>') break
      at += indent + (rest.charAt(indent + 1) === ' ' ? 2 : 1)
    }
    matched++
  }
  return [matched, at]
}

/** A line of the open hiding block: whether it closes it. */
function closesHiding(hiding: Hiding, rest: string): boolean {
  if (hiding.kind === 'code') return rest.trim() !== '' && indentOf(rest) < 4
  if (hiding.kind === 'html')
    return hiding.end === null ? rest.trim() === '' : hiding.end.test(rest)
  const run = new RegExp(`^\\${hiding.char}{${hiding.length},}[ \\t]*$`)
  return indentOf(rest) < 4 && run.test(rest.trimStart())
}

/**
 * The body's visible task-list bullets (`- [ ] …`, `*`, `+`, ticked or not, outside block
 * quotes), each from its marker on with inline comments taken out.
 */
export function visibleTaskBullets(body: string): string[] {
  const state: State = {
    containers: [],
    hiding: null,
    paragraph: false,
    bullets: [],
    pending: false
  }
  for (const raw of body.split(/\r?\n/)) {
    if (state.containers.length > MAX_DEPTH) break
    const bullet = readLine(expandTabs(raw), state)
    // Only paragraph text (null, paragraph open) keeps a bullet's paragraph going.
    if (bullet !== null) state.bullets.push(bullet)
    state.pending = bullet !== null || (state.pending && state.paragraph)
  }
  return state.bullets
}

/** One line: updates the state; the task bullet it is, or null. */
function readLine(line: string, state: State): string | null {
  const [matched, at] = matchContainers(line, state.containers)
  const all = matched === state.containers.length
  const hiding = state.hiding
  if (hiding !== null && all) {
    // The code block's end is the first line that is not its own: read it anew.
    const closes = closesHiding(hiding, line.slice(at))
    if (closes) state.hiding = null
    if (!closes || hiding.kind !== 'code') return null
  }
  // A container not continued ends, with its hiding block (none is lazy), unless the line
  // continues an open paragraph lazily.
  state.hiding = null
  // An indented line there continues it too (CommonMark; markdown-it may end the item).
  const rest = line.slice(at)
  if (!all && state.paragraph && rest.trim() !== '') {
    if (indentOf(rest) >= 4 || !endsLazyParagraph(rest)) return null
  }
  if (!all) {
    state.containers.length = matched
    state.paragraph = false
  }
  return readBlocks(line, at, state)
}

/** The blocks a line starts at `at`, inside the open containers it continued. */
function readBlocks(line: string, at: number, state: State): string | null {
  for (;;) {
    const rest = line.slice(at)
    if (rest.trim() === '') {
      state.paragraph = false
      return null
    }
    const indent = indentOf(rest)
    if (indent >= 4) {
      // Indented code, unless it continues a paragraph: hidden either way.
      if (!state.paragraph) state.hiding = { kind: 'code' }
      return null
    }
    const text = rest.slice(indent)
    if (text.startsWith('>')) {
      state.containers.push({ kind: 'quote' })
      state.paragraph = false
      at += indent + (text.charAt(1) === ' ' ? 2 : 1)
      continue
    }
    const hiding = opensHiding(text, state.paragraph)
    if (hiding !== null) {
      // An HTML block whose end marker is on its first line is that line alone.
      const oneLine = hiding.kind === 'html' && hiding.end?.test(text) === true
      state.hiding = oneLine ? null : hiding
      state.paragraph = false
      return null
    }
    const setext = state.paragraph && SETEXT_UNDERLINE.test(text)
    if (setext || ATX_HEADING.test(text) || THEMATIC_BREAK.test(text)) {
      if (setext && state.pending) state.bullets.pop()
      state.paragraph = false
      return null
    }
    const width = listItem(text, state.paragraph)
    if (width === null) {
      state.paragraph = true
      return null
    }
    const empty = text.slice(width).trim() === ''
    state.containers.push({ kind: 'item', width: indent + width, empty })
    // A task box opens the item's paragraph: a bullet a reader sees, outside a quote.
    state.paragraph = TASK_BOX.test(text)
    if (state.paragraph)
      return state.containers.some((c) => c.kind === 'quote')
        ? null
        : withoutComments(text)
    at += Math.min(indent + width, rest.length)
  }
}
