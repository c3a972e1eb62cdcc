/**
 * The hostile corpus end to end: the bundled `dist/index.js`, run as the runner runs it,
 * reading every case through the local GitHub API (so hostile names, symlinks and
 * submodules come from real Git Data answers). Each run must conclude; the log must
 * execute no command the receipts or the API wrote (everything untrusted inside a
 * stop-commands block, fallback annotations exactly the report's); the check-run
 * summary, the job summary and the annotations must be neutral; the token must appear
 * nowhere but in its own `::add-mask::`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import { runAction, type ActionRun } from '../support/runner.js'
import {
  BRANCH,
  CONTROL,
  HOSTILE_TEXT,
  OUTSIDE_MARKER,
  buildCorpusRepo,
  casePath,
  manifest,
  type CorpusRepo
} from './corpus.js'
import { annotationProblems, logProblems, markdownProblems } from './neutral.js'

/** A token shaped like GitHub's, to prove it never leaks (the runner masks, but not everywhere). */
export const TOKEN = 'ghs_HostileCanaryT0ken0123456789abcdefXYZ'
/** Substrings of hostile text that must never reach a plain log line. */
export const MARKERS = [
  'hostile-',
  'set-output',
  '##[',
  '@everyone',
  '<img',
  'javascript:',
  OUTSIDE_MARKER
]

let corpus: CorpusRepo
let fake: FakeGitHub
let workspace: string
const runs: ActionRun[] = []

beforeAll(async () => {
  corpus = buildCorpusRepo()
  fake = await startFakeGitHub({
    repo: corpus.repo,
    token: TOKEN,
    pulls: [
      {
        number: 1,
        head: { ref: BRANCH },
        base: { ref: 'main' },
        body: corpus.body,
        title: HOSTILE_TEXT.CMDS
      }
    ]
  })
  workspace = mkdtempSync(join(tmpdir(), 'rg-ws-'))
}, 60_000)

afterAll(async () => {
  await fake?.close()
  corpus?.cleanup()
  rmSync(workspace, { recursive: true, force: true })
  runs.forEach((run) => run.cleanup())
})

async function run(
  env: Record<string, string> = {},
  at: string = workspace
): Promise<ActionRun> {
  const result = await runAction({
    fake,
    token: TOKEN,
    event: { name: 'pull_request_target', pull: 1 },
    workspace: at,
    runId: 77,
    env: { RECEIPT_GATE_TIME_SCALE: '0.001', ...env }
  })
  runs.push(result)
  return result
}

const reportOf = (result: ActionRun): Report =>
  JSON.parse(readFileSync(result.outputs.report ?? '', 'utf8')) as Report

/** Everything a run left behind, but the token's own mask command. */
function everything(result: ActionRun): string {
  return [
    result.stdout.replace(`::add-mask::${TOKEN}`, ''),
    result.stderr,
    result.summary,
    JSON.stringify(result.outputs),
    result.outputs.report ? readFileSync(result.outputs.report, 'utf8') : '',
    JSON.stringify(fake.checks.runs)
  ].join('\n')
}

