/** The action's outputs (docs/contract.md#gate), computed from a report; `main.ts` sets them. */
import { introducedOpen, type Report } from '../gate/report.js'

/** Every output, in action.yml's order, as a run that gates nothing sets it. */
const NOTHING_GATED = {
  conclusion: 'neutral',
  verdict: '',
  current: '',
  receipts: '0',
  'introduced-open': '0',
  'deferred-unnamed': '0',
  'check-run-id': '',
  'check-run-url': '',
  report: ''
}

export type Outputs = Record<keyof typeof NOTHING_GATED, string>

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
    ...NOTHING_GATED,
    conclusion,
    'check-run-id': checkRun.checkRunId,
    'check-run-url': checkRun.checkRunUrl
  }
}
