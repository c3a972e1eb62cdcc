/**
 * The review-head rule (docs/contract.md#currentness): a reviewed SHA `R` is current for the head `H` iff
 * `R == H`, or `R` is an ancestor of `H` and every path changed in `R..H` is a
 * bookkeeping path. A committed receipt can never name its own commit, so exact
 * equality alone would fail every real pull request; this follows flow-next's own
 * green-gate precedent (`.flow/**` except `.flow/bin/**` and `.flow/config.json`).
 */
import { clip } from '../receipts/text.js'
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import type { BookkeepingMatcher } from './glob-matcher.js'
import type { Ancestry, ReceiptCommit } from './source.js'
import type { TreeVerdict } from './tree-diff.js'

/** The verdict of the rule for one reviewed SHA, with a one-line reason. */
export interface HeadJudgement {
  current: boolean
  reason: string
}

/**
 * The reviewed SHA as a full object id of the head's kind (40 hex digits, 64 in SHA-256
 * repositories), lower-cased; null for anything else. An abbreviation or a name would be
 * resolved to whatever matches (a brute-forced prefix, a branch pushed under that
 * name), so it never counts (docs/contract.md#currentness).
 */
export function fullObjectId(reviewed: string, head: string): string | null {
  const id = reviewed.toLowerCase()
  return id.length === head.length && /^[0-9a-f]+$/.test(id) ? id : null
}

/**
 * Whether `id` is one as it stands (not upper-cased either): what an adapter requires of
 * an id before it goes into a URL or a git argument.
 */
export function isFullId(id: string | null, head: string): id is string {
  return id !== null && fullObjectId(id, head) === id
}

/** Why a reviewed SHA that is not a full object id is stale. */
export function notFullIdJudgement(reviewed: string): HeadJudgement {
  const shown = JSON.stringify(clip(reviewed, 48))
  const what = /^[0-9a-f]+$/i.test(reviewed)
    ? 'is abbreviated, not a full'
    : 'is not a full'
  return stale(
    `the reviewed SHA ${shown} ${what} commit id (never resolved as a name or prefix)`
  )
}

/** Applies the rule to what the source found out about `reviewed`. */
export function judgeReviewedHead(
  reviewed: string,
  ancestry: Ancestry,
  isBookkeeping: BookkeepingMatcher,
  byTrees?: TreeVerdict
): HeadJudgement {
  const at = shortSha(reviewed)
  const bookkeepingOnly = (n: number): HeadJudgement => ({
    current: true,
    reason: `current: ${plural(n, 'bookkeeping commit')} after the reviewed head ${at}`
  })
  switch (ancestry.kind) {
    case 'identical':
      return { current: true, reason: `current: reviewed the head ${at} itself` }
    case 'unknown-commit': {
      const note = ancestry.note ? ` (${ancestry.note})` : ''
      return stale(`the reviewed head ${at} is not a commit of this repository${note}`)
    }
    case 'not-a-commit':
      return stale(`the reviewed head ${at} names an object that is not a commit`)
    case 'not-ancestor':
      return stale(
        `the reviewed head ${at} is not an ancestor of the head (rebased or from another branch)`
      )
    case 'too-large': {
      // Too many files to list, but the two trees can still show only bookkeeping changed.
      const { trees } = ancestry
      if (trees && byTrees?.(trees.own, trees.parent) === false)
        return bookkeepingOnly(ancestry.commits)
      return stale(
        `cannot prove ${at} current (${ancestry.commits} commits later, ${ancestry.note ?? 'too many changed files to list'})`
      )
    }
    case 'ahead': {
      const code = ancestry.changedPaths.filter((path) => !isBookkeeping(path))
      if (code.length > 0)
        return stale(
          `${plural(code.length, 'non-bookkeeping path')} changed since the reviewed head ${at} (${someOf(code)})`
        )
      return bookkeepingOnly(ancestry.commits)
    }
  }
}

function stale(why: string): HeadJudgement {
  return { current: false, reason: `stale: ${why}` }
}

/** The first three paths, then `…` when there are more. */
function someOf(paths: readonly string[]): string {
  return `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}`
}

/** An unbound receipt's reviewed SHA under the history rule, or why there is none. */
export interface InferredHead {
  sha: string | null
  reason: string | null
}

/** The history rule: R = first parent of the newest commit that changed the receipt, if that commit is bookkeeping only. */
export function inferFromHistory(
  commit: ReceiptCommit | null,
  isBookkeeping: BookkeepingMatcher
): InferredHead {
  const none = (why: string): InferredHead => ({ sha: null, reason: `stale: ${why}` })
  if (commit === null) return none('no commit that added the receipt was found')
  if (commit.note !== undefined)
    return none(`cannot tell which commit the review saw (${commit.note})`)
  const at = shortSha(commit.sha)
  const code = (commit.changedPaths ?? []).filter((changed) => !isBookkeeping(changed))
  if (code.length > 0)
    return none(
      `the receipt was committed in ${at} together with code (${someOf(code)}); the review cannot have seen it`
    )
  if (commit.parent === null)
    return none(`the receipt's commit ${at} has no parent to have reviewed`)
  return { sha: commit.parent, reason: null }
}
