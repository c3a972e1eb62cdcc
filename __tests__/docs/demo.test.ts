/**
 * `npm run demo`, run for real as the README tells a new user to run it: the passing and
 * the failing pull request, a report alone on stdout (so `npm run -s demo json | jq`
 * works), the CLI's exit codes, and no path printed that is gone when the demo exits.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../support/runner.js'

interface DemoRun {
  code: number | null
  stdout: string
  stderr: string
}

/** `node scripts/demo.mjs …` (the script `npm run demo` runs). */
function demo(...args: string[]): DemoRun {
  const run = spawnSync(
    process.execPath,
    [join(PROJECT_ROOT, 'scripts', 'demo.mjs'), ...args],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8'
    }
  )
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

/** Temp paths the demo creates (its repository and the PR body beside it). */
const DEMO_PATH = /\/[^\s]*receipt-gate-demo-[^\s)]*/g

interface Report {
  conclusion: string
  receipts: Array<{ path: string; currentness: string; verdict: string }>
  deferred: { unnamed: string[] }
  problems: Array<{ code: string }>
}

describe('npm run demo', () => {
  it('npm run -s demo json prints the JSON report alone on stdout, and passes', () => {
    const run = spawnSync('npm', ['run', '-s', 'demo', 'json'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8'
    })
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout) as Report
    expect(report.conclusion).toBe('success')
    expect(run.stderr).toMatch(/^Passing demo PR: /m)
    expect(run.stderr).toMatch(/^exit code 0 /m)
  })

  it('failing: a stale review, a current NEEDS_WORK and an unnamed deferral; exit 1', () => {
    const run = demo('failing', 'json')
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as Report
    expect(report.conclusion).toBe('failure')
    expect(
      report.receipts.map(({ path, currentness, verdict }) => [
        path,
        currentness,
        verdict
      ])
    ).toEqual([
      ['.flow/review-receipts/impl-fn-7-receipt-gate.1.json', 'stale', 'SHIP'],
      ['.flow/review-receipts/impl-fn-7-receipt-gate.2.json', 'current', 'NEEDS_WORK']
    ])
    expect(report.deferred.unnamed).toEqual(['src/cart.ts:1 — total() starts from 1'])
    expect(report.problems.map((p) => p.code)).toContain('current-not-shipping')
  })

  it('failing, as text: what failed and why, and the exit code', () => {
    const run = demo('failing')
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^✗ failure — NEEDS_WORK/)
    expect(run.stdout).toContain('stale: 2\n      non-bookkeeping paths changed')
    expect(run.stdout).toContain('not named: src/cart.ts:1 — total() starts from 1')
    expect(run.stderr).toMatch(/^exit code 1 /m)
  })

  it('prints no path that is deleted when it exits', () => {
    const run = demo('markdown')
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Review receipts: success')
    expect(`${run.stdout}${run.stderr}`.match(DEMO_PATH)).toBeNull()
    expect(run.stderr).toContain('--repo <demo repository> --body-file <PR body>')
  })

  it('--keep keeps the repository and the PR body, and says where they are', () => {
    const run = demo('--keep', 'failing')
    const kept = [...new Set(run.stderr.match(DEMO_PATH))]
    try {
      expect(run.code).toBe(1)
      expect(kept).toHaveLength(2)
      for (const path of kept) expect(existsSync(path)).toBe(true)
      expect(run.stderr).toContain(`--repo ${kept[0]} --body-file ${kept[1]}`)
    } finally {
      for (const path of kept) rmSync(path, { recursive: true, force: true })
    }
  })

  it('an unknown format exits 2 with the usage, as the CLI does, building nothing', () => {
    const run = demo('xml')
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^demo: unknown argument "xml"\nusage: npm run demo /)
    })
  })
})
