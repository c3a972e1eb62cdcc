/**
 * Generations and currentness of one receipt, as flowctl's
 * `load_review_receipt_generations` (flowctl.py:6994) and
 * `select_current_review_findings` (6828) decide them, except that "tip headSha == head"
 * is a synchronous predicate (`isCurrent`), so the review-head rule plugs in: callers
 * resolve the `candidateHeads` first.
 */
import { checkFindings } from './findings.js'
import { historyFileName } from './identity.js'
import {
  isJsonObject,
  own,
  readJsonBytes,
  type JsonObject,
  type JsonValue
} from './json.js'
import type { FindingItem, FindingsContainer, ReviewKind } from './schema.js'
import { SEVERITIES } from './limits.js'
import { clip } from './text.js'

/** One file of `<receipt>.history/`, as read from the tree. */
export interface HistoryFile {
  name: string
  /** Its bytes, or why they could not be read (over a cap, a symlink, a folder, …). */
  bytes: Uint8Array | { unreadable: string }
}

/** A generation that loaded: the whole receipt and its (valid) container, if any. */
export interface Generation {
  source: 'latest' | 'history'
  name: string
  /** Null for a history generation once the latest loaded (nothing reads it). */
  receipt: JsonObject | null
  /** Its own verdict: a selected history generation's gates, not the latest's (docs/contract.md#currentness). */
  verdict: JsonValue | undefined
  findings: FindingsContainer | null
}

type Failed = { ok: false; reason: string }
export type LoadResult = { ok: true; generations: Generation[] } | Failed

/**
 * Loads the lineage of one receipt: its history generations (sorted by name), then
 * `latest` (null for an orphaned history). Fails closed on any history file flowctl refuses.
 */
export function loadGenerations(
  latest: (Pick<Generation, 'name' | 'findings'> & { receipt: JsonObject }) | null,
  history: readonly HistoryFile[]
): LoadResult {
  let scope = latest ? scopeOf(latest.receipt) : null
  const generations: Generation[] = []
  for (const file of [...history].sort((a, b) => comparePython(a.name, b.name))) {
    const loaded = loadHistoryFile(file)
    if (!loaded.ok) return loaded
    const fileScope = scopeOf(loaded.receipt)
    if (scope === null) scope = fileScope
    if (pyEqual(fileScope, scope)) {
      generations.push(generation('history', file.name, loaded, !latest))
    } else if (latest === null) {
      return {
        ok: false,
        reason: `history ${file.name} belongs to another receipt (type, id, mode differ)`
      }
    }
  }
  if (latest) generations.push(generation('latest', latest.name, latest))
  return generations.length > 0
    ? { ok: true, generations }
    : { ok: false, reason: 'no receipt and no history' }
}

function generation(
  source: Generation['source'],
  name: string,
  { receipt, findings }: { receipt: JsonObject; findings: FindingsContainer | null },
  keepReceipt = true
): Generation {
  const verdict = own(receipt, 'verdict')
  return { source, name, receipt: keepReceipt ? receipt : null, verdict, findings }
}

function loadHistoryFile(
  file: HistoryFile
): { ok: true; receipt: JsonObject; findings: FindingsContainer } | Failed {
  const fail = (why: string): Failed => ({
    ok: false,
    reason: `history ${file.name}: ${why}`
  })
  if (!(file.bytes instanceof Uint8Array)) return fail(file.bytes.unreadable)
  const read = readJsonBytes(file.bytes)
  if (!read.ok) return fail(read.reason)
  if (!isJsonObject(read.value)) return fail('is not a JSON object')
  const findings = checkFindings(read.value)
  if (!findings.ok) return fail(`invalid findings: ${findings.reasons[0] ?? ''}`)
  if (findings.value === null)
    return fail('has no findings container (only structured generations are archived)')
  // A valid container holds no lone surrogate (flowctl could not encode it): the id hashes.
  const expected = historyFileName(findings.value.sourceReceiptId)
  if (expected !== file.name) return fail(`must be named ${expected}`)
  return { ok: true, receipt: read.value, findings: findings.value }
}

/** The (type, id, mode) scope of a receipt: generations of other scopes are not its lineage. */
function scopeOf(receipt: JsonObject): JsonValue[] {
  return ['type', 'id', 'mode'].map((key) => own(receipt, key) ?? null)
}

/** The outcome of selection for one receipt. */
export type Selection =
  | { state: 'current' | 'stale'; tip: FindingsContainer; chainLength: number }
  | { state: 'ambiguous'; reason: string }
  | { state: 'absent' }

/** Optional kind/backend filter; the product passes the receipt's own. */
export interface SelectionFilter {
  kind?: ReviewKind
  backend?: string
}

/** The head SHAs of the unsuperseded generations: what `isCurrent` will be asked about. */
export function candidateHeads(
  containers: readonly FindingsContainer[],
  filter: SelectionFilter = {}
): string[] {
  // By `selectCurrent`'s helpers: one superseded only across kind or backend is a tip there.
  return [...new Set(unsuperseded(inScope(containers, filter)).map((c) => c.headSha))]
}

/**
 * flowctl's selection over validated containers. One current unsuperseded tip → `current`;
 * several → `ambiguous`; none → `stale` with one tip, else `ambiguous`. Structural faults
 * (duplicate ids, bad parents, a broken chain, an incomplete snapshot) → `ambiguous`.
 */
