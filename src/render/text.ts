/**
 * The terminal report: the headline, what was selected, one entry per receipt with its
 * findings by severity, then a summary line that says what to do. Wrapped lines stay
 * indented under their entry, so a long run's verdict does not scroll away in rows
 * wrapped at column 0. Colours only on a TTY; every entry's text is made terminal-safe
 * in one place, `entry`, so no receipt field can reach the screen unescaped.
 */
import { styleText } from 'node:util'
import type { Conclusion } from '../gate/gate.js'
import { hintItem } from '../gate/deferred.js'
import type { Report, ReportFinding } from '../gate/report.js'
import { nextStep, reportTitle } from '../gate/outcome.js'
import { displayWidth, graphemes, graphemeWidth } from '../util/cells.js'
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import { terminalLine } from '../util/safe-text.js'
import { anchorText, auditSkipped, drawsLabel } from './summary.js'

/** The width used when the output is not a terminal (a pipe, a file, a CI log). */
const DEFAULT_WIDTH = 100
/** Narrower terminals still get this many columns: words are not cut into crumbs. */
const MIN_WIDTH = 40

type Colour = Parameters<typeof styleText>[0]

/** Each conclusion's mark and its colour. */
const MARK: Record<Conclusion, [string, Colour]> = {
  success: ['✓', 'green'],
  failure: ['✗', 'red'],
  neutral: ['○', 'gray'],
  action_required: ['!', 'yellow']
}

/** Renders the report for a terminal `width` columns wide. */
export function renderText(
  report: Report,
  color: boolean,
  width: number = DEFAULT_WIDTH
): string {
  const cols = Math.max(MIN_WIDTH, Math.floor(width) || DEFAULT_WIDTH)
  const out: string[] = []
  /**
   * `lead` columns in, the `mark` (painted with `colour`) and a space, then `text`
   * wrapped, its later lines `indent` columns in.
   */
  const entry = (
    lead: number,
    text: string,
    indent: number,
    mark = '',
    colour: Colour = 'reset'
  ): void => {
    // The caller decided whether to paint (a TTY, no NO_COLOR): not the stream check.
    const painted = color ? styleText(colour, mark, { validateStream: false }) : mark
    const lines = wrap(
      terminalLine(text),
      cols - lead - (mark ? displayWidth(mark) + 1 : 0),
      cols - indent
    )
    out.push(`${' '.repeat(lead)}${mark ? `${painted} ` : ''}${lines[0] ?? ''}`)
    for (const line of lines.slice(1)) out.push(`${' '.repeat(indent)}${line}`)
  }
  const { conclusion, head } = report
  entry(
    0,
    `— ${reportTitle(report)} (${glue('head', shortSha(head))})`,
    2,
    `${MARK[conclusion][0]} ${conclusion}`,
    MARK[conclusion][1]
  )
  entry(2, selectionLine(report), 4)
  for (const row of report.receipts) {
    const what = [row.type, row.mode, row.verdict]
      .map((v) => v ?? '—')
      .concat(drawsLabel(row.draws))
      .join(' ')
    const text = `${row.path}  ${what}  ${row.reason}`
    entry(2, text, 6, ...MARK[row.conclusion])
    for (const severity of ['P0', 'P1', 'P2', 'P3']) {
      const findings = row.findings.filter((f) => f.severity === severity)
      if (findings.length > 0) out.push(`      ${severity}:`)
      for (const f of findings) entry(8, findingLine(f), 10)
    }
  }
  for (const type of report.missing)
    entry(2, `missing: no current ${type} for ${shortSha(head)}`, 6, ...MARK.failure)
  const d = report.deferred
  if (d.skipped) entry(2, `deferred audit: ${auditSkipped(d.notes)}`, 4)
  else {
    entry(2, `deferred audit: ${d.named} of ${d.expected} named in the PR body`, 4)
    for (const hint of d.hints) {
      entry(4, `not named: ${hintItem(hint)}`, 6)
      const nearMiss =
        hint.nearMiss === null ? [] : [`near miss: ${hint.nearMiss.trim()}`]
      for (const line of [...nearMiss, `why: ${hint.why}`, `paste: ${hint.paste}`])
        entry(6, line, 8)
    }
  }
  for (const note of report.notes.filter((n) => !d.notes.includes(n)))
    entry(2, `note: ${note}`, 4)
  const coverage = report.coverage
  if (coverage) {
    entry(
      2,
      `coverage: ${coverage.reviewed} of ${coverage.commits} code commits reviewed${coverage.unreviewed.length ? `; unreviewed: ${coverage.unreviewed.map(shortSha).join(', ')}` : ''}${coverage.unknown.length ? `; unknown: ${coverage.unknown.map(shortSha).join(', ')}` : ''}`,
      4
    )
    if (coverage.note) entry(4, `note: ${coverage.note}`, 6)
  }
  if (report.exempt)
    entry(
      2,
      `exempt: ${report.exempt.by} ${report.exempt.name} (${report.exempt.input}): no review is required; the receipts it brings are still gated`,
      4
    )
  if (report.annotationsNotShown > 0)
    entry(
      2,
      `${report.annotationsNotShown} annotations over max-annotations (not shown)`,
      4
    )
  out.push('')
  entry(0, summaryLine(report), 2, ...MARK[conclusion])
  return `${out.join('\n')}\n`
}

