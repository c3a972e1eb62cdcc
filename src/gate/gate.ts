/**
 * The verdict gate (SPEC §4): one conclusion per receipt from its currentness and
 * verdict, then the check's conclusion — the worst of all rows, the required types and
 * the deferred audit — except that neutral rows (stale SHIPs) never lower a success.
 */
import type { NeedsHumanConclusion } from './options.js'

export type Conclusion = 'success' | 'failure' | 'neutral' | 'action_required'
export type Currentness = 'current' | 'stale' | 'ambiguous' | 'unreadable'

/** The conclusion of one receipt row, and why. */
export function rowConclusion(
  currentness: Currentness,
  verdict: string | null,
  needsHuman: NeedsHumanConclusion,
  mode: string | null
): { conclusion: Conclusion; why: string } {
  if (currentness === 'unreadable')
    return { conclusion: 'failure', why: 'unreadable receipt: an unknown state' }
  if (currentness === 'ambiguous')
    return { conclusion: 'failure', why: 'ambiguous lineage: an unknown state' }
  if (currentness === 'current') {
    if (verdict === 'SHIP') {
      return {
        conclusion: 'success',
        why:
          mode === 'triage_skip' ? 'trivial diff, review skipped' : 'current review ships'
      }
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

const RANK: Record<Conclusion, number> = {
  success: 0,
  neutral: 1,
  action_required: 2,
  failure: 3
}

/** Combines row conclusions with the required-type and audit outcomes. */
export function overallConclusion(parts: {
  rows: Conclusion[]
  missingRequired: number
  auditFailed: boolean
  /** The receipts folder could not be listed whole: a receipt may be missing. */
  incompleteListing?: boolean
}): Conclusion {
  // An incomplete listing is an unknown state (a failing receipt may be the one left
  // out), never a pass; it used to be only a note, and the rest could still succeed.
  if (parts.missingRequired > 0 || parts.auditFailed || parts.incompleteListing)
    return 'failure'
  const worst = parts.rows.reduce<Conclusion | null>(
    (acc, next) => (acc === null || RANK[next] > RANK[acc] ? next : acc),
    null
  )
  if (worst === null) return 'neutral'
  if (worst === 'neutral' && parts.rows.includes('success')) return 'success'
  return worst
}

// Flow-Next's own order for merging review draws: a question for a person outranks any
// finding, since no amount of rework answers it (SPEC §7).
const VERDICT_RANK: Record<string, number> = {
  SHIP: 0,
  NEEDS_WORK: 1,
  MAJOR_RETHINK: 2,
  NEEDS_HUMAN: 3
}

/** The worst verdict among current receipts (NEEDS_HUMAN > MAJOR_RETHINK > NEEDS_WORK > SHIP), or ''. */
export function worstCurrentVerdict(
  rows: ReadonlyArray<{ currentness: Currentness; verdict: string | null }>
): string {
  let worst = ''
  for (const row of rows) {
    if (row.currentness !== 'current' || row.verdict === null) continue
    if (worst === '' || (VERDICT_RANK[row.verdict] ?? -1) > (VERDICT_RANK[worst] ?? -1))
      worst = row.verdict
  }
  return worst
}
