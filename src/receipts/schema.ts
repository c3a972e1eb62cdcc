/**
 * zod schemas for the per-field rules of review receipts, with flowctl's bounds (flow-next
 * 4.4.0, `flowctl.py:5107-5134`); rules across fields live in `findings.ts`. The container,
 * items and anchors are closed, the envelope open; `null` is absent only where flowctl says.
 * `npm run schema` generates `schema/receipt.schema.json` from them: `.meta()` adds the
 * keywords a refinement cannot show, `.describe()` the descriptions editors display.
 */
import { z } from 'zod'
import { LIMITS, REVIEW_KINDS, SEVERITIES, VERDICTS } from './limits.js'
import { safePath } from './paths.js'
import { withinCodePoints } from './text.js'

export * from './limits.js'

/** Python's `R\d+` with `re.fullmatch`: `\d` is any Unicode decimal digit. */
const RID = /^R\p{Nd}+$/u

/**
 * Length checks run on their own type only: by default zod runs them on anything with a
 * `length` key even after the type check failed, and `{"length": {}}` (no prototype)
 * would then throw instead of being refused.
 */
const ON_STRINGS = {
  when: (payload: z.core.ParsePayload): boolean => typeof payload.value === 'string'
}
const ON_ARRAYS = {
  when: (payload: z.core.ParsePayload): boolean => Array.isArray(payload.value)
}

const NonEmptyString = z
  .string()
  .min(1, { error: 'must be a non-empty string', ...ON_STRINGS })

/** A string (non-empty by default) of at most `max` code points, as maxLength counts. */
function boundedString(max: number, base = NonEmptyString): z.ZodString {
  return base
    .refine((value) => withinCodePoints(value, max), {
      error: `must be at most ${max} code points`
    })
    .meta({ maxLength: max })
}

/** An integer (never a bool, never a float token) of at least 1. */
const PositiveInt = z.int().min(1, { error: 'must be an integer of at least 1' })

/** A path checked after flowctl's markdown cleaning (see `safePath`). */
const AnchorPath = z.string().refine((value) => safePath(value) !== null, {
  error:
    'must be a relative repository path (no leading /, drive letter, empty, . or .. segment)'
})

const AnchorSchema = z
  .strictObject({
    path: AnchorPath.describe(
      'Repository path, relative; checked after Markdown cleaning (backticks, ** and \\ are tolerated).'
    ),
    side: z.enum(['base', 'head']).describe('Which side of the diff the lines are on.'),
    startLine: PositiveInt.describe('First line, 1-based.'),
    baseSha: boundedString(LIMITS.id).describe("Equal to the container's baseSha."),
    headSha: boundedString(LIMITS.id).describe("Equal to the container's headSha."),
    originalPath: AnchorPath.nullish().describe(
      'Path before a rename; null counts as absent.'
    ),
    endLine: z
      .int()
      .nullish()
      .describe('Last line, at least startLine; null counts as absent.'),
    blobOid: z
      .string()
      .regex(/^[0-9a-f]{7,64}$/, { error: 'must be 7 to 64 lowercase hex digits' })
      .nullish()
      .describe('Blob id of the file on that side; null counts as absent.')
  })
  .describe('Where a finding is, on one side of the diff.')

