/**
 * The process workloads of the benchmark: the bundled CLI on a git repository, the
 * bundled action through the runner emulation against the local GitHub API, and cold
 * starts. Each run is a fresh `node` process, timed from spawn to exit, with its peak RSS.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  startFakeGitHub,
  type FakeGitHub,
  type RecordedRequest
} from '../github-api/server.js'
import { runAction, type ActionRun, type RunActionOptions } from '../runner.js'
import { countGit } from '../git-trace.js'
import { TEXT_BUDGET } from '../../../src/github/graphql-source.js'
import type { BenchPr } from './fixtures.js'
import { repeat, rssProbe, runNode, stats, type Stats } from './measure.js'

export interface ProcessResult {
  name: string
  label: string
  wallMs: Stats
  /** Peak RSS per run, MiB. */
  rssMb: Stats
  exitCode: number | null
}

export interface CliResult extends ProcessResult {
  receipts: number
  receiptFiles: number
  receiptBytes: number
  findings: number
  conclusion: string
  /** git processes one run starts, by subcommand (from GIT_TRACE2). */
  gitProcesses: Record<string, number>
  /**
   * `cat-file` batch processes one run starts (`--batch-command`; `--batch` and
   * `--batch-check` with git < 2.36): every object is read through them.
   */
  catFileBatches: number
}

export interface ActionResult extends ProcessResult {
  source: 'api' | 'git'
  conclusion: string
  annotations: number
  /**
   * What the last run's check run says, hashed: its conclusion, title and annotations (the
   * summary names the source): equal on two sources, the same verdicts.
   */
  checkRunDigest: string
  /** Requests of one run by operation (`checks/create`), and the route they map to. */
  requests: Record<string, number>
  requestsTotal: number
  /** Sequential round trips of one run: requests whose lifetimes overlap count as one. */
  roundTrips: number
  /**
   * The critical path of one run: the longest chain of requests each sent after the one
   * before it was answered (what latency multiplies; at 0 ms every request may chain).
   */
  depth: number
  /** The largest answer of one run, bytes, and the largest GraphQL one (GitHub fails large ones). */
  largestAnswerBytes: number
  largestGraphqlAnswerBytes: number
  /**
   * The action's own time, medians: spawn → the first request, the time no request was
   * open between the first request and the last answer, the last answer → the exit.
   */
  timeline: { toFirstMs: Stats; betweenMs: Stats; afterLastMs: Stats }
  /** Per run, the time some request was open at the API; the rest of the wall is the action's own. */
  apiBusyMs: Stats
  /** Latency the local API added to every request, ms. */
  latencyMs: number
  /** TCP connections the local API accepted in one run (keep-alive reuses them). */
  connections: number
  /** check-run writes (create + update). */
  annotationWrites: number
  /** Request bodies sent to the API, bytes (one run). */
  bytesSent: number
  /** Response bodies received, bytes (one run). */
  bytesReceived: number
  /** Issue 24's request bound for this PR, for the API source; null for the git source. */
  specMinimum: Record<string, number> | null
  /** Longest wait between one write's answer and the next write (SPEC §5: no spacing), ms. */
  writeGapMs: number
  /**
   * The run in two phases, per run: from the spawn until the local API has the check
   * run's create (reading, judging, rendering), and from then to the exit (the writes,
   * the report file, the job summary, the end). A change to one phase shows there
   * with less of the other's noise.
   */
  phases: { toCreateMs: Stats; createToExitMs: Stats }
}

const toMb = (kib: number | null): number => (kib === null ? NaN : kib / 1024)

