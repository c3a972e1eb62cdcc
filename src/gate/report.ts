/**
 * The JSON report (docs/contract.md#check-run-and-report), a stable contract: keys may be added, never renamed or
 * removed. The helpers at the end are facts about a report that several outputs read.
 */
import type { Coverage } from './coverage.js'
import type { DeferredAudit } from './deferred.js'
import type { Exemption } from './exempt.js'
import type { Conclusion, Currentness } from './gate.js'

export type HeadSource = 'findings' | 'envelope' | 'history' | 'none'

/** A finding as the report shows it (the current tip's items, canonical order). */
export interface ReportFinding {
  id: string
  ordinal: number
  severity: string
  confidence: number
  classification: string
  status: string
  title: string
  body: string
  suggestion: string | null
  rIds: string[]
  /** Cleaned path (as flowctl cleans it) with 1-based lines; null when unanchored. */
  anchor: {
    path: string
    side: 'base' | 'head'
    startLine: number
    endLine: number
  } | null
  /** On a line the PR's diff shows (annotated inline only then); null when unknown. */
  inDiff?: boolean | null
  /** A base-side anchor: the head line its annotation is at, or null when no change removed its line. */
  mappedTo?: { path: string; line: number } | null
}

/** A finding the summary lists by where it sits. */
export interface PlacedFinding extends Pick<ReportFinding, 'id' | 'severity' | 'title'> {
  receipt: string
  /** The anchor's path and first line. */
  path: string
  line: number
  /** A link to the line at the head commit, when the repository is known. */
  url: string | null
}

/** Where the current findings sit in the PR's diff. */
export interface DiffPlacement {
  /** Whether the changed files were known (else every `inDiff` is null). */
  known: boolean
  note: string | null
  /** Annotated head-side findings outside the diff: shown only in the Checks tab. */
  outside: PlacedFinding[]
  /** Annotated base-side findings no change of the diff removed: not annotated. */
  unmapped: PlacedFinding[]
}

/** Envelope facts the summary shows (in the receipts contract's reading order). */
export interface ReceiptDetails {
  /** `suppressed_count`: confidence anchor → count. */
  suppressed: Record<string, number> | null
  /** `walkthrough.deferred`. */
  deferred: number | null
  validator: Record<'dispatched' | 'dropped' | 'kept', number | null> | null
  /** `verdict_before_validate` / `verdict_before_deep`, when a phase changed the verdict. */
  verdictChanges: string[]
  introducedCount: number | null
  preExistingCount: number | null
  /** The reviewer's prose (`review`), if any. */
  prose: string | null
  /** `unaddressed` R-IDs. */
  unaddressed: string[]
}

export interface ReceiptRow {
  path: string
  type: string | null
  id: string | null
  mode: string | null
  verdict: string | null
  currentness: Currentness
  headSource: HeadSource
  reviewedHead: string | null
  structured: 'valid' | 'absent' | 'invalid'
  /** Why the projection is invalid (empty otherwise). */
  structuredReasons: string[]
  round: number | null
  conclusion: Conclusion
  reason: string
  /** `inferred` (history rule), `unverified` (unbound-head: allow), or null. */
  label: 'inferred' | 'unverified' | null
  findings: ReportFinding[]
  /** Findings of a stale tip: evidence only, never annotations or approval. */
  staleFindings: ReportFinding[]
  details: ReceiptDetails | null
  /** Reviewer draws merged into this receipt (`draws[]` of a fan-out), or null. */
  draws?: number | null
}

export interface ReportAnnotation {
  path: string
  start_line: number
  end_line: number
  annotation_level: 'notice' | 'warning' | 'failure'
  title: string
  message: string
  raw_details?: string
}

export interface Problem {
  code: string
  path: string | null
  message: string
}

export interface Report {
  /** A title that replaces the computed one (merge groups, a PR not found). */
  title?: string
  conclusion: Conclusion
  head: string
  /** The merge base `select: changed` counted from (else null); absent without a selection. */
  base?: string | null
  /** How many receipts were selected: the rows of `receipts`. */
  selected?: number
  /** Worst verdict among current receipts, or ''. */
  verdict: string
  receipts: ReceiptRow[]
  missing: string[]
  required: string[]
  deferred: Omit<DeferredAudit, 'unreadableSink' | 'failed'>
  annotations: ReportAnnotation[]
  /** Annotations beyond `max-annotations`, counted in the summary. */
  annotationsNotShown: number
  problems: Problem[]
  notes: string[]
  /** Where the current findings sit in the PR's diff; absent in special reports. */
  diff?: DiffPlacement
  /** Review coverage of the PR's code commits: null when not computed, absent when off. */
  coverage?: Coverage | null
  /** What exempted the PR from requiring a review (`exempt-authors`, `exempt-labels`); absent when nothing did. */
  exempt?: Exemption
}

/** A current finding with the path of the receipt that holds it. */
export type CurrentFinding = ReportFinding & { receipt: string }

/** The findings of current receipts (a stale row's are in `staleFindings`). */
export function currentFindings(report: Report): CurrentFinding[] {
  return report.receipts.flatMap((row) =>
    row.findings.map((f) => ({ ...f, receipt: row.path }))
  )
}

/** Still open: `open` or `not_fixed` (not fixed, not withdrawn). */
export function isOpen(finding: ReportFinding): boolean {
  return finding.status === 'open' || finding.status === 'not_fixed'
}

/** Current findings that are introduced and still open. */
export function introducedOpen(report: Report): CurrentFinding[] {
  return currentFindings(report).filter(
    (f) => f.classification === 'introduced' && isOpen(f)
  )
}
