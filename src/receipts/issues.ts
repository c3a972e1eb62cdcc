/**
 * Turns zod issues into one-line reasons a person can act on:
 * `items[3].confidence: must be one of 0, 25, 50, 75, 100 (got the float 100.0)`.
 */
import type { $ZodError, $ZodIssue } from 'zod/v4/core'
import { describeValue } from './json.js'
import { clip } from './text.js'

/** At most this many reasons per projection; the rest are counted. */
const MAX_REASONS = 5

/** Formats a JSON path the way a reader writes it: `findings.items[3].anchor.path`. */
export function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out === '' ? String(key) : `.${String(key)}`
  }
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
  // A missing enum or literal key fails as `invalid_value`/`invalid_union` with no
  // input: say it is required rather than "must be one of … (got nothing)".
  if (
    issue.input === undefined &&
    (issue.code === 'invalid_value' || issue.code === 'invalid_union')
  ) {
    return `${where}: is required`
  }
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${where}: unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys
        .slice(0, 5)
        // A key is receipt text of any length: clipped like every echoed value, so a
        // reason stays one short line (an unknown key can be a 2 MiB string).
        .map((key) => JSON.stringify(clip(key, 40)))
        .join(', ')} (this object is closed)`
    case 'invalid_type':
      if (issue.input === undefined) return `${where}: is required`
      return `${where}: must be ${article(issue.expected)} (got ${describeValue(issue.input)})`
    case 'invalid_value':
      return `${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (got ${describeValue(issue.input)})`
    case 'too_big':
    case 'too_small':
    case 'custom':
    case 'invalid_format':
    case 'invalid_union':
    default:
      return `${where}: ${plainMessage(issue)}${issue.input === undefined ? '' : ` (got ${describeValue(issue.input)})`}`
  }
}

function plainMessage(issue: $ZodIssue): string {
  if (issue.code === 'too_big' && issue.origin === 'int')
    return 'must be an integer within 2^53 - 1'
  return issue.message.replace(/^Invalid input: /, '')
}

function article(expected: string): string {
  const names: Record<string, string> = {
    int: 'an integer',
    number: 'a number',
    string: 'a string',
    object: 'an object',
    array: 'an array',
    boolean: 'a boolean'
  }
  return names[expected] ?? expected
}
