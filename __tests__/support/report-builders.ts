/** Reports and their parts for renderer and annotation tests: plain values, `over` on top. */
import type { ReceiptRow, Report, ReportFinding } from '../../src/gate/report.js'

export const REPORT_HEAD = 'c0ffee0123456789abcdef0123456789abcdef01'

/** A current P1 finding anchored on `src/a.ts:1-2` (plain text; tests override it). */
export function reportFinding(over: Partial<ReportFinding> = {}): ReportFinding {
  return {
    id: 'finding-1',
    ordinal: 1,
    severity: 'P1',
    confidence: 75,
    classification: 'introduced',
    status: 'open',
    title: 'Title',
    body: 'Body',
    suggestion: null,
    rIds: [],
    anchor: { path: 'src/a.ts', side: 'head', startLine: 1, endLine: 2 },
    ...over
  }
}

/** A current NEEDS_WORK row of `impl-fn-1.1.json` with no finding and no details. */
export function reportRow(over: Partial<ReceiptRow> = {}): ReceiptRow {
  return {
    path: '.flow/review-receipts/impl-fn-1.1.json',
    type: 'impl_review',
    id: 'fn-1.1',
    mode: 'codex',
    verdict: 'NEEDS_WORK',
    currentness: 'current',
    headSource: 'findings',
    reviewedHead: REPORT_HEAD,
    structured: 'valid',
    structuredReasons: [],
    round: 1,
    conclusion: 'failure',
    reason: 'current',
    label: null,
    findings: [],
    staleFindings: [],
    details: null,
    ...over
  }
}

/** A failing NEEDS_WORK report of `receipts`: nothing missing, required or deferred. */
export function reportOf(receipts: ReceiptRow[], over: Partial<Report> = {}): Report {
  return {
    conclusion: 'failure',
    head: REPORT_HEAD,
    verdict: 'NEEDS_WORK',
    receipts,
    missing: [],
    required: [],
    deferred: {
      expected: 0,
      named: 0,
      unnamed: [],
      uncounted: 0,
      hints: [],
      skipped: true,
      notes: []
    },
    annotations: [],
    annotationsNotShown: 0,
    problems: [],
    notes: [],
    ...over
  }
}
