/** Reports for runs that gate no receipts: a merge group, and a PR that could not be found. */
import type { Report } from '../gate/report.js'

function empty(
  head: string,
  conclusion: Report['conclusion'],
  note: string,
  title: string
): Report {
  return {
    title,
    conclusion,
    head,
    verdict: '',
    receipts: [],
    missing: [],
    required: [],
    deferred: {
      expected: 0,
      named: 0,
      unnamed: [],
      uncounted: 0,
      hints: [],
      skipped: true,
      notes: []
    },
    annotations: [],
    annotationsNotShown: 0,
    problems:
      conclusion === 'failure'
        ? [{ code: 'pull-request-not-found', path: null, message: note }]
        : [],
    notes: [note]
  }
}

/** A merge queue group: the required check must report or the queue waits forever. */
export function mergeGroupReport(head: string): Report {
  return empty(
    head,
    'success',
    'Merge queue: gated on the pull request (its receipts were checked there).',
    'Gated on the pull request'
  )
}

/** A `workflow_run` whose PR cannot be found: never a pass. */
export function pullNotFoundReport(head: string, why: string): Report {
  return empty(
    head,
    'failure',
    `No pull request found for ${head}: ${why}. A required check never passes without its PR.`,
    'No pull request found for this head'
  )
}
