/**
 * The strict JSON reader: number forms kept (flowctl's loader makes `100.0` and `1e2`
 * floats), bytes read as flowctl reads them (strict UTF-8, no BOM), strict JSON
 * (no NaN — stricter than Python, by SPEC §2.4), null-prototype objects, bounded
 * nesting, and no crash on any of it. Verdicts on whole receipts were checked
 * against the oracle (see oracle-diff.test.ts for the stored ones).
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  decodeUtf8,
  isJsonObject,
  JsonBigInt,
  JsonFloat,
  MAX_INT_DIGITS,
  MAX_JSON_DEPTH,
  parseJsonText,
  readJsonBytes,
  type JsonObject,
  type JsonValue
} from '../../src/receipts/json.js'
import { inspectReceipt } from '../../src/receipts/receipt.js'
import { codePointLength, hasLoneSurrogate } from '../../src/receipts/text.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonBytes,
  jsonText,
  raw,
  type Built
} from '../support/receipt-builders.js'

const RUNS = Number(process.env.FC_RUNS ?? '') || 1000

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

function value(text: string): JsonValue {
  const read = parseJsonText(text)
  if (!read.ok) throw new Error(read.reason)
  return read.value
}

function reason(input: string | Uint8Array): string {
  const read = typeof input === 'string' ? parseJsonText(input) : readJsonBytes(input)
  if (read.ok) throw new Error(`expected a refusal, got ${JSON.stringify(read.value)}`)
  return read.reason
}

/** The projection state and reasons of a receipt given as text. */
function judge(text: string | Uint8Array): { state: string; reasons: string[] } {
  const inspected = inspectReceipt(
    'receipt.json',
    typeof text === 'string' ? utf8(text) : text
  )
  if (!inspected.readable) return { state: 'unreadable', reasons: [inspected.reason] }
  return { state: inspected.projection.state, reasons: inspected.projection.reasons }
}

/** A default receipt whose first item's confidence is written as `token`. */
function withConfidence(token: string): string {
  const receipt = buildReceipt()
  const items = (receipt.findings as { items: Array<Record<string, Built>> }).items
  items[0]!.confidence = raw(token)
  return jsonText(receipt)
}

describe('number forms', () => {
  it('reads 100 as an integer, 100.0 and 1e2 as floats that remember their text', () => {
    expect(value('100')).toBe(100)
    const float = value('100.0')
    expect(float).toBeInstanceOf(JsonFloat)
    expect((float as JsonFloat).source).toBe('100.0')
    expect(Number(float)).toBe(100)
    for (const text of ['1e2', '1E2', '1e+2', '10e1', '1.0e2', '-0.0', '0e0'])
      expect(value(text)).toBeInstanceOf(JsonFloat)
  })
  it('judges confidence 100 valid and 100.0 / 1e2 / 1E2 invalid, naming the float', () => {
    expect(judge(withConfidence('100')).state).toBe('valid')
    for (const token of ['100.0', '1e2', '1E2']) {
      const { state, reasons } = judge(withConfidence(token))
      expect(state).toBe('invalid')
      expect(reasons[0]).toMatch(/^findings\.items\[0\]\.confidence: /)
      expect(reasons[0]).toContain(`the float ${token}`)
    }
  })
  it('keeps integers up to 2^53 - 1 as numbers and larger ones as JsonBigInt', () => {
    expect(value('9007199254740991')).toBe(9007199254740991)
    expect(value('-9007199254740991')).toBe(-9007199254740991)
    for (const text of ['9007199254740992', '9007199254740993', '-9007199254740993']) {
      const big = value(text)
      expect(big).toBeInstanceOf(JsonBigInt)
      expect((big as JsonBigInt).source).toBe(text)
    }
  })
  it('makes a projection with an integer beyond 2^53 - 1 invalid (documented deviation)', () => {
    const { state, reasons } = judge(withConfidence('9007199254740993'))
    expect(state).toBe('invalid')
    expect(reasons[0]).toMatch(/confidence: .*9007199254740993, beyond 2\^53 - 1/)
  })
  it('keeps a big integer in the envelope harmlessly', () => {
    const receipt = buildReceipt({ extra: { counter: raw('9007199254740993') } })
    expect(judge(jsonText(receipt)).state).toBe('valid')
  })
  it('reads -0 as an integer (Python: int 0), so confidence -0 is valid', () => {
    expect(Object.is(value('-0'), -0)).toBe(true)
    expect(judge(withConfidence('-0')).state).toBe('valid')
  })
  it('refuses integer tokens Python will not convert (more than 4,300 digits), as flowctl does', () => {
    expect(MAX_INT_DIGITS).toBe(4300)
    expect(value('7'.repeat(4300))).toBeInstanceOf(JsonBigInt)
    expect(value(`-${'7'.repeat(4300)}`)).toBeInstanceOf(JsonBigInt)
    expect(reason('7'.repeat(4301))).toMatch(/integer of 4301 digits/)
    expect(reason(`[-${'7'.repeat(4301)}]`)).toBe(
      'invalid JSON: an integer of 4301 digits (Python reads at most 4300)'
    )
    // Floats have no such limit in Python.
    expect(value(`${'7'.repeat(5000)}.0`)).toBeInstanceOf(JsonFloat)
    const receipt = buildReceipt({ extra: { n: raw('1'.repeat(4301)) } })
    expect(judge(jsonText(receipt)).state).toBe('unreadable')
  })
  it.each(['01', '-', '+1', '.5', '1.', '1e', '0x10', '1_000', '- 1', '--1'])(
    'refuses the number %j',
    (text) => {
      expect(reason(text)).toMatch(/^invalid JSON: /)
    }
  )
})

