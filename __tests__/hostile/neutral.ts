/**
 * Checks that hostile text came out neutralised: the log as the GitHub runner reads it
 * (workflow commands, stop-commands blocks), Markdown as GitHub renders it, terminal text,
 * and annotations. Each checker returns the problems it found (empty = clean), so a
 * failing test names every leak at once.
 */
import MarkdownIt from 'markdown-it'
import type { ReportAnnotation } from '../../src/gate/report.js'

/**
 * Characters that act on a screen, hide or reorder text: every control (but \n, \t) and
 * format character by Unicode's categories (bidi, zero-width, BOM, soft hyphen, tag
 * characters and the unassigned rest of their block, interlinear annotation marks), and
 * the line and paragraph separators, which no renderer of ours passes on.
 */
const INVISIBLE = /(?![\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u{e0000}-\u{e007f}]/u

/** Our own zero-width spaces: after `@` (no mention) and after `:` before `//` (no autolink). */
const OWN_ZWSP = /(?<=[@:])\u200b/g

export function invisibleIn(text: string, allowOwnZwsp = false): string | null {
  const match = INVISIBLE.exec(allowOwnZwsp ? text.replace(OWN_ZWSP, '') : text)
  if (!match) return null
  const at = match.index
  return `U+${(match[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0')} near ${JSON.stringify(text.slice(Math.max(0, at - 30), at + 30))}`
}

/** A workflow command the runner would execute. */
export interface RunnerCommand {
  name: string
  /** The `##[name]` form: never one of ours. */
  legacy: boolean
  props: Record<string, string>
  data: string
  line: string
}

const unescapeData = (s: string): string =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
const unescapeProp = (s: string): string =>
  unescapeData(s.replace(/%3A/g, ':').replace(/%2C/g, ','))

/**
 * Reads stdout like the runner (`ActionCommandManager`): a line that starts with `::`
 * after leading whitespace is a command; otherwise `##[name props]data` anywhere in the
 * line is one (the legacy form); `::stop-commands::T` turns processing off until `::T::`.
 * Returns the commands processed and the plain lines outside stop-commands blocks.
 */
export function runnerView(stdout: string): {
  commands: RunnerCommand[]
  plain: string[]
  blocks: string[][]
} {
  const commands: RunnerCommand[] = []
  const plain: string[] = []
  const blocks: string[][] = []
  let stop: string | null = null
  let block: string[] = []
  for (const line of stdout.split(/\r?\n/)) {
    if (stop !== null) {
      if (line.trim() === `::${stop}::`) {
        stop = null
        blocks.push(block)
        block = []
      } else block.push(line)
      continue
    }
    const trimmed = line.trimStart()
    let command: RunnerCommand | null = null
    const v2 = /^::([^\s:]+)(?: ([^:]*))?::(.*)$/.exec(trimmed)
    if (v2) command = parsed(v2[1]!, v2[2] ?? '', v2[3]!, line)
    else {
      const legacy = /##\[([^\s\]]+)(?: ([^\]]*))?\](.*)$/.exec(line)
      if (legacy)
        command = {
          ...parsed(legacy[1]!, legacy[2] ?? '', legacy[3]!, line, ';'),
          legacy: true
        }
    }
    if (command) {
      commands.push(command)
      if (command.name === 'stop-commands') stop = command.data
    } else plain.push(line)
  }
  if (stop !== null) blocks.push(block)
  return { commands, plain, blocks }
}

function parsed(
  name: string,
  props: string,
  data: string,
  line: string,
  separator = ','
): RunnerCommand {
  const out: Record<string, string> = {}
  for (const pair of props.split(separator)) {
    const eq = pair.indexOf('=')
    if (eq > 0) out[pair.slice(0, eq).trim()] = unescapeProp(pair.slice(eq + 1))
  }
  return {
    name: name.toLowerCase(),
    legacy: false,
    props: out,
    data: unescapeData(data),
    line
  }
}

const ANNOTATION_COMMAND = {
  error: 'failure',
  warning: 'warning',
  notice: 'notice'
} as const

/**
 * Problems of an action's stdout: any command other than our own (the token's mask, our
 * stop-commands, `::error::`/`::warning::`/`::notice::` lines of our own, and fallback
 * annotations that equal the report's, field for field), any marker of hostile text on a
 * plain line outside a block, and any invisible character anywhere.
 */
export function logProblems(
  stdout: string,
  options: {
    token: string
    markers: readonly string[]
    annotations?: readonly ReportAnnotation[]
  }
): string[] {
  const problems: string[] = []
  const view = runnerView(stdout)
  const expected = new Set(
    (options.annotations ?? []).map((a) =>
      JSON.stringify([
        ANNOTATION_LEVEL_NAME[a.annotation_level],
        a.path,
        a.start_line,
        a.end_line,
        a.title,
        a.message
      ])
    )
  )
  const verified = new Set<string>()
  for (const command of view.commands) {
    const { name, props, data } = command
    if (command.legacy) {
      problems.push(
        `legacy runner command ##[${name}] executed: ${command.line.slice(0, 200)}`
      )
      continue
    }
    if (name === 'add-mask' && data === options.token) continue
    if (name === 'stop-commands' && /^[0-9a-f-]{36}$/.test(data)) continue
    // A debug line's data is only shown (with debug logging on), never run; its text is
    // one line with controls made visible (the invisible-character check below).
    if (name === 'debug' && Object.keys(props).length === 0) continue
    if (name in ANNOTATION_COMMAND) {
      if (Object.keys(props).length === 0) {
        // Our own one-line messages (setFailed, warnings): no hostile marker in them.
        const marker = options.markers.find((m) => data.includes(m))
        if (marker)
          problems.push(
            `::${name}:: message carries hostile text ${JSON.stringify(marker)}`
          )
        continue
      }
      const key = JSON.stringify([
        name,
        props.file,
        Number(props.line),
        Number(props.endLine),
        props.title,
        data
      ])
      if (expected.has(key)) {
        // The path must stay the file's own (or GitHub cannot place the annotation);
        // title and message are the report's, checked by annotationProblems.
        verified.add(command.line)
        continue
      }
      problems.push(
        `annotation command that is not one of the report's: ${command.line.slice(0, 200)}`
      )
      continue
    }
    problems.push(
      `runner command ${JSON.stringify(name)} executed: ${command.line.slice(0, 200)}`
    )
  }
  for (const line of view.plain) {
    const marker = options.markers.find((m) => line.includes(m))
    if (marker)
      problems.push(
        `hostile text ${JSON.stringify(marker)} outside stop-commands: ${line.slice(0, 200)}`
      )
  }
  const scanned = stdout
    .split(/\r?\n/)
    .filter((line) => !verified.has(line))
    .join('')
  const invisible = invisibleIn(scanned)
  if (invisible) problems.push(`invisible character in the log: ${invisible}`)
  return problems
}

const ANNOTATION_LEVEL_NAME = {
  failure: 'error',
  warning: 'warning',
  notice: 'notice'
} as const

const md = new MarkdownIt({ html: true, linkify: true })
// Render every link markdown-it would refuse (javascript:, data:): GitHub's renderer is
// not markdown-it, so a link that reaches the renderer at all is a leak.
md.validateLink = () => true
const ALLOWED_TAGS = new Set(
  'h2 h3 p strong em code pre table thead tbody tr th td ul ol li blockquote details summary br hr'.split(
    ' '
  )
)
const OWN_LINK =
  /^href="https:\/\/[\w.-]+\/[\w.-]+\/[\w.-]+\/blob\/[0-9a-f]{40}(?:[0-9a-f]{24})?\/[\w.~%/-]*#L\d+"$/
const ALLOWED_ATTRIBUTES =
  /^(class="language-text"|style="text-align:(left|right|center)")$/

/** Problems of a Markdown summary as GitHub would render it. */
export function markdownProblems(
  markdown: string,
  options: { markers: readonly string[]; receipts: number }
): string[] {
  const problems: string[] = []
  const html = md.render(markdown)
  const text = html.replace(/<[^>]*>/g, '')
  // Only the tags and attributes our own Markdown produces: nothing a receipt can add.
  for (const tag of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const name = tag[1]!.toLowerCase()
    const attributes = tag[2]!.trim()
    // Our own links to a finding's line at the head commit (issue 25): nothing else.
    if (name === 'a' && (attributes === '' || OWN_LINK.test(attributes))) continue
    if (!ALLOWED_TAGS.has(name)) problems.push(`rendered summary has a <${name}> tag`)
    else if (attributes !== '' && !ALLOWED_ATTRIBUTES.test(attributes))
      problems.push(`rendered <${name}> has attributes ${attributes.slice(0, 80)}`)
  }
  if (/<!--/.test(html)) problems.push('rendered summary has an HTML comment')
  const opened = html.match(/<details>/g)?.length ?? 0
  const closed = html.match(/<\/details>/g)?.length ?? 0
  if (opened !== closed) problems.push(`<details> ${opened} opened, ${closed} closed`)
  const mention = /(^|[^\w`])@[A-Za-z0-9]/.exec(text)
  if (mention)
    problems.push(`a live @-mention: ${text.slice(mention.index, mention.index + 30)}`)
  problems.push(...tableSourceProblems(markdown))
  const invisible = invisibleIn(markdown, true)
  if (invisible) problems.push(`invisible character in the Markdown: ${invisible}`)
  // No receipt text adds a row or a cell: the verdict table (when the summary kept it)
  // has one row per receipt, and every row of every table as many cells as its header.
  const tables = html.match(/<table>[\s\S]*?<\/table>/g) ?? []
  const verdictRows = (tables[0]?.match(/<tr>/g)?.length ?? 1) - 1
  if (tables.length > 0 && verdictRows !== options.receipts)
    problems.push(
      `verdict table has ${verdictRows} rows for ${options.receipts} receipts`
    )
  for (const table of tables) {
    const rows = table.match(/<tr>[\s\S]*?<\/tr>/g) ?? []
    const width = rows[0]?.match(/<t[hd][ >]/g)?.length ?? 0
    for (const row of rows) {
      const cells = row.match(/<t[hd][ >]/g)?.length ?? 0
      if (cells !== width)
        problems.push(`table row with ${cells} cells, not ${width}: ${row.slice(0, 120)}`)
    }
  }
  void options.markers
  return problems
}

/**
 * Table rows as written: every row of a table has as many cell separators as its header
 * (`|` outside code spans, not backslash-escaped). Renderers drop extra cells silently,
 * so the rendered HTML alone would not show a smuggled `|`. Lines of a fenced code block
 * are code, not rows (CommonMark: a fence closes on a line of at least as many of its
 * characters, and nothing else).
 */
function tableSourceProblems(markdown: string): string[] {
  const problems: string[] = []
  const pipes = (line: string): number =>
    line
      .replace(/`[^`]*`/g, '')
      .replace(/\\./g, '')
      .split('|').length - 1
  let width: number | null = null
  let fence: string | null = null
  for (const line of markdown.split('\n')) {
    if (fence !== null) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)?.[1]
      if (close !== undefined && close[0] === fence[0] && close.length >= fence.length)
        fence = null
      continue
    }
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (open !== undefined) {
      fence = open
      width = null
      continue
    }
    if (!line.startsWith('|')) {
      width = null
      continue
    }
    if (width === null) width = pipes(line)
    else if (pipes(line) !== width)
      problems.push(
        `table row with ${pipes(line)} separators, not ${width}: ${line.slice(0, 120)}`
      )
  }
  return problems
}

/** Problems of terminal text: nothing that acts on a screen. */
export function textProblems(text: string): string[] {
  const invisible = invisibleIn(text.replace(/\n/g, ''))
  return invisible ? [`invisible character in the text report: ${invisible}`] : []
}

/** Problems of annotations: one-line, visible titles; visible messages. */
export function annotationProblems(
  annotations: ReadonlyArray<{
    path: string
    title?: string
    message: string
    raw_details?: string
  }>
): string[] {
  const problems: string[] = []
  for (const a of annotations) {
    const title = a.title ?? ''
    const found = invisibleIn(title) ?? (/\n/.test(title) ? 'a newline' : null)
    if (found) problems.push(`annotation title on ${a.path}: ${found}`)
    for (const [field, value] of [
      ['message', a.message],
      ['raw_details', a.raw_details ?? '']
    ] as const) {
      const found = invisibleIn(value.replace(/\n/g, ''))
      if (found)
        problems.push(`annotation ${field} on ${JSON.stringify(a.path)}: ${found}`)
    }
    if (title.length > 255) problems.push(`annotation title over 255 UTF-16 units`)
  }
  return problems
}
