/**
 * The fault matrix (issue 6): every route the action calls × eight faults, each cell an
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
  { id: 'pulls/get', method: 'GET', purpose: 'the PR: head, base, body (read fresh)' },
  {
    id: 'pulls/list',
    method: 'GET',
    purpose: 'workflow_run: find the PR of a fork head',
    event: 'workflow_run'
  },
  { id: 'pulls/list-files', method: 'GET', purpose: 'select: changed' },
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
    purpose: 'review coverage: the PR commits and their parents'
  },
  {
    id: 'repos/get-commit',
    method: 'GET',
    purpose: 'review coverage: a commit is code or bookkeeping'
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
      r.method === 'GET'
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
    'annotations only.',
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
      lines.push(
        `| \`${route.id}\` | ${fault.label} | ${outcome ? `\`${outcome}\`` : 'n/a (no annotations on this route)'} | ${outcome ? `${TEST_PREFIX} ${cellName(route, fault)}` : '—'} |`
      )
    }
  return `${lines.join('\n')}\n`
}
