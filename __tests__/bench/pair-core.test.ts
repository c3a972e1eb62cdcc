/**
 * `scripts/pair-core.mjs` (docs/performance.md, *Method*) must not rot either: it bundles
 * two builds' core side by side and times them call by call. One short run of HEAD
 * against the working tree; no figure is asserted, only that it ran and printed them.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../support/runner.js'

const SCRIPT = join(PROJECT_ROOT, 'scripts', 'pair-core.mjs')

function run(...args: string[]): {
  status: number | null
  stdout: string
  stderr: string
} {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8'
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('scripts/pair-core.mjs', () => {
  it('times HEAD against the working tree, call by call', () => {
    const result = run('HEAD', '--rounds', '3', '--processes', '1')
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(
      /^pair-core validate-max: before [0-9a-f]{12}, after working tree, 3 rounds a process$/m
    )
    expect(result.stdout).toMatch(
      /^before min \d+\.\d{3} ms, median \d+\.\d{3} \| after min \d+\.\d{3} ms, median \d+\.\d{3} \| after\/before: median \d+\.\d{3} \(IQR \d+\.\d{3}–\d+\.\d{3}\)$/m
    )
  }, 120_000)

  it('says what is wrong with its arguments', () => {
    expect(run()).toMatchObject({ status: 2, stderr: expect.stringMatching(/^usage:/) })
    expect(run('HEAD', '--workload', 'everything')).toMatchObject({ status: 2 })
    expect(run('HEAD', '--rounds', '0')).toMatchObject({
      status: 2,
      stderr: 'pair-core: --rounds and --processes take positive integers\n'
    })
    expect(run('no-such-commit')).toMatchObject({
      status: 2,
      stderr: 'pair-core: no-such-commit names no commit of this repository\n'
    })
  })
})
