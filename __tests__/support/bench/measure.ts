/**
 * Measuring for the benchmark: statistics over samples, and child processes timed from
 * spawn to exit with their peak resident set size.
 *
 * Peak RSS of a child is taken by GNU time (`/usr/bin/time -f %M`, the kernel's
 * `ru_maxrss` of the child at exit, in KiB). Where GNU time is missing, the child is
 * started with `--import` of a two-line module that writes
 * `process.resourceUsage().maxRSS` at exit — the same kernel figure, read from inside.
 * Both wrap the baseline (`node -e ''`) exactly as they wrap the measured runs.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { baseEnv } from '../runner.js'

export interface Stats {
  runs: number
  median: number
  min: number
  max: number
  /** Interquartile range (p75 − p25). */
  iqr: number
  samples: number[]
}

/** Median, min, max and IQR of samples (linear interpolation between ranks). */
export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number): number => {
    if (sorted.length === 0) return NaN
    const pos = (sorted.length - 1) * q
    const lo = Math.floor(pos)
    const hi = Math.ceil(pos)
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo)
  }
  return {
    runs: sorted.length,
    median: at(0.5),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
    iqr: at(0.75) - at(0.25),
    samples: [...samples]
  }
}

/**
 * The node that runs every measured child (the CLI, the action, `node -e ''`, the core
 * workloads): `--node PATH` (RG_BENCH_NODE), by default the bench's own. The action runs
 * on `node24` on GitHub, so its figures are worth taking on a Node 24 as well
 * (docs/performance.md, *Running the benchmark*). The local GitHub API stays in the
 * bench's process, on the bench's node.
 */
export function benchNode(): string {
  return process.env.RG_BENCH_NODE || process.execPath
}

/** `node --version` of `benchNode()`. */
export function benchNodeVersion(): string {
  const node = benchNode()
  if (node === process.execPath) return process.version
  const out = spawnSync(node, ['--version'], { encoding: 'utf8' })
  if (out.status !== 0)
    throw new Error(
      `--node ${node}: \`--version\` failed (${out.error?.message ?? `exit ${out.status}`})`
    )
  return out.stdout.trim()
}

/** How the peak RSS of child processes is read. */
export type RssMethod = 'gnu-time' | 'import-hook'

export interface RssProbe {
  method: RssMethod
  /** argv prefix that runs `node` under the probe: append the script and its arguments. */
  prefix: string[]
  /** Peak RSS in KiB after the child exited, or null when it could not be read. */
  read(): number | null
  dispose(): void
}

let gnuTime: boolean | undefined

/** True when `/usr/bin/time` is GNU time (it takes `-f` and `-o`). */
export function hasGnuTime(): boolean {
  if (gnuTime === undefined) {
    gnuTime =
      existsSync('/usr/bin/time') &&
      spawnSync('/usr/bin/time', ['-f', '%M', '-o', '/dev/null', 'true']).status === 0
  }
  return gnuTime
}

const HOOK =
  'import { writeFileSync } from "node:fs";' +
  'process.on("exit", () => writeFileSync(process.env.RG_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));'

/** A probe for one child run; `method` forces one (default: GNU time when present). */
export function rssProbe(method?: RssMethod): RssProbe & { env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'rg-bench-rss-'))
  const file = join(dir, 'rss')
  const use = method ?? (hasGnuTime() ? 'gnu-time' : 'import-hook')
  const prefix =
    use === 'gnu-time'
      ? ['/usr/bin/time', '-f', '%M', '-o', file, benchNode()]
      : [benchNode(), '--import', `data:text/javascript,${encodeURIComponent(HOOK)}`]
  return {
    method: use,
    prefix,
    env: use === 'import-hook' ? { RG_BENCH_RSS_FILE: file } : {},
    read() {
      if (!existsSync(file)) return null
      // GNU time writes "Command exited with non-zero status N" first when it did.
      const last = readFileSync(file, 'utf8').trim().split('\n').pop() ?? ''
      const kib = Number(last)
      return Number.isFinite(kib) && kib > 0 ? kib : null
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export interface ProcessRun {
  wallMs: number
  peakRssKb: number | null
  exitCode: number | null
  stdout: string
  stderr: string
}

/**
 * Runs `node <args>` under an RSS probe; wall time from spawn to exit. The child's
 * environment is `baseEnv()` plus `options.env`: none of this machine's other variables.
 */
export async function runNode(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; method?: RssMethod } = {}
): Promise<ProcessRun> {
  const probe = rssProbe(options.method)
  try {
    const [command, ...prefix] = probe.prefix
    const t0 = performance.now()
    const child = spawn(command!, [...prefix, ...args], {
      cwd: options.cwd,
      // A clean environment, as the runner emulation gives the action (runner.ts baseEnv).
      env: { ...baseEnv(), ...options.env, ...probe.env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => err.push(c))
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject)
      child.once('close', (code) => resolve(code))
    })
    const wallMs = performance.now() - t0
    return {
      wallMs,
      peakRssKb: probe.read(),
      exitCode,
      stdout: Buffer.concat(out).toString('utf8'),
      stderr: Buffer.concat(err).toString('utf8')
    }
  } finally {
    probe.dispose()
  }
}

/** Runs `fn` `warmup` times unmeasured, then `runs` times; returns the measured results. */
export async function repeat<T>(
  runs: number,
  warmup: number,
  fn: (index: number) => Promise<T> | T
): Promise<T[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i)
  const out: T[] = []
  for (let i = 0; i < runs; i++) out.push(await fn(i))
  return out
}
