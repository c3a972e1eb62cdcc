/**
 * The demo pull request's check run, for real: the bundled action (dist/index.js) run as the
 * GitHub runner runs it against the local GitHub API serving the demo repository. Shared by
 * `npm run demo action`, `npm run screenshot` (through demo-action.ts) and the test that
 * keeps the README's pictures honest.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { StoredCheckRun } from '../github-api/check-runs.js'
import { startFakeGitHub } from '../github-api/server.js'
import { runAction } from '../runner.js'
// @ts-expect-error: a plain ES module script shared with `npm run demo`
import { buildDemoRepo } from '../../../scripts/demo-repo.mjs'

export interface DemoCheckRun {
  exitCode: number | null
  requestCount: number
  checkRun: StoredCheckRun | undefined
  /** The PR's files as `GET /pulls/7/files` answers them (with their `patch`). */
  files: Array<{ filename: string; patch?: string }>
  /** The action's outputs, RUNNER_TEMP named rather than printed (it is gone afterwards). */
  outputs: Record<string, string>
}

/** Runs the action on the passing (or failing) demo PR #7; removes everything it made. */
export async function runDemoCheckRun(
  root: string,
  failing: boolean
): Promise<DemoCheckRun> {
  const demo = buildDemoRepo(undefined, { failing }) as {
    root: string
    bodyFile: string
    branch: string
    body: string
  }
  const fake = await startFakeGitHub({
    repo: demo.root,
    pulls: [
      {
        number: 7,
        head: { ref: demo.branch },
        base: { ref: 'main' },
        body: demo.body,
        title: 'fn-7: receipt gate'
      }
    ]
  })
  try {
    const run = await runAction({
      fake,
      entry: join(root, 'dist', 'index.js'),
      actionYml: join(root, 'action.yml'),
      event: { name: 'pull_request', pull: 7 },
      workspace: join(demo.root, '..'), // not the repository: the action reads through the API
      runId: 1,
      runAttempt: 1
    })
    const outputs = Object.fromEntries(
      Object.entries(run.outputs).map(([k, v]) => [
        k,
        v.replace(run.runnerTemp, '$RUNNER_TEMP')
      ])
    )
    run.cleanup()
    const response = await fetch(`${fake.url}/repos/${fake.fullName}/pulls/7/files`)
    const files = (await response.json()) as DemoCheckRun['files']
    fake.assertNoViolations()
    return {
      exitCode: run.exitCode,
      requestCount: run.requests.length,
      checkRun: fake.checks.runs[0],
      files,
      outputs
    }
  } finally {
    await fake.close()
    rmSync(demo.root, { recursive: true, force: true })
    rmSync(demo.bodyFile, { force: true })
  }
}
