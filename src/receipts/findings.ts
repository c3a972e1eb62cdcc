/**
 * The structured projection, validated as flowctl's `_review_findings_container_valid`
 * (flowctl.py:5992), `validate_review_receipt_findings` (6652) and
 * `validate_review_receipt_criteria` (6757) do: no reasons exactly when flowctl says valid.
 */
import type { z } from 'zod'
import { isJsonObject, own, type JsonObject, type JsonValue } from './json.js'
import { lineageId } from './identity.js'
import { reasonsFromZod } from './issues.js'
import {
  CriteriaSchema,
  FindingsContainerSchema,
  LIMITS,
  TYPE_TO_KIND,
  type Criterion,
  type FindingsContainer
} from './schema.js'
import { hasLoneSurrogate } from './text.js'

/** A validation answer: the typed value, or the reasons it is refused. */
type Checked<T> = { ok: true; value: T } | { ok: false; reasons: string[] }

/** Validates one findings v1 container on its own (no envelope binding). */
export function checkContainer(value: JsonValue | undefined): Checked<FindingsContainer> {
  if (!isJsonObject(value)) return refuse('findings: must be an object')
  const parsed = parse(FindingsContainerSchema, value, 'findings')
  if (!parsed.ok) return parsed
  const container = parsed.value
  const reasons = [...roundRules(container), ...itemRules(container)]
  // Last, as in flowctl: only an otherwise valid container is measured.
  if (reasons.length === 0) reasons.push(...byteBound(container))
  return reasons.length === 0
    ? { ok: true, value: container }
    : { ok: false, reasons: reasons.slice(0, 5) }
}

/** The schema's value for `value`, or its reasons under `prefix`. */
function parse<T>(schema: z.ZodType<T>, value: JsonValue, prefix: string): Checked<T> {
  const parsed = schema.safeParse(value, { reportInput: true })
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, reasons: reasonsFromZod(prefix, parsed.error) }
}

/** `round` 1 exactly for a root; more than 1 with a parent; a parent is not itself. */
function roundRules(container: FindingsContainer): string[] {
  const { round, supersedesReceiptId: parent } = container
  if (parent == null ? round !== 1 : round <= 1) {
    const rule = parent == null ? '1 without' : 'greater than 1 with'
    return [`findings.round: must be ${rule} supersedesReceiptId (got ${round})`]
  }
  if (parent === container.sourceReceiptId) {
    return ['findings.supersedesReceiptId: must differ from sourceReceiptId']
  }
  return []
}

/** Ids, ordinals, lineage stamps and anchors, across the items of one container. */
function itemRules(container: FindingsContainer): string[] {
  const reasons: string[] = []
  const ids = new Set<string>()
  const ordinals = new Set<number>()
  container.items.forEach((item, index) => {
    const at = `findings.items[${index}]`
    const anchor = item.anchor
    if (anchor?.endLine != null && anchor.endLine < anchor.startLine) {
      reasons.push(
        `${at}.anchor.endLine: must not be below startLine (${anchor.endLine} < ${anchor.startLine})`
      )
    }
    // flowctl's `_review_finding_item_valid` refuses an item whose priorFindingId is its
    // own id (`prior_id == item["id"]`); the per-field schema cannot see both fields.
    if (item.priorFindingId != null && item.priorFindingId === item.id) {
      reasons.push(`${at}.priorFindingId: must differ from the item's own id`)
    }
    if (ids.has(item.id)) reasons.push(`${at}.id: duplicate finding id ${item.id}`)
    if (ordinals.has(item.ordinal))
      reasons.push(`${at}.ordinal: duplicate ordinal ${item.ordinal}`)
    ids.add(item.id)
    ordinals.add(item.ordinal)
    if (hasLoneSurrogate(item.firstSeenReceiptId)) {
      reasons.push(
        `${at}.firstSeenReceiptId: holds an unpaired surrogate (cannot be UTF-8 encoded)`
      )
    } else if (item.id !== lineageId(item.firstSeenReceiptId, item.ordinal)) {
      reasons.push(
        `${at}.id: is not derived from (firstSeenReceiptId, ordinal): expected ${lineageId(item.firstSeenReceiptId, item.ordinal)}`
      )
    }
    if (item.lastSeenReceiptId !== container.sourceReceiptId) {
      reasons.push(`${at}.lastSeenReceiptId: must equal the container's sourceReceiptId`)
    }
    if (anchor && anchor.headSha !== container.headSha) {
      reasons.push(`${at}.anchor.headSha: must equal the container's headSha`)
    }
    if (anchor && anchor.baseSha !== container.baseSha) {
      reasons.push(
        container.baseSha === undefined
          ? `${at}.anchor: a container without baseSha cannot hold anchors`
          : `${at}.anchor.baseSha: must equal the container's baseSha`
      )
    }
  })
  return reasons
}

