/** The action's outputs (docs/contract.md#gate), computed from a report; `main.ts` sets them. */
import { introducedOpen, type Report } from '../gate/report.js'

export type Outputs = Record<
  | 'conclusion'
  | 'verdict'
  | 'current'
  | 'receipts'
  | 'introduced-open'
  | 'deferred-unnamed'
  | 'check-run-id'
  | 'check-run-url'
  | 'report',
  string
>

/** Outputs of a gated pull request. */
export function reportOutputs(
  report: Report,
  published: { checkRunId: string; checkRunUrl: string },
  reportPath: string
): Outputs {
  return {
    conclusion: report.conclusion,
    verdict: report.verdict,
    current: String(report.missing.length === 0),
    receipts: String(report.receipts.length),
    'introduced-open': String(introducedOpen(report).length),
    'deferred-unnamed': String(
      report.deferred.skipped ? 0 : report.deferred.expected - report.deferred.named
    ),
    'check-run-id': published.checkRunId,
    'check-run-url': published.checkRunUrl,
    report: reportPath
  }
}

/** Outputs when there is nothing to gate, or a merge group was waved through. */
export function emptyOutputs(
  conclusion: 'neutral' | 'success',
  checkRun = { checkRunId: '', checkRunUrl: '' }
): Outputs {
  return {
    conclusion,
    verdict: '',
    current: '',
    receipts: '0',
    'introduced-open': '0',
    'deferred-unnamed': '0',
    'check-run-id': checkRun.checkRunId,
    'check-run-url': checkRun.checkRunUrl,
    report: ''
  }
}
