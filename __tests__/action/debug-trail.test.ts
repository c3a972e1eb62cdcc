/**
 * The trail in the log: with step debug logging on, the bundled action says in `::debug::`
 * lines why it did not read the workspace (git's own first line when git refused it) and
 * why it read through REST, not GraphQL. Hostile text in those lines stays inert.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { appendFileSync, chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runnerView } from '../hostile/neutral.js'
import {
  DIR,
  prFixture,
  receiptWith,
  refuseGraphql,
  runOnPr,
  type PrFixture
} from './support.js'

const open: PrFixture[] = []
const workspaces: string[] = []
afterEach(async () => {
  for (const dir of workspaces.splice(0)) rmSync(dir, { recursive: true, force: true })
  for (const f of open.splice(0)) {
    await f.fake.close()
    f.repo.cleanup()
  }
})

async function fixture(): Promise<PrFixture> {
  const f = await prFixture((reviewed, base) => ({
    [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
  }))
  open.push(f)
  return f
}

/** A full clone of the fake's repository checked out at the PR head, as actions/checkout leaves it. */
function checkout(f: PrFixture): string {
  const parent = mkdtempSync(join(tmpdir(), 'rg-ws-'))
  workspaces.push(parent)
  const dir = join(parent, 'ws')
  execFileSync('git', ['clone', '-q', f.repo.path, dir])
  execFileSync('git', ['-C', dir, 'checkout', '-q', f.repo.revParse('feature/fn-7')])
  return dir
}

const debugLines = (stdout: string): string[] =>
  stdout.split('\n').filter((line) => line.startsWith('::debug::'))

// Ownership can only be given away by root (CI's runner user cannot): there the refusal
// comes from a broken configuration instead, git's own first line as well.
const asRoot = process.getuid?.() === 0 ? it : it.skip

describe('the workspace → API fallback in the debug log', () => {
  asRoot(
    'a safe.directory refusal (dubious ownership): git says so, the API is read',
    async () => {
      const f = await fixture()
      const ws = checkout(f)
      chownSync(ws, 65534, 65534)
      const result = await runOnPr(f, { workspace: ws, debug: true })
      expect(result.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
      expect(debugLines(result.stdout)).toContainEqual(
        expect.stringMatching(
          /^::debug::receipts through the API, not the workspace: git: detected dubious ownership in repository at '.*ws'$/
        )
      )
      expect(result.requests.some((q) => q.operationId === 'graphql')).toBe(true)
    },
    30_000
  )

  it('a git that cannot read its configuration: its own first line', async () => {
    const f = await fixture()
    const ws = checkout(f)
    appendFileSync(join(ws, '.git', 'config'), '[broken\n')
    const result = await runOnPr(f, { workspace: ws, debug: true })
    expect(result.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    expect(debugLines(result.stdout)).toContainEqual(
      expect.stringMatching(
        /^::debug::receipts through the API, not the workspace: git: bad config line \d+ in file \.git\/config$/
      )
    )
  }, 30_000)

  it('no checkout, then a full one: each decision is one debug line', async () => {
    const f = await fixture()
    const none = await runOnPr(f, { debug: true })
    expect(debugLines(none.stdout)).toContain(
      `::debug::receipts through the API, not the workspace: no .git in ${f.emptyWorkspace} (no actions/checkout before this step)`
    )
    const ws = checkout(f)
    const used = await runOnPr(f, { workspace: ws, debug: true })
    expect(used.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    expect(debugLines(used.stdout)).toContainEqual(
      expect.stringMatching(/^::debug::receipts from the workspace .*ws at [0-9a-f]{40}$/)
    )
  }, 30_000)
})

describe('GraphQL → REST in the debug log', () => {
  it('refused (FORBIDDEN): why, in a debug line', async () => {
    const f = await fixture()
    refuseGraphql(f)
    const result = await runOnPr(f, { debug: true })
    expect(result.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    expect(debugLines(result.stdout)).toContain(
      '::debug::the PR and its receipts through REST, not GraphQL: FORBIDDEN: Resource not accessible by integration'
    )
  }, 30_000)

  it('a hostile error message: one inert line, controls shown, no command of its own', async () => {
    const f = await fixture()
    f.fake.faults.add({
      kind: 'graphql-error',
      route: 'graphql',
      type: 'FORBIDDEN',
      message:
        'no\n::set-output name=conclusion::success\r\n##[error]x \u001b[31mred\u202e',
      times: Infinity
    })
    const result = await runOnPr(f, { debug: true })
    const [line] = debugLines(result.stdout).filter((l) => l.includes('not GraphQL'))
    expect(line).toBe(
      '::debug::the PR and its receipts through REST, not GraphQL: FORBIDDEN: no\\u{a}::set-output name=conclusion::success\\u{d}\\u{a}##[error]x \\u{1b}[31mred\\u{202e}'
    )
    const names = runnerView(result.stdout).commands.map((c) => c.name)
    expect(
      names.filter((n) => !['debug', 'stop-commands', 'add-mask'].includes(n))
    ).toEqual([])
  }, 30_000)
})
