/**
 * The 256 KiB bound counts a valid container by its shape (`validContainerBytes`, issue
 * 7): free text is measured, what the rules fix is not. Held here to the reference (the
 * UTF-8 length of `JSON.stringify` of the container as read) on generated containers
 * with every kind of text, every optional key absent, null or present, and at the bound.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  boundedTextBytes,
  validContainerBytes
} from '../../src/receipts/compact-bytes.js'
import { checkContainer } from '../../src/receipts/findings.js'
import { readJsonBytes, type JsonValue } from '../../src/receipts/json.js'
import { hasLoneSurrogate } from '../../src/receipts/text.js'
import { referenceBytes } from '../support/reference-bytes.js'
import {
  buildContainer,
  buildItem,
  containerOfBytes,
  jsonBytes,
  SHA,
  type Built,
  type BuiltObject
} from '../support/receipt-builders.js'

const RUNS = Number(process.env.FC_RUNS ?? '') || 1000
const BOUND = 256 * 1024

/** A built value as the core receives it: read from its JSON bytes. */
function read(value: Built): JsonValue {
  const result = readJsonBytes(jsonBytes(value))
  if (!result.ok) throw new Error(`test input is not JSON: ${result.reason}`)
  return result.value
}

// Units with nothing to escape: ASCII, 2-, 3- and 4-byte characters, the highest BMP ones.
const PLAIN_UNITS = ['a', ' ', '\u007f', 'é', '€', '\u2028', '\ue000', '\uffff', '😀']
const plainUnit = fc.constantFrom(...PLAIN_UNITS)
// Text of every kind: those, what JSON escapes, controls, lone surrogates (refused by the
// bound: flowctl cannot encode them).
const unit = fc.constantFrom(
  ...PLAIN_UNITS,
  'Z',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\ud800',
  '\udfff'
)
// `size: 'max'`: lengths up to the bound (fast-check keeps them near 10 by default), so
// that long texts take the regex path of the string count, short ones its loop.
const text = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit, minLength: 1, maxLength, size: 'max' }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength, size: 'max' }),
    fc.string({ minLength: 1, maxLength, size: 'max' })
  )
// Mostly without lone surrogates, so that most generated containers are valid.
const cleanText = (maxLength: number): fc.Arbitrary<string> =>
  text(maxLength).filter((value) => !hasLoneSurrogate(value))
const someText = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 9, arbitrary: cleanText(maxLength) },
    { weight: 1, arbitrary: text(maxLength) }
  )

/** Absent (undefined), null, or a value: the three states of an `orAbsent` key. */
const orAbsent = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> =>
  fc.oneof(fc.constant(undefined), fc.constant(null), value)

const path = fc.oneof(
  fc.constantFrom('src/a.ts', 'src/é/😀.ts', '`src/b.ts`', '**src/c.ts**', 'src\\d.ts'),
  fc.stringMatching(/^[a-z]{1,8}(\/[a-z0-9._-]{1,8}){0,3}$/)
)
// `\p{Nd}`: ASCII, Arabic-Indic (2 bytes), Devanagari (3) and mathematical (astral) digits.
const rid = fc
  .array(fc.constantFrom('0', '7', '٣', '९', '𝟘'), { minLength: 1, maxLength: 4 })
  .map((digits) => `R${digits.join('')}`)

const anchorArb = fc.record(
  {
    path,
    side: fc.constantFrom('base', 'head'),
    startLine: fc.integer({ min: 1, max: 100000 }),
    originalPath: orAbsent(path),
    endLine: orAbsent(fc.integer({ min: 100000, max: Number.MAX_SAFE_INTEGER })),
    blobOid: orAbsent(fc.stringMatching(/^[0-9a-f]{7,64}$/))
  },
  { requiredKeys: ['path', 'side', 'startLine'] }
)

