/**
 * The fault matrix (issue 6): every route the action calls × eight faults (and GraphQL's own), each cell an
 * end-to-end run of `dist/index.js` against the local GitHub API. This module holds the
 * definition (routes, faults, the expected outcome of each cell) and renders
 * `docs/fault-matrix.md` from it; `fault-matrix.test.ts` runs the cells and checks the
 * document is current.
 */
import { attemptTimeoutMs } from '../../src/github/client.js'
import type { FaultSpec } from '../support/github-api/faults.js'

/**
 * Every wait and timeout of the action is multiplied by this: the 20 s request timeout
 * becomes 1 s (its floor), backoffs 50, 100, 200 ms, a 5 s rate-limit wait 250 ms.
 */
export const TIME_SCALE = 0.05
/** The latency fault: 30 s at the real scale, longer than the 20 s request timeout. */
export const LATENCY_MS = 30_000 * TIME_SCALE

export interface Route {
  /** operationId (the fake's route key). */
  id: string
  method: 'GET' | 'POST' | 'PATCH'
  /** What the action uses it for. */
  purpose: string
  /** A fault that makes the action call this route (lookups happen only after a failure). */
  trigger?: FaultSpec
  /** The event the cell runs on (default `pull_request`). */
  event?: 'workflow_run'
}

export const ROUTES: readonly Route[] = [
  {
    id: 'graphql',
    method: 'POST',
    purpose:
      'the one read (the PR, receipts-dir with every text, the deferral file); the history rule'
  },
  {
    id: 'pulls/get',
    method: 'GET',
    purpose: 'the PR: head, base, body (read fresh; GraphQL failed)'
  },
  {
    id: 'pulls/list',
    method: 'GET',
    purpose: 'workflow_run: find the PR of a fork head',
    event: 'workflow_run'
  },
  {
    id: 'pulls/list-files',
    method: 'GET',
    purpose: 'the patches (findings in the diff) and select: changed'
  },
  {
    id: 'git/get-tree',
    method: 'GET',
    purpose: 'list receipts-dir (by name; walked to if refused)'
  },
  { id: 'git/get-blob', method: 'GET', purpose: 'read receipts and history' },
  {
    id: 'repos/compare-commits-with-basehead',
    method: 'GET',
    purpose: 'review-head rule: R...H'
  },
  {
    id: 'repos/list-commits',
    method: 'GET',
    purpose: 'history rule: the receipt commit'
  },
  { id: 'repos/get-content', method: 'GET', purpose: 'the deferral file' },
  {
    id: 'pulls/list-commits',
    method: 'GET',
    purpose: "review coverage: the PR's commits (GraphQL failed, or over 100)"
  },
  {
    id: 'repos/get-commit',
    method: 'GET',
    purpose: "review coverage: a commit's files (code or bookkeeping)"
  },
  {
    id: 'checks/create',
    method: 'POST',
    purpose: 'the completed check run, first 50 annotations'
  },
  { id: 'checks/update', method: 'PATCH', purpose: 'further annotation batches' },
  {
    id: 'checks/list-for-ref',
    method: 'GET',
    purpose: 'after a failed create: find it by external_id',
    trigger: { kind: 'status', route: 'checks/create', status: 502, times: 1 }
  },
  {
    id: 'checks/get',
    method: 'GET',
    purpose: 'after a failed PATCH: did it land?',
    trigger: { kind: 'status', route: 'checks/update', status: 502, times: 1 }
  }
]

export interface Fault {
  id: string
  label: string
  /** The fault on `route`, or null when it cannot apply there. */
  spec(route: Route): FaultSpec | null
}

/** Annotations a 422 refuses: one in the create's batch, one in the PATCH batch. */
export const POISON = { create: 'poison-create', update: 'poison-update' } as const

const carries =
  (title: string) =>
  (call: { body: unknown }): boolean =>
    JSON.stringify(
      (call.body as { output?: { annotations?: unknown } } | undefined)?.output
        ?.annotations ?? []
    ).includes(title)

/** A GraphQL request for the named query. */
const asks =
  (query: string) =>
  (call: { body: unknown }): boolean =>
    JSON.stringify(call.body ?? '').includes(query)

