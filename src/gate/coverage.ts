/**
 * Review coverage: a current SHIP receipt proves the last review saw the
 * head's code, not that every code commit was reviewed. A code commit is reviewed when a
 * SHIP review's `base..R` holds it; under a review with an unknown base it is unknown.
 */
import type { GateOptions } from './options.js'
import type { Problem } from './report.js'
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import type { BookkeepingMatcher } from './glob-matcher.js'
import type { PrCommit } from './source.js'
import type { TreeVerdict } from './tree-diff.js'

/** One selected receipt's SHIP review, with the PR commits its range holds. */
export interface CoveringReview {
  receipt: string
  /** Commits of `base..R` (known base), or of R's side of the PR (unknown base); null: not known. */
  commits: ReadonlySet<string> | null
  /** Whether the recorded base is known (a full SHA the source knows). */
  baseKnown: boolean
}

type CommitCoverage = 'reviewed' | 'unreviewed' | 'unknown'

export interface Coverage {
  /** Code commits of the PR (merge base..head; clean merges and bookkeeping-only commits left out). */
  commits: number
  reviewed: number
  unreviewed: string[]
  unknown: string[]
  /** Per code commit, oldest first: its state and the receipts whose range holds it. */
  list: Array<{ sha: string; state: CommitCoverage; receipts: string[] }>
  /** Why some of it could not be told, or null. */
  note: string | null
}

/** Whether a commit changed code: by its paths, else by its trees; null when neither tells. */
export type CodeTest = (commit: PrCommit) => boolean | null

/** The code test of the `bookkeeping-paths` matcher (and its tree verdict, where trees were read). */
export function codeTest(
  isBookkeeping: BookkeepingMatcher,
  byTrees?: TreeVerdict
): CodeTest {
  return (commit) => {
    if (commit.paths) return commit.paths.some((path) => !isBookkeeping(path))
    return commit.trees && byTrees ? byTrees(commit.trees.own, commit.trees.parent) : null
  }
}

/**
 * The PR's code commits: those that change a path bookkeeping does not cover, and those
 * nothing shows bookkeeping-only (paths not listed, trees that do not tell).
 */
export function codeCommits(commits: readonly PrCommit[], isCode: CodeTest): string[] {
  return commits.filter((commit) => isCode(commit) ?? true).map((commit) => commit.sha)
}

/**
 * The PR commits `tip` reaches, itself included, over the PR's parent graph (sha → parent
 * ids): a parent outside the PR is on the base side, and so is all it reaches.
 */
export function reachableInPr(
  parents: ReadonlyMap<string, readonly string[]>,
  tip: string
): Set<string> {
  const reached = new Set<string>()
  const stack = [tip]
  for (let sha = stack.pop(); sha !== undefined; sha = stack.pop()) {
    const up = parents.get(sha)
    if (up === undefined || reached.has(sha)) continue
    reached.add(sha)
    stack.push(...up)
  }
  return reached
}

/**
 * The commits whose paths coverage must read: every one neither its paths nor its trees
 * settle. One inside a SHIP review's range is read too: the three lists (code commits,
 * unreviewed, unknown) must be the same from every source, and git leaves a
 * bookkeeping-only commit out of them.
 */
export function toClassify(commits: readonly PrCommit[], isCode: CodeTest): string[] {
  return commits.filter((c) => isCode(c) === null).map((c) => c.sha)
}

/** Why the counts may hold bookkeeping commits (some were not told apart), or null. */
function unlistedNote(commits: readonly PrCommit[], isCode: CodeTest): string | null {
  const count = toClassify(commits, isCode).length
  if (count === 0) return null
  return `${plural(count, 'commit')} counted as code without ${count === 1 ? 'its' : 'their'} paths listed (too many files, or an answer without its list): the counts may include bookkeeping-only commits`
}

/** Each code commit's coverage by the SHIP reviews. */
export function coverageOf(
  commits: readonly PrCommit[],
  reviews: readonly CoveringReview[],
  isCode: CodeTest
): Coverage {
  const code = codeCommits(commits, isCode)
  const list = code.map((sha) => {
    const covering = reviews.filter((r) => r.baseKnown && r.commits?.has(sha) === true)
    // A review that might hold it, with a base or range the source cannot tell.
    const maybe = reviews.filter(
      (r) => (!r.baseKnown || r.commits === null) && r.commits?.has(sha) !== false
    )
    const state: CommitCoverage =
      covering.length > 0 ? 'reviewed' : maybe.length > 0 ? 'unknown' : 'unreviewed'
    const receipts = (covering.length > 0 ? covering : maybe).map((r) => r.receipt)
    return { sha, state, receipts }
  })
  const shas = (state: CommitCoverage): string[] =>
    list.filter((c) => c.state === state).map((c) => c.sha)
  return {
    commits: code.length,
    reviewed: shas('reviewed').length,
    unreviewed: shas('unreviewed'),
    unknown: shas('unknown'),
    list,
    note: unlistedNote(commits, isCode)
  }
}

/** A recorded base: a full object id, else unknown (a branch name or an abbreviation proves no range). */
export function recordedBase(value: unknown): string | null {
  return typeof value === 'string' && /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value)
    ? value
    : null
}

/** With `coverage: require`, what is not proven reviewed fails the run (an unknown too). */
export function coverageFailures(
  options: GateOptions,
  coverage: Coverage | null | undefined,
  problems: Problem[]
): boolean {
  if (options.coverage !== 'require' || coverage === undefined) return false
  const fail = (code: Problem['code'], message: string): number =>
    problems.push({ code, path: null, message })
  if (coverage === null) {
    fail(
      'coverage-unknown',
      'coverage: require, but the review coverage could not be computed'
    )
    return true
  }
  for (const sha of coverage.unreviewed)
    fail(
      'coverage-unreviewed',
      `code commit ${shortSha(sha)} is inside no SHIP review's range`
    )
  for (const sha of coverage.unknown)
    fail(
      'coverage-unknown',
      `code commit ${shortSha(sha)} may be inside a SHIP review whose base is unknown: not proven reviewed`
    )
  return coverage.unreviewed.length + coverage.unknown.length > 0
}
