/**
 * The fault matrix, end to end: every route the action calls × eight faults (and GraphQL's own), each cell
 * a run of the bundled `dist/index.js` against the local GitHub API (see
 * `fault-matrix.ts` for the definition and `docs/fault-matrix.md` for the table, which
 * this test checks — or writes, with RECEIPT_GATE_WRITE_DOCS=1).
 *
 * Cells share one repository and run a few at a time, each on its own fake (a fake
 * starts in a few ms); each asserts its expected outcome and the invariants every cell
 * keeps: bounded time, no `in_progress` run, at most one run, no annotation twice, one
 * clear `::error::` line on failure, no token anywhere, no command but our own.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { mapLimit } from '../../src/util/concurrency.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub } from '../support/github-api/server.js'
import type { StoredCheckRun } from '../support/github-api/check-runs.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonText
} from '../support/receipt-builders.js'
import { PROJECT_ROOT, runAction } from '../support/runner.js'
import {
  FAULTS,
  LATENCY_MS,
  POISON,
  ROUTES,
  TEST_PREFIX,
  TIME_SCALE,
  cellName,
  expectedOutcome,
  renderMatrixDoc,
  type Fault,
  type Outcome,
  type Route
} from './fault-matrix.js'
import { logProblems } from './neutral.js'

const TOKEN = 'ghs_MatrixCanaryT0ken0123456789abcdefQRS'
const BRANCH = 'feature/fn-7'
const DIR = '.flow/review-receipts'
const ANNOTATIONS = 60
/** Wall-time bound of one cell (the scaled policy needs well under a second or two). */
const CELL_BOUND_MS = 20_000
const CONCURRENCY = 3
const DOC = join(PROJECT_ROOT, 'docs', 'fault-matrix.md')
const TAIL = `src/a.ts:4 — Deferred thing`
const BODY = `## Summary\n\n## Open items\n- [ ] ${TAIL} — deferred from impl-review (\`.flow/review-deferred/feature-fn-7.md\`)\n`

interface Cell {
  name: string
  route: Route
  fault: Fault
  outcome: Outcome
}

interface CellResult {
  exitCode: number | null
  timedOut: boolean
  durationMs: number
  stdout: string
  summary: string
  outputs: Record<string, string>
  report: Report | null
  runs: StoredCheckRun[]
  everything: string
  operations: string[]
  /** `GET <path>` → how many times it was sent. */
  attempts: Map<string, number>
  routeOf: Record<string, string>
  violations: string | null
}

/** `RECEIPT_GATE_MATRIX_ONLY=<regex>` runs the matching cells only (local debugging). */
const ONLY = process.env.RECEIPT_GATE_MATRIX_ONLY
const allCells: Cell[] = ROUTES.flatMap((route) =>
  FAULTS.flatMap((fault) => {
    const outcome = expectedOutcome(route, fault)
    return outcome ? [{ name: cellName(route, fault), route, fault, outcome }] : []
  })
)
const cells = ONLY
  ? allCells.filter((cell) => new RegExp(ONLY).test(cell.name))
  : allCells

let repo: GitRepo
let workspace: string
let head: string
const results = new Map<string, CellResult>()