describe('the hostile corpus through dist/index.js and the API', () => {
  it('concludes with the expected row for every case, neutral everywhere', async () => {
    fake.checks.runs.length = 0
    const result = await run()
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(1)
    const report = reportOf(result)
    expect(report.conclusion).toBe('failure')
    expect(report.receipts).toHaveLength(manifest.cases.length + 1)
    for (const c of manifest.cases) {
      const fields: Partial<typeof c.expect> = { ...c.expect }
      delete fields.reason
      const row = report.receipts.find((r) => r.path === casePath(c))
      expect({ case: c.id, ...row }).toMatchObject({ case: c.id, ...fields })
    }
    expect(report.receipts.find((r) => r.path === CONTROL)).toMatchObject({
      currentness: 'current',
      conclusion: 'success'
    })
    expect(fake.checks.runs).toHaveLength(1)
    const stored = fake.checks.runs[0]!
    expect(stored).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(logProblems(result.stdout, { token: TOKEN, markers: MARKERS })).toEqual([])
    // The token is masked before the run writes anything else (the mask now waits for
    // the early reads to be sent: issue 7).
    expect(result.stdout.split(/\r?\n/)[0]).toBe(`::add-mask::${TOKEN}`)
    for (const markdown of [stored.output.summary ?? '', result.summary])
      expect(
        markdownProblems(markdown, {
          markers: MARKERS,
          receipts: report.receipts.length
        })
      ).toEqual([])
    expect(annotationProblems(stored.annotations)).toEqual([])
    expect(stored.annotations.length).toBe(report.annotations.length)
    expect(everything(result)).not.toContain(TOKEN)
    expect(everything(result)).not.toContain(OUTSIDE_MARKER)
    fake.assertNoViolations()
  }, 60_000)

  it('fallback (403 on checks): annotations as workflow commands equal to the report, nothing else runs', async () => {
    fake.checks.runs.length = 0
    const remove = fake.faults.readOnlyToken()
    try {
      const result = await run()
      expect(result.exitCode).toBe(1)
      expect(fake.checks.runs).toHaveLength(0)
      const report = reportOf(result)
      expect(report.annotations.length).toBeGreaterThan(10)
      expect(
        logProblems(result.stdout, {
          token: TOKEN,
          markers: MARKERS,
          annotations: report.annotations
        })
      ).toEqual([])
      expect(
        markdownProblems(result.summary, {
          markers: MARKERS,
          receipts: report.receipts.length
        })
      ).toEqual([])
      expect(everything(result)).not.toContain(TOKEN)
    } finally {
      remove()
    }
    fake.assertNoViolations()
  }, 60_000)

  it('hostile API error messages (even echoing the token) stay in stop-commands blocks, token redacted', async () => {
    fake.checks.runs.length = 0
    const removers = [
      fake.faults.add({
        kind: 'status',
        route: 'checks/create',
        status: 502,
        times: 1,
        message: `${HOSTILE_TEXT.CMDS} ${TOKEN}`
      }),
      // A refused annotation: its reason (GitHub's message) is named in the summary.
      fake.faults.add({
        kind: 'reject',
        route: '*',
        times: Infinity,
        message: `${HOSTILE_TEXT.HTML} ${TOKEN}`,
        when: (call) =>
          JSON.stringify(
            (call.body as { output?: { annotations?: unknown } } | undefined)?.output
              ?.annotations ?? []
          ).includes('Control finding')
      })
    ]
    try {
      const result = await run()
      expect(fake.checks.runs).toHaveLength(1)
      expect(fake.checks.runs[0]!.output.summary).toContain(
        'Annotations GitHub refused (1)'
      )
      expect(result.stdout).toContain('hostile-legacy')
      expect(logProblems(result.stdout, { token: TOKEN, markers: MARKERS })).toEqual([])
      expect(everything(result)).not.toContain(TOKEN)
    } finally {
      removers.forEach((remove) => remove())
    }
  }, 60_000)

  it('the workspace source (local git) reads the same rows and never follows a symlink', async () => {
    fake.checks.runs.length = 0
    const result = await run({}, corpus.repo.path)
    const report = reportOf(result)
    for (const c of manifest.cases) {
      const fields: Partial<typeof c.expect> = { ...c.expect }
      delete fields.reason
      const row = report.receipts.find((r) => r.path === casePath(c))
      expect({ case: c.id, ...row }).toMatchObject({ case: c.id, ...fields })
    }
    expect(result.requests.map((q) => q.operationId)).not.toContain('git/get-blob')
    expect(everything(result)).not.toContain(OUTSIDE_MARKER)
    expect(logProblems(result.stdout, { token: TOKEN, markers: MARKERS })).toEqual([])
  }, 60_000)

  it('a truncated tree from the API: the run concludes failure and says why', async () => {
    fake.checks.runs.length = 0
    const remove = fake.faults.add({ kind: 'truncated-tree', keep: 5, times: Infinity })
    // A REST tree truncates (GraphQL lists a folder whole): the REST source, GraphQL refused.
    const refuse = fake.faults.add({
      kind: 'graphql-error',
      route: 'graphql',
      type: 'FORBIDDEN',
      message: 'Resource not accessible by integration',
      times: Infinity
    })
    try {
      const result = await run()
      expect(result.exitCode).toBe(1)
      const report = reportOf(result)
      expect(report.conclusion).toBe('failure')
      expect(report.problems).toContainEqual(
        expect.objectContaining({ code: 'truncated-tree' })
      )
      expect(fake.checks.runs[0]).toMatchObject({
        status: 'completed',
        conclusion: 'failure',
        output: { title: expect.stringContaining('listed incompletely') }
      })
      expect(result.summary).toContain('could not be listed whole')
    } finally {
      remove()
      refuse()
    }
  }, 60_000)
})
