/**
 * Row decisions: what one receipt's bytes are (classify), where its reviewed SHA comes
 * from, and — once the heads are judged — its report row and problems. Pure: the
 * pipeline in `evaluate.ts` asks the source and hands the answers in.
 */
import { basename } from 'node:path/posix'
import { checkEnvelope } from '../receipts/envelope.js'
import { drawCount } from '../receipts/draws.js'
import { own, type JsonObject, type JsonValue } from '../receipts/json.js'
import { TYPE_TO_KIND, VERDICTS } from '../receipts/limits.js'
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
import type { FindingsContainer } from '../receipts/schema.js'
import { recordedBase } from './coverage.js'
import { receiptDetails, reportFindings } from './details.js'
import { rowConclusion, type Currentness } from './gate.js'
import type { GateOptions } from './options.js'
import type { ReceiptPlan } from './plan.js'
import type { HeadSource, Problem, ReceiptRow } from './report.js'
import type { HeadJudgement, InferredHead } from './review-head.js'
import type { TreeEntry } from './source.js'

type Blobs = Map<string, Uint8Array | string>

/** Where a receipt's reviewed SHA comes from, before the head rule is applied. */
export type Pending = { plan: ReceiptPlan } & (
  | { kind: 'unreadable'; reason: string }
  | { kind: 'findings'; receipt: ReadableReceipt | null; generations: Generation[] }
  | { kind: 'lineage-failed'; receipt: ReadableReceipt | null; reason: string }
  | { kind: 'envelope'; receipt: ReadableReceipt; sha: string }
  | { kind: 'unbound'; receipt: ReadableReceipt }
)
type Findings = Extract<Pending, { kind: 'findings' }>

/** Reads one receipt and decides where its reviewed SHA will come from. */
export function classify(plan: ReceiptPlan, blobs: Blobs): Pending {
  if (plan.unreadable) return { kind: 'unreadable', plan, reason: plan.unreadable }
  let latest: { receipt: ReadableReceipt; findings: FindingsContainer } | null = null
  if (plan.latest) {
    const bytes = blobOf(plan.latest, blobs)
    if (!(bytes instanceof Uint8Array))
      return { kind: 'unreadable', plan, reason: bytes.unreadable }
    const receipt = inspectReceipt(plan.path, bytes)
    if (!receipt.readable) return { kind: 'unreadable', plan, reason: receipt.reason }
    const findings = receipt.projection.findings
    if (receipt.projection.state !== 'valid' || !findings) {
      const sha = envelopeHead(receipt.data)
      return sha === null
        ? { kind: 'unbound', plan, receipt }
        : { kind: 'envelope', plan, receipt, sha }
    }
    latest = { receipt, findings }
  }
  const history = plan.history.map((entry) => ({
    name: basename(entry.path),
    bytes: blobOf(entry, blobs)
  }))
  const loaded = loadGenerations(
    latest && { ...latest, receipt: latest.receipt.data, name: basename(plan.path) },
    history
  )
  const receipt = latest?.receipt ?? null
  return loaded.ok
    ? { kind: 'findings', plan, receipt, generations: loaded.generations }
    : { kind: 'lineage-failed', plan, receipt, reason: loaded.reason }
}

/**
 * flowctl's selection over a receipt's generations, kept to the receipt's own kind and
 * backend (none for an orphan): `check` and `validate` select the same way.
 */
export function selectGeneration(
  receipt: ReadableReceipt | null,
  generations: readonly Generation[],
  isCurrent: (sha: string) => boolean
): Selection {
  return selectCurrent(containersOf(generations), isCurrent, selectionFilter(receipt))
}

/** The receipt's own kind and backend, which selection keeps to (none for an orphan). */
function selectionFilter(receipt: ReadableReceipt | null): SelectionFilter {
  if (!receipt) return {}
  return {
    kind: TYPE_TO_KIND[receipt.envelope.type],
    backend: receipt.envelope.mode ?? undefined
  }
}

/** `head` (rp) or `head_sha` (QA); empty means none. */
function envelopeHead(data: JsonObject): string | null {
  for (const key of ['head', 'head_sha']) {
    const value = own(data, key)
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
  }
  return null
}