/** What was selected, from where: a run that selected nothing says so here. */
function selectionLine(report: Report): string {
  const selected = report.selected ?? report.receipts.length
  const from = report.base
    ? ` changed since ${shortSha(report.base)} (the merge base)`
    : ''
  return `selected: ${plural(selected, 'receipt')}${from}; required: ${report.required.length ? report.required.join(', ') : 'nothing'}`
}

const STATES = ['current', 'stale', 'ambiguous', 'unreadable'] as const

/** The last line: the conclusion, the counts, and what to do next. */
function summaryLine(report: Report): string {
  const counts = STATES.flatMap((state) => {
    const n = report.receipts.filter((r) => r.currentness === state).length
    return n > 0 ? [`${n} ${state}`] : []
  })
  const receipts = `${plural(report.receipts.length, 'receipt')}${counts.length ? ` (${counts.join(', ')})` : ''}`
  const missing = report.missing.length ? `, ${report.missing.length} missing` : ''
  return `${report.conclusion}: ${receipts}${missing} — ${nextStep(report)}`
}

/**
 * Splits `text` into lines of at most `first` columns, then `next` columns, at spaces
 * (a no-break space keeps a label with its value); a word longer than a line is cut
 * between graphemes. Columns are terminal cells: a wide character or an emoji takes two.
 */
function wrap(text: string, first: number, next: number): string[] {
  const lines: string[] = []
  let line = ''
  let used = 0
  // Two columns at least: a wide character always fits an empty line.
  const limit = (): number => Math.max(2, lines.length === 0 ? first : next)
  const breakLine = (): void => {
    lines.push(line)
    line = ''
    used = 0
  }
  for (const word of text.split(' ')) {
    const width = displayWidth(word)
    const gap = line ? 1 : 0
    if (used + gap + width <= limit()) {
      line = line ? `${line} ${word}` : word
      used += gap + width
      continue
    }
    if (line) breakLine()
    for (const grapheme of graphemes(word)) {
      const cells = graphemeWidth(grapheme)
      if (used > 0 && used + cells > limit()) breakLine()
      line += grapheme
      used += cells
    }
  }
  lines.push(line)
  return lines.map((l) => l.replaceAll(NBSP, ' '))
}

/** A label and its value as one word for {@link wrap}: never split across lines. */
const NBSP = '\u00a0'
const glue = (...parts: Array<string | number>): string => parts.join(NBSP)

function findingLine(f: ReportFinding): string {
  const where = f.anchor ? ` ${anchorText(f.anchor)}` : ''
  return `[${f.classification}, ${f.status}, ${glue('confidence', `${f.confidence}]`)}${where} — ${f.title}`
}