export function selectCurrent(
  all: readonly FindingsContainer[],
  isCurrent: (sha: string) => boolean,
  filter: SelectionFilter = {}
): Selection {
  const containers = inScope(all, filter)
  const byId = new Map<string, FindingsContainer>()
  for (const container of containers) {
    if (byId.has(container.sourceReceiptId)) {
      return ambiguous(
        `two generations share sourceReceiptId ${clip(container.sourceReceiptId, 20)}`
      )
    }
    byId.set(container.sourceReceiptId, container)
  }
  if (byId.size === 0) return { state: 'absent' }
  for (const container of containers) {
    const fault = parentFault(container, byId)
    if (fault) return ambiguous(fault)
  }
  const tips = unsuperseded(containers)
  const current = tips.filter((c) => isCurrent(c.headSha))
  if (current.length > 1)
    return ambiguous(
      `${current.length} unsuperseded generations are current (a forked lineage)`
    )
  if (current.length === 0 && tips.length !== 1) {
    return ambiguous(`${tips.length} unsuperseded generations and none is current`)
  }
  const tip = (current[0] ?? tips[0]) as FindingsContainer
  const walked = walkChain(tip, byId)
  if (typeof walked === 'string') return ambiguous(walked)
  return { state: current.length === 1 ? 'current' : 'stale', tip, chainLength: walked }
}

/** The containers of the filter's kind and backend: the only ones selection looks at. */
function inScope(
  all: readonly FindingsContainer[],
  filter: SelectionFilter
): FindingsContainer[] {
  return all.filter(
    (c) =>
      (filter.kind === undefined || c.reviewKind === filter.kind) &&
      (filter.backend === undefined || c.backend === filter.backend)
  )
}

/** The containers no other one supersedes: the tips selection chooses among. */
function unsuperseded(containers: readonly FindingsContainer[]): FindingsContainer[] {
  const superseded = new Set(containers.map((c) => c.supersedesReceiptId))
  return containers.filter((c) => !superseded.has(c.sourceReceiptId))
}

/** The generations in scope, by their sourceReceiptId. */
type ById = ReadonlyMap<string, FindingsContainer>

function parentFault(container: FindingsContainer, byId: ById): string | null {
  const parentId = container.supersedesReceiptId
  if (parentId == null) {
    return container.round === 1 ? null : `round ${container.round} has no parent`
  }
  const parent = byId.get(parentId)
  if (!parent)
    return `round ${container.round} supersedes ${clip(parentId, 20)}, which is not in its history`
  if (
    parent.reviewKind !== container.reviewKind ||
    parent.backend !== container.backend
  ) {
    return `round ${container.round} supersedes a generation of another kind or backend`
  }
  if (parent.round + 1 !== container.round) {
    return `round ${container.round} supersedes round ${parent.round} (rounds must advance by one)`
  }
  return null
}

/** Step 5 of flowctl's selection: the chain from root to tip must be a complete, consistent lineage. */
function walkChain(tip: FindingsContainer, byId: ById): number | string {
  // No cycle can occur: `parentFault` made every parent exist, one round lower.
  const chain: FindingsContainer[] = []
  for (let cursor: FindingsContainer | undefined = tip; cursor;) {
    chain.push(cursor)
    cursor =
      cursor.supersedesReceiptId == null
        ? undefined
        : byId.get(cursor.supersedesReceiptId)
  }
  const known = new Set<string>()
  const priorOwners = new Map<string, string>()
  const chainIds = new Set<string>()
  for (const generation of chain.reverse()) {
    chainIds.add(generation.sourceReceiptId)
    const ids = new Set(generation.items.map((item) => item.id))
    for (const id of known) {
      if (!ids.has(id))
        return `round ${generation.round} drops finding ${id} (every generation must be a complete snapshot)`
    }
    for (const item of generation.items) {
      // Built only for a fault (this runs for every item of every generation).
      const at = (): string => `round ${generation.round}, ${item.id}`
      if (!chainIds.has(item.firstSeenReceiptId))
        return `${at()}: first seen in a receipt outside its chain`
      const isNew = item.firstSeenReceiptId === generation.sourceReceiptId
      if (isNew === known.has(item.id)) {
        return isNew
          ? `${at()}: claims to be new but an earlier round holds it`
          : `${at()}: claims an earlier round but no earlier round holds it`
      }
      const prior = item.priorFindingId
      if (prior != null) {
        const owner = priorOwners.get(prior)
        if (!known.has(prior))
          return `${at()}: priorFindingId ${prior} is not an earlier finding`
        if (owner !== undefined && owner !== item.id)
          return `${at()}: priorFindingId ${prior} is already claimed by ${owner}`
        priorOwners.set(prior, item.id)
      }
      known.add(item.id)
    }
  }
  return chain.length
}

/** Display order: P0→P3, then confidence high→low, then ordinal (whatever the input order). */
export function sortItems(items: readonly FindingItem[]): FindingItem[] {
  return [...items].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      b.confidence - a.confidence ||
      a.ordinal - b.ordinal
  )
}

function ambiguous(reason: string): Selection {
  return { state: 'ambiguous', reason }
}

/** Python's string order, by code point (equal prefixes end between code points). */
function comparePython(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const diff = (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0)
    if (diff !== 0) return diff
  }
  return a.length - b.length
}

/** Python's `==` on JSON values (True == 1, 1 == 1.0; lists and dicts by content). */
function pyEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const num = (v: unknown): number | null =>
    typeof v === 'number' || typeof v === 'boolean' || v instanceof Number
      ? Number(v)
      : null
  const na = num(a)
  const nb = num(b)
  if (na !== null || nb !== null) return na === nb
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((v, i) => pyEqual(v, b[i]))
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a)
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && pyEqual(a[k], b[k]))
    )
  }
  return a === b // strings, null; and false across kinds
}
