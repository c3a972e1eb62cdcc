/**
 * The gate's pipeline over a {@link ReceiptSource}: list → plan → select → read →
 * validate → currentness → gate → audit → annotations → report. Every decision is made
 * by a pure function; this module only sequences them and asks the source for data,
 * batching what it can (one blob read for all receipts, one ancestry question per
 * distinct reviewed SHA).
 */
import { checkEnvelope } from '../receipts/envelope.js'
import { isJsonObject, own, type JsonObject } from '../receipts/json.js'
import {
  candidateHeads,
  loadGenerations,
  selectCurrent,
  type Generation,
  type HistoryFile,
  type Selection,
  type SelectionFilter
} from '../receipts/lineage.js'
import { inspectReceipt, type ReadableReceipt } from '../receipts/receipt.js'
import { TYPE_TO_KIND } from '../receipts/limits.js'
import type { FindingsContainer } from '../receipts/schema.js'
import type {
  ChangedFiles,
  PrCommit,
  ReceiptCommit,
  ReceiptSource,
  TreeEntry
} from '../source/types.js'
import { limiter } from '../util/concurrency.js'
import { buildAnnotations } from './annotations.js'
import {
  codeCommits,
  coverageOf,
  recordedBase,
  toClassify,
  unlistedNote,
  type Coverage,
  type CoveringReview
} from './coverage.js'
import { diffMap } from './diff-map.js'
import { placeFindings } from './placement.js'
import { auditDeferred, deferralSinkPath } from './deferred.js'
import { drawCount } from '../receipts/draws.js'
import { receiptDetails, reportFindings } from './details.js'
import {
  overallConclusion,
  rowConclusion,
  worstCurrentVerdict,
  type Currentness
} from './gate.js'
import type { GateOptions } from './options.js'
import { applyCaps, planReceipts, type ReceiptPlan } from './plan.js'
import type { HeadSource, Problem, ReceiptRow, Report } from './report.js'
import {
  bookkeepingMatcher,
  fullObjectId,
  globMatcher,
  judgeReviewedHead,
  notFullIdJudgement,
  shortSha,
  type BookkeepingMatcher,
  type HeadJudgement
} from './review-head.js'
import { VERDICTS } from '../receipts/limits.js'

export interface EvaluateInput {
  source: ReceiptSource
  options: GateOptions
  /**
   * The PR body, or null when there is none to audit. A promise (the action) lets the
   * receipts be listed while the PR is still being read; it is awaited after listing.
   */
  body: string | null | Promise<string | null>
  /** The PR's head branch (for the deferral file), or null; a promise likewise. */
  branch: string | null | Promise<string | null>
  /** The merge base `select: changed` counts changes from, for the report (null: none). */
  base?: string | null
  /** `<server>/<owner>/<repo>`, for links to the head's lines in the summary (issue 25). */
  repositoryUrl?: string | null
}

/** Where a receipt's reviewed SHA comes from, before the head rule is applied. */
type Pending =
  | { kind: 'unreadable'; plan: ReceiptPlan; reason: string }
  | {
      kind: 'findings'
      plan: ReceiptPlan
      receipt: ReadableReceipt | null
      generations: Generation[]
    }
  | {
      kind: 'lineage-failed'
      plan: ReceiptPlan
      receipt: ReadableReceipt | null
      reason: string
    }
  | { kind: 'envelope'; plan: ReceiptPlan; receipt: ReadableReceipt; sha: string }
  | { kind: 'unbound'; plan: ReceiptPlan; receipt: ReadableReceipt }

