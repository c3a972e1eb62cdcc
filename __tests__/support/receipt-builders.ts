/**
 * Builders for valid review receipts and findings v1 containers, for tests.
 *
 * Everything built here is valid as flowctl judges it (ids derived from
 * `(firstSeenReceiptId, ordinal)`, items re-stamped with the container's id, anchors
 * on the container's SHAs), so a test changes exactly one thing and asserts on it.
 * Values are plain mutable objects; {@link jsonText} serialises them, and {@link raw}
 * puts a number token in verbatim (`1.0`, `1e0`, `-0`, `9007199254740993`) — the
 * forms `JSON.stringify` cannot write.
 */
import { lineageId } from '../../src/receipts/identity.js'

/** The SHAs of the generated corpus (`corpus/generated/README.md`). */
export const SHA = {
  base: '5d2c8a0e4b7f19c3a6d0e2f4b8c1a3e5d7f9b0c2',
  head1: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  head2: 'c0ffee0123456789abcdef0123456789abcdef01',
  head3: 'd15ea5e0d15ea5e0d15ea5e0d15ea5e0d15ea5e0'
} as const

/** A JSON-ish value a builder produces: plain objects, arrays, scalars and raw tokens. */
export type Built =
  null | boolean | number | string | RawToken | Built[] | { [key: string]: Built }

/** An object built here (mutable, for one-line edits in tests). */
export type BuiltObject = { [key: string]: Built }

/** A number token written verbatim by {@link jsonText}. */
export class RawToken {
  constructor(readonly text: string) {}
}

/** A verbatim JSON token: `raw('1.0')`, `raw('1e0')`, `raw('-0')`, `raw('2'.repeat(30))`. */
export function raw(text: string): RawToken {
  return new RawToken(text)
}

/** Serialises a built value; `indent` 0 gives compact JSON. Strings as `JSON.stringify` writes them. */
export function jsonText(value: Built, indent = 2): string {
  return write(value, indent, '')
}

function write(value: Built, indent: number, pad: string): string {
  if (value instanceof RawToken) return value.text
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  const inner = indent > 0 ? pad + ' '.repeat(indent) : ''
  const nl = indent > 0 ? '\n' : ''
  const colon = indent > 0 ? ': ' : ':'
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const parts = value.map((entry) => inner + write(entry, indent, inner))
    return `[${nl}${parts.join(`,${nl}`)}${nl}${pad}]`
  }
  const keys = Object.keys(value)
  if (keys.length === 0) return '{}'
  const parts = keys.map(
    (key) => `${inner}${JSON.stringify(key)}${colon}${write(value[key]!, indent, inner)}`
  )
  return `{${nl}${parts.join(`,${nl}`)}${nl}${pad}}`
}

/** UTF-8 bytes of {@link jsonText}. */
export function jsonBytes(value: Built, indent = 2): Uint8Array {
  return new TextEncoder().encode(jsonText(value, indent))
}

/** Options of {@link buildItem}. */
export interface ItemOptions {
  ordinal?: number
  /** The container's id: every item's `lastSeenReceiptId`. */
  sourceReceiptId?: string
  /** Where the finding was first seen; defaults to `sourceReceiptId` (a new finding). */
  firstSeenReceiptId?: string
  /** Anchor the item on these SHAs (the container's); `false` for no anchor. */
  anchor?: { headSha: string; baseSha: string } | false
  /** Extra or replaced keys, applied last. */
  with?: BuiltObject
}

/** A valid findings item (with every optional key when anchored). */
export function buildItem(options: ItemOptions = {}): BuiltObject {
  const ordinal = options.ordinal ?? 1
  const source = options.sourceReceiptId ?? 'round-1'
  const firstSeen = options.firstSeenReceiptId ?? source
  const item: BuiltObject = {
    id: lineageId(firstSeen, ordinal),
    ordinal,
    severity: 'P1',
    confidence: 75,
    classification: 'introduced',
    status: 'open',
    title: `Finding ${ordinal}`,
    body: `Body of finding ${ordinal}.`,
    rIds: ['R1'],
    firstSeenReceiptId: firstSeen,
    lastSeenReceiptId: source
  }
  if (options.anchor) {
    item.anchor = {
      path: `src/file-${ordinal}.ts`,
      side: 'head',
      startLine: 10,
      baseSha: options.anchor.baseSha,
      headSha: options.anchor.headSha,
      endLine: 12,
      originalPath: `src/old-${ordinal}.ts`,
      blobOid: '0123abcd0123abcd'
    }
    item.suggestion = 'Do the right thing.'
  }
  return Object.assign(item, options.with ?? {})
}

