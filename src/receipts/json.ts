/**
 * A strict JSON reader that keeps what `JSON.parse` throws away: flowctl's Python `json`
 * reads `100.0` and `1e2` as floats and refuses them where an int is required, so every
 * non-integer number token becomes a {@link JsonFloat}, and an integer beyond 2^53 − 1 a
 * {@link JsonBigInt} (invalid in the projection). Objects have a null prototype, so
 * `__proto__` and friends are plain own keys that cannot reach `Object.prototype`.
 */
import { isUtf8 } from 'node:buffer'

/** A boxed number that remembers its token. */
abstract class NumberToken extends Number {
  constructor(readonly source: string) {
    super(Number(source))
  }
}

/** A number written with a fraction or an exponent (`100.0`, `1e2`): never an integer. */
export class JsonFloat extends NumberToken {}

/** An integer token too large to hold exactly in a JS number. */
export class JsonBigInt extends NumberToken {}

/** An object parsed from JSON text: own keys only, null prototype. */
export interface JsonObject {
  [key: string]: JsonValue
}

/** Any value the reader produces. */
export type JsonValue =
  null | boolean | number | string | JsonFloat | JsonBigInt | JsonValue[] | JsonObject

export type JsonRead = { ok: true; value: JsonValue } | { ok: false; reason: string }

/** Deepest nesting read (CPython stops near 1,000): deeper is refused, not overflowed. */
export const MAX_JSON_DEPTH = 900

/** Longest integer token Python's `json` converts (`sys.int_info.default_max_str_digits`). */
export const MAX_INT_DIGITS = 4300

/** Decodes receipt bytes as flowctl does (`read_text(encoding="utf-8")`), strictly. */
export function decodeUtf8(
  bytes: Uint8Array
): { ok: true; text: string } | { ok: false; reason: string } {
  // Performance (issue 7): node's loops (simdutf) are ten times a fatal TextDecoder's
  // speed on a cold start. A BOM is kept, to be refused by the parser.
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const text = view.toString('utf8')
  if (isUtf8(bytes)) return { ok: true, text }
  // The decoder put U+FFFD where each invalid sequence starts (WHATWG); the first one
  // that is not a U+FFFD spelled in the bytes (EF BF BD) is at the first invalid byte.
  let at = 0
  let from = 0
  for (let i = text.indexOf('\ufffd'); i !== -1; i = text.indexOf('\ufffd', i + 1)) {
    at += Buffer.byteLength(text.slice(from, i))
    from = i
    if (bytes[at] !== 0xef || bytes[at + 1] !== 0xbf || bytes[at + 2] !== 0xbd) break
  }
  return { ok: false, reason: `not valid UTF-8 (at byte ${at})` }
}

/** Reads receipt bytes: UTF-8, no BOM, strict JSON. */
export function readJsonBytes(bytes: Uint8Array): JsonRead {
  const decoded = decodeUtf8(bytes)
  if (!decoded.ok) return decoded
  return parseJsonText(decoded.text)
}

/** Parses strict JSON text (RFC 8259: no NaN, no trailing commas, no comments, no BOM). */
export function parseJsonText(text: string): JsonRead {
  try {
    return { ok: true, value: new Parser(text).document() }
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, reason: error.message }
    // A RangeError here would be a parser bug; it must still not crash the run.
    return { ok: false, reason: `unreadable JSON (${String(error)})` }
  }
}

class JsonSyntaxError extends Error {}