describe('bytes', () => {
  it('refuses a UTF-8 BOM (Python json: "Unexpected UTF-8 BOM")', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...jsonBytes(buildReceipt())])
    expect(reason(bytes)).toMatch(/byte order mark/)
    expect(judge(bytes).state).toBe('unreadable')
  })
  it('refuses a BOM after whitespace too', () => {
    expect(reason(utf8(' \ufeff{}'))).toMatch(/unexpected character U\+FEFF/)
  })
  it.each([
    ['a CESU-8 surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['a CESU-8 pair (ED A0 BD ED B8 80)', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
    ['an overlong slash (C0 AF)', [0xc0, 0xaf]],
    ['an overlong 3-byte (E0 80 AF)', [0xe0, 0x80, 0xaf]],
    ['an overlong 4-byte (F0 80 80 AF)', [0xf0, 0x80, 0x80, 0xaf]],
    ['beyond U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
    ['an F5 lead byte', [0xf5, 0x80, 0x80, 0x80]],
    ['a lone continuation byte', [0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['Latin-1 é', [0xe9]]
  ])('refuses %s with its byte offset', (_name, bad) => {
    // `{"x": "` is 7 bytes: the bad sequence starts at byte 7.
    const bytes = new Uint8Array([...utf8('{"x": "'), ...bad, ...utf8('"}')])
    expect(reason(bytes)).toBe('not valid UTF-8 (at byte 7)')
  })
  it('names the offset of a bad byte after multi-byte text', () => {
    const bytes = new Uint8Array([...utf8('"😀é'), 0xff, 0x22])
    expect(reason(bytes)).toBe('not valid UTF-8 (at byte 7)')
  })
  it('names the offset of a truncated sequence at the very end', () => {
    const bytes = new Uint8Array([...utf8('"ab'), 0xf0, 0x9f, 0x98])
    expect(reason(bytes)).toBe('not valid UTF-8 (at byte 3)')
  })
  it('accepts and refuses what a fatal TextDecoder does, a BOM kept for the parser', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
    const reference = (bytes: Uint8Array): string | null => {
      try {
        return fatal.decode(bytes)
      } catch {
        return null
      }
    }
    const check = (bytes: Uint8Array): void => {
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
  it('reads valid 4-byte UTF-8 and U+FFFF', () => {
    expect(value('"😀\uffff"')).toBe('😀\uffff')
    expect(readJsonBytes(utf8('"\u{10ffff}"'))).toEqual({ ok: true, value: '\u{10ffff}' })
  })
})

describe('strict JSON', () => {
  it.each([
    ['NaN', '{"x": NaN}', /unexpected character 'N'/],
    ['Infinity', '{"x": Infinity}', /unexpected character 'I'/],
    ['-Infinity', '{"x": -Infinity}', /no number after minus sign/],
    [
      'a trailing comma in an object',
      '{"a": 1,}',
      /expected double-quoted property name/
    ],
    ['a trailing comma in an array', '[1, 2,]', /unexpected character ']'/],
    ['a line comment', '{"a": 1} // x', /character after JSON/],
    ['a block comment', '{/* x */"a": 1}', /expected property name/],
    ['single quotes', "{'a': 1}", /expected property name/],
    ['an unquoted key', '{a: 1}', /expected property name/],
    ['two values', '{} {}', /character after JSON/],
    ['nothing', '', /unexpected end of input/],
    ['only whitespace', ' \n\t\r ', /unexpected end of input/],
    ['an unterminated string', '"abc', /unterminated string/],
    ['an unterminated object', '{"a": 1', /expected ',' or '}'/],
    ['a missing colon', '{"a" 1}', /expected ':'/],
    ['a bad escape', '"\\x41"', /bad escaped character/],
    ['a short \\u escape', '"\\u12"', /bad Unicode escape/],
    ['a non-hex \\u escape', '"\\u12G4"', /bad Unicode escape/],
    ['a form feed between tokens', '{\f}', /unexpected|expected/],
    ['a no-break space between tokens', '{\u00a0}', /expected property name/],
    ['True in Python spelling', '{"a": True}', /unexpected character 'T'/],
    ['none', '{"a": none}', /unexpected character 'o'/]
  ])('refuses %s', (_name, text, message) => {
    expect(reason(text)).toMatch(message)
    expect(reason(text)).toMatch(/^invalid JSON: .* at line \d+ column \d+$/)
  })
  it('never quotes the input in its reason (V8 quotes it; a reason reaches logs)', () => {
    for (const text of [
      '{"x": QQQ}',
      '[1, 2, "QQQ" QQQ]',
      'QQQ',
      '{"a": 1}QQQ',
      '"\u202eQQQ\u0001"'
    ])
      expect(reason(text)).not.toMatch(/QQQ|\u202e/)
    fc.assert(
      fc.property(fc.json(), fc.string({ minLength: 1, maxLength: 8 }), (json, junk) => {
        const read = parseJsonText(`${json}\u0000${junk}zq`)
        return (
          !read.ok &&
          !read.reason.includes('zq') &&
          /at line \d+ column \d+$/.test(read.reason)
        )
      }),
      { numRuns: RUNS }
    )
  })
  it('points at the line and column', () => {
    expect(reason('{\n  "a": 1,\n  "b": NaN\n}')).toMatch(/at line 3 column 8$/)
  })
  it.each([
    ['a raw tab', '\t'],
    ['a raw newline', '\n'],
    ['a raw carriage return', '\r'],
    ['a raw NUL', '\u0000'],
    ['a raw U+001F', '\u001f']
  ])('refuses %s inside a string (Python strict mode)', (_name, ch) => {
    expect(reason(`{"a": "x${ch}y"}`)).toMatch(/bad control character in string literal/)
  })
  it('allows DEL, U+2028 and escaped control characters in strings', () => {
    expect(value('"\u007f\u2028\\u0000\\t\\n\\/"')).toBe('\u007f\u2028\u0000\t\n/')
  })
})

describe('strings', () => {
  it('parses a lone surrogate escape into a lone surrogate', () => {
    expect(value('"\\ud800"')).toBe('\ud800')
    expect(value('"\\udc00\\ud800"')).toBe('\udc00\ud800')
    expect(value('"\\ud83d\\ude00"')).toBe('😀')
    expect(value('"\\uD83D\\uDE00"')).toBe('😀')
  })
  it('keeps a receipt with a lone surrogate in the envelope valid (flowctl never encodes it)', () => {
    const text = jsonText(buildReceipt()).replace(
      '"base": "main"',
      '"base": "main", "note": "\\ud800"'
    )
    expect(judge(text).state).toBe('valid')
  })
  type Edit = (container: Record<string, Built>, item: Record<string, Built>) => void
  it.each<[string, Edit]>([
    ['title', (_c, i) => (i.title = 'x\ud800')],
    ['body', (_c, i) => (i.body = '\udfff')],
    ['suggestion', (_c, i) => (i.suggestion = '\ud800')],
    ['a long suggestion', (_c, i) => (i.suggestion = 'a'.repeat(40) + '\ud800')],
    ['priorFindingId', (_c, i) => (i.priorFindingId = 'p\udc00')],
    [
      'an anchor originalPath',
      (_c, i) => ((i.anchor as Record<string, Built>).originalPath = 'src/\ud800.ts')
    ],
    ['backend', (c) => (c.backend = 'co\ud800dex')],
    [
      'supersedesReceiptId',
      (c) => {
        c.supersedesReceiptId = '\udc00round-0'
        c.round = 2
      }
    ]
  ])(
    'makes a container with a lone surrogate in %s invalid (flowctl raises on encode)',
    (_n, edit) => {
      const receipt = buildReceipt()
      const container = receipt.findings as Record<string, Built>
      edit(container, (container.items as Array<Record<string, Built>>)[0]!)
      expect(judge(jsonText(receipt))).toEqual({
        state: 'invalid',
        reasons: [
          'findings: holds an unpaired surrogate (flowctl cannot encode it as UTF-8)'
        ]
      })
    }
  )
  it('makes a lone surrogate in firstSeenReceiptId invalid, naming it', () => {
    const source = 'r\ud800'
    const container = buildContainer({
      sourceReceiptId: source,
      items: [
        {
          ...buildItem({ sourceReceiptId: 'x' }),
          firstSeenReceiptId: source,
          lastSeenReceiptId: source
        }
      ]
    })
    const { state, reasons } = judge(jsonText(buildReceipt({ findings: container })))
    expect(state).toBe('invalid')
    expect(reasons[0]).toMatch(/^findings\.items\[0\]\.firstSeenReceiptId: .*surrogate/)
  })
  it('measures code points and finds lone surrogates as Python would', () => {
    // Python's len(): a surrogate pair is one code point, a lone surrogate one too.
    const reference = (text: string): number => {
      let pairs = 0
      for (let i = 0; i < text.length - 1; i++) {
        const unit = text.charCodeAt(i)
        const next = text.charCodeAt(i + 1)
        if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          pairs++
          i++
        }
      }
      return text.length - pairs
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(codePointLength(text)).toBe(reference(text))
        expect(hasLoneSurrogate(text)).toBe(/\p{Surrogate}/u.test(text))
      }),
      { numRuns: RUNS }
    )
    for (const text of ['', '\ud800', '\udc00\ud800', '😀', '\ud83d\ude00\ud83d'])
      expect(codePointLength(text)).toBe(reference(text))
  })
  it('counts a surrogate pair as one code point and a lone surrogate as one', () => {
    const receipt = buildReceipt()
    const item = (receipt.findings as { items: Array<Record<string, Built>> }).items[0]!
    item.title = '😀'.repeat(240)
    expect(judge(jsonText(receipt)).state).toBe('valid')
  })
})

describe('objects', () => {
  it('keeps the last of duplicate keys, as Python does', () => {
    expect(value('{"a": 1, "a": 2}')).toEqual(
      Object.assign(Object.create(null), { a: 2 })
    )
    const legacy = jsonText(buildReceipt()).replace(/\n}$/, ',\n  "findings": null\n}')
    expect(judge(legacy).state).toBe('absent')
    const fixed = jsonText(buildReceipt({ verdict: 'LGTM' })).replace(
      /\n}$/,
      ',\n  "verdict": "SHIP"\n}'
    )
    expect(judge(fixed).state).toBe('valid')
  })
  it('makes __proto__, constructor and prototype plain own keys and leaves Object.prototype alone', () => {
    const parsed = value(
      '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "prototype": 3}'
    ) as JsonObject
    expect(Object.getPrototypeOf(parsed)).toBeNull()
    expect(Object.keys(parsed)).toEqual(['__proto__', 'constructor', 'prototype'])
    expect(isJsonObject(parsed.__proto__)).toBe(true)
    expect(Object.getPrototypeOf(parsed.__proto__)).toBeNull()
    expect(parsed.prototype).toBe(3)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false)
  })
  it('lets __proto__ through the open envelope but not into a closed container', () => {
    const receipt = buildReceipt()
    const envelope = jsonText(receipt).replace(
      '"base": "main"',
      '"__proto__": {"type": "x"}, "constructor": 1, "base": "main"'
    )
    expect(judge(envelope).state).toBe('valid')
    const container = jsonText(receipt).replace(
      '"schemaVersion": 1',
      '"schemaVersion": 1, "__proto__": {}'
    )
    const { state, reasons } = judge(container)
    expect(state).toBe('invalid')
    expect(reasons[0]).toMatch(/^findings: unknown key "__proto__"/)
  })
  it('does not read an inherited property as a field', () => {
    // `toString` exists on ordinary objects; here it must be absent.
    const { state, reasons } = judge(
      '{"type": "impl_review", "id": "x", "verdict": "SHIP"}'
    )
    expect(state).toBe('absent')
    expect(reasons).toEqual([])
  })
})

