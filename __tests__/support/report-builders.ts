/** Report rows' parts for renderer and annotation tests: plain values, `over` on top. */
import type { ReportFinding } from '../../src/gate/report.js'

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
