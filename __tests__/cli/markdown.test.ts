/**
 * `check --format markdown` is the job summary: byte for byte what the summary
 * renderer makes of the same report with the job-summary limit, and what the action
 * writes to GITHUB_STEP_SUMMARY.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { EOL, tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeJobSummary } from '../../src/action/publish.js'
import type { Report } from '../../src/gate/report.js'
import { renderSummary, SUMMARY_LIMITS } from '../../src/render/summary.js'
import { runCli } from '../support/check-cli.js'
import { reportFinding } from '../support/report-builders.js'
import { withEnv } from '../support/env.js'
// @ts-expect-error: a plain ES module script shared with `npm run demo`
import { buildDemoRepo } from '../../scripts/demo-repo.mjs'

const demo = buildDemoRepo() as { root: string; bodyFile: string; head: string }
const scratch = mkdtempSync(join(tmpdir(), 'receipt-gate-markdown-'))
afterAll(() => {
  rmSync(demo.root, { recursive: true, force: true })
  rmSync(demo.bodyFile, { force: true })
  rmSync(scratch, { recursive: true, force: true })
})

const CASES: Array<[string, string[]]> = [
  ['the demo pull request', ['--body-file', demo.bodyFile]],
  ['no PR body', []],
  ['every receipt, unbound heads stale', ['--select', 'all', '--unbound-head', 'fail']],
  ['a required type missing', ['--require', 'impl_review,plan_review']]
]

/** `check` on the demo repository against `main`. */
const CHECK_DEMO = ['check', '--repo', demo.root, '--base', 'main']

/** The bytes `writeJobSummary` writes for `report` (to a fresh GITHUB_STEP_SUMMARY). */
async function jobSummaryBytes(report: Report): Promise<Buffer> {
  // @actions/core keeps the first summary path it sees: one file, emptied each time.
  const file = join(scratch, 'step-summary.md')
  writeFileSync(file, '')
  await withEnv('GITHUB_STEP_SUMMARY', file, async () => writeJobSummary(report))
  return readFileSync(file)
}

describe('check --format markdown', () => {
  it.each(CASES)('%s', async (_what, flags) => {
    const base = [...CHECK_DEMO, ...flags]
    const json = await runCli([...base, '--format', 'json'])
    const markdown = await runCli([...base, '--format', 'markdown'])
    expect(markdown.stderr).toBe('')
    expect(markdown.code).toBe(json.code)
    const report = JSON.parse(json.stdout) as Report
    expect(markdown.stdout).toBe(`${renderSummary(report, SUMMARY_LIMITS.jobSummary)}\n`)

    expect((await jobSummaryBytes(report)).toString('utf8')).toBe(markdown.stdout)
  })

  it('a summary cut to 1 MiB, with text outside Latin-1, is written byte for byte', async () => {
    // The job summary's bytes must be those of the summary's text, astral characters and
    // a lone surrogate included.
    const json = await runCli([...CHECK_DEMO, '--format', 'json'])
    const demoReport = JSON.parse(json.stdout) as Report
    const findings = Array.from({ length: 300 }, (_, i) =>
      reportFinding({
        id: `finding-${i}`,
        ordinal: i + 1,
        title: `é😀 ${i}`,
        body: `—😀 ${'x'.repeat(4000)} \ud800 ${i}`
      })
    )
    const report: Report = {
      ...demoReport,
      receipts: demoReport.receipts.map((row) => ({ ...row, findings }))
    }
    const text = renderSummary(report, SUMMARY_LIMITS.jobSummary)
    expect(text).toMatch(/not shown: the summary is limited in size/)
    const written = await jobSummaryBytes(report)
    expect(written.equals(Buffer.from(`${text}${EOL}`))).toBe(true)
    expect(written.length).toBeLessThanOrEqual(SUMMARY_LIMITS.jobSummary + EOL.length)
  })
})
