// `npm run bench`: the benchmark of issue 7 (figures, not timed tests). Bundles the
// TypeScript harness (__tests__/support/harness/bench.ts) and runs it against the
// committed dist/ bundles; prints one table. Arguments pass through:
//   npm run bench -- --json bench.json     the same figures as JSON
//   npm run bench -- --runs 20 --warmup 2  more samples per process workload
//   npm run bench -- --compare ../other    this build against another checkout, interleaved
// See docs/performance.md for the workloads, the method and the latest figures.
import { execFileSync } from 'node:child_process'
import { ROOT, buildHarness } from './harness.mjs'

const bundle = buildHarness('bench')
try {
  execFileSync(process.execPath, [bundle, ...process.argv.slice(2)], {
    stdio: 'inherit',
    cwd: ROOT,
    env: { ...process.env, RECEIPT_GATE_ROOT: ROOT }
  })
} catch (error) {
  process.exitCode = typeof error.status === 'number' ? error.status : 1
}
