/**
 * The length of a findings container as flowctl bounds it: the UTF-8 bytes of its
 * compact JSON (`json.dumps(..., separators=(",", ":"), ensure_ascii=False)`; sorted keys
 * do not change the length), or null when a string holds an unpaired surrogate, which
 * flowctl cannot encode. Counted without building the text.
 */
import { ITEM_KEYS, ITEM_REQUIRED } from './limits.js'
import type { Anchor, FindingItem, FindingsContainer } from './schema.js'
import { codePointLength, hasLoneSurrogate, utf8Length } from './text.js'

// Performance (issue 7): this was `utf8Length(JSON.stringify(raw))` after a separate walk
// for unpaired surrogates — 7.6 of the 11 ms a maximal container took to validate
// (`JSON.stringify` returns a rope that `Buffer.byteLength` must flatten). Then one
// generic walk over the parsed value counted what `JSON.stringify` would write (rounds
// 5–12); now the validated value is counted by its shape (below).

// Performance (issue 7, round 12): a long string was read four times (an ASCII test that
// fails at its first accent, `isWellFormed`, `Buffer.byteLength` and an escape test), and
// every key and short value paid a regex call's overhead. Now a short string is one loop
// over its units, and a long one is read by one regex that answers both "nothing to
// escape" and "well formed" (unrolled as normal* (pair normal*)*, so it cannot backtrack
// more than linearly), then by `Buffer.byteLength`.
const SHORT_TEXT = 32
const PLAIN_WELL_FORMED =
  /^[\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]*(?:[\ud800-\udbff][\udc00-\udfff][\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]*)*$/

