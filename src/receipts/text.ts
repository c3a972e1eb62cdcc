/**
 * String measures as flowctl takes them: Python's `len()` counts code points, and the
 * container byte bound counts UTF-8 bytes of compact, sorted-key JSON.
 */

/** Length in Unicode code points (a lone surrogate counts as one, as in Python). */
export function codePointLength(value: string): number {
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

/** True when `value` is within `max` code points; cheap for the common short case. */
export function withinCodePoints(value: string, max: number): boolean {
  // Code points never outnumber UTF-16 units, so short strings need no count.
  return value.length <= max || codePointLength(value) <= max
}

/** True when the string holds an unpaired surrogate (Python cannot encode it as UTF-8). */
export function hasLoneSurrogate(value: string): boolean {
  return /\p{Surrogate}/u.test(value)
}

/** UTF-8 byte length of a well-formed string. */
export function utf8Length(value: string): number {
  return Buffer.byteLength(value, 'utf8')
}

/** Shortens text for a one-line reason, counting code points. */
export function clip(value: string, max = 80): string {
  const chars = Array.from(value)
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`
}
