/**
 * `JSON.stringify(value, null, 2)` and its line end, in pieces: the report file (SPEC §8)
 * as `receipt-gate check --format json` prints it, byte for byte once joined.
 *
 * Performance (issue 7): the report of 200 findings is half a megabyte of JSON, two bytes
 * a character as soon as one text in it is outside Latin-1. Stringified whole it is a
 * rope that writing flattens into one megabyte-sized string (fresh memory, counted in
 * V8's old generation), then encodes into a buffer as large: on a 2-core runner that
 * tipped the action's heap into a full collection just before it exits. In pieces, each
 * a top-level member or one element of a top-level list, every string is small and
 * short-lived, and the writer encodes them through one reused buffer.
 */

/** The pieces of `JSON.stringify(value, null, 2)` followed by `\n`. */
export function* prettyJsonPieces(value: unknown): Generator<string> {
  if (!isPlainObject(value)) {
    yield `${JSON.stringify(value, null, 2)}\n`
    return
  }
  let members = 0
  for (const [key, member] of Object.entries(value)) {
    // As JSON.stringify: a member with no JSON form is left out.
    if (
      member === undefined ||
      typeof member === 'function' ||
      typeof member === 'symbol'
    )
      continue
    yield `${members++ === 0 ? '{' : ','}\n  ${JSON.stringify(key)}: `
    if (Array.isArray(member) && member.length > 0) {
      for (const [index, element] of member.entries())
        yield `${index === 0 ? '[' : ','}\n    ${nested(element, 2)}`
      yield '\n  ]'
    } else {
      yield nested(member, 1)
    }
  }
  yield members === 0 ? '{}\n' : '\n}\n'
}

/**
 * `JSON.stringify(value, null, 2)` as it reads `depth` levels deep (its inner lines
 * indented by two spaces a level): stringified inside `depth` arrays, which indent it,
 * and cut out of them. In an array, a value with no JSON form reads `null`, as it would.
 */
function nested(value: unknown, depth: number): string {
  let wrapped: unknown = value
  for (let level = 0; level < depth; level++) wrapped = [wrapped]
  const text = JSON.stringify(wrapped, null, 2)
  // Before the value: "[\n" + "  [\n" + … and its own indent (d² + 3d characters);
  // after it: "\n" + indent + "]" for each level (d² + d).
  return text.slice(depth * depth + 3 * depth, text.length - depth * depth - depth)
}

/** An object JSON.stringify writes member by member (no `toJSON`, not an array). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}
