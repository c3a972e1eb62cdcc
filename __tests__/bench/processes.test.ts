/**
 * How many git processes the bundled CLI starts (issue 7): a figure of this machine's
 * kind, not a behaviour, so it runs with `npm run test:perf`. Every object question goes
 * through one `cat-file` process; `log` for the demo's receipt that names no reviewed
 * commit.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// @ts-expect-error: a plain ES module script shared with `npm run demo`
import { buildDemoRepo } from '../../scripts/demo-repo.mjs'
import { gitCommands } from '../support/git-trace.js'
import { PROJECT_ROOT } from '../support/runner.js'

const CLI = join(PROJECT_ROOT, 'dist', 'receipt-gate.mjs')
const demo = buildDemoRepo() as { root: string; bodyFile: string }
const traces = mkdtempSync(join(tmpdir(), 'rg-cli-trace-'))
afterAll(() => {
  rmSync(demo.root, { recursive: true, force: true })
  rmSync(demo.bodyFile, { force: true })
  rmSync(traces, { recursive: true, force: true })
})

function gitProcesses(base: string): string[] {
  const trace = join(traces, `trace-${base}.log`)
  // git appends to a trace file: each run counts its own processes only.
  rmSync(trace, { force: true })
  const run = spawnSync(
    process.execPath,
    [CLI, 'check', '--repo', demo.root, '--base', base, '--format', 'json'],
    { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', GIT_TRACE2: trace } }
  )
  expect(run.status).toBe(0)
  return gitCommands(readFileSync(trace, 'utf8'))
}

describe('dist/receipt-gate.mjs: git processes of a check', () => {
  it('one cat-file for every blob and one log walk, whichever base', () => {
    const git = (...args: string[]) =>
      spawnSync('git', ['-C', demo.root, ...args], {
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'Base Dev',
          GIT_AUTHOR_EMAIL: 'base@example.com',
          GIT_COMMITTER_NAME: 'Base Dev',
          GIT_COMMITTER_EMAIL: 'base@example.com'
        }
      }).stdout.trim()
    git(
      'branch',
      '-f',
      'moved-base',
      git('commit-tree', 'main^{tree}', '-p', 'main', '-m', 'moved on')
    )
    for (const base of ['main', 'moved-base']) {
      const started = gitProcesses(base)
      expect(started.filter((cmd) => cmd.startsWith('cat-file --batch'))).toHaveLength(1)
      // One walk for every unbound receipt (a receipt it cannot place: one `log -1`).
      expect(started.filter((cmd) => cmd === 'log').length).toBeLessThanOrEqual(2)
      expect(started).toContain('merge-base')
    }
    // The same processes for either base: the count does not depend on the history.
    expect(gitProcesses('moved-base').length).toBe(gitProcesses('main').length)
    // Exactly these 17 (issue 23; 22 before): one rev-parse for the top level and the
    // shallow flag, one for the head, one for the base; one diff for the PR's paths and
    // patches; per reviewed commit one walk (type and ancestry) and one diff-tree, and
    // one rev-list for coverage; a diff-tree for the stale receipt's commit.
    expect(gitProcesses('main').sort()).toEqual([
      'cat-file --batch',
      'diff',
      'diff-tree',
      'diff-tree',
      'diff-tree',
      'log',
      'log',
      'ls-tree',
      'merge-base',
      'rev-list',
      'rev-list',
      'rev-list',
      'rev-list',
      'rev-parse',
      'rev-parse',
      'rev-parse',
      'symbolic-ref'
    ])
  })
})
