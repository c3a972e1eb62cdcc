/**
 * Row decisions: what one receipt's bytes are (classify), where its reviewed SHA comes
 * from, and — once the heads are judged — its report row and problems. Pure: the
 * pipeline in `evaluate.ts` asks the source and hands the answers in.
 */
import { checkEnvelope } from '../receipts/envelope.js'
import { drawCount } from '../receipts/draws.js'
import { isJsonObject, own, type JsonObject } from '../receipts/json.js'
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

/** Where a receipt's reviewed SHA comes from, before the head rule is applied. */
export type Pending =
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

/** Reads one receipt and decides where its reviewed SHA will come from. */
export function classify(
  plan: ReceiptPlan,
  blobs: Map<string, Uint8Array | string>
): Pending {
  if (plan.unreadable) return { kind: 'unreadable', plan, reason: plan.unreadable }
  const history: HistoryFile[] = plan.history.map((entry) => ({
    name: baseName(entry.path),
    bytes: blobOf(entry, blobs)
  }))
  const latest = plan.latest && readLatest(plan, plan.latest, blobs)
  if (latest && 'kind' in latest) return latest
  const receipt = latest?.receipt ?? null
  const loaded = loadGenerations(
    latest && { ...latest, receipt: latest.receipt.data, name: baseName(plan.path) },
    history
  )
  return loaded.ok
    ? { kind: 'findings', plan, receipt, generations: loaded.generations }
    : { kind: 'lineage-failed', plan, receipt, reason: loaded.reason }
}

/** The latest receipt with its valid findings; else what it is (unreadable, unbound…). */
function readLatest(
  plan: ReceiptPlan,
  entry: TreeEntry,
  blobs: Map<string, Uint8Array | string>
): Pending | { receipt: ReadableReceipt; findings: FindingsContainer } {
  const bytes = blobOf(entry, blobs)
  if (!(bytes instanceof Uint8Array))
    return { kind: 'unreadable', plan, reason: bytes.unreadable }
  const receipt = inspectReceipt(plan.path, bytes)
  if (!receipt.readable) return { kind: 'unreadable', plan, reason: receipt.reason }
  const findings = receipt.projection.findings
  if (receipt.projection.state === 'valid' && findings) return { receipt, findings }
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

type Decided = {
  fields: Partial<ReceiptRow> & { currentness: Currentness }
  reason: string
}

function decide(item: Pending, judged: Judged, options: GateOptions): Decided {
  switch (item.kind) {
    case 'unreadable':
      return { fields: { currentness: 'unreadable' }, reason: item.reason }
    case 'lineage-failed':
      return ambiguous({}, `ambiguous: ${item.reason}`)
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
        return ambiguous(orphan, `${prefix}ambiguous: ${gating.fault}`)
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
      return ambiguous(orphan, `${prefix}ambiguous: ${selection.reason}`)
    case 'absent':
      return ambiguous(
        orphan,
        `${prefix}ambiguous: no structured generation of this receipt's kind and backend`
      )
  }
}

/** A receipt whose findings lineage cannot be read to one tip: an unknown state. */
function ambiguous(fields: Partial<ReceiptRow>, reason: string): Decided {
  return {
    fields: { ...fields, currentness: 'ambiguous', headSource: 'findings' },
    reason
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
  // The four fields of the envelope are the row's own (type, id, verdict, mode).
  if (envelope.ok) return { ...fields, ...envelope.envelope }
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
export function rowProblems(row: ReceiptRow): Problem[] {
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