/** UTF-8 length of a string as JSON (quotes and escapes), or null on an unpaired surrogate. */
export function jsonStringBytes(text: string): number | null {
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

// Performance (issue 7, round 13): a text longer than its bound in UTF-16 units may still
// be within it in code points, so the plain check counted its surrogate pairs (a regex
// pass) before the byte count read it again (another). One sticky regex now reads it once:
// each call consumes plain units up to a pair or the end, so the calls count the pairs
// and a failed call means something to escape or a lone surrogate ahead (then the slow
// path). Half the time of the two passes on the 25 longest texts of a maximal container.
const PLAIN_TO_PAIR =
  /[\x20\x21\x23-\x5b\x5d-\ud7ff\ue000-\uffff]*(?:[\ud800-\udbff][\udc00-\udfff]|$)/y

/** The surrogate pairs of a text with nothing to escape and no lone surrogate, else -1. */
function plainPairs(text: string): number {
  let pairs = 0
  let at = 0
  for (;;) {
    PLAIN_TO_PAIR.lastIndex = at
    if (!PLAIN_TO_PAIR.test(text)) return -1
    const end = PLAIN_TO_PAIR.lastIndex
    // Plain units are never surrogates: a match ending in a low one ended in a pair.
    const last = end > at ? text.charCodeAt(end - 1) : 0
    if (last < 0xdc00 || last > 0xdfff) return pairs // the end of the text
    pairs++
    at = end
  }
}

/**
 * A field of free text, checked as the schemas check it (`boundedString`: a non-empty
 * string of at most `max` code points) and measured for the byte bound at once: its JSON
 * bytes, NaN when it holds an unpaired surrogate (valid here; the bound refuses it), or
 * -1 when it is not such a string.
 */
export function boundedTextBytes(value: unknown, max: number): number {
  if (typeof value !== 'string' || value.length === 0) return -1
  // Code points never outnumber UTF-16 units, nor fall below half of them.
  if (value.length <= max) return jsonStringBytes(value) ?? Number.NaN
  if (value.length > 2 * max) return -1
  const pairs = plainPairs(value)
  if (pairs >= 0) return value.length - pairs <= max ? utf8Length(value) + 2 : -1
  return codePointLength(value) <= max ? (jsonStringBytes(value) ?? Number.NaN) : -1
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

// Performance (issue 7, round 13): the generic walk read every string of a maximal
// container, 3,400 of them, and looked every key up. A container that passed every other
// rule has a known shape and known values where the rules fix them, so its length is
// counted from the validated value: keys and enumerations are ASCII words, an item's id
// is a lineage id, its lastSeenReceiptId and its anchor's SHAs equal the container's
// fields. Only free text is measured (0.73 of the walk's time on a maximal container),
// and the items' prose by the plain check, as it checks their bounds (`boundedTextBytes`).
// `__tests__/receipts/compact-bytes.test.ts` holds it to `JSON.stringify`'s length.

/** `"finding-"` and 32 hex digits, quoted: every item id of a valid container. */
const LINEAGE_ID_BYTES = 42

/**
 * The compact JSON length of a container that passed every other rule of flowctl's
 * check (`roundRules` and `itemRules` in findings.ts found nothing), or null when a
 * string holds an unpaired surrogate. Those rules fix values it does not read: called
 * before them, it would count the container's SHAs for its anchors' whatever they hold.
 * `prose`: the JSON bytes of every item's title, body and suggestion (when a string)
 * together, when the plain check measured them (`boundedTextBytes`); else measured here.
 */
export function validContainerBytes(
  container: FindingsContainer,
  prose?: number
): number | null {
  const source = text(container.sourceReceiptId)
  const head = text(container.headSha)
  const base = container.baseSha === undefined ? 0 : text(container.baseSha)
  const measured = prose !== undefined
  let items = (container.items.length === 0 ? 2 : 1) + (prose ?? 0)
  for (const item of container.items)
    items += itemBytes(item, source, head, base, measured) + 1
  let bytes =
    1 +
    member('schemaVersion', 1) +
    member('sourceReceiptId', source) +
    member('reviewKind', word(container.reviewKind)) +
    member('backend', text(container.backend)) +
    member('round', digits(container.round)) +
    member('headSha', head) +
    member('items', items)
  if (container.baseSha !== undefined) bytes += member('baseSha', base)
  bytes += optionalText('supersedesReceiptId', container.supersedesReceiptId)
  // A lone surrogate made one of the terms NaN, and so the sum.
  return Number.isNaN(bytes) ? null : bytes
}

// The members every valid item has, keys and the fixed-length id (objects open with 1:
// each member adds its key, quotes, colon and a comma or the closing brace).
const ITEM_FIXED =
  1 +
  ITEM_KEYS.slice(0, ITEM_REQUIRED).reduce((sum, key) => sum + member(key, 0), 0) +
  LINEAGE_ID_BYTES

/** An item's bytes; its title, body and suggestion text left out when `measured` already. */
function itemBytes(
  item: FindingItem,
  source: number,
  head: number,
  base: number,
  measured: boolean
): number {
  let rIds = item.rIds.length === 0 ? 2 : 1
  for (const rid of item.rIds) rIds += text(rid) + 1
  const suggestion = item.suggestion
  let bytes =
    ITEM_FIXED +
    digits(item.ordinal) +
    word(item.severity) +
    digits(item.confidence) +
    word(item.classification) +
    word(item.status) +
    rIds +
    text(item.firstSeenReceiptId) +
    source
  if (!measured) {
    bytes += text(item.title) + text(item.body)
    if (typeof suggestion === 'string') bytes += text(suggestion)
  }
  if (suggestion !== undefined) bytes += member('suggestion', suggestion === null ? 4 : 0)
  bytes += optionalText('priorFindingId', item.priorFindingId)
  if (item.anchor !== undefined)
    bytes += member('anchor', anchorBytes(item.anchor, head, base))
  return bytes
}

function anchorBytes(anchor: Anchor, head: number, base: number): number {
  let bytes =
    1 +
    member('path', text(anchor.path)) +
    member('side', word(anchor.side)) +
    member('startLine', digits(anchor.startLine)) +
    member('baseSha', base) +
    member('headSha', head)
  bytes += optionalText('originalPath', anchor.originalPath)
  const endLine = anchor.endLine
  if (endLine !== undefined)
    bytes += member('endLine', endLine === null ? 4 : digits(endLine))
  // `[0-9a-f]{7,64}`: a word too.
  const blobOid = anchor.blobOid
  if (blobOid !== undefined)
    bytes += member('blobOid', blobOid === null ? 4 : word(blobOid))
  return bytes
}

/** `"key":` and the value's bytes, and the comma or brace after it. */
function member(key: string, valueBytes: number): number {
  return key.length + 4 + valueBytes
}

/** A member that may be absent or null (`orAbsent`), with free text when present. */
function optionalText(key: string, value: string | null | undefined): number {
  if (value === undefined) return 0
  return member(key, value === null ? 4 : text(value))
}

/** Free text as JSON, NaN on an unpaired surrogate (so that the sum says so). */
function text(value: string): number {
  return jsonStringBytes(value) ?? Number.NaN
}

/** A quoted ASCII word with nothing to escape (an enumeration's value, hex digits). */
function word(value: string): number {
  return value.length + 2
}

/** A safe integer's digits (and sign): JSON writes it as `String` does. */
function digits(value: number): number {
  return String(value).length
}
