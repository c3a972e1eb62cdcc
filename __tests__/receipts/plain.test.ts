/**
 * The fast path of the findings check (`plainContainer`, issue 7) may answer only what
 * the zod schemas would: when it accepts a container, the schemas accept it too and
 * return the same value, key order included. When it is unsure, the schemas decide.
 * It must also be used: every valid container of the corpus takes it.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { checkContainer } from '../../src/receipts/findings.js'
import {
  JsonFloat,
  readJsonBytes,
  type JsonObject,
  type JsonValue
} from '../../src/receipts/json.js'
import { plainContainer, plainCriteria, plainEnvelope } from '../../src/receipts/plain.js'
import { receiptSchemas } from '../../src/receipts/schema.js'
import { BASES, isObject, mutated, mutationArb } from '../support/mutations.js'
import { referenceBytes } from '../support/reference-bytes.js'
import {
  buildContainer,
  buildItem,
  jsonBytes,
  raw,
  SHA,
  type Built,
  type BuiltObject
} from '../support/receipt-builders.js'

const RUNS = Number(process.env.FC_RUNS ?? '') || 1000
const {
  AnchorSchema,
  CriteriaSchema,
  EnvelopeSchema,
  FindingItemSchema,
  FindingsContainerSchema
} = receiptSchemas()

/** A built value as the core receives it: read from its JSON bytes (null prototypes, float tokens). */
function read(value: Built): JsonValue {
  const result = readJsonBytes(jsonBytes(value))
  if (!result.ok) throw new Error('test input is not JSON')
  return result.value
}

/** `schema` accepts `value` and gives `plain`, the fast path's answer for it. */
function expectSchemaGives(
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown } },
  value: unknown,
  plain: unknown
): void {
  const parsed = schema.safeParse(value)
  expect(parsed.success).toBe(true)
  // `toStrictEqual` compares values and types; the JSON text compares key order too.
  expect(plain).toStrictEqual(parsed.data)
  expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed.data))
}

/**
 * The fast path agrees with the schemas on `value`, and measured its items' prose as the
 * reference does (NaN where a text holds a lone surrogate); returns whether it took it.
 */
function agrees(value: JsonValue): boolean {
  const plain = plainContainer(value as JsonObject)
  if (plain === undefined) return false
  expectSchemaGives(FindingsContainerSchema, value, plain.value)
  let prose = 0
  for (const item of plain.value.items) {
    for (const text of [item.title, item.body, item.suggestion]) {
      if (typeof text === 'string') prose += referenceBytes(text) ?? Number.NaN
    }
  }
  expect(plain.prose).toBe(prose)
  return true
}

const CONTAINERS: Array<{ name: string; value: Built }> = BASES.filter(
  (base) => isObject(base.value) && isObject(base.value.findings)
).map((base) => ({ name: base.name, value: (base.value as BuiltObject).findings! }))

