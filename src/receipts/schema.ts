/**
 * zod schemas for review receipts, with the bounds of flowctl (flow-next 4.4.0,
 * `flowctl.py:5107-5134`). They hold the per-field rules; the rules that relate
 * fields to each other (ids, lineage stamps, anchor SHAs, the byte bound, the
 * envelope binding) live in `findings.ts`, which runs them in flowctl's order.
 *
 * The findings container, its items and anchors are closed (unknown keys are
 * rejected); the envelope is open. `null` counts as absent exactly where flowctl
 * says so, and nowhere else.
 *
 * `schema/receipt.schema.json` is generated from these schemas (`npm run schema`):
 * `withMeta()` carries the JSON Schema keywords a refinement cannot show, and
 * `described()` the descriptions editors display.
 *
 * Performance (issue 7): written with `zod/mini`, zod's tree-shakable API over the same
 * validation core. Loading and building these schemas with the classic API took about
 * 12 ms more of every run on a 2-core runner (a third more code to compile, and a clone
 * per chained method). Its objects would parse in zod's generic loop, a quarter slower
 * warm than the compiled parser the classic API uses; `closedObject` gives them that
 * parser back (docs/performance.md, changes 17 and 22). Mini does not load a locale by
 * itself: English is set when the schemas are built, so the few messages zod writes (a
 * number outside the safe range) read as before.
 *
 * The schemas are built on first use (`receiptSchemas()`): plainly valid receipts are
 * checked without them (`plain.ts`), so a run whose receipts are all valid never builds
 * them.
 */
import * as z from 'zod/mini'
import en from 'zod/v4/locales/en.js'
import {
  BLOB_OID,
  CLASSIFICATIONS,
  CONFIDENCES,
  CRITERIA_STATUSES,
  CRITERION_ID,
  LIMITS,
  REVIEW_KINDS,
  RID,
  SEVERITIES,
  STATUSES,
  VERDICTS
} from './limits.js'
import { safePath } from './paths.js'
import { withinCodePoints } from './text.js'

export * from './limits.js'

/**
 * JSON Schema metadata (a description, keywords a refinement cannot show) attached
 * without a check: mini's `z.describe()` and `z.meta()` are no-op checks that would run
 * on every value validated.
 */
function withMeta<T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T {
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), ...meta })
  return schema
}

function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  return withMeta(schema, { description })
}

/**
 * Where a length check runs: on the type it is for, and on nothing else. zod runs a length
 * check on any value with a `length` key (its default), even after the type check
 * failed, and a receipt's `{"length": {}}` — an object without a prototype — would then
 * be compared with a number and throw instead of being refused.
 */
const ON_STRINGS = {
  when: (payload: z.core.ParsePayload): boolean => typeof payload.value === 'string'
}
const ON_ARRAYS = {
  when: (payload: z.core.ParsePayload): boolean => Array.isArray(payload.value)
}

/**
 * zod's compiled object parser under the mini API. Mini's own objects parse in a generic
 * loop, which made a warm maximal container 25 % slower (1.46 → 1.84 ms, past the 2 ms
 * target in noisy minutes); `$ZodObjectJIT` is the core class the classic API builds
 * objects with, and `ZodMiniType.init` gives it mini's methods, as `ZodMiniObject` does.
 * Where code generation is not allowed, the core class parses with the loop by itself.
 */
