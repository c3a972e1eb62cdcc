/**
 * The common case of a receipt, checked without zod: a findings container, a criteria
 * list or an envelope every field of which is plainly valid. Performance (issue 7): zod
 * spent most of a cold run's validation (about 35 ms for the bench's 30 files, in code
 * V8 has not compiled yet) in its generic machinery: a payload object, an issues array
 * and a few calls per field. Hand-written checks of the same rules run in a fraction of
 * that, and a run whose receipts are all plainly valid never builds the schemas.
 *
 * Each function answers only "valid, and here is the value zod would return" or "not
 * sure": anything it does not recognise as valid — a wrong type, a bound crossed, an
 * unknown key, a number read as a float token — gives `undefined`, and the caller asks
 * the zod schemas (schema.ts), which give the value or the reasons. So it can only be
 * wrong by accepting what the schemas refuse; `__tests__/receipts/plain.test.ts` holds
 * it to the schemas' answer (success and value, key order included) on generated and
 * mutated receipts. A container's check also hands over what it measured on the way: the
 * JSON bytes of its items' prose, which the byte bound would otherwise read again.
 *
 * The value is built as zod's compiled object parser builds it: a fresh object with the
 * shape's keys in the shape's order, each present key copied, arrays copied (`shaped`,
 * over the key lists below, which `onlyKeys` checks against too; items and anchors, a
 * container's hundreds of objects, as literals in the same order, their keys checked by
 * count: each required key is read and checked, so as many keys as the required and the
 * optional ones present leave room for no other).
 */
import { isJsonObject, own, type JsonObject, type JsonValue } from './json.js'
import {
  ANCHOR_REQUIRED,
  BLOB_OID,
  CLASSIFICATIONS,
  CONFIDENCES,
  CONTAINER_KEYS,
  CRITERIA_STATUSES,
  CRITERION_ID,
  CRITERION_KEYS,
  ITEM_REQUIRED,
  LIMITS,
  REVIEW_KINDS,
  RID,
  SEVERITIES,
  STATUSES,
  VERDICTS
} from './limits.js'
import { safePath } from './paths.js'
import type {
  Anchor,
  Criterion,
  FindingItem,
  FindingsContainer,
  Verdict
} from './schema.js'
import { withinCodePoints } from './text.js'
import { boundedTextBytes } from './compact-bytes.js'

type Field = JsonValue | undefined

/**
 * A plainly valid container: the value the schemas would return, and the JSON bytes of
 * its items' prose (every title, body and suggestion), measured as their bounds were
 * checked (`boundedTextBytes`), for the byte bound (`validContainerBytes`).
 */
export interface PlainContainer {
  value: FindingsContainer
  prose: number
}

/** The container as the schemas would return it, or `undefined` when they must decide. */
export function plainContainer(value: JsonObject): PlainContainer | undefined {
  if (!onlyKeys(value, CONTAINER_KEYS)) return undefined
  const items = value.items
  if (!Array.isArray(items) || items.length > LIMITS.items) return undefined
  const parsedItems: FindingItem[] = []
  const tally = { prose: 0 }
  for (const item of items) {
    const parsed = plainItem(item, tally)
    if (parsed === undefined) return undefined
    parsedItems.push(parsed)
  }
  if (
    value.schemaVersion !== 1 ||
    !bounded(value.sourceReceiptId, LIMITS.id) ||
    !oneOf(value.reviewKind, REVIEW_KINDS) ||
    !bounded(value.backend, LIMITS.id) ||
    !integerAtLeast(value.round, 1) ||
    !bounded(value.headSha, LIMITS.id) ||
    !optional(value, 'baseSha', (v) => bounded(v, LIMITS.id)) ||
    !orAbsent(value, 'supersedesReceiptId', (v) => bounded(v, LIMITS.id))
  ) {
    return undefined
  }
  const out = shaped(value, CONTAINER_KEYS)
  out.items = parsedItems
  return { value: out as FindingsContainer, prose: tally.prose }
}

