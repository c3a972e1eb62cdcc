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
  // Performance: node's loops (simdutf) are ten times a fatal TextDecoder's
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
  if (text.charCodeAt(0) === 0xfeff)
    return refusal(
      'starts with a UTF-8 byte order mark (flowctl cannot read it)',
      text,
      0
    )
  // The reviver walks the parsed value recursively: refuse deep nesting before it can
  // overflow the stack (CPython's own recursion limit refuses it too).
  const tooDeep = deepestOpening(text)
  if (tooDeep !== -1)
    return refusal(`nested deeper than ${MAX_JSON_DEPTH} levels`, text, tooDeep)
  try {
    return { ok: true, value: JSON.parse(text, keepNumberForms) as JsonValue }
  } catch (error) {
    if (error instanceof NumberRefusal)
      return { ok: false, reason: `invalid JSON: ${error.message}` }
    if (error instanceof SyntaxError) return syntaxRefusal(error, text)
    throw error
  }
}

/** Thrown by the reviver for an integer Python refuses to read. */
class NumberRefusal extends Error {}

/**
 * `JSON.parse`'s reviver: numbers become what Python's `json` makes of their token, and
 * objects lose their prototype. `context.source` (Node 22 and later) is the token.
 */
function keepNumberForms(
  _key: string,
  value: unknown,
  context?: { source?: string }
): unknown {
  if (typeof value === 'number') {
    if (context?.source === undefined)
      throw new Error('Receipt Gate needs Node 22 or later')
    return numberToken(context.source)
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    Object.setPrototypeOf(value, null)
  return value
}

function numberToken(source: string): number | JsonFloat | JsonBigInt {
  if (/[.eE]/.test(source)) return new JsonFloat(source)
  // CPython 3.11+ refuses to convert a longer integer token (`json.loads` raises
  // ValueError): flowctl cannot read the file at all. Floats have no such limit.
  const digits = source.length - (source.startsWith('-') ? 1 : 0)
  if (digits > MAX_INT_DIGITS)
    throw new NumberRefusal(
      `an integer of ${digits} digits (Python reads at most ${MAX_INT_DIGITS})`
    )
  const value = Number(source)
  return Number.isSafeInteger(value) ? value : new JsonBigInt(source)
}

/** The offset of the first bracket nested deeper than the cap, outside strings; else -1. */
function deepestOpening(text: string): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 0x5c)
        i++ // the escaped character cannot end the string
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i
    } else if (code === 0x5d || code === 0x7d) depth--
  }
  return -1
}

/**
 * V8's reason, with where it points, and never the input text its message may quote:
 * an unexpected character is named by its code point.
 */
function syntaxRefusal(error: SyntaxError, text: string): JsonRead {
  const positioned = /^([^"]*?)(?: in JSON)? at position (\d+)/.exec(error.message)
  if (positioned) return refusal(lowerFirst(positioned[1]!), text, Number(positioned[2]))
  if (error.message.startsWith('Unexpected end'))
    return refusal('unexpected end of input', text, text.length)
  const at = faultOffset(text)
  return refusal(`unexpected character ${describeChar(text[at] ?? '')}`, text, at)
}

/**
 * Where `JSON.parse` found a fault its message does not place: the last character of the
 * shortest prefix it already refuses for more than ending early (a prefix refused at its
 * end only needs more text; refusal is monotone in the prefix, so a binary search finds it).
 */
function faultOffset(text: string): number {
  let fine = 0
  let faulty = text.length
  while (faulty - fine > 1) {
    const middle = (fine + faulty) >>> 1
    if (faultWithin(text.slice(0, middle))) faulty = middle
    else fine = middle
  }
  return faulty - 1
}

function faultWithin(prefix: string): boolean {
  try {
    JSON.parse(prefix)
    return false
  } catch (error) {
    const message = (error as Error).message
    if (message.startsWith('Unexpected end')) return false
    const at = /at position (\d+)/.exec(message)
    return at === null || Number(at[1]) < prefix.length
  }
}

function refusal(message: string, text: string, at: number): JsonRead {
  const before = text.slice(0, at)
  const line = before.split('\n').length
  const column = at - before.lastIndexOf('\n')
  return {
    ok: false,
    reason: `invalid JSON: ${message} at line ${line} column ${column}`
  }
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1)

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
