/**
 * The Markdown summary of a run: the check run's output and the job summary (docs/contract.md#check-run-and-report),
 * in the receipts contract's reading order, then the collapsed extras. All receipt text
 * goes through the escapers of `markdown-escape.ts`.
 */
import { basename } from 'node:path/posix'
import type { Conclusion } from '../gate/gate.js'
import {
  currentFindings,
  introducedOpen,
  isOpen,
  type CurrentFinding,
  type PlacedFinding,
  type ReceiptRow,
  type Report,
  type ReportFinding
} from '../gate/report.js'
import { hintItem } from '../gate/deferred.js'
import { nextStep, reportTitle } from '../gate/outcome.js'
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import { htmlText, mdCode, mdFence, mdInline } from './markdown-escape.js'

/** GitHub's limits: check-run summary/text 65535 bytes; job summary 1 MiB. */
export const SUMMARY_LIMITS = { checkRun: 65535, jobSummary: 1024 * 1024 } as const

const ICON: Record<Conclusion, string> = {
  success: '✅',
  failure: '❌',
  neutral: '⚪',
  action_required: '🟠'
}

/** The deferred audit's line when it was skipped: its note says why, once. */
export function auditSkipped(notes: readonly string[]): string {
  return `skipped (${notes.join('; ')})`
}

/** "3 draws" for a fan-out receipt's row; nothing for a single review. */
export function drawsLabel(draws: number | null | undefined): string[] {
  return draws ? [plural(draws, 'draw')] : []
}

/** `path:start` or `path:start-end`. */
export function anchorText(anchor: NonNullable<ReportFinding['anchor']>): string {
  const { path, startLine: start, endLine: end } = anchor
  return end === start ? `${path}:${start}` : `${path}:${start}-${end}`
}

interface Block {
  text: string
  /** Lower drops first when the budget is tight: 3 essential, 2 findings, 1 detail, 0 prose. */
  priority: number
  /** Set on the line of a current finding: a cut one is counted in the note (nothing lost). */
  finding?: true
}

const blocks = (priority: number, ...texts: string[]): Block[] =>
  texts.map((text) => ({ text, priority }))

/** Renders the summary within `maxBytes`, cutting whole blocks and saying what was cut. */
export function renderSummary(
  report: Report,
  maxBytes: number = SUMMARY_LIMITS.checkRun
): string {
  const all = [
    ...headerBlocks(report),
    ...verdictBlocks(report),
    ...introducedBlocks(report),
    ...placementBlocks(report),
    ...coverageBlocks(report),
    ...suppressedDeferredBlocks(report),
    ...validationBlocks(report),
    ...anchorBlocks(report),
    ...otherFindingBlocks(report),
    ...proseBlocks(report)
  ]
  for (let floor = 0; floor <= 3; floor++) {
    const kept = all.filter((block) => block.priority >= floor)
    const dropped = all.filter((block) => block.priority < floor)
    const text = kept.map((block) => block.text).join('\n') + cutNote(dropped)
    if (Buffer.byteLength(text) <= maxBytes) return text
  }
  return hardCut(all, maxBytes)
}

/**
 * The note on what was cut. Current findings are counted apart from other blocks: every
 * current finding is an annotation, a summary line, or counted here (docs/contract.md#check-run-and-report).
 */
function cutNote(dropped: readonly Block[]): string {
  if (dropped.length === 0) return ''
  const findings = dropped.filter((block) => block.finding).length
  const other = dropped.length - findings
  const parts = [
    ...(findings > 0 ? [plural(findings, 'finding')] : []),
    ...(other > 0 ? [plural(other, 'detail block')] : [])
  ]
  return `\n\n> **Note:** ${parts.join(' and ')} not shown: the summary is limited in size. The JSON report (output \`report\`) has everything.\n`
}

/**
 * Even the essential blocks do not fit: keep each that fits, in order (a long one cut does
 * not take the short ones after it: the conclusion, the title and the counts stay), and
 * count the rest.
 */
