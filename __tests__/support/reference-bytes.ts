/**
 * The byte bound's measure as it was first written, kept as the reference the fast
 * counts are held to: a walk for unpaired surrogates (flowctl cannot encode them), then
 * the UTF-8 length of the compact text.
 */
import type { JsonValue } from '../../src/receipts/json.js'

export function referenceBytes(value: JsonValue): number | null {
  const lone = (text: string): boolean => /\p{Surrogate}/u.test(text)
  const walk = (v: JsonValue): boolean => {
    if (typeof v === 'string') return lone(v)
    if (Array.isArray(v)) return v.some(walk)
    if (v !== null && typeof v === 'object' && !(v instanceof Number))
      return Object.keys(v).some((k) => lone(k) || walk(v[k] ?? null))
    return false
  }
  return walk(value) ? null : Buffer.byteLength(JSON.stringify(value), 'utf8')
}
