/**
 * The length of a findings container as flowctl bounds it: the UTF-8 bytes of its
 * compact JSON (`json.dumps(..., separators=(",", ":"), ensure_ascii=False)`; sorted keys
 * do not change the length), or null when a string holds an unpaired surrogate, which
 * flowctl cannot encode. Counted without building the text.
 */
import { isJsonObject, type JsonValue } from './json.js'
import { hasLoneSurrogate, utf8Length } from './text.js'

// Performance (issue 7): this was `utf8Length(JSON.stringify(raw))` after a separate walk
// for unpaired surrogates — 7.6 of the 11 ms a maximal container took to validate
// (`JSON.stringify` returns a rope that `Buffer.byteLength` must flatten). One walk now
// counts the bytes `JSON.stringify` would write, without building the text.
// `__tests__/receipts/perf-equivalence.test.ts` holds it equal to the old expression.

/**
 * UTF-8 length of `JSON.stringify(value)`, or null when a string or key holds an unpaired
 * surrogate (which flowctl cannot encode).
 */
export function compactJsonBytes(value: JsonValue): number | null {
  // A container repeats its few keys on every item: each is measured once per call.
  return valueBytes(value, new Map())
}

function valueBytes(value: JsonValue, keyBytes: Map<string, number>): number | null {
  if (typeof value === 'string') return jsonStringBytes(value)
  if (value === null) return 4
  if (typeof value === 'boolean') return value ? 4 : 5
  if (typeof value === 'number')
    return Number.isSafeInteger(value)
      ? String(value).length
      : JSON.stringify(value).length
  if (Array.isArray(value)) {
    let bytes = value.length === 0 ? 2 : value.length + 1 // brackets and commas
    for (const entry of value) {
      const inner = valueBytes(entry, keyBytes)
      if (inner === null) return null
      bytes += inner
    }
    return bytes
  }
  if (!isJsonObject(value)) return JSON.stringify(value).length // JsonFloat, JsonBigInt
  // `for…in` without the array `Object.keys` makes: the reader's objects have no
  // prototype, so it visits exactly their own keys, in the same order.
  let bytes = 1 // the opening brace; each member adds its colon and a comma or the closing brace
  let members = 0
  for (const key in value) {
    let k = keyBytes.get(key)
    if (k === undefined) {
      const measured = jsonStringBytes(key)
      if (measured === null) return null
      keyBytes.set(key, (k = measured))
    }
    const inner = valueBytes(value[key] ?? null, keyBytes)
    if (inner === null) return null
    bytes += k + inner + 2
    members++
  }
  return members === 0 ? 2 : bytes
}

// Performance (issue 7, round 12): a long string was read four times (an ASCII test that
// fails at its first accent, `isWellFormed`, `Buffer.byteLength` and an escape test), and
// every key and short value paid a regex call's overhead. Now a short string is one loop
// over its units, and a long one is read by one regex that answers both "nothing to
// escape" and "well formed" (unrolled as normal* (pair normal*)*, so it cannot backtrack
// more than linearly), then by `Buffer.byteLength`; and a key is measured once per call.
const SHORT_TEXT = 32
const PLAIN_WELL_FORMED =
  /^[\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]*(?:[\ud800-\udbff][\udc00-\udfff][\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]*)*$/

function jsonStringBytes(text: string): number | null {
  if (text.length <= SHORT_TEXT) {
    const ascii = asciiJsonBytes(text)
    if (ascii !== null) return ascii
  }
  if (PLAIN_WELL_FORMED.test(text)) return utf8Length(text) + 2
  if (hasLoneSurrogate(text)) return null
  let bytes = utf8Length(text) + 2
  for (let i = 0; i < text.length; i++) bytes += escapeExtra(text.charCodeAt(i))
  return bytes
}

/** Bytes of an ASCII string as a JSON string (quotes and escapes), or null if it is not ASCII. */
function asciiJsonBytes(text: string): number | null {
  let bytes = text.length + 2
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0x80) return null
    bytes += escapeExtra(unit)
  }
  return bytes
}

/** Bytes an escape adds: `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r` one; other controls (`\u00XX`) five. */
function escapeExtra(unit: number): number {
  if (unit >= 0x20) return unit === 0x22 || unit === 0x5c ? 1 : 0
  return unit >= 8 && unit <= 13 && unit !== 11 ? 1 : 5
}