const itemArb = fc.record({
  severity: fc.constantFrom('P0', 'P1', 'P2', 'P3'),
  confidence: fc.constantFrom(0, 25, 50, 75, 100),
  classification: fc.constantFrom('introduced', 'pre_existing'),
  status: fc.constantFrom('open', 'fixed', 'not_fixed', 'withdrawn'),
  title: someText(40),
  body: someText(200),
  rIds: fc.uniqueArray(rid, { maxLength: 4 }),
  firstSeenReceiptId: someText(20),
  suggestion: orAbsent(someText(300)),
  priorFindingId: orAbsent(someText(20)),
  anchor: fc.option(anchorArb, { nil: undefined })
})

const containerArb = fc.record({
  sourceReceiptId: someText(30),
  reviewKind: fc.constantFrom('plan', 'implementation', 'completion', 'qa'),
  backend: someText(20),
  headSha: someText(40),
  baseSha: fc.option(someText(40), { nil: undefined }),
  supersedesReceiptId: orAbsent(someText(30)),
  items: fc.array(itemArb, { maxLength: 6 }),
  ordinalBase: fc.integer({ min: 1, max: 1_000_000 })
})

type Generated = typeof containerArb extends fc.Arbitrary<infer T> ? T : never

/** Drops the keys whose value is undefined (absent), keeping nulls. */
function present(object: Record<string, unknown>): BuiltObject {
  const out: BuiltObject = {}
  for (const [key, value] of Object.entries(object))
    if (value !== undefined) out[key] = value as Built
  return out
}

/** A container that passes every rule but the bound (unless a text holds a lone surrogate). */
function build(generated: Generated): BuiltObject {
  const { sourceReceiptId, headSha, baseSha, supersedesReceiptId: parent } = generated
  // The builder derives each id and stamps lastSeenReceiptId; the generated fields replace
  // the rest (absent ones stay absent).
  const items = generated.items.map(({ anchor, ...fields }, index) =>
    buildItem({
      ordinal: generated.ordinalBase + index,
      sourceReceiptId,
      firstSeenReceiptId: fields.firstSeenReceiptId,
      anchor: false,
      with: present({
        ...fields,
        anchor:
          anchor === undefined || baseSha === undefined
            ? undefined
            : present({ ...anchor, baseSha, headSha })
      })
    })
  )
  const container = buildContainer({
    sourceReceiptId,
    reviewKind: generated.reviewKind,
    backend: generated.backend,
    round: parent === undefined || parent === null ? 1 : 2,
    headSha,
    baseSha: baseSha ?? null,
    items
  })
  if (parent !== undefined) container.supersedesReceiptId = parent
  return container
}

