/**
 * Turns zod issues into one-line reasons a person can act on:
 * `items[3].confidence: must be one of 0, 25, 50, 75, 100 (got the float 100.0)`.
 */
import type { $ZodError, $ZodIssue } from 'zod/v4/core'
import { describeValue } from './json.js'
import { clip } from './text.js'

/** At most this many reasons per projection; the rest are counted. */
const MAX_REASONS = 5

/** `a string`, `an object`: the type zod expected, as a reason names it. */
function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`
}

/** Formats a JSON path the way a reader writes it: `findings.items[3].anchor.path`. */
function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix
  for (const key of path)
    out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`
  return out
}

/** Formats a zod error as reasons, under `prefix` (e.g. `findings`). */
export function reasonsFromZod(prefix: string, error: $ZodError): string[] {
  const reasons = error.issues
    .slice(0, MAX_REASONS)
    .map((issue) => formatIssue(prefix, issue))
  const more = error.issues.length - MAX_REASONS
  if (more > 0) reasons.push(`… and ${more} more problem${more === 1 ? '' : 's'}`)
  return reasons
}

function formatIssue(prefix: string, issue: $ZodIssue): string {
  const where = formatPath(prefix, issue.path) || 'value'
  // A missing key fails with no input: say it is required, not "must be … (got nothing)".
  const missable = ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code)
  if (issue.input === undefined && missable) return `${where}: is required`
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${where}: unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys
        .slice(0, 5)
        // A key is receipt text of any length: clipped like every echoed value, so a
        // reason stays one short line (an unknown key can be a 2 MiB string).
        .map((key) => JSON.stringify(clip(key, 40)))
        .join(', ')} (this object is closed)`
    case 'invalid_type':
      return `${where}: must be ${article(issue.expected)} (got ${describeValue(issue.input)})`
    case 'invalid_value':
      return `${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (got ${describeValue(issue.input)})`
    default: // too_big, too_small, custom, invalid_format, invalid_union
      return `${where}: ${issue.message.replace(/^Invalid input: /, '')}${issue.input === undefined ? '' : ` (got ${describeValue(issue.input)})`}`
  }
}
