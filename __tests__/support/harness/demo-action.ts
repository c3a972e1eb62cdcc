/**
 * `npm run demo action`: the real bundled action (dist/index.js), run as the GitHub
 * runner runs it, against the local GitHub API serving the demo repository; prints the
 * check run it posted. With DEMO_SHOT_FILE set it also writes the check run and the PR's
 * files there as JSON, which `npm run screenshot` renders.
 */
import { writeFileSync } from 'node:fs'
import { runDemoCheckRun } from './demo-check-run.js'

const root = process.env.RECEIPT_GATE_ROOT ?? process.cwd()
// `npm run demo failing action`: the pull request that fails the gate.
const demo = await runDemoCheckRun(root, process.env.DEMO_SCENARIO === 'failing')
const { checkRun } = demo
console.log(
  `$ node dist/index.js   (pull_request #7, ${demo.requestCount} API requests, exit ${demo.exitCode})\n`
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
for (const [name, value] of Object.entries(demo.outputs))
  console.log(`  ${name}=${value}`)
if (process.env.DEMO_SHOT_FILE)
  writeFileSync(
    process.env.DEMO_SHOT_FILE,
    JSON.stringify({ checkRun, files: demo.files })
  )
// The demo exits as the action's step does: 1 when the gate fails.
process.exitCode = demo.exitCode ?? 1
