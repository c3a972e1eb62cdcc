/**
 * The terminal report: one line per receipt, then its findings grouped by severity.
 * Colours only on a TTY; receipt text is made terminal-safe.
 */
import type { Conclusion } from '../gate/gate.js'
import type { Report, ReportFinding } from '../gate/report.js'
import { shortSha } from '../gate/review-head.js'
import { terminalLine } from './safe-text.js'
import { renderTitle } from './summary.js'

const MARK: Record<Conclusion, string> = {
  success: '✓',
  failure: '✗',
  neutral: '○',
  action_required: '!'
}
const COLOUR: Record<Conclusion, number> = {
  success: 32,
  failure: 31,
  neutral: 90,
  action_required: 33
}

/** Renders the report for a terminal. */
export function renderText(report: Report, color: boolean): string {
  const paint = (code: number, text: string): string =>
    color ? `\u001b[${code}m${text}\u001b[0m` : text
  const out: string[] = []
  out.push(
    `${paint(COLOUR[report.conclusion], `${MARK[report.conclusion]} ${report.conclusion}`)} — ${terminalLine(renderTitle(report))} (head ${shortSha(report.head)})`
  )
  for (const row of report.receipts) {
    const what = [row.type, row.mode, row.verdict]
      .map((v) => terminalLine(v ?? '—'))
      .join(' ')
    out.push(
      `  ${paint(COLOUR[row.conclusion], MARK[row.conclusion])} ${terminalLine(row.path)}  ${what}  ${terminalLine(row.reason)}`
    )
    for (const group of groupBySeverity(row.findings)) {
      out.push(`      ${group.severity}:`)
      for (const f of group.findings) out.push(`        ${findingLine(f)}`)
    }
  }
  for (const type of report.missing)
    out.push(
      `  ${paint(31, '✗')} missing: no current ${terminalLine(type)} for ${shortSha(report.head)}`
    )
  const d = report.deferred
  if (d.skipped)
    out.push(`  deferred audit: skipped (${d.notes.map(terminalLine).join('; ')})`)
  else {
    out.push(`  deferred audit: ${d.named} of ${d.expected} named in the PR body`)
    for (const hint of d.hints) {
      out.push(
        `    not named: ${terminalLine(hint.item ?? 'a deferred finding counted on the receipts')}`
      )
      if (hint.nearMiss !== null)
        out.push(`      near miss: ${terminalLine(hint.nearMiss.trim())}`)
      out.push(`      why: ${terminalLine(hint.why)}`)
      out.push(`      paste: ${terminalLine(hint.paste)}`)
    }
  }
  for (const note of report.notes.filter((n) => !d.notes.includes(n)))
    out.push(`  note: ${terminalLine(note)}`)
  if (report.annotationsNotShown > 0)
    out.push(
      `  ${report.annotationsNotShown} annotations over max-annotations (not shown)`
    )
  return `${out.join('\n')}\n`
}

function groupBySeverity(
  findings: readonly ReportFinding[]
): Array<{ severity: string; findings: ReportFinding[] }> {
  return ['P0', 'P1', 'P2', 'P3']
    .map((severity) => ({
      severity,
      findings: findings.filter((f) => f.severity === severity)
    }))
    .filter((group) => group.findings.length > 0)
}

function findingLine(f: ReportFinding): string {
  const where = f.anchor
    ? ` ${terminalLine(f.anchor.path)}:${f.anchor.startLine}${f.anchor.endLine !== f.anchor.startLine ? `-${f.anchor.endLine}` : ''}`
    : ''
  return `[${f.classification}, ${f.status}, confidence ${f.confidence}]${where} — ${terminalLine(f.title)}`
}