/** Runs the whole gate and returns the report. */
export async function evaluate(input: EvaluateInput): Promise<Report> {
  const { source, options } = input
  const problems: Problem[] = []
  const notes: string[] = []
  // Performance (issue 7): the changed files are asked for while the folder is listed
  // (two independent round trips); a failure still surfaces where it is awaited.
  const changed = options.select.mode === 'changed' ? source.changedPaths() : null
  void changed?.catch(() => undefined)
  const diffFiles = changedFilesOf(source)
  // The PR's commits, for coverage, are asked for now too (the git source: one `log`).
  const prCommits = options.coverage === 'off' ? null : prCommitsOf(source)
  // Compiled while those answers are on their way (picomatch: 2–3 ms of a cold run),
  // not after them.
  const isBookkeeping = bookkeepingMatcher(options.bookkeepingPaths)
  const listing = await source.listTree(options.receiptsDir)
  if (listing.truncated) {
    problems.push({
      code: 'truncated-tree',
      path: options.receiptsDir,
      message: 'the receipts folder could not be listed whole; receipts may be missing'
    })
  }
  const selected = applyCaps(
    await selectPlans(planReceipts(listing.entries), input, notes, changed)
  )
  if (listing.entries.length === 0 && !listing.truncated)
    notes.push(`no receipts under ${options.receiptsDir} at ${shortSha(source.head)}`)
  const [body, branch] = await Promise.all([input.body, input.branch])
  const sinkPath = branch ? deferralSinkPath(branch) : null
  const sinkRead =
    options.auditDeferred && body !== null && sinkPath
      ? source.readFile(sinkPath)
      : Promise.resolve(null)
  const heads = headJudge(source, isBookkeeping)
  const [blobs, sink] = await Promise.all([source.readBlobs(blobsOf(selected)), sinkRead])
  const pending = selected.map((plan) => classify(plan, blobs))
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
    problems.push({
      code: 'missing-required',
      path: null,
      message: `no current ${type} for ${shortSha(source.head)}`
    })
  }
  const audit = auditDeferred({
    enabled: options.auditDeferred,
    body,
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
  if (audit.unreadableSink !== null)
    problems.push({
      code: 'deferral-unreadable',
      path: sinkPath,
      message: `the deferral file cannot be read, its bullets are unknown: ${audit.unreadableSink}`
    })
  for (const hint of audit.hints)
    problems.push({
      code: 'deferred-unnamed',
      path: sinkPath,
      message: `${hint.item ?? 'a deferred finding counted on the receipts'} is not named in the PR body: ${hint.why}`
    })
  const coverage =
    options.coverage === 'off'
      ? undefined
      : await reviewCoverage(source, prCommits, pending, rows, isBookkeeping, notes)
  const coverageFails = coverageFailures(options, coverage, problems)
  const annotations = buildAnnotations(rows)
  const shown = annotations.slice(0, options.maxAnnotations)
  return {
    conclusion: coverageFails
      ? 'failure'
      : overallConclusion({
          rows: rows.map((row) => row.conclusion),
          missingRequired: missing.length,
          auditFailed: audit.failed,
          incompleteListing: listing.truncated
        }),
    head: source.head,
    base: input.base ?? null,
    selected: rows.length,
    verdict: worstCurrentVerdict(rows),
    receipts: rows,
    missing,
    required: options.require,
    deferred: {
      expected: audit.expected,
      named: audit.named,
      unnamed: audit.unnamed,
      uncounted: audit.uncounted,
      hints: audit.hints,
      skipped: audit.skipped,
      notes: audit.notes
    },
    annotations: shown,
    annotationsNotShown: annotations.length - shown.length,
    problems,
    notes: [...notes, ...audit.notes],
    diff: placed.diff,
    ...(coverage === undefined ? {} : { coverage })
  }
}

/**
 * Review coverage of the PR's code commits by the selected receipts' reviews (issue 25):
 * each review's range is its recorded base..R; null when the source cannot list the PR's
 * commits (the note says why).
 */
async function reviewCoverage(
  source: ReceiptSource,
  prCommits: ReturnType<typeof prCommitsOf> | null,
  pending: readonly Pending[],
  rows: readonly ReceiptRow[],
  isBookkeeping: BookkeepingMatcher,
  notes: string[]
): Promise<Coverage | null> {
  const listed = await (prCommits ?? prCommitsOf(source))
  if (listed.commits === null || !source.commitsBetween) {
    notes.push(
      `coverage not computed: ${listed.commits === null ? listed.note : 'no commit ranges'}`
    )
    return null
  }
  try {
    return await coverageOfRows(source, listed.commits, pending, rows, isBookkeeping)
  } catch (error) {
    notes.push(`coverage not computed: ${errorText(error)}`)
    return null
  }
}

/** The PR's commits, or why they are unknown (a source without them, a failed read). */
async function prCommitsOf(
  source: ReceiptSource
): Promise<{ commits: PrCommit[] } | { commits: null; note: string }> {
  if (!source.prCommits)
    return { commits: null, note: 'this source does not list the PR commits' }
  try {
    return await source.prCommits()
  } catch (error) {
    return {
      commits: null,
      note: `the PR commits could not be read: ${errorText(error)}`
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

async function coverageOfRows(
  source: ReceiptSource,
  commits: readonly PrCommit[],
  pending: readonly Pending[],
  rows: readonly ReceiptRow[],
  isBookkeeping: BookkeepingMatcher
): Promise<Coverage> {
  if (!source.commitsBetween) throw new Error('no commit ranges')
  // One range question per distinct (base, reviewed) pair, however many receipts share it.
  const ask = source.commitsBetween.bind(source)
  const ranges = new Map<string, Promise<string[] | null>>()
  const between = async (from: string | null, to: string): Promise<string[] | null> => {
    const key = `${from ?? ''}..${to}`
    let found = ranges.get(key)
    if (found === undefined) {
      found = ask(from, to)
      ranges.set(key, found)
    }
    return found
  }
  const reviews = await Promise.all(
    rows.flatMap((row, i) => {
      const item = pending[i]
      if (item === undefined || row.verdict !== 'SHIP' || row.reviewedHead === null)
        return []
      if (row.currentness === 'unreadable' || row.currentness === 'ambiguous') return []
      const base = reviewBase(item, row.reviewedHead)
      const reviewed = row.reviewedHead
      return [
        (async (): Promise<CoveringReview> => {
          const commits = await between(base, reviewed)
          return {
            receipt: row.path,
            verdict: row.verdict,
            commits: commits === null ? null : new Set(commits),
            baseKnown: base !== null
          }
        })()
      ]
    })
  )
  const listed = await listPaths(source, commits, reviews)
  return coverageOf(codeCommits(listed, isBookkeeping), reviews, unlistedNote(listed))
}

/**
 * Lists the paths of the commits no SHIP review holds (the API: one request a commit),
 * to tell code from bookkeeping; a commit left unlisted counts as code.
 */
async function listPaths(
  source: ReceiptSource,
  commits: readonly PrCommit[],
  reviews: readonly CoveringReview[]
): Promise<readonly PrCommit[]> {
  const shas = toClassify(commits, reviews)
  if (shas.length === 0 || !source.commitPaths) return commits
  const listed = await source.commitPaths(shas)
  return commits.map((c) =>
    listed.has(c.sha) ? { ...c, paths: listed.get(c.sha) ?? null } : c
  )
}

/** A review's recorded base: the envelope's `base` when a SHA, else its generation's `baseSha`. */
function reviewBase(item: Pending, reviewed: string): string | null {
  const receipt = 'receipt' in item ? item.receipt : null
  const envelope = receipt ? recordedBase(own(receipt.data, 'base')) : null
  if (envelope !== null || item.kind !== 'findings') return envelope
  const tip = containersOf(item.generations).find((c) => c.headSha === reviewed)
  return recordedBase(tip?.baseSha)
}

/** With `coverage: require`, what is not proven reviewed fails the run (an unknown too). */
function coverageFailures(
  options: GateOptions,
  coverage: Coverage | null | undefined,
  problems: Problem[]
): boolean {
  if (options.coverage !== 'require' || coverage === undefined) return false
  if (coverage === null) {
    problems.push({
      code: 'coverage-unknown',
      path: null,
      message: 'coverage: require, but the review coverage could not be computed'
    })
    return true
  }
  for (const sha of coverage.unreviewed)
    problems.push({
      code: 'coverage-unreviewed',
      path: null,
      message: `code commit ${shortSha(sha)} is inside no SHIP review's range`
    })
  for (const sha of coverage.unknown)
    problems.push({
      code: 'coverage-unknown',
      path: null,
      message: `code commit ${shortSha(sha)} may be inside a SHIP review whose base is unknown: not proven reviewed`
    })
  return coverage.unreviewed.length + coverage.unknown.length > 0
}

/** The PR's changed files with patches; a source that cannot tell (or fails to) leaves them unknown. */
async function changedFilesOf(source: ReceiptSource): Promise<ChangedFiles> {
  if (!source.changedFiles) return { files: null, note: 'the source lists no patches' }
  try {
    return await source.changedFiles()
  } catch (error) {
    return {
      files: null,
      note: `the changed files could not be read: ${error instanceof Error ? error.message : String(error)}`
    }
  }
}

/**
 * `select`: receipts changed in the PR (default), all, or globs, in natural order
 * (`r-9`, `r-10`). What selected nothing is said in `notes`: a silent empty selection
 * reads only as a missing receipt.
 */
async function selectPlans(
  plans: ReceiptPlan[],
  input: EvaluateInput,
  notes: string[],
  changedPaths: ReturnType<ReceiptSource['changedPaths']> | null
): Promise<ReceiptPlan[]> {
  const select = input.options.select
  const chosen = await choosePlans(plans, input, notes, changedPaths)
  if (select.mode === 'globs') {
    for (const glob of select.globs) {
      // An exclusion selects nothing by itself (`!(…)` is an extglob, not one).
      if (glob.startsWith('!') && !glob.startsWith('!(')) continue
      const match = globMatcher([glob])
      if (!plans.some((plan) => match(plan.path)))
        notes.push(`select: ${JSON.stringify(glob)} matched no receipt`)
    }
  }
  if (select.mode === 'changed' && chosen.length === 0 && plans.length > 0)
    notes.push(
      `none of the ${plans.length} receipt${plans.length === 1 ? '' : 's'} changed since the base${input.base ? ` ${shortSha(input.base)}` : ''} (select: all checks every one)`
    )
  return chosen.sort((a, b) => naturalOrder(a.path, b.path))
}

async function choosePlans(
  plans: ReceiptPlan[],
  input: EvaluateInput,
  notes: string[],
  changedPaths: ReturnType<ReceiptSource['changedPaths']> | null
): Promise<ReceiptPlan[]> {
  const select = input.options.select
  if (select.mode === 'all') return [...plans]
  if (select.mode === 'globs') {
    const match = globMatcher(select.globs)
    return plans.filter((plan) => match(plan.path))
  }
  const changed = await (changedPaths ?? input.source.changedPaths())
  if (changed.paths === null) {
    notes.push(`${changed.note}: all receipts selected`)
    return [...plans]
  }
  const paths = new Set(changed.paths)
  const history = changed.paths.filter((path) => path.includes('.history/'))
  return plans.filter(
    (plan) =>
      paths.has(plan.path) ||
      history.some((path) => path.startsWith(`${plan.path}.history/`))
  )
}

/** Every blob the plans need, each once. */
function blobsOf(plans: readonly ReceiptPlan[]): string[] {
  const shas = plans.flatMap((plan) =>
    plan.unreadable
      ? []
      : [plan.latest, ...plan.history].flatMap((e) => (e ? [e.sha] : []))
  )
  return [...new Set(shas)]
}

/** Paths with their digit runs compared as numbers (`…9, 10, 11`), else by code units. */
export function naturalOrder(a: string, b: string): number {
  const left = a.split(/(\d+)/)
  const right = b.split(/(\d+)/)
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i] as string
    const y = right[i] as string
    if (x === y) continue
    // Odd parts are digit runs: shorter (without leading zeros) is smaller.
    if (i % 2 === 1) {
      const [nx, ny] = [x.replace(/^0+/, ''), y.replace(/^0+/, '')]
      if (nx.length !== ny.length) return nx.length - ny.length
      if (nx !== ny) return nx < ny ? -1 : 1
    }
    return x < y ? -1 : 1
  }
  return left.length - right.length
}

/** Reads one receipt and decides where its reviewed SHA will come from. */
function classify(plan: ReceiptPlan, blobs: Map<string, Uint8Array | string>): Pending {
  if (plan.unreadable) return { kind: 'unreadable', plan, reason: plan.unreadable }
  const history: HistoryFile[] = plan.history.map((entry) => ({
    name: baseName(entry.path),
    bytes: blobOf(entry, blobs)
  }))
  if (plan.latest === null) {
    const loaded = loadGenerations(null, history)
    if (!loaded.ok)
      return { kind: 'lineage-failed', plan, receipt: null, reason: loaded.reason }
    return {
      kind: 'findings',
      plan,
      receipt: null,
      generations: loaded.generations
    }
  }
  const bytes = blobOf(plan.latest, blobs)
  if (!(bytes instanceof Uint8Array))
    return { kind: 'unreadable', plan, reason: bytes.unreadable }
  const receipt = inspectReceipt(plan.path, bytes)
  if (!receipt.readable) return { kind: 'unreadable', plan, reason: receipt.reason }
  const container = receipt.projection.findings
  if (receipt.projection.state === 'valid' && container) {
    const loaded = loadGenerations(
      { receipt: receipt.data, findings: container, name: baseName(plan.path) },
      history
    )
    if (!loaded.ok)
      return { kind: 'lineage-failed', plan, receipt, reason: loaded.reason }
    return {
      kind: 'findings',
      plan,
      receipt,
      generations: loaded.generations
    }
  }
  const head = envelopeHead(receipt.data)
  if (head !== null) return { kind: 'envelope', plan, receipt, sha: head }
  return { kind: 'unbound', plan, receipt }
}

/** The receipt's own kind and backend, which selection keeps to (none for an orphan). */
function selectionFilter(receipt: ReadableReceipt | null): SelectionFilter {
  return receipt
    ? {
        kind: TYPE_TO_KIND[receipt.envelope.type],
        backend: receipt.envelope.mode ?? undefined
      }
    : {}
}

/** `head` (rp) or `head_sha` (QA); empty means none. */
function envelopeHead(data: JsonObject): string | null {
  for (const key of ['head', 'head_sha']) {
    const value = own(data, key)
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
  }
  return null
}

function blobOf(
  entry: TreeEntry,
  blobs: Map<string, Uint8Array | string>
): Uint8Array | { unreadable: string } {
  const found = blobs.get(entry.sha)
  if (found instanceof Uint8Array) return found
  return { unreadable: `cannot read ${entry.path}: ${found ?? 'blob missing'}` }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

/** Judgements and history-rule commits, resolved concurrently, one per distinct SHA. */
interface Judged {
  heads: Map<string, HeadJudgement>
  /** For unbound receipts under `history`: the reviewed SHA and how it was found, by path. */
  inferred: Map<string, { sha: string | null; reason: string | null }>
}

/**
 * One question per distinct reviewed SHA, whoever asks and when (SPEC §9: one compare
 * per SHA), at most 8 in flight.
 */
function headJudge(
  source: ReceiptSource,
  isBookkeeping: BookkeepingMatcher
): (sha: string) => Promise<HeadJudgement> {
  const limit = limiter(8)
  const asked = new Map<string, Promise<HeadJudgement>>()
  return async (sha) => {
    let answer = asked.get(sha)
    if (answer === undefined) {
      const id = fullObjectId(sha, source.head)
      answer =
        id === null
          ? Promise.resolve(notFullIdJudgement(sha))
          : limit(async () =>
              judgeReviewedHead(id, await source.ancestry(id), isBookkeeping)
            )
      asked.set(sha, answer)
    }
    return answer
  }
}

/** The reviewed SHAs a receipt's currentness depends on (unbound ones: see judgeAll). */
function reviewedHeads(item: Pending): string[] {
  if (item.kind === 'findings')
    return candidateHeads(containersOf(item.generations), selectionFilter(item.receipt))
  if (item.kind === 'envelope') return [item.sha]
  return []
}

async function judgeAll(
  source: ReceiptSource,
  pending: Pending[],
  options: GateOptions,
  isBookkeeping: BookkeepingMatcher,
  heads: (sha: string) => Promise<HeadJudgement>
): Promise<Judged> {
  const inferred = new Map<string, { sha: string | null; reason: string | null }>()
  if (options.unboundHead === 'history') {
    const unbound = pending.flatMap((item) =>
      item.kind === 'unbound' && item.plan.latest
        ? [{ path: item.plan.path, blob: item.plan.latest.sha }]
        : []
    )
    // One walk of the history for every unbound receipt (SPEC §9), not one per receipt.
    const commits =
      unbound.length > 0
        ? await source.receiptCommits(unbound)
        : new Map<string, ReceiptCommit | null>()
    // A commit's paths are judged once, however many receipts it recorded.
    const byCommit = new Map<string, { sha: string | null; reason: string | null }>()
    for (const { path } of unbound) {
      const commit = commits.get(path) ?? null
      let found = commit ? byCommit.get(commit.sha) : undefined
      if (found === undefined) {
        found = inferFromHistory(commit, isBookkeeping)
        if (commit) byCommit.set(commit.sha, found)
      }
      inferred.set(path, found)
    }
  }
  const shas = new Set<string>(pending.flatMap(reviewedHeads))
  for (const value of inferred.values()) if (value.sha) shas.add(value.sha)
  const list = [...shas]
  const answers = await Promise.all(list.map(heads))
  return {
    heads: new Map(list.map((sha, index) => [sha, answers[index] as HeadJudgement])),
    inferred
  }
}

/** The history rule: R = first parent of the newest commit that changed the receipt, if that commit is bookkeeping only. */
function inferFromHistory(
  commit: ReceiptCommit | null,
  isBookkeeping: BookkeepingMatcher
): { sha: string | null; reason: string | null } {
  if (commit === null)
    return { sha: null, reason: 'stale: no commit that added the receipt was found' }
  if (commit.note !== undefined)
    return {
      sha: null,
      reason: `stale: cannot tell which commit the review saw (${commit.note})`
    }
  const code = (commit.changedPaths ?? []).filter((changed) => !isBookkeeping(changed))
  if (code.length > 0) {
    return {
      sha: null,
      reason: `stale: the receipt was committed in ${shortSha(commit.sha)} together with code (${code.slice(0, 3).join(', ')}${code.length > 3 ? ', …' : ''}); the review cannot have seen it`
    }
  }
  if (commit.parent === null)
    return {
      sha: null,
      reason: `stale: the receipt's commit ${shortSha(commit.sha)} has no parent to have reviewed`
    }
  return { sha: commit.parent, reason: null }
}

function containersOf(generations: readonly Generation[]): FindingsContainer[] {
  return generations.flatMap((generation) =>
    generation.findings ? [generation.findings] : []
  )
}

/** Builds the report row of one receipt. */
function toRow(item: Pending, judged: Judged, options: GateOptions): ReceiptRow {
  const base = baseRow(item)
  const decided = decide(item, judged, options)
  const row = { ...base, ...decided.fields }
  const { conclusion, why } = rowConclusion(
    row.currentness,
    row.verdict,
    options.needsHumanConclusion,
    row.mode
  )
  return {
    ...row,
    conclusion,
    reason: decided.reason ? `${decided.reason} — ${why}` : why
  }
}

function baseRow(item: Pending): ReceiptRow {
  const receipt = 'receipt' in item ? item.receipt : null
  const projection = receipt?.projection
  return {
    path: item.plan.path,
    type: receipt?.envelope.type ?? null,
    id: receipt?.envelope.id ?? null,
    mode: receipt?.envelope.mode ?? null,
    verdict: receipt?.envelope.verdict ?? null,
    currentness: 'unreadable',
    headSource: 'none',
    reviewedHead: null,
    structured: projection
      ? projection.state === 'valid'
        ? 'valid'
        : projection.state
      : 'absent',
    structuredReasons: projection?.reasons ?? [],
    round: projection?.findings?.round ?? null,
    conclusion: 'failure',
    reason: '',
    label: null,
    findings: [],
    staleFindings: [],
    details: receipt ? receiptDetails(receipt.data) : null,
    draws: receipt ? drawCount(receipt.data) : null
  }
}

type Decided = {
  fields: Partial<ReceiptRow> & { currentness: Currentness }
  reason: string
}

function decide(item: Pending, judged: Judged, options: GateOptions): Decided {
  switch (item.kind) {
    case 'unreadable':
      return { fields: { currentness: 'unreadable' }, reason: item.reason }
    case 'lineage-failed':
      return {
        fields: { currentness: 'ambiguous', headSource: 'findings' },
        reason: `ambiguous: ${item.reason}`
      }
    case 'findings':
      return decideFindings(item, judged)
    case 'envelope': {
      const judgement = judged.heads.get(item.sha)
      return {
        fields: {
          currentness: judgement?.current ? 'current' : 'stale',
          headSource: 'envelope',
          reviewedHead: item.sha
        },
        reason: judgement?.reason ?? 'stale: reviewed head not judged'
      }
    }
    case 'unbound':
      return decideUnbound(item, judged, options)
  }
}

function decideFindings(
  item: Extract<Pending, { kind: 'findings' }>,
  judged: Judged
): Decided {
  const receipt = item.receipt
  const selection: Selection = selectCurrent(
    containersOf(item.generations),
    (sha) => judged.heads.get(sha)?.current === true,
    selectionFilter(receipt)
  )
  const orphan = receipt ? {} : orphanEnvelope(item, selection)
  const prefix = receipt
    ? ''
    : 'latest receipt missing (a failed review retry?): read from its history; '
  switch (selection.state) {
    case 'current':
    case 'stale': {
      // A current tip's items are the findings; a stale tip's are evidence only.
      const items = reportFindings(selection.tip)
      const gating = tipVerdict(item, selection.tip)
      if (typeof gating === 'object')
        return {
          fields: { ...orphan, currentness: 'ambiguous', headSource: 'findings' },
          reason: `${prefix}ambiguous: ${gating.fault}`
        }
      return {
        fields: {
          ...orphan,
          ...(gating === undefined ? {} : { verdict: gating }),
          currentness: selection.state,
          headSource: 'findings',
          reviewedHead: selection.tip.headSha,
          round: selection.tip.round,
          ...(selection.state === 'current'
            ? { findings: items }
            : { staleFindings: items })
        },
        reason:
          prefix + (judged.heads.get(selection.tip.headSha)?.reason ?? selection.state)
      }
    }
    case 'ambiguous':
      return {
        fields: { ...orphan, currentness: 'ambiguous', headSource: 'findings' },
        reason: `${prefix}ambiguous: ${selection.reason}`
      }
    case 'absent':
      return {
        fields: { ...orphan, currentness: 'ambiguous', headSource: 'findings' },
        reason: `${prefix}ambiguous: no structured generation of this receipt's kind and backend`
      }
  }
}

/**
 * The verdict of the selected generation when it is a history one (SPEC §3: its own
 * verdict gates, not the latest receipt's envelope); undefined when the tip is the latest
 * receipt's (or an orphan's, whose envelope `orphanEnvelope` reads); a fault when the
 * generation's verdict is not one of the four.
 */
function tipVerdict(
  item: Extract<Pending, { kind: 'findings' }>,
  tip: FindingsContainer
): string | undefined | { fault: string } {
  const generation = item.generations.find((g) => g.findings === tip)
  if (!item.receipt || generation === undefined || generation.source !== 'history')
    return undefined
  const verdict = generation.verdict
  return typeof verdict === 'string' && (VERDICTS as readonly string[]).includes(verdict)
    ? verdict
    : {
        fault: `the selected history generation ${generation.name} has no valid verdict (must be SHIP, NEEDS_WORK, MAJOR_RETHINK or NEEDS_HUMAN)`
      }
}

/** For an orphaned history: the envelope of the selected generation (guard-checked). */
function orphanEnvelope(
  item: Extract<Pending, { kind: 'findings' }>,
  selection: Selection
): Partial<ReceiptRow> {
  const tip =
    selection.state === 'current' || selection.state === 'stale' ? selection.tip : null
  const generation =
    item.generations.find((g) => g.findings === tip) ??
    item.generations[item.generations.length - 1]
  // An orphaned history keeps every generation's receipt (see `Generation`).
  const receipt = generation?.receipt
  if (!receipt) return {}
  const envelope = checkEnvelope(receipt, item.plan.path)
  const fields: Partial<ReceiptRow> = {
    structured: 'valid',
    details: receiptDetails(receipt),
    draws: drawCount(receipt)
  }
  if (envelope.ok)
    return {
      ...fields,
      type: envelope.envelope.type,
      id: envelope.envelope.id,
      mode: envelope.envelope.mode,
      verdict: envelope.envelope.verdict
    }
  const text = (key: string): string | null =>
    isJsonObject(receipt) && typeof own(receipt, key) === 'string'
      ? (own(receipt, key) as string)
      : null
  return { ...fields, type: text('type'), id: text('id'), mode: text('mode') }
}

function decideUnbound(
  item: Extract<Pending, { kind: 'unbound' }>,
  judged: Judged,
  options: GateOptions
): Decided {
  if (options.unboundHead === 'allow') {
    return {
      fields: { currentness: 'current', headSource: 'none', label: 'unverified' },
      reason:
        'current (unverified): the receipt names no reviewed head and unbound-head is allow'
    }
  }
  if (options.unboundHead === 'fail') {
    return {
      fields: { currentness: 'stale', headSource: 'none' },
      reason: 'stale: the receipt names no reviewed head and unbound-head is fail'
    }
  }
  const inferred = judged.inferred.get(item.plan.path)
  const headSource: HeadSource = 'history'
  if (!inferred?.sha)
    return {
      fields: { currentness: 'stale', headSource },
      reason: inferred?.reason ?? 'stale: reviewed head unknown'
    }
  const judgement = judged.heads.get(inferred.sha)
  const current = judgement?.current === true
  return {
    fields: {
      currentness: current ? 'current' : 'stale',
      headSource,
      reviewedHead: inferred.sha,
      label: current ? 'inferred' : null
    },
    reason: `${(judgement?.reason ?? 'stale').replace(/^current:/, 'current (inferred from history):')}`
  }
}

/**
 * The problems of one row: what made it unreadable, ambiguous, invalid or failing, each
 * with a code a script can branch on (the headline names the same causes).
 */
function rowProblems(row: ReceiptRow): Problem[] {
  if (row.currentness === 'unreadable')
    return [{ code: 'unreadable-receipt', path: row.path, message: row.reason }]
  if (row.currentness === 'ambiguous')
    return [{ code: 'ambiguous-receipt', path: row.path, message: row.reason }]
  const problems: Problem[] = []
  if (row.structured === 'invalid') {
    problems.push({
      code: 'invalid-projection',
      path: row.path,
      message: `structured findings ignored: ${row.structuredReasons[0] ?? 'invalid'}`
    })
  }
  const code =
    row.conclusion === 'success' || row.conclusion === 'neutral'
      ? null
      : row.verdict === 'NEEDS_HUMAN'
        ? 'needs-human'
        : row.currentness === 'stale'
          ? 'stale-unresolved'
          : 'current-not-shipping'
  if (code !== null) problems.push({ code, path: row.path, message: row.reason })
  return problems
}
