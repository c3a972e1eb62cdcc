/**
 * The gate's pipeline over a {@link ReceiptSource}: list → plan → select → read →
 * validate → currentness → gate → audit → annotations → report. Pure functions decide;
 * this module sequences them and asks the source, batching what it can.
 */
import { limiter } from '../util/concurrency.js'
import { shortSha } from '../util/short-sha.js'
import { buildAnnotations } from './annotations.js'
import {
  coverageFailures,
  codeTest,
  coverageOf,
  toClassify,
  type CodeTest,
  type Coverage,
  type CoveringReview
} from './coverage.js'
import { auditDeferred, auditProblems, deferralSinkPath } from './deferred.js'
import { diffMap } from './diff-map.js'
import { exemptionOf, exemptOptions, type PullFacts } from './exempt.js'
import { overallConclusion, worstCurrentVerdict } from './gate.js'
import type { GateOptions } from './options.js'
import { SITUATIONS } from './outcome.js'
import { placeFindings } from './placement.js'
import { globMatcher, type BookkeepingMatcher } from './glob-matcher.js'
import { treeVerdict, type TreeVerdict } from './tree-diff.js'
import { applyCaps, blobsOf, planReceipts, selectPlans } from './plan.js'
import type { Problem, ReceiptRow, Report } from './report.js'
import {
  fullObjectId,
  inferFromHistory,
  judgeReviewedHead,
  notFullIdJudgement,
  type HeadJudgement,
  type InferredHead
} from './review-head.js'
import {
  classify,
  reviewBase,
  reviewedHeads,
  rowProblems,
  toRow,
  type Judged,
  type Pending
} from './row.js'
import type { ChangedFiles, Debug, PrCommit, ReceiptSource } from './source.js'

export interface EvaluateInput {
  source: ReceiptSource
  options: GateOptions
  /**
   * The PR body (an empty description is an empty body), or null when there is none to
   * audit (the CLI without --body-file).
   */
  body: string | null
  /**
   * The other open PRs whose head is this head, with their bodies: the check run shows on
   * each of them, so the deferred audit holds for each body.
   */
  sharing?: readonly { number: number; body: string }[]
  /** The PR's head branch (for the deferral file), or null. */
  branch: string | null
  /** The merge base `select: changed` counts changes from, for the report (null: none). */
  base?: string | null
  /** `<server>/<owner>/<repo>`, for links to the head's lines in the summary. */
  repositoryUrl?: string | null
  /** The PR's author and labels as the API gives them, for `exempt-*`; null: no PR (local). */
  pull?: PullFacts | null
  /** Told each unknown's cause (silent by default). */
  debug?: Debug
}

