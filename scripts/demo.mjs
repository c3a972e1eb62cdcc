// `npm run demo`: builds a small example pull request in a temp folder and runs the real
// bundled CLI (`dist/receipt-gate.mjs check`) on it, printing the text report.
// `npm run demo json|markdown`: the same run as the JSON report or the job-summary Markdown.
// `npm run demo action`: the real bundled action (`dist/index.js`) against the local
// GitHub API on the same repository, printing the check run it posted. Its harness is
// bundled once (build/harness/, see scripts/harness.mjs) and reused.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildDemoRepo } from './demo-repo.mjs'
import { ROOT, buildHarness } from './harness.mjs'

const mode = process.argv[2] ?? 'text'
if (mode === 'action') {
  const bundle = buildHarness('demo-action')
  console.error('Running dist/index.js as a runner would, against the local GitHub API…')
  execFileSync(process.execPath, [bundle], {
    stdio: 'inherit',
    env: { ...process.env, RECEIPT_GATE_ROOT: ROOT }
  })
} else {
  const cli = join(ROOT, 'dist', 'receipt-gate.mjs')
  const demo = buildDemoRepo()
  console.log(`Demo repository: ${demo.root}`)
  console.log(
    `PR: ${demo.branch} → main (head ${demo.head.slice(0, 7)}), body: ${demo.bodyFile}\n`
  )
  const args = [
    cli,
    'check',
    '--repo',
    demo.root,
    '--base',
    'main',
    '--body-file',
    demo.bodyFile,
    '--format',
    mode
  ]
  console.log(`$ receipt-gate ${args.slice(1).join(' ')}\n`)
  let code = 0
  try {
    execFileSync(process.execPath, args, { stdio: 'inherit' })
  } catch (error) {
    code = error.status ?? 1
  }
  if (!process.env.KEEP_DEMO) {
    rmSync(demo.root, { recursive: true, force: true })
    rmSync(demo.bodyFile, { force: true })
  }
  console.log(`\nexit code ${code} (0 = the gate passes)`)
}
