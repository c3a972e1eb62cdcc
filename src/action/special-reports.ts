/** Reports for runs that gate no receipts: a merge group, and a PR that could not be found. */
import type { Problem, Report } from '../gate/report.js'

function empty(head: string, title: string, note: string, problem?: Problem): Report {
  return {
    title,
    conclusion: problem ? 'failure' : 'success',
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
    problems: problem ? [problem] : [],
    notes: [note]
  }
}

/** A merge queue group: the required check must report or the queue waits forever. */
export function mergeGroupReport(head: string): Report {
  return empty(
    head,
    'Gated on the pull request',
    'Merge queue: gated on the pull request (its receipts were checked there).'
  )
}

/** A `workflow_run` whose PR cannot be found: never a pass. */
export function pullNotFoundReport(head: string): Report {
  const message = `No pull request found for ${head}: no open pull request has this head (workflow_run.pull_requests is empty for forks; set pull-number). A required check never passes without its PR.`
  const problem = { code: 'pull-request-not-found', path: null, message }
  return empty(head, 'No pull request found for this head', message, problem)
}
