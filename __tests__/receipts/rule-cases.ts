/**
 * One case per validation rule of the reference (§4.1–4.5 container, item, anchor,
 * identities, quirks; §5 envelope binding; §6 criteria; the Ralph guard's name forms).
 * Each case is a receipt that differs from a valid one in exactly one way, what the
 * core must say of it, and which field the reason must name. Every expectation here
 * was checked against flowctl through the oracle; `deviation` marks the documented
 * places where the product deliberately differs (and what flowctl says instead).
 */
import { createHash } from 'node:crypto'
import { lineageId } from '../../src/receipts/identity.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  compactBytes,
  containerOfBytes,
  raw,
  SHA,
  type Built,
  type BuiltObject
} from '../support/receipt-builders.js'

/** What the core must answer: a projection state, or an unreadable receipt. */
export type Outcome = 'valid' | 'absent' | 'invalid' | 'unreadable'

export interface RuleCase {
  /** Reference section and rule, e.g. `§4.2 confidence`. */
  rule: string
  name: string
  /** The receipt; raw number tokens via `raw()`. */
  receipt: () => Built
  /** The receipt's file name (the guard reads it); default `receipt.json` (no guard form). */
  file?: string
  expect: Outcome
  /** A reason must match this (the offending field). Required unless `expect` is valid/absent. */
  field?: RegExp
  /** A documented deviation from flowctl: why, and flowctl's own answer. */
  deviation?: { why: string; flowctl: Outcome }
}

const E = (n: number): string => '😀'.repeat(n)
const A = (n: number): string => 'a'.repeat(n)

/** The findings container of a built receipt. */
export function findingsOf(receipt: BuiltObject): BuiltObject {
  return receipt.findings as BuiltObject
}
/** Item `index` of a built receipt's container. */
export function itemOf(receipt: BuiltObject, index = 0): BuiltObject {
  return (findingsOf(receipt).items as BuiltObject[])[index]!
}
/** The anchor of item `index`. */
export function anchorOf(receipt: BuiltObject, index = 0): BuiltObject {
  return itemOf(receipt, index).anchor as BuiltObject
}

/** A default valid receipt, changed by `edit`. */
function r(edit: (receipt: BuiltObject) => void = () => {}): () => BuiltObject {
  return () => {
    const receipt = buildReceipt()
    edit(receipt)
    return receipt
  }
}
const onContainer = (edit: (c: BuiltObject) => void) => r((x) => edit(findingsOf(x)))
const onItem = (edit: (i: BuiltObject) => void) => r((x) => edit(itemOf(x)))
const onAnchor = (edit: (a: BuiltObject) => void) => r((x) => edit(anchorOf(x)))

/** A receipt with the given container (type/mode follow it). */
function withContainer(container: BuiltObject, type = 'impl_review'): () => BuiltObject {
  return () =>
    buildReceipt({ type, mode: container.backend as string, findings: container })
}

/** A round-2 container whose single item was carried from round 1. */
function carried(edit: (item: BuiltObject) => void = () => {}): () => BuiltObject {
  return () => {
    const item = buildItem({
      ordinal: 1,
      sourceReceiptId: 'round-2',
      firstSeenReceiptId: 'round-1'
    })
    edit(item)
    return buildReceipt({
      findings: buildContainer({
        sourceReceiptId: 'round-2',
        supersedesReceiptId: 'round-1',
        items: [item]
      })
    })
  }
}

const completion =
  (criteria: Built): (() => BuiltObject) =>
  () =>
    buildReceipt({
      type: 'completion_review',
      findings: buildContainer({ reviewKind: 'completion' }),
      criteria
    })
const G = (n: number): BuiltObject[] =>
  Array.from({ length: n }, (_, i) => ({ id: `G${i + 1}`, status: 'met' }))

const CONTAINER_REQUIRED = [
  'schemaVersion',
  'sourceReceiptId',
  'reviewKind',
  'backend',
  'round',
  'headSha',
  'items'
]
const ITEM_REQUIRED = [
  'id',
  'ordinal',
  'severity',
  'confidence',
  'classification',
  'status',
  'title',
  'body',
  'rIds',
  'firstSeenReceiptId',
  'lastSeenReceiptId'
]
const ANCHOR_REQUIRED = ['path', 'side', 'startLine', 'baseSha', 'headSha']
const BIG = '1152921504606846976' // 2^60: an int to Python, beyond 2^53 - 1 here
const BIG_DEVIATION = {
  why: 'integers beyond 2^53 - 1 make the projection invalid (SPEC §2.4)',
  flowctl: 'valid' as const
}

