// Compares the pure core of two builds in one process, call by call (docs/performance.md,
// *Method*): this machine runs in stretches at half speed, so two figures taken minutes
// apart say little, while a pair of calls back to back sees the same speed. Each build's
// `src/` is bundled beside the other's; old and new alternate for every round and the
// figure is the median of the new/old ratios, per process.
//
//   node scripts/pair-core.mjs <before> [<after>] [--workload validate-max|small-1000]
//        [--rounds N] [--processes N]
//
// <before> and <after> are commits; <after> defaults to the working tree. The inputs are
// the bench's (`__tests__/support/bench/fixtures.ts`, read by the working tree's reader).
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { ROOT } from './harness.mjs'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    workload: { type: 'string', default: 'validate-max' },
    rounds: { type: 'string', default: '1500' },
    processes: { type: 'string', default: '3' }
  }
})
const WORKLOADS = ['validate-max', 'small-1000']
if (
  positionals.length < 1 ||
  positionals.length > 2 ||
  !WORKLOADS.includes(values.workload)
) {
  console.error(
    'usage: node scripts/pair-core.mjs <before> [<after>] [--workload validate-max|small-1000] [--rounds N] [--processes N]'
  )
  process.exit(2)
}
const rounds = Number(values.rounds)
const processes = Number(values.processes)
if (
  !Number.isInteger(rounds) ||
  rounds < 1 ||
  !Number.isInteger(processes) ||
  processes < 1
) {
  console.error('pair-core: --rounds and --processes take positive integers')
  process.exit(2)
}

const dir = join(ROOT, 'build', 'pair')
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })

/** The `src/` of a commit, extracted under build/pair/<label>; its path from the entry. */
function sourceOf(commit, label) {
  let sha
  try {
    sha = execFileSync(
      'git',
      ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`],
      {
        cwd: ROOT,
        encoding: 'utf8'
      }
    ).trim()
  } catch {
    console.error(`pair-core: ${commit} names no commit of this repository`)
    process.exit(2)
  }
  const out = join(dir, label)
  mkdirSync(out)
  const tar = execFileSync('git', ['archive', '--format=tar', sha, 'src'], {
    cwd: ROOT,
    maxBuffer: 1 << 28
  })
  execFileSync('tar', ['-x', '-C', out], { input: tar })
  return { sha, path: `./${label}/src` }
}

const before = sourceOf(positionals[0], 'before')
const after =
  positionals[1] === undefined
    ? { sha: 'working tree', path: `./${relative(dir, join(ROOT, 'src'))}` }
    : sourceOf(positionals[1], 'after')
const support = relative(dir, join(ROOT, '__tests__', 'support', 'bench', 'fixtures.js'))
const reader = relative(dir, join(ROOT, 'src', 'receipts', 'json.js'))

// The entry: both builds' checkContainer, the bench's inputs, alternating calls.
writeFileSync(
  join(dir, 'entry.ts'),
  `import { performance } from 'node:perf_hooks'
import { checkContainer as before } from '${before.path}/receipts/findings.js'
import { checkContainer as after } from '${after.path}/receipts/findings.js'
import { own, readJsonBytes, type JsonObject } from '${reader}'
import { bytesOf, maximalContainer, receiptAround, smallReceipts } from '${support}'

function findings(bytes: Uint8Array): unknown {
  const read = readJsonBytes(bytes)
  if (!read.ok) throw new Error(read.reason)
  return own(read.value as JsonObject, 'findings')
}
const workload: string = ${JSON.stringify(values.workload)}
const inputs =
  workload === 'validate-max'
    ? [findings(bytesOf(receiptAround(maximalContainer({ sourceReceiptId: 'max-1' }))))]
    : smallReceipts(1000).map((receipt) => findings(receipt.bytes))
type Check = (value: unknown) => { ok: boolean }
function time(check: Check): number {
  const start = performance.now()
  for (const input of inputs) if (!check(input).ok) throw new Error('input refused')
  return performance.now() - start
}
const warmup = Math.min(30, Math.ceil(${rounds} / 10))
const a: number[] = []
const b: number[] = []
for (let round = 0; round < warmup + ${rounds}; round++) {
  // The order alternates too, so that neither build always runs second.
  const first = round % 2 === 0
  const t1 = time((first ? before : after) as Check)
  const t2 = time((first ? after : before) as Check)
  if (round < warmup) continue
  a.push(first ? t1 : t2)
  b.push(first ? t2 : t1)
}
const at = (x: number[], q: number): number => [...x].sort((m, n) => m - n)[Math.floor((x.length - 1) * q)]!
const ratios = b.map((t, i) => t / a[i]!)
console.log(
  \`before min \${at(a, 0).toFixed(3)} ms, median \${at(a, 0.5).toFixed(3)} | after min \${at(b, 0).toFixed(3)} ms, median \${at(b, 0.5).toFixed(3)} | after/before: median \${at(ratios, 0.5).toFixed(3)} (IQR \${at(ratios, 0.25).toFixed(3)}–\${at(ratios, 0.75).toFixed(3)})\`
)
`
)

const ncc = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
try {
  execFileSync(
    process.execPath,
    [ncc, 'build', join(dir, 'entry.ts'), '-o', join(dir, 'out'), '--quiet'],
    { stdio: 'inherit', cwd: ROOT }
  )
} catch {
  // ncc printed why (an old build's sources that no longer type-check with today's config).
  console.error('pair-core: the two builds could not be bundled together')
  process.exit(1)
}
console.log(
  `pair-core ${values.workload}: before ${before.sha.slice(0, 12)}, after ${after.sha === 'working tree' ? after.sha : after.sha.slice(0, 12)}, ${rounds} rounds a process`
)
for (let i = 0; i < processes; i++) {
  execFileSync(process.execPath, [join(dir, 'out', 'index.js')], { stdio: 'inherit' })
}