const FindingItemSchema = z
  .strictObject({
    id: boundedString(LIMITS.id).describe(
      'finding- and the first 32 hex digits of sha256("flow-next-finding-v1\\0" + firstSeenReceiptId + "\\0" + ordinal).'
    ),
    ordinal: PositiveInt.describe(
      'Number of the finding in the generation that first saw it; unique in the container.'
    ),
    severity: z.enum(SEVERITIES).describe('P0 (most severe) to P3.'),
    confidence: z
      .union(
        ([0, 25, 50, 75, 100] as const).map((value) => z.literal(value)),
        { error: 'must be one of 0, 25, 50, 75, 100' }
      )
      .describe('Reviewer confidence, an integer (100.0 is refused).'),
    classification: z
      .enum(['introduced', 'pre_existing'])
      .describe('Introduced by the change under review, or there before it.'),
    status: z.enum(['open', 'fixed', 'not_fixed', 'withdrawn']),
    title: boundedString(LIMITS.title),
    body: boundedString(LIMITS.body),
    rIds: z
      .array(
        boundedString(LIMITS.id, z.string())
          .refine((value) => RID.test(value), {
            error: 'must be R followed by digits (R4a is not)'
          })
          .meta({ maxLength: LIMITS.id, pattern: RID.source })
      )
      .max(LIMITS.rIds, { error: `must hold at most ${LIMITS.rIds} R-IDs`, ...ON_ARRAYS })
      .refine((rids) => new Set(rids).size === rids.length, {
        error: 'must not repeat an R-ID'
      })
      .meta({ uniqueItems: true })
      .describe('Requirement ids the finding concerns (R1, R2, …), no repeats.'),
    firstSeenReceiptId: boundedString(LIMITS.id).describe(
      'sourceReceiptId of the generation that first reported the finding.'
    ),
    lastSeenReceiptId: boundedString(LIMITS.id).describe(
      "Equal to the container's sourceReceiptId."
    ),
    suggestion: boundedString(LIMITS.suggestion)
      .nullish()
      .describe('null counts as absent.'),
    priorFindingId: boundedString(LIMITS.id)
      .nullish()
      .describe(
        'A finding of an earlier generation this one continues, not its own id; null counts as absent.'
      ),
    anchor: AnchorSchema.optional().describe(
      'Optional; null is refused (flowctl crashes on it).'
    )
  })
  .describe('One finding.')

export const FindingsContainerSchema = z
  .strictObject({
    schemaVersion: z.literal(1, { error: 'must be the integer 1' }),
    sourceReceiptId: boundedString(LIMITS.id).describe(
      'Id of this generation (review-<sha256 hex> as flowctl writes it).'
    ),
    reviewKind: z
      .enum(REVIEW_KINDS)
      .describe(
        "Matches the receipt's type: plan_review → plan, impl_review → implementation, completion_review → completion, qa_verdict → qa."
      ),
    backend: boundedString(LIMITS.id).describe("Equal to the receipt's mode."),
    round: PositiveInt.describe('1 without supersedesReceiptId, more than 1 with it.'),
    headSha: boundedString(LIMITS.id).describe('The commit the review saw.'),
    items: z
      .array(FindingItemSchema)
      .max(LIMITS.items, {
        error: `must hold at most ${LIMITS.items} items`,
        ...ON_ARRAYS
      })
      .describe('Ids and ordinals unique; any order.'),
    baseSha: boundedString(LIMITS.id)
      .optional()
      .describe(
        'Base of the reviewed diff; required when an item has an anchor; null is refused.'
      ),
    supersedesReceiptId: boundedString(LIMITS.id)
      .nullish()
      .describe(
        'sourceReceiptId of the generation this one follows, not its own; null counts as absent.'
      )
  })
  .describe('Structured findings, v1. At most 262144 bytes as compact UTF-8 JSON.')

const CriterionSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^G[1-9][0-9]*$/, { error: 'must be G1, G2, … (no G0, no leading zero)' })
      .describe('G1, G2, …; unique in the list.'),
    status: z.enum(['met', 'violated', 'n/a']),
    note: boundedString(LIMITS.criteriaNote).nullish().describe('null counts as absent.')
  })
  .describe('One acceptance criterion of a completion review.')

export const CriteriaSchema = z
  .array(CriterionSchema)
  .min(1, { error: 'must hold at least one criterion', ...ON_ARRAYS })
  .max(LIMITS.criteria, {
    error: `must hold at most ${LIMITS.criteria} criteria`,
    ...ON_ARRAYS
  })
  .describe('Completion reviews only; null counts as absent.')

/** The envelope as the Ralph guard reads it; every other key is allowed. */
export const EnvelopeSchema = z.object({
  type: NonEmptyString.describe(
    'plan_review, impl_review, completion_review, qa_verdict, …'
  ),
  id: NonEmptyString.describe('The reviewed epic or task (fn-1, fn-1.2).'),
  verdict: z.enum(VERDICTS).describe('The review verdict.')
})

export type FindingItem = z.infer<typeof FindingItemSchema>
export type FindingsContainer = z.infer<typeof FindingsContainerSchema>
export type Criterion = z.infer<typeof CriterionSchema>