const ZodMiniObjectJIT = z.core.$constructor(
  'ZodMiniObjectJIT',
  (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => {
    z.core.$ZodObjectJIT.init(inst, def)
    // Through `call`: TypeScript calls an assertion signature only by a declared name.
    z.ZodMiniType.init.call(z.ZodMiniType, inst, def)
  }
)

/** A closed object (unknown keys refused), like `z.strictObject`, with the compiled parser. */
function closedObject<S extends z.core.$ZodLooseShape>(
  shape: S
): z.ZodMiniObject<S, z.core.$strict> {
  return new ZodMiniObjectJIT({
    type: 'object',
    shape,
    catchall: z.never()
  }) as unknown as z.ZodMiniObject<S, z.core.$strict>
}

/** `null` counts as absent: optional and nullable. */
function orAbsent<T extends z.ZodMiniType>(
  schema: T
): z.ZodMiniOptional<z.ZodMiniNullable<T>> {
  return z.optional(z.nullable(schema))
}

/** A non-empty string. */
function nonEmptyString(what = 'string'): z.ZodMiniString<string> {
  return z
    .string()
    .check(z.minLength(1, { error: `must be a non-empty ${what}`, ...ON_STRINGS }))
}

/** A non-empty string of at most `max` code points. */
function boundedString(max: number, what = 'string'): z.ZodMiniString<string> {
  return withMeta(
    nonEmptyString(what).check(
      z.refine((value: string) => withinCodePoints(value, max), {
        error: `must be at most ${max} code points`
      })
    ),
    // JSON Schema's maxLength counts code points too, so it states the refinement exactly.
    { maxLength: max }
  )
}

/** An integer (never a bool, never a float token) of at least `min`. */
function integerAtLeast(min: number): z.ZodMiniInt {
  return z.int().check(z.gte(min, { error: `must be an integer of at least ${min}` }))
}

const UNSAFE_PATH =
  'must be a relative repository path (no leading /, drive letter, empty, . or .. segment)'

/** A path checked after flowctl's markdown cleaning (see `safePath`). */
function anchorPath(): z.ZodMiniString<string> {
  return z
    .string()
    .check(z.refine((value: string) => safePath(value) !== null, { error: UNSAFE_PATH }))
}

/**
 * Builds the schemas. Performance (issue 7): building them takes about 8 ms of a cold
 * run, and the plainly valid receipts, the common case, never need them
 * (`plain.ts`, used by `envelope.ts` and `findings.ts`): {@link receiptSchemas} builds
 * them on first use.
 */
// The schemas' types are inferred from what it returns (`ReceiptSchemas`).
// eslint-disable-next-line @typescript-eslint/explicit-function-return-type
function build() {
  // Mini does not load a locale by itself: English, as the classic API sets it.
  z.config(en())
  /** Anchor paths are checked after flowctl's markdown cleaning (see `safePath`). */
  const AnchorSchema = described(
    closedObject({
      path: described(
        anchorPath(),
        'Repository path, relative; checked after Markdown cleaning (backticks, ** and \\ are tolerated).'
      ),
      side: described(
        z.enum(['base', 'head']),
        'Which side of the diff the lines are on.'
      ),
      startLine: described(integerAtLeast(1), 'First line, 1-based.'),
      baseSha: described(boundedString(LIMITS.id), "Equal to the container's baseSha."),
      headSha: described(boundedString(LIMITS.id), "Equal to the container's headSha."),
      originalPath: described(
        orAbsent(anchorPath()),
        'Path before a rename; null counts as absent.'
      ),
      endLine: described(
        orAbsent(z.int()),
        'Last line, at least startLine; null counts as absent.'
      ),
      blobOid: described(
        orAbsent(
          z
            .string()
            .check(z.regex(BLOB_OID, { error: 'must be 7 to 64 lowercase hex digits' }))
        ),
        'Blob id of the file on that side; null counts as absent.'
      )
    }),
    'Where a finding is, on one side of the diff.'
  )

  const FindingItemSchema = described(
    closedObject({
      id: described(
        boundedString(LIMITS.id),
        'finding- and the first 32 hex digits of sha256("flow-next-finding-v1\\0" + firstSeenReceiptId + "\\0" + ordinal).'
      ),
      ordinal: described(
        integerAtLeast(1),
        'Number of the finding in the generation that first saw it; unique in the container.'
      ),
      severity: described(z.enum(SEVERITIES), 'P0 (most severe) to P3.'),
      confidence: described(
        z.union(
          CONFIDENCES.map((value) => z.literal(value)),
          {
            error: 'must be one of 0, 25, 50, 75, 100'
          }
        ),
        'Reviewer confidence, an integer (100.0 is refused).'
      ),
      classification: described(
        z.enum(CLASSIFICATIONS),
        'Introduced by the change under review, or there before it.'
      ),
      status: z.enum(STATUSES),
      title: boundedString(LIMITS.title),
      body: boundedString(LIMITS.body),
      rIds: described(
        withMeta(
          z
            .array(
              withMeta(
                z.string().check(
                  z.refine((value: string) => withinCodePoints(value, LIMITS.id), {
                    error: `must be at most ${LIMITS.id} code points`
                  }),
                  z.refine((value: string) => RID.test(value), {
                    error: 'must be R followed by digits (R4a is not)'
                  })
                ),
                { maxLength: LIMITS.id, pattern: RID.source }
              )
            )
            .check(
              z.maxLength(LIMITS.rIds, {
                error: `must hold at most ${LIMITS.rIds} R-IDs`,
                ...ON_ARRAYS
              }),
              z.refine((rids: string[]) => new Set(rids).size === rids.length, {
                error: 'must not repeat an R-ID'
              })
            ),
          { uniqueItems: true }
        ),
        'Requirement ids the finding concerns (R1, R2, …), no repeats.'
      ),
      firstSeenReceiptId: described(
        boundedString(LIMITS.id),
        'sourceReceiptId of the generation that first reported the finding.'
      ),
      lastSeenReceiptId: described(
        boundedString(LIMITS.id),
        "Equal to the container's sourceReceiptId."
      ),
      suggestion: described(
        orAbsent(boundedString(LIMITS.suggestion)),
        'null counts as absent.'
      ),
      priorFindingId: described(
        orAbsent(boundedString(LIMITS.id)),
        'A finding of an earlier generation this one continues, not its own id; null counts as absent.'
      ),
      // `anchor: null` is not absent: flowctl crashes on it, so it is invalid here.
      anchor: described(
        z.optional(AnchorSchema),
        'Optional; null is refused (flowctl crashes on it).'
      )
    }),
    'One finding.'
  )

  const FindingsContainerSchema = described(
    closedObject({
      schemaVersion: z.literal(1, { error: 'must be the integer 1' }),
      sourceReceiptId: described(
        boundedString(LIMITS.id),
        'Id of this generation (review-<sha256 hex> as flowctl writes it).'
      ),
      reviewKind: described(
        z.enum(REVIEW_KINDS),
        "Matches the receipt's type: plan_review → plan, impl_review → implementation, completion_review → completion, qa_verdict → qa."
      ),
      backend: described(boundedString(LIMITS.id), "Equal to the receipt's mode."),
      round: described(
        integerAtLeast(1),
        '1 without supersedesReceiptId, more than 1 with it.'
      ),
      headSha: described(boundedString(LIMITS.id), 'The commit the review saw.'),
      items: described(
        z.array(FindingItemSchema).check(
          z.maxLength(LIMITS.items, {
            error: `must hold at most ${LIMITS.items} items`,
            ...ON_ARRAYS
          })
        ),
        'Ids and ordinals unique; any order.'
      ),
      // Present means a non-empty string: `"baseSha": null` is invalid in flowctl.
      baseSha: described(
        z.optional(boundedString(LIMITS.id)),
        'Base of the reviewed diff; required when an item has an anchor; null is refused.'
      ),
      supersedesReceiptId: described(
        orAbsent(boundedString(LIMITS.id)),
        'sourceReceiptId of the generation this one follows, not its own; null counts as absent.'
      )
    }),
    'Structured findings, v1. At most 262144 bytes as compact UTF-8 JSON.'
  )

  const CriterionSchema = described(
    closedObject({
      id: described(
        z
          .string()
          .check(
            z.regex(CRITERION_ID, { error: 'must be G1, G2, … (no G0, no leading zero)' })
          ),
        'G1, G2, …; unique in the list.'
      ),
      status: z.enum(CRITERIA_STATUSES),
      note: described(
        orAbsent(boundedString(LIMITS.criteriaNote)),
        'null counts as absent.'
      )
    }),
    'One acceptance criterion of a completion review.'
  )

  const CriteriaSchema = described(
    z.array(CriterionSchema).check(
      z.minLength(1, { error: 'must hold at least one criterion', ...ON_ARRAYS }),
      z.maxLength(LIMITS.criteria, {
        error: `must hold at most ${LIMITS.criteria} criteria`,
        ...ON_ARRAYS
      })
    ),
    'Completion reviews only; null counts as absent.'
  )

  /**
   * The envelope as the Ralph guard reads it: `type` and `id` non-empty strings,
   * `verdict` one of four. Every other key is allowed and kept by the caller.
   */
  const EnvelopeSchema = z.object({
    type: described(
      nonEmptyString(),
      'plan_review, impl_review, completion_review, qa_verdict, …'
    ),
    id: described(nonEmptyString(), 'The reviewed epic or task (fn-1, fn-1.2).'),
    verdict: described(z.enum(VERDICTS), 'The review verdict.')
  })
  return {
    AnchorSchema,
    FindingItemSchema,
    FindingsContainerSchema,
    CriterionSchema,
    CriteriaSchema,
    EnvelopeSchema
  }
}

export type ReceiptSchemas = ReturnType<typeof build>
let built: ReceiptSchemas | undefined

/** The receipt schemas, built once, on first use. */
export function receiptSchemas(): ReceiptSchemas {
  return (built ??= build())
}

export type Verdict = (typeof VERDICTS)[number]
export type { ReviewKind } from './limits.js'
export type Severity = (typeof SEVERITIES)[number]
export type Classification = (typeof CLASSIFICATIONS)[number]
export type FindingStatus = (typeof STATUSES)[number]
export type Anchor = z.infer<ReceiptSchemas['AnchorSchema']>
export type FindingItem = z.infer<ReceiptSchemas['FindingItemSchema']>
export type FindingsContainer = z.infer<ReceiptSchemas['FindingsContainerSchema']>
export type Criterion = z.infer<ReceiptSchemas['CriterionSchema']>