/**
 * The 256 KiB bound, as flowctl measures it (`json.dumps(container, ensure_ascii=False,
 * separators=(",", ":"), sort_keys=True)` in UTF-8). `JSON.stringify` differs only in key
 * order (same escapes; a valid container holds only safe integers). flowctl cannot encode
 * an unpaired surrogate at all (`JSON.stringify` would escape it): that is invalid.
 */
function byteBound(container: FindingsContainer): string[] {
  let encodable = true
  const text = JSON.stringify(container, (_key, value: unknown) => {
    if (typeof value === 'string' && hasLoneSurrogate(value)) encodable = false
    return value
  })
  if (!encodable) {
    return ['findings: holds an unpaired surrogate (flowctl cannot encode it as UTF-8)']
  }
  const bytes = Buffer.byteLength(text)
  if (bytes <= LIMITS.containerBytes) return []
  return [
    `findings: is ${bytes} bytes as compact JSON, over the ${LIMITS.containerBytes}-byte bound`
  ]
}

/** `validate_review_receipt_findings`: none (or null) is legacy; else kind ↔ type, backend = mode. */
export function checkFindings(receipt: JsonObject): Checked<FindingsContainer | null> {
  const findings = own(receipt, 'findings')
  if (findings === undefined || findings === null) return { ok: true, value: null }
  const container = checkContainer(findings)
  if (!container.ok) return container
  const type = own(receipt, 'type')
  if (typeof type !== 'string' || TYPE_TO_KIND[type] === undefined) {
    return refuse(
      `type: ${typeof type === 'string' ? JSON.stringify(type) : 'a missing or non-string type'} cannot carry findings (plan_review, impl_review, completion_review or qa_verdict can)`
    )
  }
  if (TYPE_TO_KIND[type] !== container.value.reviewKind) {
    return refuse(
      `findings.reviewKind: must be ${TYPE_TO_KIND[type]} for a ${type} receipt (got ${container.value.reviewKind})`
    )
  }
  const mode = own(receipt, 'mode')
  if (typeof mode !== 'string' || mode !== container.value.backend) {
    return refuse(
      `mode: must equal findings.backend ${JSON.stringify(container.value.backend)} (got ${typeof mode === 'string' ? JSON.stringify(mode) : 'no string'})`
    )
  }
  return container
}

/** `validate_review_receipt_criteria`: completion receipts only, G-ids unique. */
export function checkCriteria(receipt: JsonObject): Checked<Criterion[] | null> {
  const criteria = own(receipt, 'criteria')
  if (criteria === undefined || criteria === null) return { ok: true, value: null }
  if (own(receipt, 'type') !== 'completion_review') {
    return refuse('criteria: only a completion_review receipt may carry criteria')
  }
  const parsed = parse(CriteriaSchema, criteria, 'criteria')
  if (!parsed.ok) return parsed
  const ids = parsed.value.map((criterion) => criterion.id)
  const index = ids.findIndex((id, at) => ids.indexOf(id) !== at)
  return index === -1
    ? parsed
    : refuse(`criteria[${index}].id: duplicate criterion ${ids[index]}`)
}

function refuse<T>(reason: string): Checked<T> {
  return { ok: false, reasons: [reason] }
}