const STRING_RUN = /[^"\\\u0000-\u001f]*/y
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y

class Parser {
  private pos = 0
  constructor(private readonly text: string) {}

  document(): JsonValue {
    if (this.text.charCodeAt(0) === 0xfeff)
      throw new JsonSyntaxError(
        'starts with a UTF-8 byte order mark (flowctl cannot read it)'
      )
    this.skipWhitespace()
    const value = this.value(0)
    this.skipWhitespace()
    if (this.pos < this.text.length) this.fail('unexpected text after the JSON value')
    return value
  }

  private value(depth: number): JsonValue {
    const ch = this.text[this.pos]
    switch (ch) {
      case '{':
        return this.object(depth + 1)
      case '[':
        return this.array(depth + 1)
      case '"':
        return this.string()
      case 't':
        return this.literal('true', true)
      case 'f':
        return this.literal('false', false)
      case 'n':
        return this.literal('null', null)
      default:
        if (ch === undefined) this.fail('unexpected end of input')
        if (ch === '-' || (ch >= '0' && ch <= '9')) return this.number()
        if (ch === 'N' || ch === 'I') this.fail('NaN and Infinity are not JSON')
        return this.fail(`unexpected character ${describeChar(ch)}`)
    }
  }

  private object(depth: number): JsonObject {
    const result = Object.create(null) as JsonObject
    this.members(depth, '}', () => {
      if (this.text[this.pos] !== '"') this.fail('expected a string key')
      const key = this.string()
      this.skipWhitespace()
      if (this.text[this.pos] !== ':') this.fail("expected ':' after an object key")
      this.pos++
      this.skipWhitespace()
      // Duplicate keys: the last one wins, as in Python's json and JSON.parse.
      result[key] = this.value(depth)
    })
    return result
  }

  private array(depth: number): JsonValue[] {
    const result: JsonValue[] = []
    this.members(depth, ']', () => result.push(this.value(depth)))
    return result
  }

  /** The comma-separated members of an object or array, `read` called at each one. */
  private members(depth: number, close: '}' | ']', read: () => unknown): void {
    const kind = close === '}' ? 'object' : 'array'
    if (depth > MAX_JSON_DEPTH) this.fail(`nested deeper than ${MAX_JSON_DEPTH} levels`)
    this.pos++ // { or [
    this.skipWhitespace()
    if (this.text[this.pos] === close) {
      this.pos++
      return
    }
    for (;;) {
      if (this.text[this.pos] === close) this.fail(`trailing comma in ${kind}`)
      read()
      this.skipWhitespace()
      const next = this.text[this.pos]
      this.pos++
      if (next === close) return
      if (next !== ',') this.fail(`expected ',' or '${close}' in ${kind}`, this.pos - 1)
      this.skipWhitespace()
    }
  }

  /** Scans a string token for its faults; `JSON.parse` decodes its escapes (the same ones). */
  private string(): string {
    const start = this.pos
    this.pos++ // opening quote
    let escaped = false
    for (;;) {
      STRING_RUN.lastIndex = this.pos
      STRING_RUN.test(this.text)
      this.pos = STRING_RUN.lastIndex
      const ch = this.text[this.pos]
      if (ch === '"') break
      if (ch === undefined) this.fail('unterminated string', start)
      if (ch !== '\\') this.fail(`raw control character ${describeChar(ch)} in a string`)
      ESCAPE.lastIndex = this.pos
      if (!ESCAPE.test(this.text)) {
        const u = this.text[this.pos + 1] === 'u'
        this.fail(u ? 'invalid \\u escape' : 'invalid escape in a string')
      }
      this.pos = ESCAPE.lastIndex
      escaped = true
    }
    this.pos++ // closing quote
    const token = this.text.slice(start, this.pos)
    return escaped ? (JSON.parse(token) as string) : token.slice(1, -1)
  }

  private number(): number | JsonFloat | JsonBigInt {
    NUMBER.lastIndex = this.pos
    const match = NUMBER.exec(this.text)
    if (!match) return this.fail('invalid number')
    const source = match[0]
    this.pos += source.length
    if (match[1] !== undefined || match[2] !== undefined) return new JsonFloat(source)
    // CPython 3.11+ refuses to convert a longer integer token (`json.loads` raises
    // ValueError): flowctl cannot read the file at all. Floats have no such limit.
    const digits = source.length - (source.startsWith('-') ? 1 : 0)
    if (digits > MAX_INT_DIGITS) {
      this.fail(
        `an integer of ${digits} digits (Python reads at most ${MAX_INT_DIGITS})`,
        this.pos - source.length
      )
    }
    const value = Number(source)
    return Number.isSafeInteger(value) ? value : new JsonBigInt(source)
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('invalid literal')
    this.pos += word.length
    return value
  }

  private skipWhitespace(): void {
    // Performance (issue 7): a loop over char codes, not a sticky regex per call (this
    // runs between every two tokens; pretty-printed receipts are a third whitespace).
    const text = this.text
    let pos = this.pos
    for (;;) {
      const code = text.charCodeAt(pos)
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break
      pos++
    }
    this.pos = pos
  }

  private fail(message: string, at = this.pos): never {
    const before = this.text.slice(0, at)
    const line = before.split('\n').length
    const column = at - before.lastIndexOf('\n')
    throw new JsonSyntaxError(`invalid JSON: ${message} at line ${line} column ${column}`)
  }
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  return code >= 0x20 && code < 0x7f ? `'${ch}'` : hex
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Number)
  )
}

/** An own property of a parsed object, never an inherited one. */
export function own(object: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined
}

/** Describes a value for a reason line: type and a short form, never the whole thing. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing'
  if (value instanceof JsonFloat) return `the float ${value.source}`
  if (value instanceof JsonBigInt) return `the integer ${value.source}, beyond 2^53 - 1`
  if (typeof value === 'boolean') return `the boolean ${String(value)}`
  if (typeof value === 'number') return `the number ${String(value)}`
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value
    return `the string ${JSON.stringify(shown)}`
  }
  if (Array.isArray(value)) return `an array of ${value.length}`
  return 'an object'
}