export const RULE_CASES: RuleCase[] = [
  // ── baseline ──────────────────────────────────────────────────────────────
  { rule: 'baseline', name: 'the default receipt', receipt: r(), expect: 'valid' },
  {
    rule: 'baseline',
    name: 'a legacy receipt without findings',
    receipt: () => buildReceipt({ findings: false }),
    expect: 'absent'
  },

  // ── §4.1 container ───────────────────────────────────────────────────────
  {
    rule: '§4.1 object',
    name: 'findings is a string',
    receipt: r((x) => (x.findings = 'none')),
    expect: 'invalid',
    field: /^findings: must be an object/
  },
  {
    rule: '§4.1 object',
    name: 'findings is a float',
    receipt: r((x) => (x.findings = raw('1.0'))),
    expect: 'invalid',
    field: /^findings: must be an object/
  },
  {
    rule: '§5 findings: []',
    name: 'findings is an empty array',
    receipt: r((x) => (x.findings = [])),
    expect: 'invalid',
    field: /^findings: must be an object/
  },
  {
    rule: '§4.1 closed keys',
    name: 'unknown container key',
    receipt: onContainer((c) => (c.note = 'x')),
    expect: 'invalid',
    field: /^findings: unknown key "note"/
  },
  ...CONTAINER_REQUIRED.map((key): RuleCase => ({
    rule: '§4.1 required',
    name: `container without ${key}`,
    receipt: onContainer((c) => delete c[key]),
    expect: 'invalid',
    field: new RegExp(`^findings\\.${key}: is required`)
  })),
  ...[
    ['2', 2],
    ['true', true],
    ['1.0', raw('1.0')],
    ['1e0', raw('1e0')],
    ['"1"', '1']
  ].map(([label, value]): RuleCase => ({
    rule: '§4.1 schemaVersion',
    name: `schemaVersion ${label as string}`,
    receipt: onContainer((c) => (c.schemaVersion = value as Built)),
    expect: 'invalid',
    field: /^findings\.schemaVersion: /
  })),
  {
    rule: '§4.1 sourceReceiptId',
    name: 'empty sourceReceiptId',
    receipt: withContainer(buildContainer({ sourceReceiptId: '', items: 0 })),
    expect: 'invalid',
    field: /^findings\.sourceReceiptId: /
  },
  {
    rule: '§4.1 sourceReceiptId',
    name: 'sourceReceiptId of 160 code points (emoji)',
    receipt: withContainer(buildContainer({ sourceReceiptId: E(160) })),
    expect: 'valid'
  },
  {
    rule: '§4.1 sourceReceiptId',
    name: 'sourceReceiptId of 161 code points',
    receipt: withContainer(buildContainer({ sourceReceiptId: A(161), items: 0 })),
    expect: 'invalid',
    field: /^findings\.sourceReceiptId: must be at most 160/
  },
  {
    rule: '§4.1 reviewKind',
    name: 'reviewKind "impl"',
    receipt: onContainer((c) => (c.reviewKind = 'impl')),
    expect: 'invalid',
    field: /^findings\.reviewKind: /
  },
  {
    rule: '§4.1 backend',
    name: 'backend is free-form (mode agrees)',
    receipt: withContainer(buildContainer({ backend: 'my-own-reviewer' })),
    expect: 'valid'
  },
  {
    rule: '§4.1 backend',
    name: 'empty backend',
    receipt: withContainer(buildContainer({ backend: '' })),
    expect: 'invalid',
    field: /^findings\.backend: /
  },
  {
    rule: '§4.1 backend',
    name: 'backend of 161 code points',
    receipt: withContainer(buildContainer({ backend: A(161) })),
    expect: 'invalid',
    field: /^findings\.backend: must be at most 160/
  },
  ...[
    ['0', 0],
    ['true', true],
    ['1.0', raw('1.0')],
    ['1e0', raw('1e0')]
  ].map(([label, value]): RuleCase => ({
    rule: '§4.1 round',
    name: `round ${label as string}`,
    receipt: onContainer((c) => (c.round = value as Built)),
    expect: 'invalid',
    field: /^findings\.round: /
  })),
  {
    rule: '§4.1 round',
    name: 'round 2 without supersedesReceiptId',
    receipt: onContainer((c) => (c.round = 2)),
    expect: 'invalid',
    field: /^findings\.round: must be 1 without supersedesReceiptId/
  },
  {
    rule: '§4.1 round',
    name: 'round 1 with supersedesReceiptId',
    receipt: carried(),
    expect: 'valid'
  },
  {
    rule: '§4.1 round',
    name: 'round 1 with a parent',
    receipt: () => {
      const receipt = carried()()
      findingsOf(receipt).round = 1
      return receipt
    },
    expect: 'invalid',
    field: /^findings\.round: must be greater than 1/
  },
  {
    rule: '§4.1 round',
    name: 'round 3 over a parent (rounds are checked in selection only)',
    receipt: () => {
      const receipt = carried()()
      findingsOf(receipt).round = 3
      return receipt
    },
    expect: 'valid'
  },
  {
    rule: '§4.1 supersedesReceiptId',
    name: 'supersedesReceiptId equals sourceReceiptId',
    receipt: () => {
      const receipt = carried()()
      findingsOf(receipt).supersedesReceiptId = 'round-2'
      return receipt
    },
    expect: 'invalid',
    field: /^findings\.supersedesReceiptId: must differ/
  },
  {
    rule: '§4.1 supersedesReceiptId',
    name: 'empty supersedesReceiptId',
    receipt: () => {
      const receipt = carried()()
      findingsOf(receipt).supersedesReceiptId = ''
      return receipt
    },
    expect: 'invalid',
    field: /^findings\.supersedesReceiptId: /
  },
  {
    rule: '§4.5 null as absent',
    name: 'supersedesReceiptId null on a root',
    receipt: onContainer((c) => (c.supersedesReceiptId = null)),
    expect: 'valid'
  },
  {
    rule: '§4.1 headSha',
    name: 'empty headSha',
    receipt: onContainer((c) => (c.headSha = '')),
    expect: 'invalid',
    field: /^findings\.headSha: /
  },
  {
    rule: '§4.1 headSha',
    name: 'headSha need not be hex (no anchors)',
    receipt: withContainer(buildContainer({ headSha: 'not a sha', anchored: false })),
    expect: 'valid'
  },
  {
    rule: '§4.1 baseSha',
    name: 'baseSha null',
    receipt: onContainer((c) => (c.baseSha = null)),
    expect: 'invalid',
    field: /^findings\.baseSha: /
  },
  {
    rule: '§4.1 baseSha',
    name: 'empty baseSha',
    receipt: onContainer((c) => (c.baseSha = '')),
    expect: 'invalid',
    field: /^findings\.baseSha: /
  },
  {
    rule: '§4.1 baseSha',
    name: 'no baseSha and no anchors',
    receipt: withContainer(buildContainer({ baseSha: null })),
    expect: 'valid'
  },
  {
    rule: '§4.1 items',
    name: 'items is an object',
    receipt: onContainer((c) => (c.items = {})),
    expect: 'invalid',
    field: /^findings\.items: /
  },
  {
    rule: '§4.1 items',
    name: '200 items',
    receipt: withContainer(buildContainer({ items: 200, anchored: false })),
    expect: 'valid'
  },
  {
    rule: '§4.1 items',
    name: '201 items',
    receipt: withContainer(buildContainer({ items: 201, anchored: false })),
    expect: 'invalid',
    field: /^findings\.items: must hold at most 200/
  },
  {
    rule: '§4.1 items',
    name: 'an item that is a number',
    receipt: onContainer((c) => (c.items as Built[]).push(5)),
    expect: 'invalid',
    field: /^findings\.items\[1\]: /
  },
  {
    rule: '§4.1 unique ids',
    name: 'the same item twice',
    receipt: onContainer((c) => {
      const items = c.items as BuiltObject[]
      items.push({ ...items[0]! })
    }),
    expect: 'invalid',
    field: /^findings\.items\[1\]\.id: duplicate finding id/
  },
  {
    rule: '§4.1 unique ordinals',
    name: 'two items with ordinal 1 (different first-seen, so different ids)',
    receipt: onContainer((c) =>
      (c.items as BuiltObject[]).push(
        buildItem({ ordinal: 1, sourceReceiptId: 'round-1', firstSeenReceiptId: 'other' })
      )
    ),
    expect: 'invalid',
    field: /^findings\.items\[1\]\.ordinal: duplicate ordinal 1/
  },
  {
    rule: '§4.1 ordinals',
    name: 'ordinals 1 and 3 (not contiguous)',
    receipt: withContainer(
      buildContainer({
        items: [
          buildItem({ ordinal: 1, sourceReceiptId: 'round-1' }),
          buildItem({ ordinal: 3, sourceReceiptId: 'round-1' })
        ]
      })
    ),
    expect: 'valid'
  },
  {
    rule: '§4.1 order',
    name: 'items out of display order (P3 before P0)',
    receipt: withContainer(
      buildContainer({
        items: [
          buildItem({ ordinal: 1, sourceReceiptId: 'round-1', with: { severity: 'P3' } }),
          buildItem({ ordinal: 2, sourceReceiptId: 'round-1', with: { severity: 'P0' } })
        ]
      })
    ),
    expect: 'valid'
  },
  {
    rule: '§4.4 id derivation',
    name: 'id not derived from (firstSeenReceiptId, ordinal)',
    receipt: onItem((i) => (i.id = lineageId('round-1', 2))),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.id: is not derived/
  },
  {
    rule: '§4.4 id derivation',
    name: 'a carried item keeps its first-seen id',
    receipt: carried(),
    expect: 'valid'
  },
  {
    rule: '§4.5 re-derived on carried items',
    name: 'a carried item whose id is derived from the new receipt',
    receipt: carried((i) => (i.id = lineageId('round-2', 1))),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.id: is not derived/
  },
  {
    rule: '§4.5 lastSeen re-stamped',
    name: 'a carried item whose lastSeenReceiptId is still the parent',
    receipt: carried((i) => (i.lastSeenReceiptId = 'round-1')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.lastSeenReceiptId: must equal/
  },
  {
    rule: '§4.5 anchors bind',
    name: 'anchor.headSha differs from the container',
    receipt: onAnchor((a) => (a.headSha = SHA.head1)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.headSha: must equal/
  },
  {
    rule: '§4.5 anchors bind',
    name: 'anchor.baseSha differs from the container',
    receipt: onAnchor((a) => (a.baseSha = SHA.head3)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.baseSha: must equal/
  },
  {
    rule: '§4.5 anchors bind',
    name: 'an anchor in a container without baseSha',
    receipt: onContainer((c) => delete c.baseSha),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor: a container without baseSha/
  },
  {
    rule: '§4.1 byte bound',
    name: 'container of exactly 262,144 compact bytes',
    receipt: withContainer(containerOfBytes(262144)),
    expect: 'valid'
  },
  {
    rule: '§4.1 byte bound',
    name: 'container of 262,145 compact bytes',
    receipt: withContainer(containerOfBytes(262145)),
    expect: 'invalid',
    field: /^findings: is 262145 bytes as compact JSON/
  },
  {
    rule: '§4.1 byte bound',
    name: '2-byte characters count twice (131,072 é in bodies, over the bound)',
    receipt: () => {
      const container = containerOfBytes(262145 - 40000)
      const items = container.items as BuiltObject[]
      // Swap 40,000 one-byte characters for two-byte ones: the code points stay.
      let left = 40000
      for (const item of items) {
        const body = item.body as string
        const swap = Math.min(left, body.length)
        item.body = 'é'.repeat(swap) + body.slice(swap)
        left -= swap
      }
      return buildReceipt({ findings: container })
    },
    expect: 'invalid',
    field: /^findings: is 262145 bytes/
  },
  // The bound hit exactly with any kind of text: each unit adds `extra` bytes over the
  // `x` it replaces (a multi-byte character, an escape, `\u0001` for a control).
  ...(
    [
      ['é', 1],
      ['€', 2],
      ['😀', 3],
      ['"', 1],
      ['\n', 1],
      ['\u0001', 5],
      ['\u2028', 2]
    ] as const
  ).flatMap(([unit, extra]) =>
    [262144, 262145].map((size): RuleCase => ({
      rule: '§4.1 byte bound',
      name: `container of ${size} compact bytes with ${JSON.stringify(unit)} in the text`,
      receipt: () => {
        const container = containerOfBytes(size - 10 * extra, {
          anchored: true,
          headSha: SHA.head1
        })
        const item = (container.items as BuiltObject[])[0]!
        item.body = unit.repeat(10) + (item.body as string).slice(10)
        if (compactBytes(container) !== size) throw new Error('not the size asked for')
        return buildReceipt({ findings: container })
      },
      ...(size > 262144
        ? {
            expect: 'invalid',
            field:
              /^findings: is 262145 bytes as compact JSON, over the 262144-byte bound$/
          }
        : { expect: 'valid' })
    }))
  ),

  // ── §4.2 item ────────────────────────────────────────────────────────────
  {
    rule: '§4.2 closed keys',
    name: 'unknown item key',
    receipt: onItem((i) => (i.deferred = true)),
    expect: 'invalid',
    field: /^findings\.items\[0\]: unknown key "deferred"/
  },
  ...ITEM_REQUIRED.map((key): RuleCase => ({
    rule: '§4.2 required',
    name: `item without ${key}`,
    receipt: onItem((i) => delete i[key]),
    expect: 'invalid',
    field: new RegExp(`^findings\\.items\\[0\\]\\.${key}: is required`)
  })),
  {
    rule: '§4.2 id',
    name: 'empty id',
    receipt: onItem((i) => (i.id = '')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.id: /
  },
  ...[
    ['0', 0],
    ['true', true],
    ['1.0', raw('1.0')],
    ['1e0', raw('1e0')],
    ['"1"', '1']
  ].map(([label, value]): RuleCase => ({
    rule: '§4.2 ordinal',
    name: `ordinal ${label as string}`,
    receipt: onItem((i) => (i.ordinal = value as Built)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.ordinal: /
  })),
  {
    rule: '§4.2 ordinal',
    name: 'ordinal 2^60 (an int to Python)',
    receipt: onItem((i) => {
      i.ordinal = raw(BIG)
      i.id = bigOrdinalId()
    }),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.ordinal: .*2\^53/,
    deviation: BIG_DEVIATION
  },
  ...['Critical', 'p0', 'P4'].map((value): RuleCase => ({
    rule: '§4.2 severity',
    name: `severity ${value}`,
    receipt: onItem((i) => (i.severity = value)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.severity: /
  })),
  ...[
    ['100.0', raw('100.0')],
    ['1e2', raw('1e2')],
    ['true', true],
    ['60', 60],
    ['"75"', '75']
  ].map(([label, value]): RuleCase => ({
    rule: '§4.2 confidence',
    name: `confidence ${label as string}`,
    receipt: onItem((i) => (i.confidence = value as Built)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.confidence: /
  })),
  ...[0, 25, 50, 100].map((value): RuleCase => ({
    rule: '§4.2 confidence',
    name: `confidence ${value}`,
    receipt: onItem((i) => (i.confidence = value)),
    expect: 'valid'
  })),
  {
    rule: '§4.2 confidence',
    name: 'confidence -0 (an int 0 to Python)',
    receipt: onItem((i) => (i.confidence = raw('-0'))),
    expect: 'valid'
  },
  {
    rule: '§4.2 classification',
    name: 'classification pre-existing (an alias)',
    receipt: onItem((i) => (i.classification = 'pre-existing')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.classification: /
  },
  {
    rule: '§4.2 status',
    name: 'status deferred',
    receipt: onItem((i) => (i.status = 'deferred')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.status: /
  },
  ...(['fixed', 'not_fixed', 'withdrawn'] as const).map((value): RuleCase => ({
    rule: '§4.2 status',
    name: `status ${value}`,
    receipt: onItem((i) => (i.status = value)),
    expect: 'valid'
  })),
  {
    rule: '§4.2 title',
    name: 'empty title',
    receipt: onItem((i) => (i.title = '')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.title: /
  },
  {
    rule: '§4.2 title',
    name: 'whitespace-only title',
    receipt: onItem((i) => (i.title = '   ')),
    expect: 'valid'
  },
  {
    rule: '§4.5 code points',
    name: 'title of 240 emoji (480 UTF-16 units)',
    receipt: onItem((i) => (i.title = E(240))),
    expect: 'valid'
  },
  {
    rule: '§4.5 code points',
    name: 'title of 241 emoji',
    receipt: onItem((i) => (i.title = E(241))),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.title: must be at most 240 code points/
  },
  {
    rule: '§4.5 code points',
    name: 'title of 241 ASCII',
    receipt: onItem((i) => (i.title = A(241))),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.title: /
  },
  {
    rule: '§4.5 code points',
    name: 'body of 4000 emoji',
    receipt: onItem((i) => (i.body = E(4000))),
    expect: 'valid'
  },
  {
    rule: '§4.5 code points',
    name: 'body of 4001 code points',
    receipt: onItem((i) => (i.body = A(4000) + '😀')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.body: must be at most 4000 code points/
  },
  {
    rule: '§4.2 body',
    name: 'empty body',
    receipt: onItem((i) => (i.body = '')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.body: /
  },
  ...[
    ['R0', ['R0']],
    ['R007', ['R007']],
    ['R١ (Arabic-Indic digit)', ['R١']],
    ['R١٢३ (mixed scripts)', ['R١٢३']],
    ['no R-IDs', []],
    ['32 R-IDs', Array.from({ length: 32 }, (_, n) => `R${n}`)],
    ['R + 159 digits', [`R${'1'.repeat(159)}`]]
  ].map(([label, value]): RuleCase => ({
    rule: '§4.2 rIds',
    name: `rIds ${label as string}`,
    receipt: onItem((i) => (i.rIds = value as Built)),
    expect: 'valid'
  })),
  ...[
    ['R4a', ['R4a']],
    ['r1', ['r1']],
    ['R', ['R']],
    ['R1 twice', ['R1', 'R1']],
    ['a number', [1]],
    ['33 R-IDs', Array.from({ length: 33 }, (_, n) => `R${n}`)],
    ['R + 160 digits (161 code points)', [`R${'1'.repeat(160)}`]],
    ['R1 with a trailing newline', ['R1\n']],
    ['a string', 'R1']
  ].map(([label, value]): RuleCase => ({
    rule: '§4.2 rIds',
    name: `rIds ${label as string}`,
    receipt: onItem((i) => (i.rIds = value as Built)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.rIds/
  })),
  ...(['firstSeenReceiptId', 'lastSeenReceiptId'] as const).map((key): RuleCase => ({
    rule: '§4.2 receipt ids',
    name: `empty ${key}`,
    receipt: onItem((i) => (i[key] = '')),
    expect: 'invalid',
    field: new RegExp(`^findings\\.items\\[0\\]\\.${key}: `)
  })),
  {
    rule: '§4.2 suggestion',
    name: 'empty suggestion',
    receipt: onItem((i) => (i.suggestion = '')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.suggestion: /
  },
  {
    rule: '§4.2 suggestion',
    name: 'suggestion of 4001 code points',
    receipt: onItem((i) => (i.suggestion = A(4001))),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.suggestion: must be at most 4000/
  },
  {
    rule: '§4.2 suggestion',
    name: 'suggestion of 4000 code points',
    receipt: onItem((i) => (i.suggestion = E(4000))),
    expect: 'valid'
  },
  {
    rule: '§4.2 priorFindingId',
    name: 'priorFindingId equal to the item id',
    receipt: onItem((i) => (i.priorFindingId = i.id as string)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.priorFindingId: must differ/
  },
  {
    rule: '§4.2 priorFindingId',
    name: 'empty priorFindingId',
    receipt: onItem((i) => (i.priorFindingId = '')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.priorFindingId: /
  },
  {
    rule: '§4.5 unknown prior is a selection fault',
    name: 'priorFindingId naming no finding',
    receipt: onItem((i) => (i.priorFindingId = 'finding-nowhere')),
    expect: 'valid'
  },
  {
    rule: '§4.2 anchor',
    name: 'anchor null (flowctl raises)',
    receipt: onItem((i) => (i.anchor = null)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor: /
  },
  {
    rule: '§4.2 anchor',
    name: 'anchor a string',
    receipt: onItem((i) => (i.anchor = 'src/x.ts:1')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor: /
  },
  ...(['suggestion', 'priorFindingId'] as const).map((key): RuleCase => ({
    rule: '§4.5 null as absent',
    name: `${key} null`,
    receipt: onItem((i) => (i[key] = null)),
    expect: 'valid'
  })),

  // ── §4.3 anchor ──────────────────────────────────────────────────────────
  {
    rule: '§4.3 closed keys',
    name: 'unknown anchor key',
    receipt: onAnchor((a) => (a.line = 3)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor: unknown key "line"/
  },
  ...ANCHOR_REQUIRED.map((key): RuleCase => ({
    rule: '§4.3 required',
    name: `anchor without ${key}`,
    receipt: onAnchor((a) => delete a[key]),
    expect: 'invalid',
    field: new RegExp(`^findings\\.items\\[0\\]\\.anchor\\.${key}: is required`)
  })),
  ...[
    '`src/x.ts`',
    '**src/x.ts**',
    '*src/x.ts*',
    'src\\x.ts',
    '  src/x.ts  ',
    '` src/x.ts `',
    'src/x.ts\n',
    'x',
    `${A(1024)}`,
    'a/b..c/.d'
  ].map((value): RuleCase => ({
    rule: '§4.3 path cleaning',
    name: `path ${JSON.stringify(value.length > 40 ? `${value.slice(0, 8)}…(${value.length})` : value)}`,
    receipt: onAnchor((a) => (a.path = value)),
    expect: 'valid'
  })),
  ...[
    './x',
    'a//b',
    'src/',
    '/abs',
    'C:/x',
    'c:\\x',
    '..',
    'a/../b',
    'a/./b',
    '',
    '   ',
    '``',
    '****',
    '\\\\server\\share',
    `${A(1025)}`,
    '`./x`'
  ].map((value): RuleCase => ({
    rule: '§4.3 path cleaning',
    name: `path ${JSON.stringify(value.length > 40 ? `${value.slice(0, 8)}…(${value.length})` : value)}`,
    receipt: onAnchor((a) => (a.path = value)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.path: /
  })),
  {
    rule: '§4.3 path',
    name: 'path a number',
    receipt: onAnchor((a) => (a.path = 5)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.path: /
  },
  {
    rule: '§4.3 side',
    name: 'side "left"',
    receipt: onAnchor((a) => (a.side = 'left')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.side: /
  },
  {
    rule: '§4.3 side',
    name: 'side base',
    receipt: onAnchor((a) => (a.side = 'base')),
    expect: 'valid'
  },
  ...[
    ['0', 0],
    ['true', true],
    ['10.0', raw('10.0')],
    ['1e1', raw('1e1')]
  ].map(([label, value]): RuleCase => ({
    rule: '§4.3 startLine',
    name: `startLine ${label as string}`,
    receipt: onAnchor((a) => (a.startLine = value as Built)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.startLine: /
  })),
  ...[
    ['9 (below startLine 10)', 9],
    ['true', true],
    ['12.0', raw('12.0')],
    ['1.2e1', raw('1.2e1')]
  ].map(([label, value]): RuleCase => ({
    rule: '§4.3 endLine',
    name: `endLine ${label as string}`,
    receipt: onAnchor((a) => (a.endLine = value as Built)),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.endLine: /
  })),
  {
    rule: '§4.3 endLine',
    name: 'endLine equal to startLine',
    receipt: onAnchor((a) => (a.endLine = 10)),
    expect: 'valid'
  },
  ...(['endLine', 'originalPath', 'blobOid'] as const).map((key): RuleCase => ({
    rule: '§4.5 null as absent',
    name: `anchor ${key} null`,
    receipt: onAnchor((a) => (a[key] = null)),
    expect: 'valid'
  })),
  {
    rule: '§4.3 originalPath',
    name: 'originalPath ../x',
    receipt: onAnchor((a) => (a.originalPath = '../x')),
    expect: 'invalid',
    field: /^findings\.items\[0\]\.anchor\.originalPath: /
  },
  {
    rule: '§4.3 originalPath',
    name: 'originalPath backticked',
    receipt: onAnchor((a) => (a.originalPath = '`src/old.ts`')),
    expect: 'valid'
  },
  ...['0123ABCD', '0123ab', 'a'.repeat(65), '0123abcg', ' 0123abcd'].map(
    (value): RuleCase => ({
      rule: '§4.3 blobOid',
      name: `blobOid ${value.length > 20 ? `a×${value.length}` : JSON.stringify(value)}`,
      receipt: onAnchor((a) => (a.blobOid = value)),
      expect: 'invalid',
      field: /^findings\.items\[0\]\.anchor\.blobOid: /
    })
  ),
  ...['0123abc'.padEnd(7, '0'), 'f'.repeat(64)].map((value): RuleCase => ({
    rule: '§4.3 blobOid',
    name: `blobOid of ${value.length} hex digits`,
    receipt: onAnchor((a) => (a.blobOid = value)),
    expect: 'valid'
  })),
  {
    rule: '§4.3 SHAs',
    name: 'anchor.headSha empty (container too)',
    receipt: r((x) => {
      findingsOf(x).headSha = ''
      anchorOf(x).headSha = ''
    }),
    expect: 'invalid',
    field: /headSha: /
  },
  {
    rule: '§4.3 SHAs',
    name: 'anchor.baseSha of 161 code points (container too)',
    receipt: r((x) => {
      findingsOf(x).baseSha = A(161)
      anchorOf(x).baseSha = A(161)
    }),
    expect: 'invalid',
    field: /baseSha: must be at most 160/
  },

  // ── §4.5 quirks on the receipt ───────────────────────────────────────────
  {
    rule: '§4.5 null as absent',
    name: 'findings null',
    receipt: r((x) => (x.findings = null)),
    expect: 'absent'
  },
  {
    rule: '§4.5 null as absent',
    name: 'criteria null on an impl receipt',
    receipt: r((x) => (x.criteria = null)),
    expect: 'valid'
  },
  {
    rule: '§4.5 open envelope',
    name: 'unknown envelope keys',
    receipt: r((x) => {
      x.walkthrough = { deferred: 2 }
      x.__proto__ = 'x'
      x.zzz = [raw('1.5'), raw(BIG)]
    }),
    expect: 'valid'
  },

  // ── §5 binding ───────────────────────────────────────────────────────────
  ...[
    ['plan_review', 'plan'],
    ['impl_review', 'implementation'],
    ['completion_review', 'completion'],
    ['qa_verdict', 'qa']
  ].map(([type, kind]): RuleCase => ({
    rule: '§5 type/kind',
    name: `${type} carries ${kind}`,
    receipt: () => buildReceipt({ type, findings: buildContainer({ reviewKind: kind }) }),
    expect: 'valid'
  })),
  {
    rule: '§5 type/kind',
    name: 'impl_review carrying a plan container',
    receipt: () => buildReceipt({ findings: buildContainer({ reviewKind: 'plan' }) }),
    expect: 'invalid',
    field: /^findings\.reviewKind: must be implementation/
  },
  {
    rule: '§5 type/kind',
    name: 'a type that cannot carry findings',
    receipt: () => buildReceipt({ type: 'triage_skip' }),
    expect: 'invalid',
    field: /^type: /
  },
  {
    rule: '§5 mode/backend',
    name: 'mode differs from backend',
    receipt: r((x) => (x.mode = 'cursor')),
    expect: 'invalid',
    field: /^mode: must equal findings\.backend/
  },
  {
    rule: '§5 mode/backend',
    name: 'no mode',
    receipt: r((x) => delete x.mode),
    expect: 'invalid',
    field: /^mode: /
  },
  {
    rule: '§5 mode/backend',
    name: 'mode null',
    receipt: r((x) => (x.mode = null)),
    expect: 'invalid',
    field: /^mode: /
  },
  {
    rule: '§5 mode/backend',
    name: 'no mode and no findings (legacy)',
    receipt: () => {
      const receipt = buildReceipt({ findings: false })
      delete receipt.mode
      return receipt
    },
    expect: 'absent'
  },

  // ── §6 criteria ──────────────────────────────────────────────────────────
  {
    rule: '§6 criteria',
    name: 'G1..G3 with a note',
    receipt: completion([
      { id: 'G1', status: 'met' },
      { id: 'G2', status: 'violated', note: 'tests pin prose' },
      { id: 'G3', status: 'n/a', note: null }
    ]),
    expect: 'valid'
  },
  {
    rule: '§6 criteria',
    name: 'criteria on a legacy completion receipt',
    receipt: () =>
      buildReceipt({ type: 'completion_review', findings: false, criteria: G(1) }),
    expect: 'absent'
  },
  {
    rule: '§6 criteria',
    name: 'criteria on an impl receipt',
    receipt: r((x) => (x.criteria = G(1))),
    expect: 'invalid',
    field: /^criteria: only a completion_review/
  },
  {
    rule: '§6 criteria',
    name: 'empty criteria',
    receipt: completion([]),
    expect: 'invalid',
    field: /^criteria: /
  },
  {
    rule: '§6 criteria',
    name: 'criteria an object',
    receipt: completion({ G1: 'met' }),
    expect: 'invalid',
    field: /^criteria: /
  },
  {
    rule: '§6 criteria',
    name: '100 criteria',
    receipt: completion(G(100)),
    expect: 'valid'
  },
  {
    rule: '§6 criteria',
    name: '101 criteria',
    receipt: completion(G(101)),
    expect: 'invalid',
    field: /^criteria: must hold at most 100/
  },
  ...['G0', 'G01', 'g1', 'G', 'G1a', 'G١', 'G1\n'].map((id): RuleCase => ({
    rule: '§6 criterion id',
    name: `criterion id ${JSON.stringify(id)}`,
    receipt: completion([{ id, status: 'met' }]),
    expect: 'invalid',
    field: /^criteria\[0\]\.id: /
  })),
  {
    rule: '§6 criterion id',
    name: 'duplicate criterion id',
    receipt: completion([
      { id: 'G1', status: 'met' },
      { id: 'G1', status: 'met' }
    ]),
    expect: 'invalid',
    field: /^criteria\[1\]\.id: duplicate/
  },
  {
    rule: '§6 criterion id',
    name: 'criterion without id',
    receipt: completion([{ status: 'met' }]),
    expect: 'invalid',
    field: /^criteria\[0\]\.id: /
  },
  {
    rule: '§6 criterion status',
    name: 'status "ok"',
    receipt: completion([{ id: 'G1', status: 'ok' }]),
    expect: 'invalid',
    field: /^criteria\[0\]\.status: /
  },
  {
    rule: '§6 criterion status',
    name: 'criterion without status',
    receipt: completion([{ id: 'G1' }]),
    expect: 'invalid',
    field: /^criteria\[0\]\.status: /
  },
  {
    rule: '§6 criterion note',
    name: 'empty note',
    receipt: completion([{ id: 'G1', status: 'met', note: '' }]),
    expect: 'invalid',
    field: /^criteria\[0\]\.note: /
  },
  {
    rule: '§6 criterion note',
    name: 'note of 400 emoji',
    receipt: completion([{ id: 'G1', status: 'met', note: E(400) }]),
    expect: 'valid'
  },
  {
    rule: '§6 criterion note',
    name: 'note of 401 code points',
    receipt: completion([{ id: 'G1', status: 'met', note: A(401) }]),
    expect: 'invalid',
    field: /^criteria\[0\]\.note: must be at most 400/
  },
  {
    rule: '§6 criterion note',
    name: 'note with newlines',
    receipt: completion([{ id: 'G1', status: 'met', note: 'two\nlines' }]),
    expect: 'valid'
  },
  {
    rule: '§6 closed keys',
    name: 'unknown criterion key',
    receipt: completion([{ id: 'G1', status: 'met', text: 'x' }]),
    expect: 'invalid',
    field: /^criteria\[0\]: unknown key "text"/
  },
  {
    rule: '§6 criteria entries',
    name: 'a criterion that is a string',
    receipt: completion(['G1: met']),
    expect: 'invalid',
    field: /^criteria\[0\]: /
  },

  // ── the Ralph guard (SPEC §2.4, reference §13) ───────────────────────────
  ...(
    [
      ['plan-fn-7.json', 'plan_review', 'fn-7'],
      ['plan-fn-7-abc.json', 'plan_review', 'fn-7-abc'],
      ['plan-fn-7-receipt-gate.json', 'plan_review', 'fn-7-receipt-gate'],
      ['impl-fn-7.1.json', 'impl_review', 'fn-7.1'],
      ['impl-fn-7-receipt-gate.12.json', 'impl_review', 'fn-7-receipt-gate.12'],
      ['completion-fn-7-x.json', 'completion_review', 'fn-7-x'],
      ['impl-fn-٧.١.json', 'impl_review', 'fn-٧.١'],
      ['qa-fn-7.json', 'qa_verdict', 'anything'],
      ['impl-fn-7-receipt-gate.4.triage.json', 'impl_review', 'whatever'],
      ['plan-fn-7-Receipt.json', 'completion_review', 'not-checked']
    ] as const
  ).map(([file, type, id]): RuleCase => ({
    rule: 'guard name forms',
    name: `${file} as ${type} ${id}`,
    file,
    receipt: () => buildReceipt({ type, id, findings: false }),
    expect: 'absent'
  })),
  ...(
    [
      ['plan-fn-7.json', 'impl_review', 'fn-7', /^type mismatch: expected plan_review/],
      ['plan-fn-7-abc.json', 'plan_review', 'fn-7', /^id mismatch: expected fn-7-abc/],
      [
        'impl-fn-7.1.json',
        'plan_review',
        'fn-7.1',
        /^type mismatch: expected impl_review/
      ],
      ['impl-fn-7.1.json', 'impl_review', 'fn-7.2', /^id mismatch: expected fn-7\.1/],
      [
        'completion-fn-7-receipt-gate.json',
        'impl_review',
        'fn-7-receipt-gate',
        /^type mismatch: expected completion_review/
      ],
      [
        'completion-fn-7-receipt-gate.json',
        'completion_review',
        'fn-7',
        /^id mismatch: expected fn-7-receipt-gate/
      ]
    ] as const
  ).map(([file, type, id, field]): RuleCase => ({
    rule: 'guard name forms',
    name: `${file} as ${type} ${id}`,
    file,
    receipt: () => buildReceipt({ type, id, findings: false }),
    expect: 'unreadable',
    field
  })),
  ...(
    [
      ['no type', (x: BuiltObject) => delete x.type, /^missing type\/id/],
      ['empty id', (x: BuiltObject) => (x.id = ''), /^missing type\/id/],
      ['id null', (x: BuiltObject) => (x.id = null), /^missing type\/id/],
      ['verdict LGTM', (x: BuiltObject) => (x.verdict = 'LGTM'), /verdict/],
      ['verdict lowercase', (x: BuiltObject) => (x.verdict = 'ship'), /verdict/],
      ['no verdict', (x: BuiltObject) => delete x.verdict, /verdict/]
    ] as const
  ).map(([name, edit, field]): RuleCase => ({
    rule: 'guard envelope',
    name,
    receipt: r(edit),
    expect: 'unreadable',
    field
  })),
  {
    rule: 'guard envelope',
    name: 'a top-level array',
    receipt: () => [buildReceipt()],
    expect: 'unreadable',
    field: /object/
  },
  {
    rule: 'guard envelope',
    name: 'type a number (no name form)',
    receipt: r((x) => (x.type = 5)),
    expect: 'unreadable',
    field: /^missing type\/id/,
    deviation: {
      why: 'SPEC §2.4 wants non-empty strings; the guard only tests truthiness',
      flowctl: 'invalid'
    }
  },
  ...(['NEEDS_WORK', 'MAJOR_RETHINK', 'NEEDS_HUMAN', 'SHIP'] as const).map(
    (verdict): RuleCase => ({
      rule: 'guard envelope',
      name: `verdict ${verdict}`,
      receipt: () => buildReceipt({ verdict }),
      expect: 'valid'
    })
  )
]

/** The id flowctl derives for (round-1, 2^60): the digest of the exact decimal digits. */
function bigOrdinalId(): string {
  const digest = createHash('sha256')
    .update(`flow-next-finding-v1\0round-1\0${BIG}`, 'utf8')
    .digest('hex')
  return `finding-${digest.slice(0, 32)}`
}