function hardCut(all: readonly Block[], maxBytes: number): string {
  const essential = all.filter((block) => block.priority >= 3)
  const cut = all.filter((block) => block.priority < 3)
  let out = ''
  essential.forEach((block, i) => {
    const next = `${out}${block.text}\n`
    // Room for the note as if every block after this one were cut too.
    const note = cutNote([...cut, ...essential.slice(i + 1)])
    if (Buffer.byteLength(next) + Buffer.byteLength(note) <= maxBytes) out = next
    else cut.push(block)
  })
  return out + cutNote(cut)
}

function headerBlocks(report: Report): Block[] {
  const required = report.required.length
    ? report.required.map(mdCode).join(', ')
    : 'nothing'
  const conclusion = `## ${ICON[report.conclusion]} Review receipts: ${report.conclusion}\n\n**${mdInline(reportTitle(report))}**\n`
  const exempt = report.exempt
    ? `\nExempt: ${mdInline(`${report.exempt.by} ${report.exempt.name}`)} (input ${mdCode(report.exempt.input)}) — no review is required; the receipts it brings are still gated.\n`
    : ''
  const next = `**Next:** ${mdInline(nextStep(report))}\n${exempt}`
  const counts = `Head ${mdCode(shortSha(report.head))}${report.base ? ` · changed since ${mdCode(shortSha(report.base))}` : ''} · ${plural(report.receipts.length, 'receipt')} selected · required: ${required}`
  // Blocks of their own, so that a summary cut short keeps the conclusion and the counts.
  const notes = report.notes.map((note) => `\n> ${mdInline(note)}`)
  return blocks(3, conclusion, next, counts, ...notes)
}

function verdictBlocks(report: Report): Block[] {
  const rows = report.receipts.map((row) => [
    mdCode(row.path),
    cell(row.type),
    cell(row.mode),
    [cell(row.verdict), ...drawsLabel(row.draws).map((d) => `(${d})`)].join(' '),
    currentnessCell(row),
    `${ICON[row.conclusion]} ${row.conclusion}`
  ])
  const header = ['Receipt', 'Type', 'Backend', 'Verdict', 'Currentness', 'Conclusion']
  const verdicts = rows.length ? table(header, rows) : '_No receipt selected._'
  const missing = report.missing.map(
    (type) =>
      `\n❌ **No current ${mdInline(type)} for ${mdCode(shortSha(report.head))}** (missing, all stale, unreadable or ambiguous).`
  )
  return blocks(3, '\n### 1. Verdict\n', verdicts, ...missing)
}

/** A Markdown table: the header, its rule, the rows. */
function table(header: readonly string[], rows: readonly string[][]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`
  return [line(header), `|${'---|'.repeat(header.length)}`, ...rows.map(line)].join('\n')
}

function cell(value: string | null): string {
  return value === null ? '—' : mdInline(value)
}

/** How a row's currentness was reached, when the cell must say so. */
const LABELS = { inferred: ' (inferred from history)', unverified: ' (unverified)' }

function currentnessCell(row: ReceiptRow): string {
  const label = row.label === null ? '' : LABELS[row.label]
  // Reasons open with the state ("stale: …"); the cell already says it in bold.
  const reason = row.reason.replace(
    new RegExp(`^${row.currentness}( \\([^)]*\\))?: `),
    ''
  )
  return `**${row.currentness}**${label} — ${mdInline(reason)}`
}

/** The summary line of a finding (exported for the tests that prove nothing is lost). */
export function findingLine(finding: ReportFinding, receipt: string): string {
  const where = finding.anchor
    ? ` — ${mdCode(anchorText(finding.anchor))}${finding.anchor.side === 'base' ? ' (base side)' : ''}`
    : ''
  return `- **${finding.severity}** · confidence ${finding.confidence} · ${finding.status} — ${mdInline(finding.title)}${where} · ${mdCode(basename(receipt))}`
}

/** Current findings' lines (each counted when cut), with their details when asked. */
function findingBlocks(
  findings: readonly CurrentFinding[],
  withDetails = false
): Block[] {
  return findings.flatMap((finding) => [
    { text: findingLine(finding, finding.receipt), priority: 2, finding: true as const },
    ...blocks(1, ...(withDetails ? [detailsText(finding)] : []))
  ])
}

/** A finding's body and suggestion, fenced in a collapsed block. */
function detailsText(finding: ReportFinding): string {
  const detail = finding.suggestion
    ? `${finding.body}\n\nSuggestion:\n${finding.suggestion}`
    : finding.body
  // Every line two spaces in, in one pass (200 findings' details).
  const indented = `  ${mdFence(detail).replace(/\n/g, '\n  ')}`
  return `\n  <details><summary>details</summary>\n\n${indented}\n\n  </details>\n`
}

/** A heading and what is under it, or nothing when nothing is. */
function section<T>(heading: T, items: readonly T[]): T[] {
  return items.length ? [heading, ...items] : []
}

function introducedBlocks(report: Report): Block[] {
  const introduced = introducedOpen(report)
  const head = '\n### 2. Introduced findings\n'
  if (introduced.length === 0)
    return blocks(3, head, '_No introduced finding is open in a current receipt._')
  const notShown = `\n${plural(report.annotationsNotShown, 'annotation')} not shown (limit: max-annotations); the JSON report (output \`report\`) lists every finding.`
  return [
    ...blocks(3, head),
    ...findingBlocks(introduced, true),
    ...(report.annotationsNotShown > 0 ? blocks(3, notShown) : [])
  ]
}