function plainItem(item: Field, tally: { prose: number }): FindingItem | undefined {
  if (!isJsonObject(item)) return undefined
  // Performance (issue 7, round 13): optional keys read once, directly (an own read: the
  // reader's objects have no prototype, see `shaped`), and unknown keys found by count
  // rather than by looking each key up in the list: a maximal container checked in 0.90
  // of the time.
  const { rIds, suggestion, priorFindingId, anchor: given } = item
  // -1 when out of bounds; NaN (valid, refused by the byte bound) for a lone surrogate.
  const title = boundedTextBytes(item.title, LIMITS.title)
  const body = boundedTextBytes(item.body, LIMITS.body)
  const suggested =
    suggestion == null ? 0 : boundedTextBytes(suggestion, LIMITS.suggestion)
  if (
    // Every required key is checked below: no other key when the counts agree.
    keyCount(item) !==
      ITEM_REQUIRED + present(suggestion) + present(priorFindingId) + present(given) ||
    !bounded(item.id, LIMITS.id) ||
    !integerAtLeast(item.ordinal, 1) ||
    !oneOf(item.severity, SEVERITIES) ||
    !oneOf(item.confidence, CONFIDENCES) ||
    !oneOf(item.classification, CLASSIFICATIONS) ||
    !oneOf(item.status, STATUSES) ||
    title < 0 ||
    body < 0 ||
    !plainRIds(rIds) ||
    !bounded(item.firstSeenReceiptId, LIMITS.id) ||
    !bounded(item.lastSeenReceiptId, LIMITS.id) ||
    suggested < 0 ||
    !(priorFindingId == null || bounded(priorFindingId, LIMITS.id))
  ) {
    return undefined
  }
  // `anchor: null` is not absent: the schemas refuse it.
  const anchor = given === undefined ? null : plainAnchor(given)
  if (anchor === undefined) return undefined
  tally.prose += title + body + suggested
  // Built as a literal, the keys in ITEM_KEYS' order, optional ones last (`shaped`'s
  // generic stores cost a third of this function on a 200-item container).
  const out: Record<string, unknown> = {
    id: item.id,
    ordinal: item.ordinal,
    severity: item.severity,
    confidence: item.confidence,
    classification: item.classification,
    status: item.status,
    title: item.title,
    body: item.body,
    rIds: [...(rIds as string[])],
    firstSeenReceiptId: item.firstSeenReceiptId,
    lastSeenReceiptId: item.lastSeenReceiptId
  }
  if (suggestion !== undefined) out.suggestion = suggestion
  if (priorFindingId !== undefined) out.priorFindingId = priorFindingId
  if (anchor !== null) out.anchor = anchor
  return out as FindingItem
}

function plainAnchor(anchor: Field): Anchor | undefined {
  if (!isJsonObject(anchor)) return undefined
  const { originalPath, endLine, blobOid } = anchor
  if (
    keyCount(anchor) !==
      ANCHOR_REQUIRED + present(originalPath) + present(endLine) + present(blobOid) ||
    !anchorPath(anchor.path) ||
    (anchor.side !== 'base' && anchor.side !== 'head') ||
    !integerAtLeast(anchor.startLine, 1) ||
    !bounded(anchor.baseSha, LIMITS.id) ||
    !bounded(anchor.headSha, LIMITS.id) ||
    !(originalPath == null || anchorPath(originalPath)) ||
    !(endLine == null || integerAtLeast(endLine, Number.MIN_SAFE_INTEGER)) ||
    !(blobOid == null || (typeof blobOid === 'string' && BLOB_OID.test(blobOid)))
  ) {
    return undefined
  }
  // As in plainItem: a literal in ANCHOR_KEYS' order, optional keys last.
  const out: Record<string, unknown> = {
    path: anchor.path,
    side: anchor.side,
    startLine: anchor.startLine,
    baseSha: anchor.baseSha,
    headSha: anchor.headSha
  }
  if (originalPath !== undefined) out.originalPath = originalPath
  if (endLine !== undefined) out.endLine = endLine
  if (blobOid !== undefined) out.blobOid = blobOid
  return out as Anchor
}