/** `receipt-gate check` on the PR's repository (head = its branch tip, base = main). */
export async function benchCli(
  root: string,
  name: string,
  label: string,
  pr: BenchPr,
  options: { runs: number; warmup: number; env?: Record<string, string> }
): Promise<CliResult> {
  const cli = join(root, 'dist', 'receipt-gate.mjs')
  const tmp = mkdtempSync(join(tmpdir(), 'rg-bench-cli-'))
  const env = { ...options.env }
  try {
    const bodyFile = join(tmp, 'body.md')
    writeFileSync(bodyFile, pr.body)
    const args = [
      cli,
      'check',
      '--repo',
      pr.repo.path,
      '--base',
      'main',
      '--body-file',
      bodyFile
    ]
    // One untimed run that checks the outcome and counts git processes (GIT_TRACE2).
    const trace = join(tmp, 'trace2')
    const checked = await runNode([...args, '--format', 'json'], {
      cwd: pr.repo.path,
      env: { ...env, GIT_TRACE2: trace }
    })
    if (checked.exitCode !== 0)
      throw new Error(
        `${name}: exit ${checked.exitCode}: ${checked.stderr.slice(0, 500)}`
      )
    const report = JSON.parse(checked.stdout) as {
      conclusion: string
      receipts: { currentness: string; findings: unknown[] }[]
    }
    const notCurrent = report.receipts.filter((r) => r.currentness !== 'current')
    if (report.receipts.length !== pr.shape.receipts || notCurrent.length > 0)
      throw new Error(
        `${name}: ${notCurrent.length} of ${report.receipts.length} not current`
      )
    const gitProcesses = countGit(readFileSync(trace, 'utf8'))
    const runs = await repeat(options.runs, options.warmup, async () =>
      runNode(args, { cwd: pr.repo.path, env })
    )
    const bad = runs.find((run) => run.exitCode !== 0)
    if (bad) throw new Error(`${name}: exit ${bad.exitCode}: ${bad.stderr.slice(0, 500)}`)
    return {
      name,
      label,
      wallMs: stats(runs.map((run) => run.wallMs)),
      rssMb: stats(runs.map((run) => toMb(run.peakRssKb))),
      exitCode: 0,
      receipts: report.receipts.length,
      receiptFiles: pr.receiptFiles,
      receiptBytes: pr.receiptBytes,
      findings: report.receipts.reduce((sum, r) => sum + r.findings.length, 0),
      conclusion: report.conclusion,
      gitProcesses,
      catFileBatches: Object.entries(gitProcesses)
        .filter(([cmd]) => cmd.startsWith('cat-file --batch'))
        .reduce((sum, [, n]) => sum + n, 0)
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * The local GitHub API serving the PR as #1 (head branch → main). {@link setLatency}
 * delays every answer, as a distant API would.
 */
/**
 * The largest GraphQL answer the bench's local API serves, bytes: larger ones fail as
 * GitHub fails them. GitHub publishes no figure; four times the texts a query asks for.
 */
export const GRAPHQL_ANSWER_LIMIT = 4 * TEXT_BUDGET

export async function fakeFor(pr: BenchPr): Promise<FakeGitHub> {
  const fake = await startFakeGitHub({
    repo: pr.repo,
    pulls: [
      {
        number: 1,
        head: { ref: pr.branch },
        base: { ref: 'main' },
        body: pr.body,
        title: 'fn-9: benchmark'
      }
    ],
    graphqlAnswerLimit: GRAPHQL_ANSWER_LIMIT
  })
  return fake
}

/** Every answer of the local API `ms` later (0: none), from the next request on. */
export function setLatency(fake: FakeGitHub, ms: number): void {
  fake.faults.clear()
  if (ms > 0) fake.faults.add({ kind: 'latency', ms, route: '*', times: Infinity })
}

/**
 * The request bound for the API source on this PR: one GraphQL read (the PR, the
 * receipts folder with every text, the deferral file), the REST files list (the patches;
 * a page per 100 files), one compare per distinct reviewed SHA (here one),
 * ceil(annotations / 50) writes.
 */
export function specMinimum(pr: BenchPr, annotations: number): Record<string, number> {
  // Review coverage (`coverage: report`): the PR's commits come with the GraphQL read,
  // each with its root tree and `.flow/`'s, and the first commit's parents with theirs,
  // which tell code from bookkeeping as git does; another commit whose parent is outside
  // the PR would be read (every receipt reviewed `reviewed` from the merge base: no compare).
  const listed = pr.repo
    .git('rev-list', '--reverse', '--parents', `${pr.base}..${pr.head}`)
    .trim()
  const lines = listed === '' ? [] : listed.split('\n').map((line) => line.split(' '))
  const inPr = new Set(lines.map(([sha]) => sha))
  const reads = lines
    .slice(1)
    .filter(([, ...parents]) => parents.some((p) => !inPr.has(p))).length
  return {
    graphql: 1,
    ...(reads > 0 ? { 'repos/get-commit': reads } : {}),
    'pulls/list-files': Math.max(1, Math.ceil(prFiles(pr) / 100)),
    'repos/compare-commits-with-basehead': 1,
    'checks/create': 1,
    ...(annotations > 50 ? { 'checks/update': Math.ceil(annotations / 50) - 1 } : {})
  }
}

/**
 * Sequential round trips (requests whose lifetimes at the local API overlap count as
 * one) and the time the API was busy (the union of those lifetimes), ms.
 */
export function roundTrips(requests: readonly RecordedRequest[]): {
  trips: number
  busyMs: number
} {
  const spans = requests
    .map((r) => [r.receivedMs, r.receivedMs + r.durationMs] as const)
    .sort((a, b) => a[0] - b[0])
  let trips = 0
  let busyMs = 0
  let end = -Infinity
  for (const [start, stop] of spans) {
    if (start > end) trips++
    busyMs += Math.max(0, stop - Math.max(start, end))
    end = Math.max(end, stop)
  }
  return { trips, busyMs }
}

/** The longest chain of requests each received after the one before it was answered. */
export function depth(requests: readonly RecordedRequest[]): number {
  const spans = requests
    .map((r) => ({ start: r.receivedMs, end: r.receivedMs + r.durationMs }))
    .sort((a, b) => a.start - b.start)
  const deep: number[] = []
  spans.forEach(({ start }, i) => {
    const before = spans.slice(0, i).flatMap((s, j) => (s.end <= start ? [deep[j]!] : []))
    deep.push(1 + Math.max(0, ...before))
  })
  return Math.max(0, ...deep)
}

/** Where the action spends its own time: before, between and after the requests, ms. */
function ownTime(run: ActionRun): {
  toFirst: number
  between: number
  afterLast: number
} {
  const requests = run.requests
  if (requests.length === 0) return { toFirst: run.durationMs, between: 0, afterLast: 0 }
  const first = Math.min(...requests.map((r) => r.receivedMs))
  const last = Math.max(...requests.map((r) => r.receivedMs + r.durationMs))
  const busy = roundTrips(requests).busyMs
  return {
    toFirst: first - run.startedMs,
    between: last - first - busy,
    afterLast: run.startedMs + run.durationMs - last
  }
}

function prFiles(pr: BenchPr): number {
  return pr.repo
    .git('diff', '--name-only', `${pr.base}...${pr.head}`)
    .split('\n')
    .filter(Boolean).length
}

/** `node dist/index.js` on the PR's `pull_request` event, through the runner emulation. */
export async function benchAction(
  root: string,
  name: string,
  label: string,
  pr: BenchPr,
  fake: FakeGitHub,
  source: 'api' | 'git',
  options: {
    runs: number
    warmup: number
    latencyMs?: number
    selectAll?: boolean
    /** A failing gate is a figure too (over the 500-receipt cap): exit 1 is not an error. */
    anyConclusion?: boolean
    /** How long a run may take (default 30 s; the 1,000 × 20 scale row takes about that). */
    timeoutMs?: number
  }
): Promise<ActionResult> {
  setLatency(fake, options.latencyMs ?? 0)
  const emptyWorkspace = mkdtempSync(join(tmpdir(), 'rg-bench-ws-'))
  try {
    const once = async () => {
      const probe = rssProbe()
      try {
        const run = await runAction({
          fake,
          entry: join(root, 'dist', 'index.js'),
          actionYml: join(root, 'action.yml'),
          event: { name: 'pull_request', pull: 1 },
          ...(options.selectAll ? { inputs: { select: 'all' } } : {}),
          // The API source needs a workspace without the head; the git source reads the
          // repository itself (a full-history checkout).
          workspace: source === 'api' ? emptyWorkspace : pr.repo.path,
          runId: 7000,
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
          runAttempt: 1,
          // RG_BENCH_CPU_PROF=DIR: a CPU profile of each run (node refuses the flag in
          // NODE_OPTIONS), for docs/performance.md's method.
          prefix: [
            ...probe.prefix,
            ...(process.env.RG_BENCH_CPU_PROF
              ? ['--cpu-prof', `--cpu-prof-dir=${process.env.RG_BENCH_CPU_PROF}`]
              : []),
            ...(process.env.RG_BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [])
          ],
          env: probe.env
        } satisfies RunActionOptions)
        run.cleanup()
        return { run, rssKb: probe.read() }
      } finally {
        probe.dispose()
      }
    }
    const results = await repeat(options.runs, options.warmup, once)
    const last = results[results.length - 1]!
    const { run } = last
    if (process.env.RG_BENCH_TIMELINE) printTimeline(name, run)
    if (
      run.timedOut ||
      (run.exitCode !== 0 && !(options.anyConclusion && run.exitCode === 1))
    )
      throw new Error(
        `${name}: exit ${run.exitCode}: ${run.stderr.slice(0, 500)}${run.stdout.slice(-1500)}`
      )
    fake.assertNoViolations()
    const requests: Record<string, number> = {}
    for (const r of run.requests) {
      const key = r.operationId ?? `UNKNOWN ${r.method} ${r.path}`
      requests[key] = (requests[key] ?? 0) + 1
    }
    // The GraphQL read is a POST too; the gap that matters is between check-run writes.
    const writes = run.requests.filter(
      (r) => r.method !== 'GET' && r.operationId?.startsWith('checks/')
    )
    const writeGapMs = Math.max(
      0,
      ...writes
        .slice(1)
        .map((w, i) => w.receivedMs - (writes[i]!.receivedMs + writes[i]!.durationMs))
    )
    const checkRun = fake.checks.runs[fake.checks.runs.length - 1]
    const annotations = checkRun?.annotations.length ?? 0
    const toCreate = results.map(({ run: r }) => {
      const create = r.requests.find((q) => q.operationId === 'checks/create')
      return create ? create.receivedMs - r.startedMs : NaN
    })
    return {
      name,
      label,
      source,
      wallMs: stats(results.map((r) => r.run.durationMs)),
      rssMb: stats(results.map((r) => toMb(r.rssKb))),
      exitCode: run.exitCode,
      conclusion: run.outputs.conclusion ?? '',
      annotations,
      checkRunDigest: createHash('sha256')
        .update(
          JSON.stringify([
            checkRun?.conclusion,
            checkRun?.output.title,
            checkRun?.annotations
          ])
        )
        .digest('hex')
        .slice(0, 12),
      requests,
      requestsTotal: run.requests.length,
      roundTrips: roundTrips(run.requests).trips,
      depth: depth(run.requests),
      largestAnswerBytes: Math.max(0, ...run.requests.map((r) => r.responseBytes)),
      largestGraphqlAnswerBytes: Math.max(
        0,
        ...run.requests
          .filter((r) => r.operationId === 'graphql')
          .map((r) => r.responseBytes)
      ),
      timeline: {
        toFirstMs: stats(results.map((r) => ownTime(r.run).toFirst)),
        betweenMs: stats(results.map((r) => ownTime(r.run).between)),
        afterLastMs: stats(results.map((r) => ownTime(r.run).afterLast))
      },
      apiBusyMs: stats(results.map((r) => roundTrips(r.run.requests).busyMs)),
      latencyMs: options.latencyMs ?? 0,
      connections: run.connections,
      annotationWrites:
        (requests['checks/create'] ?? 0) + (requests['checks/update'] ?? 0),
      bytesSent: run.requests.reduce((sum, r) => sum + r.requestBytes, 0),
      bytesReceived: run.requests.reduce((sum, r) => sum + r.responseBytes, 0),
      specMinimum: source === 'api' ? specMinimum(pr, annotations) : null,
      writeGapMs,
      phases: {
        toCreateMs: stats(toCreate),
        createToExitMs: stats(results.map(({ run: r }, i) => r.durationMs - toCreate[i]!))
      }
    }
  } finally {
    rmSync(emptyWorkspace, { recursive: true, force: true })
  }
}

/** `RG_BENCH_TIMELINE=1`: when each request of the last run arrived and took, on stderr. */
function printTimeline(name: string, run: ActionRun): void {
  const lines = run.requests.map(
    (r) =>
      `  +${(r.receivedMs - run.startedMs).toFixed(0).padStart(4)} ms  ${r.durationMs.toFixed(1).padStart(5)} ms  ${r.operationId ?? r.path}`
  )
  process.stderr.write(
    `bench: ${name} timeline (ms after spawn, server time)\n${lines.join('\n')}\n  +${run.durationMs.toFixed(0).padStart(4)} ms  exit\n`
  )
}

export interface ColdStartResult {
  /** `node -e ''`, measured alongside. */
  baseline: ProcessResult
  /** `node dist/index.js` on an event with nothing to gate (push). */
  action: ProcessResult
  /** `node dist/receipt-gate.mjs --version`. */
  cli: ProcessResult
  /** Median of the action minus median of the baseline, ms. */
  overheadMs: number
}

/** Cold starts, interleaved with the baseline so drift hits both alike. */
export async function benchColdStart(
  root: string,
  options: { runs: number; warmup: number }
): Promise<ColdStartResult> {
  const baseline: { wall: number; rss: number | null }[] = []
  const action: { wall: number; rss: number | null; exit: number | null }[] = []
  const cli: { wall: number; rss: number | null; exit: number | null }[] = []
  await repeat(options.runs, options.warmup, async (i) => {
    const b = await runNode(['-e', ''])
    const probe = rssProbe()
    let a: { wall: number; rss: number | null; exit: number | null }
    try {
      const run = await runAction({
        entry: join(root, 'dist', 'index.js'),
        actionYml: join(root, 'action.yml'),
        event: { name: 'push', payload: { ref: 'refs/heads/main' }, sha: 'f'.repeat(40) },
        env: { GITHUB_REPOSITORY: 'acme/widgets', ...probe.env },
        prefix: probe.prefix
      })
      run.cleanup()
      if (!/nothing to gate/.test(run.stdout))
        throw new Error(
          `cold start: expected "nothing to gate", got ${run.stdout.slice(0, 300)}`
        )
      a = { wall: run.durationMs, rss: probe.read(), exit: run.exitCode }
    } finally {
      probe.dispose()
    }
    const c = await runNode([join(root, 'dist', 'receipt-gate.mjs'), '--version'])
    if (i >= 0) {
      baseline.push({ wall: b.wallMs, rss: b.peakRssKb })
      action.push(a)
      cli.push({ wall: c.wallMs, rss: c.peakRssKb, exit: c.exitCode })
    }
  })
  const result = (
    name: string,
    label: string,
    rows: { wall: number; rss: number | null; exit?: number | null }[]
  ): ProcessResult => ({
    name,
    label,
    wallMs: stats(rows.map((r) => r.wall)),
    rssMb: stats(rows.map((r) => toMb(r.rss))),
    exitCode: rows.find((r) => r.exit !== undefined && r.exit !== 0)?.exit ?? 0
  })
  const b = result('baseline', "node -e ''", baseline)
  const a = result(
    'cold-action',
    'cold start: node dist/index.js (nothing to gate)',
    action
  )
  const c = result('cold-cli', 'cold start: node dist/receipt-gate.mjs --version', cli)
  return { baseline: b, action: a, cli: c, overheadMs: a.wallMs.median - b.wallMs.median }
}
