/** The runner emulation runs an entry as the GitHub runner does and collects what it wrote. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import {
  DEFAULT_ACTION_YML,
  inputEnvName,
  parseActionInputs,
  parseFileCommand,
  PROJECT_ROOT,
  runAction
} from '../support/runner.js'

const ENTRY = join(PROJECT_ROOT, '__tests__', 'fixtures', 'runner', 'echo-action.mjs')
const EXIT = join(PROJECT_ROOT, '__tests__', 'fixtures', 'runner', 'exit-code.mjs')
const DEFAULTS = {
  token: '${{ github.token }}',
  'receipts-dir': '.flow/review-receipts',
  fail: 'false'
}

let repo: GitRepo
let fake: FakeGitHub
let head: string

beforeAll(async () => {
  repo = GitRepo.init()
  repo.write({ 'README.md': 'hi\n' })
  repo.commit('base')
  repo.branch('feature')
  repo.write({ 'a.txt': 'a\n' })
  head = repo.commit('feature')
  fake = await startFakeGitHub({
    repo,
    token: 'runner-token',
    pulls: [
      {
        number: 12,
        head: { ref: 'feature' },
        base: { ref: 'main' },
        title: 'Add a',
        body: 'body'
      }
    ]
  })
})

afterAll(async () => {
  await fake?.close()
  repo?.cleanup()
})

describe('runAction', () => {
  it('runs the entry with the event, env, inputs and file commands of a pull_request run', async () => {
    const run = await runAction({
      entry: ENTRY,
      fake,
      event: { name: 'pull_request', pull: 12 },
      token: 'runner-token',
      inputDefaults: DEFAULTS,
      inputs: { 'receipts-dir': 'custom/dir' }
    })
    try {
      expect(run.stderr).toBe('')
      expect(run.exitCode).toBe(0)
      expect(run.stdout).toContain('PR #12: Add a')
      expect(run.outputs).toEqual({
        title: 'Add a',
        'head-sha': head,
        'event-sha': await fake.mergeCommitSha(12),
        'receipts-dir': 'custom/dir',
        multi: 'line one\nline two',
        'runner-temp': run.runnerTemp
      })
      expect(run.outputs['event-sha']).not.toBe(head)
      expect(run.summary).toBe('<h2>Echo</h2>\nPR #12: Add a\n')
      expect(run.state).toEqual({ seen: 'yes' })
      expect(run.requests.map((q) => [q.operationId, q.status])).toEqual([
        ['pulls/get', 200]
      ])
      expect(run.env['INPUT_RECEIPTS-DIR']).toBe('custom/dir')
      expect(run.env.INPUT_TOKEN).toBe('runner-token')
      expect(run.env.GITHUB_REF).toBe('refs/pull/12/merge')
      expect(run.env.GITHUB_HEAD_REF).toBe('feature')
      expect(run.env.GITHUB_API_URL).toBe(fake.url)
      expect(run.env.NODE_OPTIONS).toBeUndefined()
      fake.assertNoViolations()
    } finally {
      run.cleanup()
    }
  })

  it('returns the exit code, and kills a hanging entry after the timeout', async () => {
    const failing = await runAction({
      entry: EXIT,
      fake,
      event: { name: 'pull_request_target', pull: 12 },
      inputs: { 'exit-code': '3' }
    })
    failing.cleanup()
    expect(failing.exitCode).toBe(3)
    expect(failing.stdout).toBe('::error::exiting with 3\n')
    expect(failing.outputs).toEqual({
      GITHUB_EVENT_NAME: 'pull_request_target',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SHA: repo.revParse('main'),
      'INPUT_EXIT-CODE': '3'
    })

    const stuck = await runAction({
      entry: EXIT,
      inputs: { hang: 'true' },
      timeoutMs: 300
    })
    stuck.cleanup()
    expect(stuck.timedOut).toBe(true)
    expect(stuck.signal).toBe('SIGKILL')
  })

  it('refuses a missing entry with a clear message (dist/index.js by default)', async () => {
    await expect(
      runAction({ entry: join(PROJECT_ROOT, 'no-such-entry.js') })
    ).rejects.toThrow(/does not exist/)
  })
})

describe('file commands and action.yml', () => {
  it('parses name=value and name<<delimiter blocks like the runner', () => {
    const text =
      'a=1\nmulti<<ghadelimiter_x\nline 1\n\nline 3\nghadelimiter_x\nempty<<EOF\nEOF\nb=x=y\n'
    expect(parseFileCommand(text)).toEqual({
      a: '1',
      multi: 'line 1\n\nline 3',
      empty: '',
      b: 'x=y'
    })
    expect(() => parseFileCommand('x<<EOF\nno end\n')).toThrow(
      /matching delimiter not found/
    )
  })

  it('reads input defaults from action.yml (quoted, plain and block scalars)', () => {
    const yml = [
      'name: Receipt Gate',
      'inputs:',
      '  token:',
      "    description: 'GitHub token'",
      '    default: ${{ github.token }}',
      '  receipts-dir:',
      '    description: where',
      "    default: '.flow/review-receipts'",
      '  bookkeeping-paths:',
      '    default: |',
      '      .flow/**',
      '      !.flow/bin/**',
      '  fail-step:',
      '    default: "true"  ',
      '  pull-number:',
      '    description: no default',
      'runs:',
      "  using: 'node24'",
      "  main: 'dist/index.js'"
    ].join('\n')
    expect(parseActionInputs(yml)).toEqual({
      token: '${{ github.token }}',
      'receipts-dir': '.flow/review-receipts',
      'bookkeeping-paths': '.flow/**\n!.flow/bin/**\n',
      'fail-step': 'true'
    })
    if (existsSync(DEFAULT_ACTION_YML)) {
      const inputs = parseActionInputs(readFileSync(DEFAULT_ACTION_YML, 'utf8'))
      expect(inputs.token).toBe('${{ github.token }}')
      for (const v of Object.values(inputs)) expect(typeof v).toBe('string')
    }
    expect(inputEnvName('receipts-dir')).toBe('INPUT_RECEIPTS-DIR')
    expect(inputEnvName('my input')).toBe('INPUT_MY_INPUT')
  })
})
