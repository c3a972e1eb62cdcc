/** Enumerations and bounds of receipts, as flowctl defines them (`flowctl.py:5107-5134`). */
export const VERDICTS = ['SHIP', 'NEEDS_WORK', 'MAJOR_RETHINK', 'NEEDS_HUMAN'] as const
export const SEVERITIES = ['P0', 'P1', 'P2', 'P3'] as const
export const REVIEW_KINDS = ['plan', 'implementation', 'completion', 'qa'] as const

/** Bounds of the findings v1 container, in code points unless named bytes. */
export const LIMITS = {
  containerBytes: 256 * 1024,
  items: 200,
  rIds: 32,
  id: 160,
  path: 1024,
  title: 240,
  body: 4000,
  suggestion: 4000,
  criteria: 100,
  criteriaNote: 400
} as const

/** Receipt `type` → findings `reviewKind` (`_REVIEW_TYPE_TO_FINDINGS_KIND`). */
export const TYPE_TO_KIND: Readonly<Record<string, ReviewKind>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, ReviewKind>, {
    plan_review: 'plan',
    impl_review: 'implementation',
    completion_review: 'completion',
    qa_verdict: 'qa'
  })
)

export type ReviewKind = (typeof REVIEW_KINDS)[number]