export const FAULTS: readonly Fault[] = [
  {
    id: '500x2',
    label: '500 twice, then OK',
    spec: (r) => ({ kind: 'status', route: r.id, status: 500, times: 2 })
  },
  {
    id: '502-forever',
    label: '502 forever',
    spec: (r) => ({ kind: 'status', route: r.id, status: 502, times: Infinity })
  },
  {
    id: 'reset',
    label: 'connection reset (after the request took effect)',
    spec: (r) => ({ kind: 'reset', route: r.id, applied: true, times: 1 })
  },
  {
    id: '403-permission',
    label: '403 permission ("Resource not accessible by integration")',
    spec: (r) =>
      r.method === 'GET' || r.id === 'graphql'
        ? {
            kind: 'status',
            route: r.id,
            status: 403,
            message: 'Resource not accessible by integration',
            times: Infinity
          }
        : { kind: 'forbidden', route: r.id, times: Infinity }
  },
  {
    id: '403-rate-limit',
    label: '403 rate limit, x-ratelimit-reset in 5 s',
    spec: (r) => ({
      kind: 'rate-limit',
      route: r.id,
      status: 403,
      resetAfterSeconds: 5,
      times: 1
    })
  },
  {
    id: '429-retry-after',
    label: '429, retry-after 3 s',
    spec: (r) => ({
      kind: 'rate-limit',
      route: r.id,
      status: 429,
      retryAfterSeconds: 3,
      times: 1
    })
  },
  {
    id: '422-batch',
    label: '422 on one annotation batch',
    spec: (r) =>
      r.id === 'checks/create' || r.id === 'checks/update'
        ? {
            // GitHub refuses the annotation wherever it is sent: in the create's batch,
            // and again when the action re-sends it in a PATCH to isolate it.
            kind: 'reject',
            route: '*',
            times: Infinity,
            when: carries(r.id === 'checks/create' ? POISON.create : POISON.update)
          }
        : null
  },
  {
    id: 'latency-30s',
    label: '30 s latency (every call; the request timeout is 20 s)',
    spec: (r) => ({ kind: 'latency', route: r.id, ms: LATENCY_MS, times: Infinity })
  },
  // GraphQL's own ways to fail: HTTP 200 with `errors`. GitHub's "Something went wrong"
  // (INTERNAL) is retried like a 5xx; any other error is an answer to fall back from.
  {
    id: 'graphql-errors',
    label: 'GraphQL `errors` (INTERNAL) without data, every query',
    spec: (r) =>
      r.id === 'graphql'
        ? { kind: 'graphql-error', route: r.id, type: 'INTERNAL', times: Infinity }
        : null
  },
  {
    id: 'graphql-partial',
    label: 'GraphQL `errors` (FORBIDDEN) with partial `data`: the receipts folder failed',
    spec: (r) =>
      r.id === 'graphql'
        ? {
            kind: 'graphql-error',
            route: r.id,
            path: ['repository', 'folder'],
            type: 'FORBIDDEN',
            message: 'Resource not accessible by integration',
            // Every attempt (a retried timeout too) of the one read.
            times: Infinity,
            when: asks('query receiptGate(')
          }
        : null
  },
  {
    id: 'graphql-history',
    label: 'GraphQL `errors` (FORBIDDEN) on the second query (the history rule) only',
    spec: (r) =>
      r.id === 'graphql'
        ? {
            kind: 'graphql-error',
            route: r.id,
            type: 'FORBIDDEN',
            message: 'Resource not accessible by integration',
            times: Infinity,
            when: asks('query receiptGateHistory(')
          }
        : null
  }
]

/** What a cell must end with (beyond the invariants every cell keeps). */
export type Outcome =
  /** Exit 0; one completed check run, success, every annotation. */
  | 'published'
  /** Exit 0; one completed run; the refused annotation dropped and named in its summary. */
  | 'published-dropping-one'
  /** Exit 0 (the gate passes); no check run: workflow-command annotations and the job summary. */
  | 'fallback'
  /** Exit 0 (the gate passes); the run was created, then writes were refused: workflow commands stand in for the rest. */
  | 'fallback-after-create'
  /** Exit 1; one completed run concluding failure: the receipts that could not be read are unreadable. */
  | 'unreadable-published'
  /** Exit 1 with one clear line; no check run (the gate could not be read or published). */
  | 'failed-unpublished'
  /** Exit 1 with one clear line; the run exists, completed, but later annotation batches could not be posted. */
  | 'failed-partly-published'

export const OUTCOMES: Record<Outcome, string> = {
  published: 'exit 0; one completed check run (success) with all 60 annotations',
  'published-dropping-one':
    'exit 0; one completed check run with 59 annotations; the refused one named in its summary',
  fallback:
    'exit 0 (the gate passes); no check run: workflow-command annotations, job summary, why in the log',
  'fallback-after-create':
    'exit 0 (the gate passes); the completed run holds the first batch; the rest as workflow commands, why in the log',
  'unreadable-published':
    'exit 1; one completed check run concluding failure: the receipts that could not be read are unreadable, with the reason',
  'failed-unpublished':
    'exit 1 with one clear `::error::` line naming the route; no check run',
  'failed-partly-published':
    'exit 1 with one clear `::error::` line; the completed run holds the annotations posted before'
}

/** The expected outcome of one cell, or null when the fault does not apply to the route. */
export function expectedOutcome(route: Route, fault: Fault): Outcome | null {
  if (fault.spec(route) === null) return null
  // GraphQL failing for good falls back to the REST source: the same answers. Review
  // coverage (`coverage: report`) failing is a note in the report, not a verdict.
  if (['graphql', 'pulls/list-commits', 'repos/get-commit'].includes(route.id))
    return 'published'
  const recovers = ['500x2', 'reset', '403-rate-limit', '429-retry-after'].includes(
    fault.id
  )
  if (recovers) return 'published'
  if (fault.id === '422-batch') return 'published-dropping-one'
  // 502 forever, 403 permission, latency beyond the timeout: the call fails for good.
  switch (route.id) {
    case 'git/get-blob':
      return 'unreadable-published'
    // `coverage: report`: coverage is not computed (null, with a note); the gate stands.
    case 'pulls/list-commits':
    case 'repos/get-commit':
      return 'published'
    case 'checks/create':
      if (fault.id === '403-permission') return 'fallback'
      // A create that timed out still lands: it is found by external_id, not duplicated.
      return fault.id === 'latency-30s' ? 'published' : 'failed-unpublished'
    case 'checks/update':
      if (fault.id === '403-permission') return 'fallback-after-create'
      // A PATCH that timed out still lands: found by the run's annotation count.
      return fault.id === 'latency-30s' ? 'published' : 'failed-partly-published'
    case 'checks/get':
      return 'failed-partly-published'
    default:
      return 'failed-unpublished'
  }
}

