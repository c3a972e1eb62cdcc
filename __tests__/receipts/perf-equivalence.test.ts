/**
 * The performance changes of issue 7 answer exactly what the code they replaced
 * answered: each fast path is checked against the former expression, kept here as the
 * reference, on generated inputs (every kind of string: ASCII, escapes, controls, astral
 * characters, lone surrogates) and on the edge cases by name.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { jsonStringBytes } from '../../src/receipts/compact-bytes.js'
import {
  JsonBigInt,
  JsonFloat,
  MAX_JSON_DEPTH,
  decodeUtf8,
  parseJsonText,
  parseJsonTokens,
  type JsonRead,
  type JsonValue
} from '../../src/receipts/json.js'
import { cleanMarkdown, safePath } from '../../src/receipts/paths.js'
import { LIMITS } from '../../src/receipts/limits.js'
import { referenceBytes } from '../support/reference-bytes.js'
import {
  codePointLength,
  hasLoneSurrogate,
  withinCodePoints
} from '../../src/receipts/text.js'

const RUNS = Number(process.env.FC_RUNS ?? 1000)

function referenceCodePoints(value: string): number {
  let pairs = 0
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++
        i++
      }
    }
  }
  return value.length - pairs
}

/** safePath without its fast path (the code as it was). */
function referenceSafePath(value: string): string | null {
  const path = cleanMarkdown(value).replaceAll('\\', '/')
  if (
    path === '' ||
    !withinCodePoints(path, LIMITS.path) ||
    path.startsWith('/') ||
    /^[A-Za-z]:\//.test(path)
  )
    return null
  return path.split('/').some((part) => part === '' || part === '.' || part === '..')
    ? null
    : path
}

// Strings of every kind: UTF-16 units at random (lone surrogates included), full Unicode,
// and the characters JSON escapes.
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom(
      '"',
      '\\',
      '\b',
      '\f',
      '\n',
      '\r',
      '\t',
      '\u0000',
      '\u001f',
      '\u007f',
      '\u2028',
      'é',
      '😀',
      '\ud800',
      '\udc00',
      'a'
    ),
    maxLength: 30
  })
)

// Longer strings too: jsonStringBytes measures short strings (32 units or fewer) with a
// loop and longer ones with a regex, so both paths see every kind of unit.
const longString = fc
  .array(anyString, { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''))

const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: false }),
    anyString,
    longString,
    fc.array(tie('value'), { maxLength: 5 }),
    fc
      .array(fc.tuple(fc.oneof(anyString, longString), tie('value')), { maxLength: 5 })
      .map((entries) =>
        Object.assign(Object.create(null) as object, Object.fromEntries(entries))
      )
  )
})).value

