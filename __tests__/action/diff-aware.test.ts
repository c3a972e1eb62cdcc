/**
 * Issue 25 through the real bundled dist/index.js against the local GitHub API: findings
 * placed by the PR files list's patches (in the diff, base-side mapped and unmapped), a
 * patch GitHub leaves out (unknown), and coverage over the API source.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { Report } from '../../src/gate/report.js'
import type { ActionRun } from '../support/runner.js'
import { DIR, receiptWith, trackedPrs, type PrFixture } from './support.js'

const prs = trackedPrs(afterEach)

// The fixture's PR replaces src/app.ts's 400 lines with one.
const ANCHORS = [
  { side: 'head', startLine: 1 },
  { side: 'base', startLine: 200 },
  { side: 'base', startLine: 900 }
]

async function placed(): Promise<PrFixture> {
  const f = await prs.fixture((reviewed, base) => ({
    [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
      count: ANCHORS.length,
      item: (i) => ({
        title: `finding ${i + 1}`,
        anchor: {
          path: 'src/app.ts',
          endLine: ANCHORS[i]?.startLine ?? 1,
          headSha: reviewed,
          baseSha: base,
          ...ANCHORS[i]
        }
      })
    })
  }))
  return f
}

async function run(f: PrFixture): Promise<{ result: ActionRun; report: Report }> {
  const result = await prs.run(f)
  const report = JSON.parse(readFileSync(result.outputs.report ?? '', 'utf8')) as Report
  return { result, report }
}

describe('diff-aware findings through dist/index.js (API source)', () => {
  it('places findings by the files list patches and annotates mapped base-side ones', async () => {
    const f = await placed()
    const { result, report } = await run(f)
    expect(result.stderr).toBe('')
    const findings = report.receipts[0]?.findings ?? []
    expect(findings.map((x) => [x.title, x.inDiff, x.mappedTo ?? null])).toEqual([
      ['finding 1', true, null],
      ['finding 2', true, { path: 'src/app.ts', line: 1 }],
      ['finding 3', false, null]
    ])
    const annotations = f.fake.checks.runs[0]?.annotations ?? []
    expect(annotations.map((a) => [a.path, a.start_line])).toEqual([
      ['src/app.ts', 1],
      ['src/app.ts', 1]
    ])
    expect(annotations[1]?.message).toMatch(/^On the removed line 200: /)
    expect(result.summary).toMatch(/### Base-side, not mapped.*\n+- `src\/app\.ts:900`/)
    // The PR's one code commit is the reviewed head (API coverage: coverage.test.ts).
    expect(report.coverage).toMatchObject({ commits: 1, reviewed: 1, unreviewed: [] })
  })

  it('leaves inDiff unknown when GitHub omits the patch, and maps no base-side line', async () => {
    const f = await placed()
    f.fake.tweak('pulls/list-files', (files) =>
      (files as Array<Record<string, unknown>>).map(({ patch: _patch, ...file }) => file)
    )
    const { report } = await run(f)
    const findings = report.receipts[0]?.findings ?? []
    expect(findings.map((x) => x.inDiff)).toEqual([null, null, null])
    expect(report.diff?.unmapped.map((e) => e.line)).toEqual([200, 900])
    expect(report.annotations.map((a) => a.start_line)).toEqual([1])
  })
})

describe('an oversized files list through dist/index.js', () => {
  it.each([
    ['with its length', false],
    ['streamed without one', true]
  ])(
    'is refused past the cap %s; the check run is posted with why the diff is unknown',
    async (_, chunked) => {
      const f = await placed()
      // Every answer (a proxy's), past node's longest string: read whole, each attempt failed
      // or ran past its deadline, and the run stopped without posting a check run.
      const bytes = 1536 * 1024 * 1024
      f.fake.faults.add({
        kind: 'oversized',
        route: 'pulls/list-files',
        bytes,
        chunked,
        times: Infinity
      })
      // Streamed, 256 MiB must arrive within one attempt's deadline (10 s at this scale).
      const env = chunked ? { RECEIPT_GATE_TIME_SCALE: '0.5' } : {}
      const result = await prs.run(f, { env })
      const [checkRun] = f.fake.checks.runs
      expect(checkRun?.output.summary).toMatch(/answer over 256 MiB/)
      const report = JSON.parse(
        readFileSync(result.outputs.report ?? '', 'utf8')
      ) as Report
      expect(report.diff).toMatchObject({ known: false })
      expect(report.diff?.note).toMatch(/answer over 256 MiB/)
      expect(report.receipts[0]?.findings.map((x) => x.inDiff)).toEqual([
        null,
        null,
        null
      ])
      expect(checkRun?.conclusion).toBe(report.conclusion)
      // Refused once, not asked for again by the retries.
      const lists = f.fake.requests.filter((r) => r.operationId === 'pulls/list-files')
      expect(lists.map((r) => r.fault)).toEqual(['oversized'])
    }
  )
})
