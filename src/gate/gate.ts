/**
 * The verdict gate (docs/contract.md#gate): one conclusion per receipt from its currentness and
 * verdict, then the check's conclusion — the worst of all rows, the required types and
 * the deferred audit — except that neutral rows (stale SHIPs) never lower a success.
 */
import { VERDICTS } from '../receipts/limits.js'
import type { NeedsHumanConclusion } from './options.js'
import type { ReceiptRow } from './report.js'

export type Conclusion = 'success' | 'failure' | 'neutral' | 'action_required'
export type Currentness = 'current' | 'stale' | 'ambiguous' | 'unreadable'

/** The conclusion of one receipt row, and why. */
export function rowConclusion(
  { currentness, verdict, mode }: Pick<ReceiptRow, 'currentness' | 'verdict' | 'mode'>,
  needsHuman: NeedsHumanConclusion
): { conclusion: Conclusion; why: string } {
  if (currentness === 'unreadable' || currentness === 'ambiguous') {
    const what = currentness === 'unreadable' ? 'unreadable receipt' : 'ambiguous lineage'
    return { conclusion: 'failure', why: `${what}: an unknown state` }
  }
  if (currentness === 'current') {
    if (verdict === 'SHIP') {
      const why =
        mode === 'triage_skip' ? 'trivial diff, review skipped' : 'current review ships'
      return { conclusion: 'success', why }
    }
    if (verdict === 'NEEDS_HUMAN')
      return { conclusion: needsHuman, why: 'the reviewer asks for a human' }
    return { conclusion: 'failure', why: `current review says ${verdict ?? 'nothing'}` }
  }
  if (verdict === 'SHIP')
    return { conclusion: 'neutral', why: 'stale evidence: approved an older head' }
  return {
    conclusion: 'failure',
    why: `last verdict at an older head was ${verdict ?? 'unknown'}; never resolved`
  }
}

/** Conclusions from best to worst. */
const RANK: readonly Conclusion[] = ['success', 'neutral', 'action_required', 'failure']

/**
 * The worst row conclusion, or `failure` when something else `failed`: a required type,
 * the deferred audit, coverage: require, or the listing (a left-out receipt may fail).
 */
export function overallConclusion(
  rows: ReadonlyArray<{ conclusion: Conclusion }>,
  failed: boolean
): Conclusion {
  if (failed) return 'failure'
  if (rows.length === 0) return 'neutral'
  const worst = RANK[Math.max(...rows.map((row) => RANK.indexOf(row.conclusion)))]
  const shipped = rows.some((row) => row.conclusion === 'success')
  return worst === 'neutral' && shipped ? 'success' : (worst as Conclusion)
}

/**
 * The worst verdict among current receipts, or ''. VERDICTS is Flow-Next's own order for
 * merging draws: a question for a person outranks any finding (docs/contract.md#gate).
 */
export function worstCurrentVerdict(
  rows: ReadonlyArray<{ currentness: Currentness; verdict: string | null }>
): string {
  const ranks = rows.flatMap((row) =>
    row.currentness === 'current' && row.verdict !== null
      ? [(VERDICTS as readonly string[]).indexOf(row.verdict)]
      : []
  )
  return VERDICTS[Math.max(...ranks)] ?? ''
}