function blobOf(entry: TreeEntry, blobs: Blobs): HistoryFile['bytes'] {
  const found = blobs.get(entry.sha)
  if (found instanceof Uint8Array) return found
  return { unreadable: `cannot read ${entry.path}: ${found ?? 'blob missing'}` }
}

/** Judgements and history-rule commits, resolved concurrently, one per distinct SHA. */
export interface Judged {
  heads: Map<string, HeadJudgement>
  /** For unbound receipts under `history`: the reviewed SHA and how it was found, by path. */
  inferred: Map<string, InferredHead>
}

/** The reviewed SHAs a receipt's currentness depends on (unbound ones: see judgeAll). */
export function reviewedHeads(item: Pending): string[] {
  if (item.kind === 'findings')
    return candidateHeads(containersOf(item.generations), selectionFilter(item.receipt))
  if (item.kind === 'envelope') return [item.sha]
  return []
}

/** A review's recorded base: the envelope's `base` when a SHA, else its generation's `baseSha`. */
export function reviewBase(item: Pending, reviewed: string): string | null {
  const receipt = 'receipt' in item ? item.receipt : null
  const envelope = receipt ? recordedBase(own(receipt.data, 'base')) : null
  if (envelope !== null || item.kind !== 'findings') return envelope
  const tip = containersOf(item.generations).find((c) => c.headSha === reviewed)
  return recordedBase(tip?.baseSha)
}

function containersOf(generations: readonly Generation[]): FindingsContainer[] {
  return generations.flatMap((generation) =>
    generation.findings ? [generation.findings] : []
  )
}