/** Runs the whole gate and returns the report. */
export async function evaluate(input: EvaluateInput): Promise<Report> {
  const { source } = input
  const debug = input.debug ?? (() => undefined)
  const exempt = exemptionOf(input.options, input.pull ?? null)
  const options = exempt ? exemptOptions(input.options) : input.options
  const base = input.base ?? null
  const problems: Problem[] = situations(source, base)
  const notes: string[] = []
  // Performance: the changed files are asked for while the folder is listed
  // (two independent round trips); a failure still surfaces where it is awaited.
  const changed = options.select.mode === 'changed' ? source.changedPaths() : null
  void changed?.catch(() => undefined)
  const diffFiles = orUnknown(
    source.changedFiles(),
    (note): ChangedFiles => ({ files: null, note }),
    'the changed files',
    debug
  )
  // The PR's commits, for coverage, are asked for now too (the git source: one `log`).
  const prCommits =
    options.coverage === 'off'
      ? null
      : orUnknown(
          source.prCommits(),
          (note) => ({ commits: null, note }),
          'the PR commits',
          debug
        )
  // Compiled while those answers are on their way (picomatch: 2–3 ms of a cold run).
  const isBookkeeping = globMatcher(options.bookkeepingPaths)
  const listing = await source.listTree(options.receiptsDir)
  if (listing.truncated) {
    const message =
      'the receipts folder could not be listed whole; receipts may be missing'
    problems.push({ code: 'truncated-tree', path: options.receiptsDir, message })
  }
  const plans = planReceipts(listing.entries)
  const selected = applyCaps(
    selectPlans(plans, options.select, await changed, base, notes)
  )
  if (listing.entries.length === 0 && !listing.truncated) {
    const message = `no receipts under ${options.receiptsDir} at ${shortSha(source.head)}`
    notes.push(message)
    problems.push({ code: SITUATIONS.emptyDir, path: options.receiptsDir, message })
  } else if (selected.length === 0 && plans.length > 0) {
    const message =
      options.select.mode === 'globs'
        ? 'select matched no receipt'
        : `no receipt changed since the merge base${base ? ` ${shortSha(base)}` : ''}`
    problems.push({ code: SITUATIONS.nothingSelected, path: null, message })
  }
  const { body, branch } = input
  const sinkPath = branch ? deferralSinkPath(branch) : null
  const sinkRead =
    options.auditDeferred && body !== null && sinkPath
      ? source.readFile(sinkPath)
      : Promise.resolve(null)
  const byTrees = treeVerdict(options.bookkeepingPaths, isBookkeeping)
  const isCode = codeTest(isBookkeeping, byTrees)
  const [blobs, sink] = await Promise.all([source.readBlobs(blobsOf(selected)), sinkRead])
  const heads = headJudge(source, isBookkeeping, byTrees)
  const pending: Pending[] = []
  for (const plan of selected) {
    const item = classify(plan, blobs)
    pending.push(item)
    // A receipt's reviewed commits are asked about (a compare each) before the next
    // receipt is read, so that reading the rest runs while they are in flight.
    if (heads.start(reviewedHeads(item))) await source.sent?.()
  }
  // Coverage's commit reads (those the trees cannot settle) join the compares' round.
  if (prCommits !== null) classifyEarly(source, prCommits, isCode)
  const judge = await judgeAll(source, pending, options, isBookkeeping, heads)
  const diff = await diffFiles
  const placed = placeFindings(
    pending.map((item) => toRow(item, judge, options)),
    diffMap(diff),
    diff.files === null ? diff.note : null,
    source.head,
    input.repositoryUrl ?? null
  )
  const rows = placed.rows
  for (const row of rows) problems.push(...rowProblems(row))
  const missing = options.require.filter(
    (type) => !rows.some((row) => row.type === type && row.currentness === 'current')
  )
  for (const type of missing) {
    const message = `no current ${type} for ${shortSha(source.head)}`
    problems.push({ code: 'missing-required', path: null, message })
  }
  const {
    failed: auditFailed,
    unreadableSink,
    ...deferred
  } = auditDeferred({
    enabled: options.auditDeferred,
    body,
    sharing: input.sharing ?? [],
    deferredCount: rows.reduce((sum, row) => sum + (row.details?.deferred ?? 0), 0),
    sink:
      sink instanceof Uint8Array && sinkPath
        ? { path: sinkPath, markdown: new TextDecoder().decode(sink) }
        : null,
    sinkUnreadable: typeof sink === 'string' ? sink : null,
    sinkNote: sinkPath
      ? `no deferral file ${sinkPath} at the head: bullets not checked, counts only`
      : 'no head branch known: deferral file not checked, counts only'
  })
  problems.push(...auditProblems(unreadableSink, deferred.hints, sinkPath))
  const coverage =
    prCommits === null
      ? undefined
      : await reviewCoverage(source, await prCommits, pending, rows, isCode, {
          notes,
          debug
        })
  // Called whatever else failed: it adds the coverage problems.
  const coverageFails = coverageFailures(options, coverage, problems)
  const failed = coverageFails || missing.length > 0 || auditFailed || listing.truncated
  const annotations = buildAnnotations(rows)
  const shown = annotations.slice(0, options.maxAnnotations)
  return {
    conclusion: overallConclusion(rows, failed),
    head: source.head,
    base,
    selected: rows.length,
    verdict: worstCurrentVerdict(rows),
    receipts: rows,
    missing,
    required: options.require,
    deferred,
    annotations: shown,
    annotationsNotShown: annotations.length - shown.length,
    problems,
    notes: [...notes, ...deferred.notes],
    diff: placed.diff,
    ...(coverage === undefined ? {} : { coverage }),
    ...(exempt ? { exempt } : {})
  }
}

/**
 * What the source says that fails nothing but explains an empty or stale result: a
 * shallow clone, a head that is the merge base itself (a run on the base branch).
 */
function situations(source: ReceiptSource, base: string | null): Problem[] {
  const out: Problem[] = []
  if (source.shallow)
    out.push({
      code: SITUATIONS.shallow,
      path: null,
      message: 'the repository is a shallow clone: answers from its history may be cut'
    })
  if (base !== null && base === source.head)
    out.push({
      code: SITUATIONS.headIsBase,
      path: null,
      message: `the head ${shortSha(source.head)} is the merge base itself: nothing changed since the base`
    })
  return out
}

/**
 * Review coverage of the PR's code commits by the selected receipts' reviews:
 * each review's range is its recorded base..R; null when the source cannot list the PR's
 * commits or their ranges (the note says why).
 */
async function reviewCoverage(
  source: ReceiptSource,
  listed: { commits: PrCommit[] } | { commits: null; note: string },
  pending: readonly Pending[],
  rows: readonly ReceiptRow[],
  isCode: CodeTest,
  { notes, debug }: { notes: string[]; debug: Debug }
): Promise<Coverage | null> {
  if (listed.commits === null) {
    notes.push(`coverage not computed: ${listed.note}`)
    return null
  }
  // One range question per distinct (base, reviewed) pair, however many receipts share it.
  const ranges = new Map<string, Promise<string[] | null>>()
  try {
    const reviews = await Promise.all(
      rows.flatMap((row, i) => {
        const item = pending[i]
        // Only a current or stale row has a reviewed head.
        const reviewed = row.reviewedHead
        if (!item || row.verdict !== 'SHIP' || reviewed === null) return []
        const base = reviewBase(item, reviewed)
        const key = `${base ?? ''}..${reviewed}`
        const range = ranges.get(key) ?? source.commitsBetween(base, reviewed)
        ranges.set(key, range)
        const review = range.then((commits): CoveringReview => ({
          receipt: row.path,
          commits: commits && new Set(commits),
          baseKnown: base !== null
        }))
        return [review]
      })
    )
    // The paths of the unlisted commits (the API: one request a commit) tell code from
    // bookkeeping; a commit still unlisted counts as code.
    const unlisted = toClassify(listed.commits, isCode)
    const paths =
      unlisted.length > 0 && source.commitPaths
        ? await source.commitPaths(unlisted)
        : null
    const classified = listed.commits.map((c) =>
      paths?.has(c.sha) ? { ...c, paths: paths.get(c.sha) ?? null } : c
    )
    return coverageOf(classified, reviews, isCode)
  } catch (error) {
    debug(`coverage unknown: ${causeOf(error)}`)
    notes.push(`coverage not computed: ${errorText(error)}`)
    return null
  }
}

