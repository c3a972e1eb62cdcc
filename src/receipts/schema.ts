/**
 * zod schemas for review receipts, with the bounds of flowctl (flow-next 4.4.0,
 * `flowctl.py:5107-5134`). They hold the per-field rules; the rules that relate
 * fields to each other (ids, lineage stamps, anchor SHAs, the byte bound, the
 * envelope binding) live in `findings.ts`, which runs them in flowctl's order.
 *
 * The findings container, its items and anchors are closed (unknown keys are
 * rejected); the envelope is open. `null` counts as absent exactly where flowctl
 * says so, and nowhere else.
 */
import { z } from 'zod'
import {
  CLASSIFICATIONS,
  CONFIDENCES,
  CRITERIA_STATUSES,
  LIMITS,
  REVIEW_KINDS,
  SEVERITIES,
  STATUSES,
  VERDICTS
} from './limits.js'
import { safePath } from './paths.js'
import { withinCodePoints } from './text.js'

export * from './limits.js'

/** A non-empty string of at most `max` code points. */
function boundedString(max: number, what = 'string'): z.ZodString {
  return z
    .string()
    .min(1, { error: `must be a non-empty ${what}` })
    .refine((value) => withinCodePoints(value, max), {
      error: `must be at most ${max} code points`
    })
}

/** An integer (never a bool, never a float token) of at least `min`. */
function integerAtLeast(min: number): z.ZodInt {
  return z.int().min(min, { error: `must be an integer of at least ${min}` })
}

/** `[0-9a-f]{7,64}`: lowercase hex only, as flowctl stores it. */
const BLOB_OID = /^[0-9a-f]{7,64}$/
/** Python's `R\d+` with `re.fullmatch`: `\d` is any Unicode decimal digit. */
const RID = /^R\p{Nd}+$/u
/** `G[1-9][0-9]*`: ASCII digits only, unlike the R-ID rule. */
const CRITERION_ID = /^G[1-9][0-9]*$/

const UNSAFE_PATH =
  'must be a relative repository path (no leading /, drive letter, empty, . or .. segment)'

/** Anchor paths are checked after flowctl's markdown cleaning (see `safePath`). */
export const AnchorSchema = z.strictObject({
  path: z.string().refine((value) => safePath(value) !== null, { error: UNSAFE_PATH }),
  side: z.enum(['base', 'head']),
  startLine: integerAtLeast(1),
  baseSha: boundedString(LIMITS.id),
  headSha: boundedString(LIMITS.id),
  originalPath: z
    .string()
    .refine((value) => safePath(value) !== null, { error: UNSAFE_PATH })
    .nullable()
    .optional(),
  endLine: z.int().nullable().optional(),
  blobOid: z
    .string()
    .regex(BLOB_OID, { error: 'must be 7 to 64 lowercase hex digits' })
    .nullable()
    .optional()
})

export const FindingItemSchema = z.strictObject({
  id: boundedString(LIMITS.id),
  ordinal: integerAtLeast(1),
  severity: z.enum(SEVERITIES),
  confidence: z.union(
    CONFIDENCES.map((value) => z.literal(value)),
    {
      error: 'must be one of 0, 25, 50, 75, 100'
    }
  ),
  classification: z.enum(CLASSIFICATIONS),
  status: z.enum(STATUSES),
  title: boundedString(LIMITS.title),
  body: boundedString(LIMITS.body),
  rIds: z
    .array(
      z
        .string()
        .refine((value) => withinCodePoints(value, LIMITS.id), {
          error: `must be at most ${LIMITS.id} code points`
        })
        .refine((value) => RID.test(value), {
          error: 'must be R followed by digits (R4a is not)'
        })
    )
    .max(LIMITS.rIds, { error: `must hold at most ${LIMITS.rIds} R-IDs` })
    .refine((rids) => new Set(rids).size === rids.length, {
      error: 'must not repeat an R-ID'
    }),
  firstSeenReceiptId: boundedString(LIMITS.id),
  lastSeenReceiptId: boundedString(LIMITS.id),
  suggestion: boundedString(LIMITS.suggestion).nullable().optional(),
  priorFindingId: boundedString(LIMITS.id).nullable().optional(),
  // `anchor: null` is not absent: flowctl crashes on it, so it is invalid here.
  anchor: AnchorSchema.optional()
})

export const FindingsContainerSchema = z.strictObject({
  schemaVersion: z.literal(1, { error: 'must be the integer 1' }),
  sourceReceiptId: boundedString(LIMITS.id),
  reviewKind: z.enum(REVIEW_KINDS),
  backend: boundedString(LIMITS.id),
  round: integerAtLeast(1),
  headSha: boundedString(LIMITS.id),
  items: z.array(FindingItemSchema).max(LIMITS.items, {
    error: `must hold at most ${LIMITS.items} items`
  }),
  // Present means a non-empty string: `"baseSha": null` is invalid in flowctl.
  baseSha: boundedString(LIMITS.id).optional(),
  supersedesReceiptId: boundedString(LIMITS.id).nullable().optional()
})

export const CriterionSchema = z.strictObject({
  id: z
    .string()
    .regex(CRITERION_ID, { error: 'must be G1, G2, … (no G0, no leading zero)' }),
  status: z.enum(CRITERIA_STATUSES),
  note: boundedString(LIMITS.criteriaNote).nullable().optional()
})

export const CriteriaSchema = z
  .array(CriterionSchema)
  .min(1, { error: 'must hold at least one criterion' })
  .max(LIMITS.criteria, { error: `must hold at most ${LIMITS.criteria} criteria` })

/**
 * The envelope as the Ralph guard reads it: `type` and `id` non-empty strings,
 * `verdict` one of four. Every other key is allowed and kept by the caller.
 */
export const EnvelopeSchema = z.object({
  type: z.string().min(1, { error: 'must be a non-empty string' }),
  id: z.string().min(1, { error: 'must be a non-empty string' }),
  verdict: z.enum(VERDICTS)
})

export type Verdict = (typeof VERDICTS)[number]
export type { ReviewKind } from './limits.js'
export type Severity = (typeof SEVERITIES)[number]
export type Classification = (typeof CLASSIFICATIONS)[number]
export type FindingStatus = (typeof STATUSES)[number]
export type Anchor = z.infer<typeof AnchorSchema>
export type FindingItem = z.infer<typeof FindingItemSchema>
export type FindingsContainer = z.infer<typeof FindingsContainerSchema>
export type Criterion = z.infer<typeof CriterionSchema>
