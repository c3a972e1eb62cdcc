/**
 * The envelope check of flow-next's Ralph guard (`ralph-guard.py`, `validate_receipt_data`
 * and `parse_receipt_path`): `type` and `id` non-empty strings, `verdict` one of four,
 * and — when the file name has one of the guard's forms — `type` and `id` as the name says.
 * Every other envelope key is allowed.
 */
import { basename } from 'node:path/posix'
import type { z } from 'zod'
import { isJsonObject, own, type JsonValue } from './json.js'
import { EnvelopeSchema } from './schema.js'

/** The guard-checked envelope; `mode` (reviewer or backend: `codex`, `rp`, …) or null. */
export type Envelope = z.infer<typeof EnvelopeSchema> & { mode: string | null }

type EnvelopeCheck = { ok: true; envelope: Envelope } | { ok: false; reason: string }

// The guard's `plan-<epic>.json`, `completion-<epic>.json` and `impl-<epic>.<task>.json`.
// Python's `\d` is any Unicode decimal digit, and `$` matches before a final newline: kept.
const EPIC = 'fn-\\p{Nd}+(?:-[a-z0-9][a-z0-9-]*[a-z0-9]|-[a-z0-9]{1,3})?'
const NAME_FORM = new RegExp(
  `^(?:(plan|completion)-(${EPIC})|impl-(${EPIC}\\.\\p{Nd}+))\\.json\\n?$`,
  'u'
)

/** The (type, id) a receipt's file name implies, or null when it has none of the forms. */
function typeAndIdFromName(path: string): { type: string; id: string } | null {
  const match = NAME_FORM.exec(basename(path))
  if (!match) return null
  return { type: `${match[1] ?? 'impl'}_review`, id: (match[2] ?? match[3]) as string }
}

/** Runs the guard over a parsed receipt; `path` is its repository path (or file name). */
export function checkEnvelope(value: JsonValue, path: string): EnvelopeCheck {
  if (!isJsonObject(value))
    return { ok: false, reason: 'expected a JSON object at the top level' }
  // Parsed objects have no prototype: zod reads own keys only.
  const parsed = EnvelopeSchema.safeParse(value)
  if (!parsed.success) {
    const typeOrId = parsed.error.issues.some((issue) => issue.path[0] !== 'verdict')
    return {
      ok: false,
      reason: typeOrId
        ? 'missing type/id (both must be non-empty strings)'
        : `missing or invalid verdict (must be SHIP, NEEDS_WORK, MAJOR_RETHINK or NEEDS_HUMAN)`
    }
  }
  const data = parsed.data
  const expected = typeAndIdFromName(path)
  for (const key of ['type', 'id'] as const) {
    if (expected && data[key] !== expected[key]) {
      const reason = `${key} mismatch: expected ${expected[key]}, got ${data[key]}`
      return { ok: false, reason }
    }
  }
  const mode = own(value, 'mode')
  return {
    ok: true,
    envelope: { ...data, mode: typeof mode === 'string' ? mode : null }
  }
}
