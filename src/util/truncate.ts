/** Truncates to `max` (as `size` measures) on a code point boundary, ending in `mark`. */
export function truncateTo(
  text: string,
  max: number,
  size: (s: string) => number,
  mark: string
): string {
  if (size(text) <= max) return text
  let out = ''
  let used = size(mark)
  for (const ch of text) {
    if (used + size(ch) > max) break
    out += ch
    used += size(ch)
  }
  return out + mark
}