describe('plainContainer', () => {
  it('lists the keys of each schema, in the schema order (the value is built in it)', () => {
    const full = buildContainer({ items: 1, supersedesReceiptId: 'round-0', round: 2 })
    const item = (full.items as BuiltObject[])[0]!
    item.priorFindingId = 'finding-0'
    const value = read(full) as JsonObject
    const plain = plainContainer(value)!.value
    const out = plain.items[0]!
    expect(Object.keys(plain)).toEqual(Object.keys(FindingsContainerSchema.def.shape))
    expect(Object.keys(out)).toEqual(Object.keys(FindingItemSchema.def.shape))
    expect(Object.keys(out.anchor!)).toEqual(Object.keys(AnchorSchema.def.shape))
  })

  it("reads a shape's keys directly: none is a member of Object.prototype", () => {
    const criterion = CriteriaSchema.def.element as unknown as {
      def: { shape: object }
    }
    for (const shape of [
      FindingsContainerSchema.def.shape,
      FindingItemSchema.def.shape,
      AnchorSchema.def.shape,
      criterion.def.shape
    ]) {
      for (const key of Object.keys(shape))
        expect([key, key in Object.prototype]).toEqual([key, false])
    }
  })

  it('takes every valid container of the corpus, with the value the schemas give', () => {
    expect(CONTAINERS.length).toBeGreaterThan(10)
    for (const { name, value } of CONTAINERS) {
      const container = read(value)
      if (!FindingsContainerSchema.safeParse(container).success) continue
      expect([name, agrees(container)]).toEqual([name, true])
    }
  })

  it('builds fresh objects and arrays, as the schemas do', () => {
    const value = read(buildContainer({ items: 2 })) as JsonObject
    const plain = plainContainer(value)!.value
    expect(plain).not.toBe(value)
    expect(plain.items).not.toBe(value.items)
    expect(plain.items[0]).not.toBe((value.items as JsonValue[])[0])
    expect(plain.items[0]!.rIds).not.toBe((value.items as JsonObject[])[0]!.rIds)
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype)
  })

  // Each of these the schemas refuse, or accept only through a rule the fast path does
  // not take: the fast path must leave them to the schemas.
  const item = (extra: BuiltObject): Built =>
    buildContainer({
      items: [
        buildItem({ with: extra, anchor: { headSha: SHA.head2, baseSha: SHA.base } })
      ]
    })
  const unsure: Array<[string, Built]> = [
    ['an unknown container key', { ...buildContainer(), extra: 1 }],
    ['schemaVersion 1.0', { ...buildContainer(), schemaVersion: raw('1.0') }],
    ['round 1e0', { ...buildContainer(), round: raw('1e0') }],
    ['round 0', { ...buildContainer(), round: 0 }],
    [
      'baseSha null',
      { ...buildContainer({ baseSha: null, anchored: false }), baseSha: null }
    ],
    ['an empty sourceReceiptId', { ...buildContainer(), sourceReceiptId: '' }],
    ['a 161-code-point id', { ...buildContainer(), backend: 'x'.repeat(161) }],
    ['201 items', buildContainer({ items: 201, anchored: false })],
    ['items not an array', { ...buildContainer(), items: {} }],
    ['an item that is not an object', { ...buildContainer(), items: [[]] }],
    ['anchor null', item({ anchor: null })],
    ['confidence 100.0', item({ confidence: raw('100.0') })],
    ['confidence "75"', item({ confidence: '75' })],
    ['confidence 10', item({ confidence: 10 })],
    ['ordinal 2^53', item({ ordinal: raw('9007199254740992') })],
    ['a repeated R-ID', item({ rIds: ['R1', 'R1'] })],
    ['33 R-IDs', item({ rIds: Array.from({ length: 33 }, (_, i) => `R${i + 1}`) })],
    ['R-ID R4a', item({ rIds: ['R4a'] })],
    ['an unknown item key', item({ extra: null })],
    ['a title of 241 astral characters', item({ title: '😀'.repeat(241) })],
    ['severity p1', item({ severity: 'p1' })],
    ['suggestion empty', item({ suggestion: '' })],
    ['an absolute anchor path', item({ anchor: { ...anchor(), path: '/etc/passwd' } })],
    ['a .. segment', item({ anchor: { ...anchor(), path: 'src/../x' } })],
    ['side left', item({ anchor: { ...anchor(), side: 'left' } })],
    ['endLine 1.5', item({ anchor: { ...anchor(), endLine: raw('1.5') } })],
    ['blobOid in capitals', item({ anchor: { ...anchor(), blobOid: 'ABCDEF0' } })],
    ['an unknown anchor key', item({ anchor: { ...anchor(), line: 3 } })]
  ]
  it.each(unsure)('leaves %s to the schemas', (_, value) => {
    const container = read(value)
    expect(plainContainer(container as JsonObject)).toBeUndefined()
  })

  it('leaves a __proto__ key to the schemas', () => {
    const text = `{"__proto__":1,${JSON.stringify(buildContainer()).slice(1)}`
    const result = readJsonBytes(new TextEncoder().encode(text))
    expect(result.ok && plainContainer(result.value as JsonObject)).toBeUndefined()
  })

  // Valid through rules the fast path takes itself: the same value as the schemas.
  const sure: Array<[string, Built]> = [
    [
      'null for every absent-or-null key',
      item({
        suggestion: null,
        priorFindingId: null,
        anchor: { ...anchor(), originalPath: null, endLine: null, blobOid: null }
      })
    ],
    ['no anchor and no baseSha', buildContainer({ baseSha: null, anchored: false })],
    ['R-IDs in other digits', item({ rIds: ['R١٢', 'R３'] })],
    [
      'an anchor path flowctl cleans',
      item({ anchor: { ...anchor(), path: ' `**src/a.ts**` ' } })
    ],
    ['a Windows path', item({ anchor: { ...anchor(), path: 'src\\a.ts' } })],
    [
      'a negative endLine (the schema takes any integer; findings.ts relates it)',
      item({ anchor: { ...anchor(), endLine: -3 } })
    ],
    ['confidence 0', item({ confidence: 0 })],
    ['200 items', buildContainer({ items: 200 })],
    ['a title of 240 astral characters', item({ title: '😀'.repeat(240) })],
    ['no items', buildContainer({ items: [] })]
  ]
  it.each(sure)('takes %s with the schemas’ value', (_, value) => {
    expect(agrees(read(value))).toBe(true)
  })

  it('agrees with the schemas on mutated corpus containers', () => {
    let taken = 0
    fc.assert(
      fc.property(
        fc.nat({ max: CONTAINERS.length - 1 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        (index, mutations) => {
          const container = read(mutated(CONTAINERS[index]!.value, mutations))
          if (isObject(container as Built) && agrees(container)) taken++
        }
      ),
      { numRuns: RUNS }
    )
    // Some mutations leave a valid container (a string changed, an optional key dropped).
    expect(taken).toBeGreaterThan(0)
  })

  it('gives checkContainer the answer it gives without the fast path', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: CONTAINERS.length - 1 }),
        fc.array(mutationArb, { minLength: 0, maxLength: 2 }),
        (index, mutations) => {
          const container = read(mutated(CONTAINERS[index]!.value, mutations))
          const checked = checkContainer(container)
          const parsed = isObject(container as Built)
            ? FindingsContainerSchema.safeParse(container)
            : null
          if (checked.ok) expect(parsed?.success).toBe(true)
          if (parsed?.success === false) expect(checked.ok).toBe(false)
        }
      ),
      { numRuns: RUNS }
    )
  })
})