/** main → feature/fn-7 (one code commit, reviewed) → one `.flow/`-only commit with the receipts. */
function buildRepo(): void {
  repo = GitRepo.init()
  repo.write({
    'src/app.ts': `${Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i}`).join('\n')}\n`
  })
  const base = repo.commit('initial')
  repo.branch(BRANCH)
  repo.write({ 'src/app.ts': 'export const changed = true\n' })
  const reviewed = repo.commit('fn-7.1: change')
  const items = Array.from({ length: ANNOTATIONS }, (_, i) =>
    buildItem({
      ordinal: i + 1,
      sourceReceiptId: 'review-matrix',
      anchor: { headSha: reviewed, baseSha: base },
      with: {
        severity: 'P2',
        title: i === 10 ? POISON.create : i === 55 ? POISON.update : `Finding ${i + 1}`
      }
    })
  )
  repo.write({
    [`${DIR}/impl-fn-7.1.json`]: jsonText(
      buildReceipt({
        id: 'fn-7.1',
        verdict: 'SHIP',
        findings: buildContainer({
          sourceReceiptId: 'review-matrix',
          headSha: reviewed,
          baseSha: base,
          items
        }),
        extra: { walkthrough: { deferred: 1 } }
      })
    ),
    [`${DIR}/plan-fn-7.json`]: jsonText({
      type: 'plan_review',
      id: 'fn-7',
      mode: 'codex',
      verdict: 'SHIP',
      review: 'Plan ships.'
    }),
    '.flow/review-deferred/feature-fn-7.md': `- [P2, confidence 50, introduced] ${TAIL}\n`
  })
  head = repo.commit('chore(flow): record reviews')
}

/** The REST reads of the API source, which the action makes only when GraphQL fails. */
const REST_SOURCE = new Set([
  'pulls/get',
  'git/get-tree',
  'git/get-blob',
  'repos/list-commits',
  'repos/get-content',
  'pulls/list-commits'
])

async function runCell(cell: Cell): Promise<CellResult> {
  const fake = await startFakeGitHub({
    repo,
    token: TOKEN,
    pulls: [{ number: 1, head: { ref: BRANCH }, base: { ref: 'main' }, body: BODY }]
  })
  try {
    if (cell.route.trigger) fake.faults.add(cell.route.trigger)
    // Issue 24: the GraphQL read replaces these routes; their cells run the REST source
    // (the action's fallback), GraphQL refused as for a token without it.
    if (REST_SOURCE.has(cell.route.id))
      fake.faults.add({
        kind: 'graphql-error',
        route: 'graphql',
        type: 'FORBIDDEN',
        message: 'Resource not accessible by integration',
        times: Infinity
      })
    fake.faults.add(cell.fault.spec(cell.route)!)
    const run = await runAction({
      fake,
      token: TOKEN,
      workspace,
      runId: 4242,
      timeoutMs: 60_000,
      event:
        cell.route.event === 'workflow_run'
          ? {
              name: 'workflow_run',
              payload: {
                workflow_run: {
                  head_sha: head,
                  head_branch: BRANCH,
                  pull_requests: [],
                  head_repository: { owner: { login: 'acme' } }
                }
              }
            }
          : { name: 'pull_request', pull: 1 },
      env: { RECEIPT_GATE_TIME_SCALE: String(TIME_SCALE) }
    })
    // A request the action gave up on may still be in the fake (latency): let it land,
    // so a write that arrives after the step ended is seen too.
    if (cell.fault.id === 'latency-30s' && cell.route.method !== 'GET')
      await new Promise((resolve) => setTimeout(resolve, LATENCY_MS + 300))
    const reportText = run.outputs.report ? readFileSync(run.outputs.report, 'utf8') : ''
    const runs = structuredClone(fake.checks.runs)
    let violations: string | null = null
    try {
      fake.assertNoViolations()
    } catch (error) {
      violations = (error as Error).message
    }
    const routeOf: Record<string, string> = {}
    for (const r of fake.requests)
      if (r.operationId && r.route) routeOf[r.operationId] = r.route
    run.cleanup()
    return {
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      durationMs: run.durationMs,
      stdout: run.stdout,
      summary: run.summary,
      outputs: run.outputs,
      report: reportText ? (JSON.parse(reportText) as Report) : null,
      runs,
      everything: [
        run.stdout.replace(`::add-mask::${TOKEN}`, ''),
        run.stderr,
        run.summary,
        JSON.stringify(run.outputs),
        reportText,
        JSON.stringify(runs)
      ].join('\n'),
      operations: fake.requests.map((r) => r.operationId ?? r.path),
      attempts: fake.requests
        .filter((q) => q.method === 'GET' && !q.operationId?.startsWith('checks/'))
        .reduce(
          (map, q) => map.set(q.path, (map.get(q.path) ?? 0) + 1),
          new Map<string, number>()
        ),
      routeOf,
      violations
    }
  } finally {
    await fake.close()
  }
}

beforeAll(async () => {
  buildRepo()
  workspace = mkdtempSync(join(tmpdir(), 'rg-ws-'))
  await mapLimit(cells, CONCURRENCY, async (cell) => {
    results.set(cell.name, await runCell(cell))
  })
  if (process.env.RECEIPT_GATE_MATRIX_VERBOSE === '1')
    for (const [name, r] of results)
      console.log(
        `${Math.round(r.durationMs)} ms exit ${r.exitCode} ${name}\n${r.stdout}`
      )
}, 600_000)

afterAll(() => {
  repo?.cleanup()
  if (workspace) rmSync(workspace, { recursive: true, force: true })
})

/** `GET /repos/{owner}/{repo}/pulls` → the route as an error line names it (template or URL). */
function routePattern(route: string | undefined): RegExp {
  if (!route) return /^::error::Receipt Gate: (GET|POST|PATCH) \S+: \S/
  const [method, path] = route.split(' ') as [string, string]
  const template = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  const concrete = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/?]+')
  return new RegExp(
    `^::error::Receipt Gate: ${method} (${template}|https?://[^/]+${concrete}(\\?\\S*)?): \\S`
  )
}

/** Faults the client's retries get through: GraphQL answers in the end. */
const RETRIED = new Set(['500x2', 'reset', '403-rate-limit', '429-retry-after'])

/** The one `::error::` line of a failed step (workflow-command annotations have properties). */
const errorLines = (stdout: string): string[] =>
  stdout.split('\n').filter((line) => line.startsWith('::error::'))