/**
 * Coverage's commit reads, started beside the head rule's compares so that they add no
 * round trip (which commits to read depends on the PR's commits alone), and after them,
 * so that a diff one of them answers (the head's, when its parent is the reviewed commit)
 * is not read twice. Coverage asks again later: each commit is read once.
 */
function classifyEarly(
  source: ReceiptSource,
  prCommits: Promise<{ commits: PrCommit[] } | { commits: null; note: string }>,
  isCode: CodeTest
): void {
  const early = async (): Promise<void> => {
    const listed = await prCommits
    const unlisted = listed.commits === null ? [] : toClassify(listed.commits, isCode)
    if (unlisted.length > 0) await source.commitPaths?.(unlisted)
  }
  // Its failures surface where coverage asks again.
  early().catch(() => undefined)
}

/** A question of the source whose failure the gate goes on without: `unknown(why)`. */
async function orUnknown<T>(
  answer: Promise<T>,
  unknown: (note: string) => T,
  what: string,
  debug: Debug
): Promise<T> {
  try {
    return await answer
  } catch (error) {
    debug(`${what} unknown: ${causeOf(error)}`)
    return unknown(`${what} could not be read: ${errorText(error)}`)
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The error with its kind, for the debug trail: a `TypeError` is a bug, not an answer. */
function causeOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

interface HeadJudge {
  /** Starts judging the SHAs not asked about yet; whether there were any. */
  start(shas: readonly string[]): boolean
  /** Every judgement started, by SHA. */
  all(): Promise<Map<string, HeadJudgement>>
}

/** The head rule for each reviewed SHA, asked of the source once (at most 8 in flight). */
function headJudge(
  source: ReceiptSource,
  isBookkeeping: BookkeepingMatcher,
  byTrees: TreeVerdict
): HeadJudge {
  const run = limiter(8)
  const heads = new Map<string, Promise<HeadJudgement>>()
  const judge = async (sha: string): Promise<HeadJudgement> => {
    const id = fullObjectId(sha, source.head)
    return id === null
      ? notFullIdJudgement(sha)
      : judgeReviewedHead(id, await source.ancestry(id), isBookkeeping, byTrees)
  }
  return {
    start(shas) {
      // Once each: many receipts (all the unbound ones a commit recorded) share a SHA.
      const fresh = [...new Set(shas)].filter((sha) => !heads.has(sha))
      for (const sha of fresh) {
        const judged = run(async () => judge(sha))
        // Awaited by `all`; meanwhile a failure must not go unhandled.
        judged.catch(() => undefined)
        heads.set(sha, judged)
      }
      return fresh.length > 0
    },
    async all() {
      const shas = [...heads.keys()]
      const answers = await Promise.all(heads.values())
      return new Map(shas.map((sha, i) => [sha, answers[i] as HeadJudgement]))
    }
  }
}

/**
 * The head rule's judgements: those started as the receipts were read, and the history
 * rule's for unbound receipts.
 */
async function judgeAll(
  source: ReceiptSource,
  pending: Pending[],
  options: GateOptions,
  isBookkeeping: BookkeepingMatcher,
  heads: HeadJudge
): Promise<Judged> {
  const inferred = new Map<string, InferredHead>()
  const unbound = pending.flatMap((item) =>
    options.unboundHead === 'history' && item.kind === 'unbound' && item.plan.latest
      ? [{ path: item.plan.path, blob: item.plan.latest.sha }]
      : []
  )
  if (unbound.length > 0) {
    // One walk of the history for every unbound receipt, not one per receipt.
    const commits = await source.receiptCommits(unbound)
    // A commit's paths are judged once, however many receipts it recorded.
    const byCommit = new Map<string, InferredHead>()
    for (const { path } of unbound) {
      const commit = commits.get(path) ?? null
      const found =
        (commit && byCommit.get(commit.sha)) ?? inferFromHistory(commit, isBookkeeping)
      if (commit) byCommit.set(commit.sha, found)
      inferred.set(path, found)
    }
  }
  heads.start([...inferred.values()].flatMap((value) => (value.sha ? [value.sha] : [])))
  return { heads: await heads.all(), inferred }
}
