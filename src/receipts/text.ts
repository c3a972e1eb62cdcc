/** String measures as flowctl takes them: Python's `len()` counts code points. */

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g

/** Length in Unicode code points (a lone surrogate counts as one, as in Python). */
export function codePointLength(value: string): number {
  // Performance: the regex engine counts the (non-overlapping) pairs about twice
  // as fast as a JS loop; `test` moves `lastIndex` on without building a match array.
  let pairs = 0
  SURROGATE_PAIR.lastIndex = 0
  while (SURROGATE_PAIR.test(value)) pairs++
  return value.length - pairs
}

/** True when `value` is within `max` code points; cheap for the common short case. */
export function withinCodePoints(value: string, max: number): boolean {
  // Code points never outnumber UTF-16 units, so short strings need no count.
  return value.length <= max || codePointLength(value) <= max
}

/** True when the string holds an unpaired surrogate (Python cannot encode it as UTF-8). */
export function hasLoneSurrogate(value: string): boolean {
  // `isWellFormed` is ES2024 (in every Node this supports), beyond the configured lib.
  return !(value as string & { isWellFormed(): boolean }).isWellFormed()
}

/** Shortens text for a one-line reason, counting code points. */
export function clip(value: string, max: number): string {
  const chars = Array.from(value)
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`
}
