/**
 * `npm run demo action`: the real bundled action (dist/index.js), run as the GitHub
 * runner runs it, against the local GitHub API serving the demo repository; prints the
 * check run it posted.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeGitHub } from '../github-api/server.js'
import { runAction } from '../runner.js'
// @ts-expect-error: a plain ES module script shared with `npm run demo`
import { buildDemoRepo } from '../../../scripts/demo-repo.mjs'

const root = process.env.RECEIPT_GATE_ROOT ?? process.cwd()
// `npm run demo failing action`: the pull request that fails the gate.
const demo = buildDemoRepo(undefined, {
  failing: process.env.DEMO_SCENARIO === 'failing'
}) as {
  root: string
  bodyFile: string
  branch: string
  body: string
  head: string
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
  const checkRun = fake.checks.runs[0]
  console.log(
    `$ node dist/index.js   (pull_request #7, ${run.requests.length} API requests, exit ${run.exitCode})\n`
  )
  if (checkRun) {
    console.log(
      `Check run "${checkRun.name}" on ${checkRun.head_sha.slice(0, 7)}: ${checkRun.status} / ${checkRun.conclusion}`
    )
    console.log(`Title: ${checkRun.output.title}\n`)
    console.log('Annotations:')
    for (const a of checkRun.annotations)
      console.log(
        `  ${a.annotation_level.padEnd(7)} ${a.path}:${a.start_line}-${a.end_line}  ${a.title ?? ''}`
      )
    console.log(
      `\nSummary (check run output, Markdown):\n\n${checkRun.output.summary ?? ''}`
    )
  }
  console.log('\nOutputs:')
  // RUNNER_TEMP is removed with the run: its path is named, not printed.
  for (const [name, value] of Object.entries(run.outputs))
    console.log(`  ${name}=${value.replace(run.runnerTemp, '$RUNNER_TEMP')}`)
  if (process.env.DEMO_SUMMARY_FILE && checkRun?.output.summary) {
    const { writeFileSync } = await import('node:fs')
    writeFileSync(process.env.DEMO_SUMMARY_FILE, checkRun.output.summary)
  }
  fake.assertNoViolations()
  run.cleanup()
  // The demo exits as the action's step does: 1 when the gate fails.
  process.exitCode = run.exitCode ?? 1
} finally {
  await fake.close()
  rmSync(demo.root, { recursive: true, force: true })
  rmSync(demo.bodyFile, { force: true })
}