describe('fault matrix', () => {
  it.each(cells.map((cell) => [cell.name, cell] as const))('%s', (_name, cell) => {
    const r = results.get(cell.name)!
    // Invariants of every cell.
    expect(r.timedOut).toBe(false)
    expect(r.durationMs).toBeLessThan(CELL_BOUND_MS)
    // At most 4 attempts per read (the lookups of checks/ poll on purpose).
    expect(Math.max(0, ...r.attempts.values())).toBeLessThanOrEqual(4)
    expect(r.violations).toBeNull()
    for (const run of r.runs) expect(run.status).toBe('completed')
    expect(r.runs.length).toBeLessThanOrEqual(1)
    for (const run of r.runs) {
      const keys = run.annotations.map((a) => JSON.stringify(a))
      expect(new Set(keys).size).toBe(keys.length)
      expect(keys.length).toBeLessThanOrEqual(ANNOTATIONS)
    }
    expect(r.everything).not.toContain(TOKEN)
    expect(
      logProblems(r.stdout, {
        token: TOKEN,
        markers: [],
        annotations: r.report?.annotations ?? []
      })
    ).toEqual([])
    const errors = errorLines(r.stdout)
    if (r.exitCode !== 0) {
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(/^::error::Receipt Gate: /)
    }
    const fallback = /Could not post the check run/.test(r.stdout)
    if (r.runs.length === 0 && !fallback) expect(r.exitCode).not.toBe(0)

    // GraphQL failing for good is no answer: REST asked the same (the PR read, or the
    // history rule's lookup when only the second query failed).
    if (cell.route.id === 'graphql' && !RETRIED.has(cell.fault.id))
      expect(r.operations).toContain(
        cell.fault.id === 'graphql-history' ? 'repos/list-commits' : 'pulls/get'
      )

    // The cell's own outcome.
    const run = r.runs[0]
    switch (cell.outcome) {
      case 'published':
        expect(r.exitCode).toBe(0)
        expect(r.runs).toHaveLength(1)
        expect(run).toMatchObject({ conclusion: 'success', head_sha: head })
        expect(run!.annotations).toHaveLength(ANNOTATIONS)
        expect(r.outputs['check-run-id']).toBe(String(run!.id))
        break
      case 'published-dropping-one':
        expect(r.exitCode).toBe(0)
        expect(r.runs).toHaveLength(1)
        expect(run!.annotations).toHaveLength(ANNOTATIONS - 1)
        expect(run!.output.summary).toContain('Annotations GitHub refused (1)')
        break
      case 'fallback':
        expect(r.exitCode).toBe(0)
        expect(r.runs).toHaveLength(0)
        expect(fallback).toBe(true)
        expect(r.outputs['check-run-id']).toBe('')
        expect(r.summary).toContain('### 1. Verdict')
        expect(r.stdout.match(/^::warning .*\bfile=/gm)).toHaveLength(ANNOTATIONS)
        break
      case 'fallback-after-create':
        expect(r.exitCode).toBe(0)
        expect(r.runs).toHaveLength(1)
        expect(fallback).toBe(true)
        expect(r.summary).toContain('### 1. Verdict')
        break
      case 'unreadable-published':
        expect(r.exitCode).toBe(1)
        expect(r.runs).toHaveLength(1)
        expect(run).toMatchObject({ conclusion: 'failure' })
        expect(
          r.report?.receipts.filter((row) => row.currentness === 'unreadable')
        ).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ reason: expect.stringMatching(/cannot read/) })
          ])
        )
        break
      case 'failed-unpublished':
        expect(r.exitCode).toBe(1)
        expect(r.runs).toHaveLength(0)
        expect(errors[0]).toMatch(routePattern(r.routeOf[cell.route.id]))
        if (cell.fault.id === 'latency-30s')
          expect(errors[0]).toMatch(/request timed out/)
        break
      case 'failed-partly-published':
        expect(r.exitCode).toBe(1)
        expect(r.runs).toHaveLength(1)
        expect(run!.annotations.length).toBeLessThan(ANNOTATIONS)
        break
    }
  })

  it('covers every route a clean run calls (and the conditional lookups)', () => {
    const clean = results.get(cellName(ROUTES[0]!, FAULTS[0]!))!
    const defined = new Set(ROUTES.map((r) => r.id))
    for (const operation of new Set(clean.operations))
      expect(defined).toContain(operation)
  })

  it('docs/fault-matrix.md is the table of these cells', () => {
    const doc = renderMatrixDoc()
    if (process.env.RECEIPT_GATE_WRITE_DOCS === '1') writeFileSync(DOC, doc)
    expect(readFileSync(DOC, 'utf8')).toBe(doc)
    for (const cell of cells) expect(doc).toContain(`${TEST_PREFIX} ${cell.name}`)
  })
})