describe('issue 7 fast paths agree with the code they replaced', () => {
  it('jsonStringBytes = UTF-8 length of JSON.stringify, null on an unpaired surrogate', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, longString), (text) => {
        expect(jsonStringBytes(text)).toBe(referenceBytes(text))
      }),
      { numRuns: RUNS }
    )
  })

  it('jsonStringBytes on each side of the short-string bound', () => {
    const units = [
      'a',
      '"',
      '\\',
      '\n',
      '\u0001',
      '\u007f',
      'é',
      '😀',
      '\ud800',
      '\udc00',
      '\u2028'
    ]
    for (const length of [0, 1, 31, 32, 33, 34, 64, 4000]) {
      for (const unit of units) {
        for (const text of [
          'a'.repeat(length),
          'a'.repeat(Math.max(0, length - unit.length)) + unit,
          unit + 'a'.repeat(Math.max(0, length - unit.length)),
          unit.repeat(Math.ceil(length / unit.length))
        ]) {
          expect(jsonStringBytes(text)).toBe(referenceBytes(text))
        }
      }
    }
  })

  it('codePointLength and hasLoneSurrogate', () => {
    fc.assert(
      fc.property(anyString, fc.string({ unit: 'binary', maxLength: 300 }), (a, b) => {
        for (const text of [a, b, a + b]) {
          expect(codePointLength(text)).toBe(referenceCodePoints(text))
          expect(hasLoneSurrogate(text)).toBe(/\p{Surrogate}/u.test(text))
        }
      }),
      { numRuns: RUNS }
    )
    for (const text of [
      '',
      '\ud800',
      '\udc00\ud800',
      '😀',
      '\ud83d\ude00\ud83d',
      'x'.repeat(5000)
    ])
      expect(codePointLength(text)).toBe(referenceCodePoints(text))
  })

  it('safePath', () => {
    const segment = fc.oneof(
      fc.constantFrom(
        '.',
        '..',
        '',
        'src',
        'a.ts',
        '-x',
        '_',
        'C:',
        ' a',
        '`b`',
        '**c**',
        'd\\e'
      ),
      fc.string({
        unit: fc.constantFrom(
          'a',
          '.',
          '-',
          '_',
          '/',
          '\\',
          ' ',
          '*',
          '`',
          ':',
          'é',
          '\n'
        ),
        maxLength: 12
      })
    )
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (parts) => {
        const path = parts.join('/')
        expect(safePath(path)).toBe(referenceSafePath(path))
      }),
      { numRuns: RUNS }
    )
    for (const path of [
      'a/'.repeat(600) + 'x',
      'x'.repeat(1024),
      'x'.repeat(1025),
      'src/./a',
      'src/../a',
      '/a',
      'a//b'
    ])
      expect(safePath(path)).toBe(referenceSafePath(path))
  })

  it('the JSON fast path reads what the token reader reads, value, kinds and prototypes', () => {
    // Texts as receipts write them (pretty or compact), and with every number kind.
    const number = fc.oneof(
      fc.integer().map(String),
      fc.constantFrom('0', '-0', '1.0', '1e2', '1E-2', '-0.5', '123456789012345'),
      fc.constantFrom('1234567890123456', '9007199254740993', '-9007199254740992'),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String)
    )
    const text = fc
      .tuple(jsonValue, number, fc.boolean(), fc.constantFrom(0, 2))
      .map(([value, n, inArray, indent]) =>
        JSON.stringify(
          inArray ? [value, `__N__`] : { v: value, n: '__N__' },
          null,
          indent
        ).replace('"__N__"', n)
      )
    fc.assert(
      fc.property(text, (t) => {
        expect(same(parseJsonText(t), parseJsonTokens(t))).toBe(true)
      }),
      { numRuns: RUNS }
    )
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)
    for (const t of [
      '{"__proto__":{"a":1},"constructor":1,"toString":[]}',
      '{"a":1,"a":2,"b":{"a":3,"a":1.5}}',
      '{"1":1,"0":0,"x":"y"}',
      '{"s":"\\ud800 1.5 \\" 2e3","t":"3.0"}',
      '[1.0]',
      '[1e2]',
      '[-0]',
      '[900719925474099]',
      '[9007199254740991]',
      '[' + '1'.repeat(4301) + ']',
      '[NaN]',
      '[1,]',
      '{"a":1,}',
      '"\u0001"',
      ' \n\t{ } ',
      '{}x',
      '',
      deep(MAX_JSON_DEPTH),
      deep(MAX_JSON_DEPTH + 1),
      deep(5000)
    ])
      expect([t.slice(0, 30), same(parseJsonText(t), parseJsonTokens(t))]).toEqual([
        t.slice(0, 30),
        true
      ])
  })

  it('decodeUtf8 accepts and refuses what a fatal TextDecoder does, BOM kept', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
    const reference = (bytes: Uint8Array): string | null => {
      try {
        return fatal.decode(bytes)
      } catch {
        return null
      }
    }
    const check = (bytes: Uint8Array) => {
      const ours = decodeUtf8(bytes)
      expect(ours.ok ? ours.text : null).toBe(reference(bytes))
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), check), { numRuns: RUNS })
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) =>
        check(new TextEncoder().encode(s))
      ),
      { numRuns: RUNS }
    )
    for (const bytes of [
      [0xef, 0xbb, 0xbf, 0x7b, 0x7d],
      [0xed, 0xa0, 0x80],
      [0xc0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82]
    ])
      check(new Uint8Array(bytes))
    // A view into a larger buffer decodes only its own bytes.
    check(new Uint8Array(Buffer.from('xx{"a":1}yy').buffer, 2, 7))
  })
})

/** Same answer: same reason, or values equal in kind, prototype and key order. */
function same(a: JsonRead, b: JsonRead): boolean {
  if (!a.ok || !b.ok) return !a.ok && !b.ok && a.reason === b.reason
  return sameValue(a.value, b.value)
}

function sameValue(a: JsonValue, b: JsonValue): boolean {
  if (a instanceof JsonFloat || a instanceof JsonBigInt)
    return a.constructor === b?.constructor && a.source === (b as JsonFloat).source
  if (typeof a !== 'object' || a === null) return Object.is(a, b)
  if (typeof b !== 'object' || b === null || b instanceof Number) return false
  if (Array.isArray(a))
    return (
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => sameValue(v, b[i] as JsonValue))
    )
  if (
    Array.isArray(b) ||
    Object.getPrototypeOf(a) !== null ||
    Object.getPrototypeOf(b) !== null
  )
    return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && sameValue(a[k] as JsonValue, b[k] as JsonValue))
  )
}
