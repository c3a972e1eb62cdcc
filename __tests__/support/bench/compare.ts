/**
 * `npm run bench -- --compare DIR`: two builds measured interleaved. Runs minutes apart
 * on a shared VM differ by more than most changes, so one table against another proves
 * nothing; here every round runs the same workload on both builds back to back (their
 * order alternating), and the figure that matters is the median of the paired
 * differences. DIR is another checkout (its dist/ and action.yml); the fixtures are
 * built once and shared.
 */
import { PR_10, PR_500, buildBenchPr, type BenchPr } from './fixtures.js'
import { stats, type Stats } from './measure.js'
import { benchAction, benchCli, fakeFor } from './processes.js'

export interface CompareOptions {
  /** The build under test ("B"). */
  root: string
  /** The build to compare with ("A"). */
  other: string
  /** Rounds: each runs every workload once on each build. */
  runs: number
  /** Workload groups (`cli`, `action`, `cli-500`); default `cli` and `action`. */
  only?: readonly string[]
  log?: (line: string) => void
}

export interface CompareRow {
  name: string
  a: Stats
  b: Stats
  /** B − A per round. */
  diff: Stats
}

/**
 * One run of a workload on a build: its figures (ms), each a row of the comparison named
 * by the workload and the figure's key — the wall under '' (the row is the workload's).
 */
type Workload = (root: string) => Promise<Record<string, number>>

/** The wall of a run. */
function wallFigure(result: { wallMs: Stats }): Record<string, number> {
  return { '': result.wallMs.median }
}

/** The action's wall and its two phases (see `ActionResult.phases`). */
function actionFigures(
  result: Awaited<ReturnType<typeof benchAction>>
): Record<string, number> {
  return {
    ...wallFigure(result),
    ', to create': result.phases.toCreateMs.median,
    ', create → exit': result.phases.createToExitMs.median
  }
}

/** Runs the workloads round by round on both builds; returns their figures (ms). */
export async function runCompare(options: CompareOptions): Promise<CompareRow[]> {
  const log = options.log ?? (() => undefined)
  const want = (group: string) =>
    options.only ? options.only.includes(group) : group !== 'cli-500'
  log('building the 10-receipt pull request')
  const pr = buildBenchPr(PR_10)
  const fake = await fakeFor(pr)
  const once = { runs: 1, warmup: 0 }
  let pr500: BenchPr | null = null
  try {
    const workloads: [string, Workload][] = []
    if (want('cli'))
      workloads.push([
        'cli: check, 10 receipts',
        async (root) => wallFigure(await benchCli(root, 'cli-10', '', pr, once))
      ])
    if (want('action'))
      workloads.push(
        [
          'action: API source',
          async (root) =>
            actionFigures(
              await benchAction(root, 'action-api', '', pr, fake, 'api', once)
            )
        ],
        [
          'action: git workspace',
          async (root) =>
            actionFigures(
              await benchAction(root, 'action-git', '', pr, fake, 'git', once)
            )
        ]
      )
    if (want('cli-500')) {
      log('building the 500-receipt pull request')
      const big = (pr500 = buildBenchPr(PR_500))
      workloads.push([
        'cli: check, 500 receipts',
        async (root) => wallFigure(await benchCli(root, 'cli-500', '', big, once))
      ])
    }
    const rows: CompareRow[] = []
    for (const [name, workload] of workloads) {
      log(name)
      await workload(options.other) // warm-up of both (disk cache)
      await workload(options.root)
      const a: Record<string, number>[] = []
      const b: Record<string, number>[] = []
      for (let round = 0; round < options.runs; round++) {
        if (round % 2 === 0) {
          a.push(await workload(options.other))
          b.push(await workload(options.root))
        } else {
          b.push(await workload(options.root))
          a.push(await workload(options.other))
        }
      }
      for (const figure of Object.keys(a[0] ?? {})) {
        const inA = a.map((run) => run[figure]!)
        const inB = b.map((run) => run[figure]!)
        rows.push({
          name: `${name}${figure}`,
          a: stats(inA),
          b: stats(inB),
          diff: stats(inB.map((x, i) => x - inA[i]!))
        })
      }
    }
    return rows
  } finally {
    await fake.close()
    pr.repo.cleanup()
    pr500?.repo.cleanup()
  }
}

export function formatCompare(rows: readonly CompareRow[], other: string): string {
  const cell = (s: Stats) => `${s.median.toFixed(0)} (${s.iqr.toFixed(0)})`.padStart(12)
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(0)}`
  return [
    `A = ${other}, B = this build: wall ms, median (IQR) of ${rows[0]?.a.runs ?? 0} interleaved rounds`,
    '',
    `${'workload'.padEnd(40)}${'A'.padStart(12)}${'B'.padStart(12)}   B − A per round, median (IQR)`,
    ...rows.map(
      (r) =>
        `${r.name.padEnd(40)}${cell(r.a)}${cell(r.b)}   ${signed(r.diff.median)} ms (${r.diff.iqr.toFixed(0)})`
    )
  ].join('\n')
}