/** Options of {@link buildContainer}. */
export interface ContainerOptions {
  sourceReceiptId?: string
  reviewKind?: string
  backend?: string
  round?: number
  headSha?: string
  /** `null` leaves `baseSha` out (then no item may be anchored). */
  baseSha?: string | null
  supersedesReceiptId?: string
  /** How many items (ordinals 1..n), or the items themselves. */
  items?: number | BuiltObject[]
  /** Anchor the generated items (needs a `baseSha`). */
  anchored?: boolean
}

/** A valid findings v1 container. Defaults: an implementation review by codex, round 1. */
export function buildContainer(options: ContainerOptions = {}): BuiltObject {
  const source = options.sourceReceiptId ?? 'round-1'
  const headSha = options.headSha ?? SHA.head2
  const baseSha = options.baseSha === undefined ? SHA.base : options.baseSha
  const anchored = options.anchored ?? baseSha !== null
  const items =
    typeof options.items === 'object'
      ? options.items
      : Array.from({ length: options.items ?? 1 }, (_, index) =>
          buildItem({
            ordinal: index + 1,
            sourceReceiptId: source,
            anchor: anchored && baseSha !== null ? { headSha, baseSha } : false
          })
        )
  const container: BuiltObject = {
    schemaVersion: 1,
    sourceReceiptId: source,
    reviewKind: options.reviewKind ?? 'implementation',
    backend: options.backend ?? 'codex',
    round: options.round ?? (options.supersedesReceiptId === undefined ? 1 : 2),
    headSha,
    items
  }
  if (baseSha !== null) container.baseSha = baseSha
  if (options.supersedesReceiptId !== undefined)
    container.supersedesReceiptId = options.supersedesReceiptId
  return container
}

/** `reviewKind` of each receipt type that may carry findings. */
export const KIND_OF_TYPE: Readonly<Record<string, string>> = {
  plan_review: 'plan',
  impl_review: 'implementation',
  completion_review: 'completion',
  qa_verdict: 'qa'
}

/** Options of {@link buildReceipt}. */
export interface ReceiptOptions {
  type?: string
  id?: string
  mode?: string
  verdict?: string
  /** The container, `null` for `"findings": null`, `false` for no key (legacy). */
  findings?: BuiltObject | null | false
  criteria?: Built
  /** Extra envelope keys (the envelope is open). */
  extra?: BuiltObject
}

/** A valid receipt; by default an `impl_review` by codex with one anchored finding. */
export function buildReceipt(options: ReceiptOptions = {}): BuiltObject {
  const type = options.type ?? 'impl_review'
  const mode = options.mode ?? 'codex'
  const receipt: BuiltObject = {
    type,
    id:
      options.id ??
      (type === 'impl_review' ? 'fn-7-receipt-gate.1' : 'fn-7-receipt-gate'),
    mode,
    base: 'main',
    verdict: options.verdict ?? 'NEEDS_WORK',
    timestamp: '2026-01-01T00:00:00Z',
    review: 'Review text.\n\n<verdict>NEEDS_WORK</verdict>\n'
  }
  if (options.findings !== false) {
    receipt.findings =
      options.findings === undefined
        ? buildContainer({
            reviewKind: KIND_OF_TYPE[type] ?? 'implementation',
            backend: mode
          })
        : options.findings
  }
  if (options.criteria !== undefined) receipt.criteria = options.criteria
  return Object.assign(receipt, options.extra ?? {})
}

/** UTF-8 length of a built value as compact JSON (the byte bound's measure; key order does not matter). */
export function compactBytes(value: Built): number {
  return new TextEncoder().encode(jsonText(value, 0)).length
}

/**
 * A valid container whose compact JSON is exactly `target` bytes (ASCII bodies of at
 * most 4,000 code points, at most 200 items). Used to pin the 256 KiB bound.
 */
export function containerOfBytes(
  target: number,
  options: ContainerOptions = {}
): BuiltObject {
  const perItem = 4000
  const source = options.sourceReceiptId ?? 'round-1'
  const baseSha = options.baseSha === undefined ? SHA.base : options.baseSha
  const anchor =
    options.anchored && baseSha !== null
      ? { headSha: options.headSha ?? SHA.head2, baseSha }
      : false
  const count = Math.max(1, Math.ceil(target / (perItem + 200)))
  const items = Array.from({ length: count }, (_, index) =>
    buildItem({
      ordinal: index + 1,
      sourceReceiptId: source,
      anchor,
      with: { body: 'x' }
    })
  )
  const container = buildContainer({ ...options, sourceReceiptId: source, items })
  let missing = target - compactBytes(container)
  for (const item of items) {
    if (missing <= 0) break
    const grow = Math.min(missing, perItem - 1)
    item.body = 'x'.repeat(1 + grow)
    missing -= grow
  }
  if (compactBytes(container) !== target)
    throw new Error(`containerOfBytes: cannot reach ${target} bytes`)
  return container
}

/** A receipt carrying a container of exactly `target` compact bytes. */
export function receiptOfBytes(target: number): BuiltObject {
  return buildReceipt({ findings: containerOfBytes(target) })
}