describe('nesting', () => {
  it('refuses 100,000 levels of arrays with a reason, without a stack overflow', () => {
    const text = '['.repeat(100000) + ']'.repeat(100000)
    expect(reason(text)).toMatch(
      new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`)
    )
  })
  it('refuses 100,000 levels of objects inside a receipt', () => {
    const deep = '{"a":'.repeat(100000) + '1' + '}'.repeat(100000)
    const text = jsonText(buildReceipt()).replace('"base": "main"', `"deep": ${deep}`)
    const { state, reasons } = judge(text)
    expect(state).toBe('unreadable')
    expect(reasons[0]).toMatch(/nested deeper/)
  })
  it('reads 50 levels inside an unknown envelope key', () => {
    const deep = '{"a":['.repeat(25) + '1' + ']}'.repeat(25)
    const text = jsonText(buildReceipt()).replace('"base": "main"', `"deep": ${deep}`)
    expect(judge(text).state).toBe('valid')
  })
  it(`reads exactly ${MAX_JSON_DEPTH} levels and refuses one more`, () => {
    // CPython gives up near 1,000 levels, depending on the caller's stack (the oracle
    // reads 981 but not 991): a receipt between 901 and ~980 levels is a documented
    // deviation, stricter than flowctl.
    expect(
      parseJsonText('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)).ok
    ).toBe(true)
    const over = MAX_JSON_DEPTH + 1
    expect(reason('['.repeat(over) + ']'.repeat(over))).toMatch(/nested deeper/)
  })
})

describe('size', () => {
  it('gives a clear reason for 200 items of 4,000-code-point bodies (over 256 KiB), without a crash', () => {
    const container = buildContainer({ items: 200 })
    for (const item of container.items as Array<Record<string, Built>>)
      item.body = '😀'.repeat(4000)
    const bytes = jsonBytes(buildReceipt({ findings: container }))
    expect(bytes.length).toBeGreaterThan(3_000_000)
    const { state, reasons } = judge(bytes)
    expect(state).toBe('invalid')
    expect(reasons).toHaveLength(1)
    expect(reasons[0]).toMatch(
      /^findings: is \d+ bytes as compact JSON, over the 262144-byte bound$/
    )
  })
})
