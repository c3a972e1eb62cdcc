// `npm run demo`: builds a small example pull request in a temp folder and runs the real
// bundled CLI (`dist/receipt-gate.mjs check`) on it, printing the text report.
// `npm run demo failing`: a pull request that fails the gate (a stale review, a NEEDS_WORK
// verdict, a deferred finding the body does not name).
// `npm run demo [failing] json|markdown`: the same run as the JSON report or the
// job-summary Markdown. Only the report goes to stdout (`npm run -s demo json | jq`); what
// the demo says about itself goes to stderr.
// `npm run demo [failing] action`: the real bundled action (`dist/index.js`) against the
// local GitHub API on the same repository, printing the check run it posted. Its harness
// is bundled once (build/harness/, see scripts/harness.mjs) and reused.
// `npm run demo -- … --keep`: keeps the demo repository and the PR body and prints where.
// The demo exits as the CLI does: 0 the gate passes, 1 it fails, 2 a usage error.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildDemoRepo } from './demo-repo.mjs'
import { ROOT, buildHarness } from './harness.mjs'

const USAGE =
  'usage: npm run demo [failing] [text|json|markdown|action]   (npm run demo -- … --keep keeps the repository)'
const FORMATS = ['text', 'json', 'markdown']
const say = (line = '') => process.stderr.write(`${line}\n`)

/** The demo's arguments, or null (with why on stderr) when one is unknown. */
function parseArgs(args) {
  const parsed = { failing: false, mode: 'text', keep: false }
  for (const arg of args) {
    if (arg === 'failing' || arg === 'passing') parsed.failing = arg === 'failing'
    else if (arg === '--keep') parsed.keep = true
    else if ([...FORMATS, 'action'].includes(arg)) parsed.mode = arg
    else {
      say(`demo: unknown argument ${JSON.stringify(arg)}`)
      say(USAGE)
      return null
    }
  }
  return parsed
}

/** Runs a node script with stdout and stderr passed through; returns its exit code. */
function runNode(args, env = process.env) {
  try {
    execFileSync(process.execPath, args, { stdio: 'inherit', env })
    return 0
  } catch (error) {
    return error.status ?? 1
  }
}

function runAction({ failing }) {
  const bundle = buildHarness('demo-action')
  say('Running dist/index.js as a runner would, against the local GitHub API…')
  return runNode([bundle], {
    ...process.env,
    RECEIPT_GATE_ROOT: ROOT,
    DEMO_SCENARIO: failing ? 'failing' : 'passing'
  })
}

function runCli({ failing, mode, keep }) {
  const demo = buildDemoRepo(undefined, { failing })
  // The paths are printed only when they outlive the demo.
  const repo = keep ? demo.root : '<demo repository>'
  const bodyFile = keep ? demo.bodyFile : '<PR body>'
  if (keep) say(`Demo repository: ${demo.root} (kept)\nPR body: ${demo.bodyFile} (kept)`)
  say(
    `${failing ? 'Failing' : 'Passing'} demo PR: ${demo.branch} → main (head ${demo.head.slice(0, 7)})`
  )
  const flags = ['--base', 'main', '--format', mode]
  say(`$ receipt-gate check --repo ${repo} --body-file ${bodyFile} ${flags.join(' ')}\n`)
  const code = runNode([
    join(ROOT, 'dist', 'receipt-gate.mjs'),
    'check',
    '--repo',
    demo.root,
    '--body-file',
    demo.bodyFile,
    ...flags
  ])
  if (!keep) {
    rmSync(demo.root, { recursive: true, force: true })
    rmSync(demo.bodyFile, { force: true })
  }
  say(`\nexit code ${code} (0 = the gate passes, 1 = it fails)`)
  return code
}

const args = parseArgs(process.argv.slice(2))
if (args === null) process.exitCode = 2
else process.exitCode = args.mode === 'action' ? runAction(args) : runCli(args)