const WITH_CRITERIA: Array<{ name: string; value: Built }> = BASES.filter(
  (base) => isObject(base.value) && Array.isArray(base.value.criteria)
).map((base) => ({ name: base.name, value: (base.value as BuiltObject).criteria! }))

/** plainCriteria agrees with the schema on `value`; returns whether it took it. */
function criteriaAgree(value: JsonValue): boolean {
  const plain = plainCriteria(value)
  if (plain === undefined) return false
  expectSchemaGives(CriteriaSchema, value, plain)
  return true
}

describe('plainCriteria', () => {
  it('takes every valid criteria list of the corpus, with the value the schema gives', () => {
    expect(WITH_CRITERIA.length).toBeGreaterThan(0)
    for (const { name, value } of WITH_CRITERIA) {
      const list = read(value)
      if (!CriteriaSchema.safeParse(list).success) continue
      expect([name, criteriaAgree(list)]).toEqual([name, true])
    }
  })

  const criterion = (extra: BuiltObject): Built => [{ id: 'G1', status: 'met', ...extra }]
  it.each<[string, Built]>([
    ['an empty list', []],
    [
      '101 criteria',
      Array.from({ length: 101 }, (_, i) => ({ id: `G${i + 1}`, status: 'met' }))
    ],
    ['G0', criterion({ id: 'G0' })],
    ['G01', criterion({ id: 'G01' })],
    ['status unknown', criterion({ status: 'unknown' })],
    ['an empty note', criterion({ note: '' })],
    ['a 401-code-point note', criterion({ note: 'n'.repeat(401) })],
    ['an unknown key', criterion({ extra: 1 })],
    ['a criterion that is not an object', ['G1']],
    ['not a list', { id: 'G1', status: 'met' }]
  ])('leaves %s to the schema', (_, value) => {
    expect(plainCriteria(read(value))).toBeUndefined()
  })

  it.each<[string, Built]>([
    ['a note', criterion({ note: 'n'.repeat(400) })],
    ['a null note', criterion({ note: null })],
    [
      'n/a and violated',
      [
        { id: 'G1', status: 'n/a' },
        { id: 'G2', status: 'violated' }
      ]
    ],
    // A repeat is refused by findings.ts, after the schema: not the schema's rule.
    [
      'a repeated id',
      [
        { id: 'G1', status: 'met' },
        { id: 'G1', status: 'met' }
      ]
    ],
    [
      '100 criteria',
      Array.from({ length: 100 }, (_, i) => ({ id: `G${i + 1}`, status: 'met' }))
    ]
  ])('takes %s with the schema’s value', (_, value) => {
    expect(criteriaAgree(read(value))).toBe(true)
  })

  it('agrees with the schema on mutated corpus criteria', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: WITH_CRITERIA.length - 1 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
        (index, mutations) => {
          criteriaAgree(read(mutated(WITH_CRITERIA[index]!.value, mutations)))
        }
      ),
      { numRuns: RUNS }
    )
  })
})

describe('plainEnvelope', () => {
  const FIELD_VALUES: Array<JsonValue | undefined> = [
    undefined,
    null,
    '',
    'impl_review',
    'fn-1.2',
    'SHIP',
    'NEEDS_WORK',
    'MAJOR_RETHINK',
    'NEEDS_HUMAN',
    'ship',
    'SHIP ',
    '__proto__',
    0,
    1,
    true,
    [],
    new JsonFloat('1.0'),
    Object.create(null) as JsonObject
  ]
  it('agrees with the schema on every combination of field values', () => {
    let taken = 0
    for (const type of FIELD_VALUES)
      for (const id of FIELD_VALUES)
        for (const verdict of FIELD_VALUES) {
          const fields = { type, id, verdict }
          const plain = plainEnvelope(fields)
          const parsed = EnvelopeSchema.safeParse(fields)
          if (plain === undefined) {
            // Only what the schema refuses, or a value this test must see it take.
            if (parsed.success) throw new Error(`not taken: ${JSON.stringify(fields)}`)
            continue
          }
          taken++
          expectSchemaGives(EnvelopeSchema, fields, plain)
        }
    // Every non-empty string for type and id (9 × 9 of them) with the four verdicts.
    expect(taken).toBe(9 * 9 * 4)
  })
})

function anchor(): BuiltObject {
  return {
    path: 'src/a.ts',
    side: 'head',
    startLine: 3,
    baseSha: SHA.base,
    headSha: SHA.head2,
    endLine: 4,
    originalPath: 'src/b.ts',
    blobOid: '0123abcd'
  }
}
