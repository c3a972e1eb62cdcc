/**
 * `check --pr N --post` reports how posting went in plain words on stderr: its stdout is
 * the report (`--format json` parses), never workflow commands (`::warning::`,
 * `::error file=…`, `::stop-commands::`) meant for a runner. The bundled CLI, run as a
 * user runs it, against the local GitHub API refusing, failing or cutting the post.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import {
  DIR,
  receiptWith,
  rejectAnnotationsWith,
  trackedPrs,
  type PrFixture
} from '../action/support.js'
import type { BuiltObject } from '../support/receipt-builders.js'
import { PROJECT_ROOT } from '../support/runner.js'

const CLI = join(PROJECT_ROOT, 'dist', 'receipt-gate.mjs')
const { fixture } = trackedPrs(afterAll)

/** `dist/receipt-gate.mjs check --pr 1 --post --format json` on the fixture's PR (the local API). */
async function postJson(
  f: PrFixture
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const argv = ['check', '--pr', '1', '--repo-slug', 'acme/widgets', '--post']
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...argv, '--format', 'json'],
      {
        cwd: f.emptyWorkspace,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: f.emptyWorkspace,
          GITHUB_API_URL: f.fake.url,
          GITHUB_TOKEN: 'test-token',
          RECEIPT_GATE_TIME_SCALE: '0.001'
        }
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr })
    )
  })
}

/** A PR whose one receipt is a NEEDS_WORK with `count` anchored findings, the last "poison". */
const needsWork = async (count: number) =>
  fixture((r, b) => ({
    [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b, {
      verdict: 'NEEDS_WORK',
      count,
      item: (i): BuiltObject => (i === count - 1 ? { title: 'poison' } : {})
    })
  }))

/** The run's stdout is the report alone, and stderr has no workflow command either. */
function expectPlain(run: { stdout: string; stderr: string }): Report {
  const report = JSON.parse(run.stdout) as Report
  expect(report.conclusion).toBe('failure')
  for (const line of `${run.stdout}\n${run.stderr}`.split('\n'))
    expect(line).not.toMatch(/^\s*::|##\[/)
  return report
}

describe('check --pr --post says how posting went on stderr, in plain words', () => {
  it('a token without checks: write (403): the reason on stderr, the annotations only in the report', async () => {
    const f = await needsWork(3)
    f.fake.faults.readOnlyToken()
    const run = await postJson(f)
    expect(run.code).toBe(1)
    const report = expectPlain(run)
    expect(report.annotations).toHaveLength(3)
    expect(f.fake.checks.runs).toHaveLength(0)
    expect(run.stderr).toMatch(
      /^receipt-gate check: GitHub refused the check run: .*Resource not accessible by integration.*\n/
    )
    expect(run.stderr).toMatch(
      /\nreceipt-gate check: the check run could not be posted \(no checks: write\)\n$/
    )
  })

  it('a create answered 502 and annotations GitHub refused: the retry and the count on stderr', async () => {
    const f = await needsWork(60)
    f.fake.faults.add({ kind: 'status', route: 'checks/create', status: 502 })
    // Every PATCH that holds the last finding's annotation is refused: it is dropped.
    rejectAnnotationsWith(f, 'poison')
    const run = await postJson(f)
    expect(run.code).toBe(1)
    expectPlain(run)
    expect(f.fake.checks.runs).toHaveLength(1)
    expect(run.stderr).toMatch(/^receipt-gate check: .*502.*retrying/m)
    expect(run.stderr).toMatch(
      /^receipt-gate check: 1 annotation\(s\) were refused by GitHub and are named in the check run summary$/m
    )
    expect(run.stderr).toMatch(/\nreceipt-gate check: posted \S+\n$/)
    f.fake.takeViolations()
  })
})