/** Builds the report row of one receipt. */
export function toRow(item: Pending, judged: Judged, options: GateOptions): ReceiptRow {
  const row = { ...baseRow(item), ...decide(item, judged, options) }
  const { conclusion, why } = rowConclusion(row, options.needsHumanConclusion)
  return { ...row, conclusion, reason: row.reason ? `${row.reason} — ${why}` : why }
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
    structured: projection?.state ?? 'absent',
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

/** The row's decided fields; `reason` says why, before the conclusion's own why. */
type Decided = Partial<ReceiptRow> & { currentness: Currentness; reason: string }

function decide(item: Pending, judged: Judged, options: GateOptions): Decided {
  switch (item.kind) {
    case 'unreadable':
      return { currentness: 'unreadable', reason: item.reason }
    case 'lineage-failed':
      return ambiguous({}, `ambiguous: ${item.reason}`)
    case 'findings':
      return decideFindings(item, judged)
    case 'envelope':
      return byHead(judged, item.sha, 'envelope')
    case 'unbound':
      return decideUnbound(item, judged, options)
  }
}

/** Current or stale as the head rule judged `sha` (every reviewed SHA is judged). */
function byHead(judged: Judged, sha: string, headSource: HeadSource): Decided {
  const judgement = judged.heads.get(sha)
  return {
    currentness: judgement?.current ? 'current' : 'stale',
    headSource,
    reviewedHead: sha,
    reason: judgement?.reason ?? 'stale: reviewed head not judged'
  }
}

function decideFindings(item: Findings, judged: Judged): Decided {
  const selection = selectGeneration(
    item.receipt,
    item.generations,
    (sha) => judged.heads.get(sha)?.current === true
  )
  const tip =
    selection.state === 'current' || selection.state === 'stale' ? selection.tip : null
  const generation = item.generations.find((g) => g.findings === tip)
  const orphan = item.receipt ? {} : orphanEnvelope(item, generation)
  const prefix = item.receipt
    ? ''
    : 'latest receipt missing (a failed review retry?): read from its history; '
  const unknown = (why: string): Decided =>
    ambiguous(orphan, `${prefix}ambiguous: ${why}`)
  if (selection.state === 'ambiguous') return unknown(selection.reason)
  if (selection.state === 'absent')
    return unknown("no structured generation of this receipt's kind and backend")
  // docs/contract.md#currentness: a selected history generation's own verdict gates, not the latest receipt's
  // envelope (an orphan's envelope is the generation's: `orphanEnvelope` read it).
  const history = item.receipt && generation?.source === 'history' ? generation : null
  const verdict = history?.verdict
  if (history && !isVerdict(verdict))
    return unknown(
      `the selected history generation ${history.name} has no valid verdict (must be SHIP, NEEDS_WORK, MAJOR_RETHINK or NEEDS_HUMAN)`
    )
  // A current tip's items are the findings; a stale tip's are evidence only.
  const items = reportFindings(selection.tip)
  return {
    ...orphan,
    ...(isVerdict(verdict) && { verdict }),
    currentness: selection.state,
    headSource: 'findings',
    reviewedHead: selection.tip.headSha,
    round: selection.tip.round,
    ...(selection.state === 'current' ? { findings: items } : { staleFindings: items }),
    reason: prefix + (judged.heads.get(selection.tip.headSha)?.reason ?? selection.state)
  }
}

function isVerdict(value: JsonValue | undefined): value is string {
  return typeof value === 'string' && (VERDICTS as readonly string[]).includes(value)
}

/** A receipt whose findings lineage cannot be read to one tip: an unknown state. */
function ambiguous(fields: Partial<ReceiptRow>, reason: string): Decided {
  return { ...fields, currentness: 'ambiguous', headSource: 'findings', reason }
}

/**
 * For an orphaned history: the envelope of the selected generation, else the last one
 * (an orphaned history keeps every generation's receipt), guard-checked.
 */
function orphanEnvelope(
  item: Findings,
  selected: Generation | undefined
): Partial<ReceiptRow> {
  const receipt = (selected ?? item.generations[item.generations.length - 1])?.receipt
  if (!receipt) return {}
  const fields = {
    structured: 'valid' as const,
    details: receiptDetails(receipt),
    draws: drawCount(receipt)
  }
  const envelope = checkEnvelope(receipt, item.plan.path)
  // The four fields of the envelope are the row's own (type, id, verdict, mode).
  if (envelope.ok) return { ...fields, ...envelope.envelope }
  const text = (key: string): string | null => {
    const value = own(receipt, key)
    return typeof value === 'string' ? value : null
  }
  return { ...fields, type: text('type'), id: text('id'), mode: text('mode') }
}

function decideUnbound(
  item: Extract<Pending, { kind: 'unbound' }>,
  judged: Judged,
  options: GateOptions
): Decided {
  if (options.unboundHead === 'allow')
    return {
      currentness: 'current',
      headSource: 'none',
      label: 'unverified',
      reason:
        'current (unverified): the receipt names no reviewed head and unbound-head is allow'
    }
  if (options.unboundHead === 'fail')
    return {
      currentness: 'stale',
      headSource: 'none',
      reason: 'stale: the receipt names no reviewed head and unbound-head is fail'
    }
  const inferred = judged.inferred.get(item.plan.path)
  if (!inferred?.sha)
    return {
      currentness: 'stale',
      headSource: 'history',
      reason: inferred?.reason ?? 'stale: reviewed head unknown'
    }
  const decided = byHead(judged, inferred.sha, 'history')
  return {
    ...decided,
    ...(decided.currentness === 'current' && { label: 'inferred' }),
    reason: decided.reason.replace(/^current:/, 'current (inferred from history):')
  }
}

/**
 * The problems of one row: what made it unreadable, ambiguous, invalid or failing, each
 * with a code a script can branch on (the headline names the same causes).
 */
export function rowProblems(row: ReceiptRow): Problem[] {
  const problem = (code: string, message = row.reason): Problem => ({
    code,
    path: row.path,
    message
  })
  if (row.currentness === 'unreadable') return [problem('unreadable-receipt')]
  if (row.currentness === 'ambiguous') return [problem('ambiguous-receipt')]
  const problems: Problem[] = []
  const ignored = `structured findings ignored: ${row.structuredReasons[0] ?? 'invalid'}`
  if (row.structured === 'invalid') problems.push(problem('invalid-projection', ignored))
  if (row.conclusion === 'success' || row.conclusion === 'neutral') return problems
  const code =
    row.verdict === 'NEEDS_HUMAN'
      ? 'needs-human'
      : row.currentness === 'stale'
        ? 'stale-unresolved'
        : 'current-not-shipping'
  return [...problems, problem(code)]
}