/**
 * Findings whose annotation a reader of the PR's diff does not see: outside
 * the diff (only in the Checks tab) with a link to the head's line, and base-side ones
 * no change of the diff removed (not annotated at all).
 */
function placementBlocks({ diff }: Report): Block[] {
  if (diff === undefined) return []
  return blocks(
    2,
    ...section(
      '\n### Outside the diff — shown only in the Checks tab\n',
      diff.outside.map(placedLine)
    ),
    ...section(
      '\n### Base-side, not mapped — no change of the diff removed these lines; not annotated\n',
      diff.unmapped.map((entry) => `${placedLine(entry)} (base side)`)
    )
  )
}

function placedLine(entry: PlacedFinding): string {
  const at = `${entry.path}:${entry.line}`
  const where = entry.url ? `[${mdInline(at)}](${linkTarget(entry.url)})` : mdCode(at)
  return `- ${where} — **${mdInline(entry.severity)}** ${mdInline(entry.title)} · ${mdCode(basename(entry.receipt))}`
}

/** A link target that cannot close the link early or break its line. */
function linkTarget(url: string): string {
  return url.replace(
    /[()<>\s\\]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`
  )
}

/** Review coverage of the PR's code commits: what no SHIP review's range holds. */
function coverageBlocks({ coverage }: Report): Block[] {
  if (!coverage) return []
  const note = coverage.note ? `\n\n> ${mdInline(coverage.note)}` : ''
  const head = `\n### Review coverage\n\n${coverage.reviewed} of ${plural(coverage.commits, 'code commit')} inside a SHIP review's range (its recorded base..reviewed head).${note}`
  const lines = coverage.list
    .filter((c) => c.state !== 'reviewed')
    .map((c) =>
      c.state === 'unreviewed'
        ? `- ${mdCode(shortSha(c.sha))} — unreviewed: inside no SHIP review's range`
        : `- ${mdCode(shortSha(c.sha))} — unknown: under ${c.receipts.map((r) => mdCode(basename(r))).join(', ')}, whose base is unknown`
    )
  return blocks(2, [head, ...section('', lines)].join('\n'))
}

function suppressedDeferredBlocks(report: Report): Block[] {
  const lines: string[] = []
  for (const row of report.receipts) {
    const suppressed = row.details?.suppressed
    const total = suppressed ? Object.values(suppressed).reduce((a, b) => a + b, 0) : 0
    if (total > 0)
      lines.push(
        `- ${mdCode(row.path)}: ${plural(total, 'finding')} suppressed below the confidence bar`
      )
    if (row.details?.deferred)
      lines.push(
        `- ${mdCode(row.path)}: ${row.details.deferred} deferred in the walkthrough`
      )
  }
  const d = report.deferred
  if (d.skipped) lines.push(`- Deferred audit: ${mdInline(auditSkipped(d.notes))}`)
  else {
    lines.push(
      `- Deferred audit: ${d.hints.length === 0 ? '✅' : '❌'} the PR body names ${d.named} of ${plural(d.expected, 'deferred finding')}`
    )
    for (const hint of d.hints) {
      lines.push(`  - not named: ${mdInline(hintItem(hint))} — ${mdInline(hint.why)}`)
      if (hint.nearMiss !== null)
        lines.push(`    - near miss: ${mdInline(hint.nearMiss.trim())}`)
      lines.push(`    - paste: ${mdCode(hint.paste)}`)
    }
    for (const note of d.notes) lines.push(`  - ${mdInline(note)}`)
  }
  return blocks(3, '\n### 3. Suppressed and deferred\n', lines.join('\n'))
}

function validationBlocks(report: Report): Block[] {
  const lines = report.receipts.map((row) => {
    const parts = [
      `structured findings ${row.structured}${row.round !== null ? ` (round ${row.round})` : ''}`
    ]
    if (row.structured === 'invalid')
      parts.push(`ignored: ${mdInline(row.structuredReasons.join('; '))}`)
    const v = row.details?.validator
    if (v)
      parts.push(
        `validator dispatched ${v.dispatched ?? '?'}, dropped ${v.dropped ?? '?'}, kept ${v.kept ?? '?'}`
      )
    for (const change of row.details?.verdictChanges ?? []) parts.push(mdInline(change))
    return `- ${mdCode(row.path)}: ${parts.join('; ')}`
  })
  const problems = report.problems
    .filter((p) => p.code === 'truncated-tree')
    .map((p) => `- ⚠️ ${mdInline(p.message)}`)
  const text = [...lines, ...problems].join('\n') || '_Nothing to validate._'
  return blocks(3, '\n### 4. Validation state\n', text)
}

function anchorBlocks(report: Report): Block[] {
  const anchors = ['100', '75', '50', '25', '0']
  const rows = report.receipts.flatMap((row) => {
    const suppressed = row.details?.suppressed ?? {}
    const current = row.findings
    if (current.length === 0 && Object.keys(suppressed).length === 0) return []
    const cells = anchors.map(
      (a) =>
        `${current.filter((f) => String(f.confidence) === a).length} / ${suppressed[a] ?? 0}`
    )
    return [[mdCode(row.path), ...cells]]
  })
  const head = '\n### 5. Confidence anchors\n'
  if (rows.length === 0) return blocks(1, `${head}\n_No confidence data._`)
  const intro = `${head}\nFindings shown / suppressed, by confidence.\n`
  return blocks(1, intro, table(['Receipt', ...anchors], rows))
}

function otherFindingBlocks(report: Report): Block[] {
  const all = currentFindings(report)
  const heading = (text: string): Block => ({ text, priority: 2 })
  return [
    ...section(
      heading('\n### Pre-existing findings\n'),
      findingBlocks(all.filter((f) => f.classification === 'pre_existing' && isOpen(f)))
    ),
    ...section(
      heading('\n### Resolved (fixed or withdrawn)\n'),
      findingBlocks(all.filter((f) => f.status === 'fixed' || f.status === 'withdrawn'))
    ),
    // Stale evidence is detail: its lines are not current findings.
    ...blocks(
      1,
      ...section(
        '\n### Stale evidence (an older head; no annotations, no approval)\n',
        report.receipts.flatMap((row) =>
          row.staleFindings.map((f) => findingLine(f, row.path))
        )
      )
    )
  ]
}

function proseBlocks(report: Report): Block[] {
  return report.receipts.flatMap((row) =>
    row.details?.prose
      ? blocks(
          0,
          `\n<details><summary>Reviewer prose — ${htmlText(row.path)}</summary>\n\n${mdFence(row.details.prose)}\n\n</details>`
        )
      : []
  )
}
