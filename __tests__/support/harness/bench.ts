/**
 * `npm run bench` (issue 7): bundled by scripts/bench.mjs into build/harness/bench/ and
 * run with plain node. Prints one table; `--json FILE` writes the same figures.
 *
 *   node build/harness/bench/index.js [--runs N] [--warmup N] [--core-runs N]
 *     [--core-warmup N] [--only core,cli,action,cold] [--json FILE]
 *   node build/harness/bench/index.js --compare DIR [--runs N] [--only cli,action,cli-500]
 *   either with [--node PATH]: the node that runs the measured children (RG_BENCH_NODE)
 *
 * Each core workload runs in its own child process (`--core NAME`), so its peak RSS is
 * its own; process workloads spawn `node` per run (see ../bench/measure.ts).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { writeFileSync } from 'node:fs'
import {
  CORE_WORKLOADS,
  runCore,
  type CoreResult,
  type CoreWorkload
} from '../bench/core.js'
import { formatCompare, runCompare } from '../bench/compare.js'
import { benchNode } from '../bench/measure.js'
import { baseEnv } from '../runner.js'
import { formatTable, runBench } from '../bench/run.js'

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? process.argv[at + 1] : undefined
}

function count(name: string, fallback: number): number {
  const value = flag(name)
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`)
  return n
}

// `--node PATH`: every measured child runs on that node (../bench/measure.ts benchNode).
const node = flag('node')
if (node !== undefined) process.env.RG_BENCH_NODE = node

const run = promisify(execFile)
const root = process.env.RECEIPT_GATE_ROOT ?? process.cwd()
const runs = count('runs', 10)
const warmup = count('warmup', 1)
const coreRuns = count('core-runs', 50)
const coreWarmup = count('core-warmup', 20)
const core = flag('core') as CoreWorkload | undefined
const compare = flag('compare')

if (compare !== undefined) {
  // Two builds interleaved (see ../bench/compare.ts): this one against DIR.
  const rows = await runCompare({
    root,
    other: compare,
    runs: count('runs', 15),
    only: flag('only')?.split(','),
    log: (line) => process.stderr.write(`bench: ${line}\n`)
  })
  process.stdout.write(`${formatCompare(rows, compare)}\n`)
} else if (core !== undefined) {
  // Child mode: one core workload, figures as JSON on stdout.
  if (!CORE_WORKLOADS.includes(core)) throw new Error(`unknown core workload ${core}`)
  const result = await runCore(core, { runs: coreRuns, warmup: coreWarmup })
  result.peakRssKb = process.resourceUsage().maxRSS
  process.stdout.write(JSON.stringify(result))
} else {
  const figures = await runBench({
    root,
    runs,
    warmup,
    coreRuns,
    coreWarmup,
    isolateCore: async (name) => {
      const { stdout } = await run(
        benchNode(),
        [
          process.argv[1]!,
          '--core',
          name,
          '--core-runs',
          String(coreRuns),
          '--core-warmup',
          String(coreWarmup)
        ],
        // The clean environment of every measured process (../bench/measure.ts runNode).
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: baseEnv() }
      )
      return JSON.parse(stdout) as CoreResult
    },
    only: flag('only')?.split(','),
    log: (line) => process.stderr.write(`bench: ${line}\n`)
  })
  process.stdout.write(`${formatTable(figures)}\n`)
  const json = flag('json')
  if (json) {
    writeFileSync(json, `${JSON.stringify(figures, null, 2)}\n`)
    process.stderr.write(`bench: figures written to ${json}\n`)
  }
}
