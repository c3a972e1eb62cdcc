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
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import { terminalLine } from '../util/safe-text.js'
import { anchorText, auditSkipped, drawsLabel, renderTitle } from './summary.js'

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
      cols - lead - (mark ? [...mark].length + 1 : 0),
      cols - indent
    )
    out.push(`${' '.repeat(lead)}${mark ? `${painted} ` : ''}${lines[0] ?? ''}`)
    for (const line of lines.slice(1)) out.push(`${' '.repeat(indent)}${line}`)
  }
  const { conclusion, head } = report
  entry(
    0,
    `— ${renderTitle(report)} (head ${shortSha(head)})`,
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
  if (coverage)
    entry(
      2,
      `coverage: ${coverage.reviewed} of ${coverage.commits} code commits reviewed${coverage.unreviewed.length ? `; unreviewed: ${coverage.unreviewed.map(shortSha).join(', ')}` : ''}${coverage.unknown.length ? `; unknown: ${coverage.unknown.map(shortSha).join(', ')}` : ''}`,
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

/** The first thing to do, by what made the conclusion. */
function nextStep(report: Report): string {
  const codes = new Set(report.problems.map((p) => p.code))
  const head = shortSha(report.head)
  if (codes.has('truncated-tree'))
    return 'the receipts folder could not be listed whole: run again or select fewer receipts'
  if (codes.has('unreadable-receipt') || codes.has('ambiguous-receipt'))
    return 'fix the unreadable or ambiguous receipts (receipt-gate validate FILE… says why)'
  if (codes.has('current-not-shipping'))
    return 'address the findings, then review the head again'
  if (codes.has('stale-unresolved'))
    return `review the head ${head} again for each stale receipt that asked for changes`
  if (report.missing.length > 0)
    return `review ${head} to add a current ${report.missing.join(', ')} receipt`
  if (codes.has('needs-human')) return 'a human must review: the reviewer asks for one'
  if (report.deferred.unnamed.length > 0)
    return 'name each deferred finding in the PR body'
  if (report.conclusion === 'success') return 'the gate passes: nothing blocks the merge'
  return 'nothing failed, but nothing current approves the head'
}

/**
 * Splits `text` into lines of at most `first` columns, then `next` columns, at spaces;
 * a word longer than a line is cut. Columns are code points (receipt text is escaped).
 */
function wrap(text: string, first: number, next: number): string[] {
  const lines: string[] = []
  let line = ''
  const limit = (): number => Math.max(1, lines.length === 0 ? first : next)
  for (const word of text.split(' ')) {
    let rest = word
    const room = limit() - [...line].length - (line ? 1 : 0)
    if ([...rest].length <= room) {
      line = line ? `${line} ${rest}` : rest
      continue
    }
    if (line) {
      lines.push(line)
      line = ''
    }
    while ([...rest].length > limit()) {
      const chars = [...rest]
      lines.push(chars.slice(0, limit()).join(''))
      rest = chars.slice(limit()).join('')
    }
    line = rest
  }
  lines.push(line)
  return lines
}

function findingLine(f: ReportFinding): string {
  const where = f.anchor ? ` ${anchorText(f.anchor)}` : ''
  return `[${f.classification}, ${f.status}, confidence ${f.confidence}]${where} — ${f.title}`
}