describe('validContainerBytes', () => {
  it('counts what JSON.stringify writes, for every container the check accepts', () => {
    let accepted = 0
    let lone = 0
    fc.assert(
      fc.property(containerArb, (generated) => {
        const value = read(build(generated))
        const expected = referenceBytes(value)
        const checked = checkContainer(value)
        if (checked.ok) {
          accepted++
          expect(validContainerBytes(checked.value)).toBe(expected)
        } else if (expected === null) {
          lone++
        }
      }),
      { numRuns: RUNS }
    )
    // Most generated containers are valid; some carry a lone surrogate.
    expect(accepted).toBeGreaterThan(RUNS / 2)
    expect(lone).toBeGreaterThan(0)
  })

  it('says null when a string holds an unpaired surrogate, wherever it is', () => {
    const base = build({
      sourceReceiptId: 'round-2',
      reviewKind: 'implementation',
      backend: 'codex',
      headSha: SHA.head2,
      baseSha: SHA.base,
      supersedesReceiptId: 'round-1',
      ordinalBase: 1,
      items: []
    })
    const item = buildItem({
      ordinal: 1,
      sourceReceiptId: 'round-2',
      anchor: { headSha: SHA.head2, baseSha: SHA.base }
    })
    const places: Array<(c: BuiltObject, i: BuiltObject) => void> = [
      (c) => (c.backend = 'co\ud800dex'),
      (c) => (c.supersedesReceiptId = '\udc00round-1'),
      (_, i) => (i.title = 'x\ud800'),
      (_, i) => (i.body = '\udfff'),
      (_, i) => (i.suggestion = 'a'.repeat(40) + '\ud800'),
      (_, i) => (i.priorFindingId = 'p\udc00'),
      (_, i) => (i.rIds = ['R1']),
      (_, i) => ((i.anchor as BuiltObject).originalPath = 'src/\ud800.ts')
    ]
    for (const [index, place] of places.entries()) {
      const container = structuredClone(base)
      const copy = structuredClone(item)
      place(container, copy)
      container.items = [copy]
      const value = read(container)
      const checked = checkContainer(value)
      // R1 is the control: nothing lone, accepted.
      if (index === 6) {
        expect(checked.ok).toBe(true)
        continue
      }
      expect(referenceBytes(value)).toBeNull()
      expect(checked).toEqual({
        ok: false,
        reasons: [
          'findings: holds an unpaired surrogate (flowctl cannot encode it as UTF-8)'
        ]
      })
    }
  })

  // Each unit adds `extra` bytes over the ASCII `x` it replaces.
  it.each([
    ['é', 1],
    ['€', 2],
    ['😀', 3],
    ['"', 1],
    ['\n', 1],
    ['\u0001', 5],
    ['\u2028', 2]
  ])('puts the bound exactly at 262144 bytes with %j in the text', (text, extra) => {
    for (const over of [0, 1]) {
      const container = containerOfBytes(BOUND - 10 * extra + over, {
        anchored: true,
        headSha: SHA.head1
      })
      const item = (container.items as BuiltObject[])[0]!
      const body = item.body as string
      expect(body.length).toBeGreaterThan(10)
      item.body = text.repeat(10) + body.slice(10)
      const value = read(container)
      expect(referenceBytes(value)).toBe(BOUND + over)
      const checked = checkContainer(value)
      if (over === 0) {
        expect(checked.ok).toBe(true)
        if (checked.ok) expect(validContainerBytes(checked.value)).toBe(BOUND)
      } else {
        expect(checked).toEqual({
          ok: false,
          reasons: [
            'findings: is 262145 bytes as compact JSON, over the 262144-byte bound'
          ]
        })
      }
    }
  })
})

describe('boundedTextBytes', () => {
  /** The schemas' `boundedString` (code points as Python counts them), then the reference. */
  const expected = (value: unknown, max: number): number =>
    typeof value !== 'string' || value.length === 0 || [...value].length > max
      ? -1
      : (referenceBytes(value) ?? Number.NaN)

  it('checks the bound and measures as the schemas and the reference do', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.oneof(
          fc.array(unit, { maxLength: 30, size: 'max' }),
          // Nothing to escape, no lone surrogate: the one-pass path, pairs counted.
          fc.array(plainUnit, { maxLength: 30, size: 'max' })
        ),
        (max, units) => {
          const value = units.join('')
          expect(boundedTextBytes(value, max)).toBe(expected(value, max))
        }
      ),
      { numRuns: RUNS }
    )
  })

  it('reads a text longer than its bound in units in one pass, pairs counted', () => {
    const pair = '😀'
    const cases: Array<[string, number]> = []
    for (const max of [1, 40, 4000]) {
      for (const extra of [-1, 0, 1]) {
        // `max + extra` code points, pairs among them: longer than `max` in units.
        const points = max + extra
        if (points < 1) continue
        const pairs = Math.min(points, Math.ceil(max / 3))
        const plain = pair.repeat(pairs) + 'a'.repeat(points - pairs)
        cases.push([plain, max])
        cases.push(['a'.repeat(points - pairs) + pair.repeat(pairs), max])
        // Something to escape, or a lone surrogate, after the pairs: the slow path.
        for (const tail of ['"', '\n', '\ud800', 'é', '\uffff']) {
          const text = plain.slice(0, -1) + tail
          cases.push([text, max])
        }
      }
    }
    for (const [text, max] of cases) {
      expect(boundedTextBytes(text, max)).toBe(expected(text, max))
    }
    // Twice the bound in units is over it in code points, whatever the text.
    expect(boundedTextBytes(pair.repeat(41), 40)).toBe(-1)
    expect(boundedTextBytes(pair.repeat(40), 40)).toBe(162)
  })

  it('refuses what is not a non-empty string', () => {
    for (const value of ['', null, undefined, 1, ['a'], { a: 'b' }])
      expect(boundedTextBytes(value, 10)).toBe(-1)
  })
})
