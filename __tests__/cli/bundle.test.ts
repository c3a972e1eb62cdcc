/** The real bundled `dist/cli.js`, run as a user runs it, on the demo repository and the corpus. */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
// @ts-expect-error: a plain ES module script shared with `npm run demo`
import { buildDemoRepo } from '../../scripts/demo-repo.mjs'
import { CORPUS, FIXTURES } from '../support/corpus.js'

const CLI = join(FIXTURES, '..', '..', 'dist', 'cli.js')
const demo = buildDemoRepo() as { root: string; bodyFile: string; head: string }
afterAll(() => {
  rmSync(demo.root, { recursive: true, force: true })
  rmSync(demo.bodyFile, { force: true })
})

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('dist/cli.js', () => {
  it('check on the demo PR: success, JSON report as documented', () => {
    const run = cli(
      'check',
      '--repo',
      demo.root,
      '--base',
      'main',
      '--body-file',
      demo.bodyFile,
      '--format',
      'json'
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report).toMatchObject({
      conclusion: 'success',
      head: demo.head,
      verdict: 'SHIP',
      missing: [],
      deferred: { expected: 1, named: 1, unnamed: [] }
    })
    expect(
      report.receipts.map((r: { currentness: string; headSource: string }) => [
        r.currentness,
        r.headSource
      ])
    ).toEqual([
      ['stale', 'history'],
      ['current', 'findings']
    ])
    expect(
      report.annotations.map((a: { annotation_level: string }) => a.annotation_level)
    ).toEqual(['warning', 'notice', 'notice'])
  })
  it('a base that names nothing: one line and exit 2', () => {
    // Resolved through the object reader: its failure ends the run with the usage-error
    // code and git's words turned into one line, never as an unhandled rejection.
    for (const base of ['nope', 'main~99']) {
      const run = cli('check', '--repo', demo.root, '--base', base)
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: `receipt-gate check: unknown revision ${JSON.stringify(base)}\n`
      })
    }
  })

  it('check prints the text and markdown forms', () => {
    expect(cli('check', '--repo', demo.root, '--base', 'main').stdout).toMatch(
      /^✓ success — SHIP/
    )
    const markdown = cli(
      'check',
      '--repo',
      demo.root,
      '--base',
      'main',
      '--format',
      'markdown'
    ).stdout
    expect(markdown).toContain('### 1. Verdict')
  })
  it('validate accepts committed real receipts and refuses an invalid projection', () => {
    const real = join(
      CORPUS,
      'real',
      'committed',
      'review-receipts',
      'impl-fn-136-structured-review-artifact-schema-in.1.json'
    )
    expect(cli('validate', real)).toMatchObject({ code: 0 })
    const bad = cli(
      'validate',
      '--format',
      'json',
      join(CORPUS, 'generated', 'invalid', 'confidence-float.json')
    )
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout)[0]).toMatchObject({
      readable: true,
      structured: 'invalid',
      structuredReasons: [expect.stringContaining('confidence')]
    })
  })
  it('--version, --help, and usage errors', () => {
    expect(cli('--version').stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
    expect(cli('check', '--help').stdout).toContain('--body-file FILE')
    expect(cli('frobnicate')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command')
    })
  })
})
