// Rewrites a bundle so that it is ASCII only, meaning unchanged: every character outside
// ASCII in a string, template or regular expression literal (or a comment) becomes a
// `\uXXXX` escape. Used by scripts/build.mjs on every bundle.
//
// Performance (issue 7): a source with a single character outside Latin-1 (an em dash,
// an icon) is read into a two-byte string and scanned as one; dist/main.js held 42 such
// characters, and loading it took 2–3 ms longer than its ASCII copy on Node 20 and 24.
import * as acorn from 'acorn'

const NON_ASCII = /[\u0080-\uffff]/

/** `code` (an ES module, or a script with `module: false`) with every literal ASCII only. */
export function asciiOnly(code, { module = true } = {}) {
  if (!NON_ASCII.test(code)) return code
  const sourceType = module ? 'module' : 'script'
  refuseRawTemplates(acorn.parse(code, { ecmaVersion: 'latest', sourceType }))
  // The tokens and comments that hold such a character, in the order they stand.
  const comments = []
  const ranges = []
  for (const token of acorn.tokenizer(code, {
    ecmaVersion: 'latest',
    sourceType,
    onComment: comments
  })) {
    if (!NON_ASCII.test(code.slice(token.start, token.end))) continue
    const kind = token.type.label
    if (kind !== 'string' && kind !== 'template' && kind !== 'regexp')
      throw new Error(`ascii-only: a character outside ASCII in a ${kind} token`)
    ranges.push(token)
  }
  for (const comment of comments)
    if (NON_ASCII.test(code.slice(comment.start, comment.end))) ranges.push(comment)
  ranges.sort((a, b) => a.start - b.start)
  let out = ''
  let last = 0
  for (const { start, end } of ranges) {
    out += code.slice(last, start) + escapeText(code.slice(start, end))
    last = end
  }
  out += code.slice(last)
  if (NON_ASCII.test(out))
    throw new Error('ascii-only: a character outside ASCII is left')
  return out
}

/**
 * Each UTF-16 unit outside ASCII as `\uXXXX`: the same string or template (cooked) value;
 * in a regular expression the same character (with the `u` or `v` flag, an escaped
 * surrogate pair is one code point). A backslash that escaped the character itself (an
 * identity escape, `\—`, the character) is dropped, or the escape would escape it.
 */
function escapeText(text) {
  return text.replace(/(\\*)([\u0080-\uffff])/g, (_all, slashes, unit) => {
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes
    return `${kept}\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}

/** A tagged template sees its raw text: escaping would change it. */
function refuseRawTemplates(node) {
  const stack = [node]
  while (stack.length > 0) {
    const next = stack.pop()
    if (next === null || typeof next !== 'object') continue
    if (Array.isArray(next)) {
      stack.push(...next)
      continue
    }
    if (
      next.type === 'TaggedTemplateExpression' &&
      next.quasi.quasis.some((quasi) => NON_ASCII.test(quasi.value.raw))
    )
      throw new Error('ascii-only: a tagged template holds a character outside ASCII')
    for (const [key, value] of Object.entries(next))
      if (key !== 'type' && value !== null && typeof value === 'object') stack.push(value)
  }
}