export function cellName(route: Route, fault: Fault): string {
  return `${route.id} × ${fault.label}`
}

/** The test title of a cell, as jest prints it. */
export const TEST_PREFIX = 'fault matrix ›'

/** `docs/fault-matrix.md`, rendered from the definition above. */
export function renderMatrixDoc(): string {
  const lines = [
    '# Fault matrix',
    '',
    '<!-- Generated by __tests__/hostile/fault-matrix.test.ts from __tests__/hostile/fault-matrix.ts.',
    '     Regenerate: RECEIPT_GATE_WRITE_DOCS=1 npm test -- __tests__/hostile/fault-matrix.test.ts -->',
    '',
    'Every route the action calls, under every fault, end to end: the bundled',
    '`dist/index.js` runs as the GitHub runner runs it, against the local GitHub API',
    '(`__tests__/support/github-api/`), on a pull request whose gate passes (a current SHIP',
    'with 60 anchored findings — two annotation writes — an unbound receipt read by the',
    'history rule, and a deferral file named in the PR body). Waits are scaled by',
    `\`RECEIPT_GATE_TIME_SCALE=${TIME_SCALE}\` (the 20 s request timeout becomes ${attemptTimeoutMs(TIME_SCALE)} ms, the`,
    `30 s latency ${LATENCY_MS} ms); no test sleeps for real.`,
    '',
    'Every cell also keeps these invariants:',
    '',
    '- the step ends in bounded time: at most 4 attempts per request (20 s timeout each),',
    '  backoff 1 s, 4 s, 9 s, rate-limit waits of at most 60 s; the test bounds the wall',
    '  time and counts the attempts of every read;',
    '- no check run is ever left `in_progress` (runs are created completed);',
    '- at most one check run per attempt, and no annotation posted twice;',
    '- a non-zero exit carries exactly one `::error::` line; no check run and no fallback',
    '  means a non-zero exit;',
    '- the token appears nowhere (log, summary, outputs, report, check run), and the log',
    '  runs no command but our own;',
    "- every request the action sent is valid against GitHub's OpenAPI description.",
    '',
    '`checks/list-for-ref` and `checks/get` are only called after a failed write: their',
    'cells add one 502 on `checks/create` (resp. `checks/update`) to reach them.',
    "`pulls/list` is only called on `workflow_run` (a fork PR's second stage): its cells",
    'run on that event. A 422 on an annotation batch applies to the two writes that carry',
    "annotations only; GraphQL's `errors` faults to `graphql` only.",
    '',
    'The API source reads through GraphQL (`graphql`: one query, and a second for the',
    'history rule) with the REST files list beside it. A GraphQL query that fails for good',
    '(errors, partial data, 502s, timeouts, after the retries of a read) is not an answer:',
    'the REST source asks the same questions (`pulls/get`, `git/get-tree`, `git/get-blob`,',
    '`repos/get-content`, `repos/list-commits`, `pulls/list-commits`) and the report is the',
    "same. Those routes' cells run with GraphQL refused, as for a token without it. Review",
    "coverage's reads failing for good leave coverage unknown, said in the report's notes",
    '(`coverage: report`, the default; `require` would fail the gate).',
    '',
    'A write whose answer never comes (timeout, reset) may still land. Before sending it',
    "again the action looks for it — the run by `external_id`, a PATCH by the run's",
    'annotation count — for one request timeout, so the 30 s latency cells on the writes',
    'publish exactly once.',
    '',
    '## Expected outcomes',
    '',
    '| outcome | meaning |',
    '|---|---|',
    ...Object.entries(OUTCOMES).map(([id, text]) => `| \`${id}\` | ${text} |`),
    '',
    '## Routes',
    '',
    '| route | method | used for |',
    '|---|---|---|',
    ...ROUTES.map((r) => `| \`${r.id}\` | ${r.method} | ${r.purpose} |`),
    '',
    '## Cells',
    '',
    '| route | fault | expected | test |',
    '|---|---|---|---|'
  ]
  for (const route of ROUTES)
    for (const fault of FAULTS) {
      const outcome = expectedOutcome(route, fault)
      if (outcome)
        lines.push(
          `| \`${route.id}\` | ${fault.label} | \`${outcome}\` | ${TEST_PREFIX} ${cellName(route, fault)} |`
        )
    }
  return `${lines.join('\n')}\n`
}