/** The envelope's three guarded fields as the schema returns them, or `undefined`. */
export function plainEnvelope(fields: {
  type: Field
  id: Field
  verdict: Field
}): { type: string; id: string; verdict: Verdict } | undefined {
  const { type, id, verdict } = fields
  if (typeof type !== 'string' || typeof id !== 'string' || type === '' || id === '')
    return undefined
  return oneOf(verdict, VERDICTS) ? { type, id, verdict: verdict as Verdict } : undefined
}

/** A completion review's criteria as the schema returns them, or `undefined`. */
export function plainCriteria(value: Field): Criterion[] | undefined {
  if (!Array.isArray(value) || value.length < 1 || value.length > LIMITS.criteria)
    return undefined
  const out: Criterion[] = []
  for (const criterion of value) {
    if (
      !isJsonObject(criterion) ||
      !onlyKeys(criterion, CRITERION_KEYS) ||
      typeof criterion.id !== 'string' ||
      !CRITERION_ID.test(criterion.id) ||
      !oneOf(criterion.status, CRITERIA_STATUSES) ||
      !orAbsent(criterion, 'note', (v) => bounded(v, LIMITS.criteriaNote))
    ) {
      return undefined
    }
    out.push(shaped(criterion, CRITERION_KEYS) as Criterion)
  }
  return out
}

/** At most 32 R-IDs, each `R` and Unicode digits within the id bound, none repeated. */
function plainRIds(value: Field): boolean {
  if (!Array.isArray(value) || value.length > LIMITS.rIds) return false
  for (const rid of value) {
    if (typeof rid !== 'string' || !withinCodePoints(rid, LIMITS.id) || !RID.test(rid))
      return false
  }
  return new Set(value).size === value.length
}

/** The number of own keys (the reader's objects have no prototype: `for…in` sees only them). */
function keyCount(object: JsonObject): number {
  let count = 0
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  for (const _ in object) count++
  return count
}

/** 1 when a key is present (a JSON value is never undefined), else 0. */
function present(value: Field): number {
  return value === undefined ? 0 : 1
}

/** Every own key is one of the shape's (the schemas refuse any other). */
function onlyKeys(object: JsonObject, keys: readonly string[]): boolean {
  for (const key in object) if (!keys.includes(key)) return false
  return true
}

/**
 * A fresh object with the keys of the shape that `from` holds, in the shape's order
 * (`keys`), as the schemas return a valid one; the caller then puts in place the values
 * it rebuilt (a key keeps its place when its value is replaced). Absent keys read as
 * undefined (a JSON value never is): the reader's objects have no prototype, and no
 * shape's key is a member of `Object.prototype` either (a test checks), so a plain read
 * is an own read.
 */
function shaped(from: JsonObject, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    const value = from[key]
    if (value !== undefined) out[key] = value
  }
  return out
}

/** A non-empty string of at most `max` code points (`boundedString`). */
function bounded(value: Field, max: number): boolean {
  return typeof value === 'string' && value.length > 0 && withinCodePoints(value, max)
}

/** A safe integer of at least `min` (`z.int()` with `gte`); float tokens are objects. */
function integerAtLeast(value: Field, min: number): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min
}

function oneOf(value: Field, options: readonly (string | number)[]): boolean {
  return (
    (typeof value === 'string' || typeof value === 'number') && options.includes(value)
  )
}

function anchorPath(value: Field): boolean {
  return typeof value === 'string' && safePath(value) !== null
}

/** `z.optional`: absent, or valid (null is not absent here). */
function optional(
  object: JsonObject,
  key: string,
  valid: (v: Field) => boolean
): boolean {
  const value = own(object, key)
  return value === undefined || valid(value)
}

/** `orAbsent`: absent, null, or valid. */
function orAbsent(
  object: JsonObject,
  key: string,
  valid: (v: Field) => boolean
): boolean {
  const value = own(object, key)
  return value === undefined || value === null || valid(value)
}
