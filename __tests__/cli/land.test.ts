/**
 * Issue 26.2: `receipt-gate check` as Flow-Next's land step runs its merge-verdict
 * command (`land.mergeVerdictCommand`): from a checkout of the base, the pull request
 * named only by FLOW_* variables, the PR head fetched but not checked out. Exit 0 lets
 * the merge happen; any other exit blocks it (the land step fails closed).
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { appendFileSync, chownSync } from 'node:fs'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { runCli, type CliRun } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { buildContainer, buildReceipt, jsonText } from '../support/receipt-builders.js'

const DIR = '.flow/review-receipts'
const cleanup: Array<() => void> = []
afterAll(() => cleanup.forEach((fn) => fn()))

/** The origin: main, and a PR branch whose review of `fn-7: change` says `verdict`. */
function origin(verdict: string): { repo: GitRepo; head: string } {
  const repo = GitRepo.init()
  cleanup.push(() => repo.cleanup())
  repo.write({ 'src/app.ts': 'export const a = 1\n' })
  const base = repo.commit('initial')
  repo.branch('feature/fn-7')
  repo.write({ 'src/app.ts': 'export const a = 2\n' })
  const reviewed = repo.commit('fn-7: change')
  repo.write({
    [`${DIR}/impl-fn-7.1.json`]: jsonText(
      buildReceipt({
        id: 'fn-7.1',
        verdict,
        findings: buildContainer({ headSha: reviewed, baseSha: base, items: 0 })
      })
    )
  })
  const head = repo.commit('chore(flow): review receipt')
  repo.checkout('main')
  // The base moves on after the PR branched: the gate must use their merge base.
  repo.write({ 'README.md': 'later\n' })
  repo.commit('docs: later')
  return { repo, head }
}

/** The land step's checkout: a clone on the base, the PR head fetched, not checked out. */
function landCheckout(from: GitRepo): GitRepo {
  const clone = GitRepo.init()
  cleanup.push(() => clone.cleanup())
  clone.git('remote', 'add', 'origin', from.path)
  clone.git('fetch', '-q', 'origin', 'main')
  clone.git('reset', '-q', '--hard', 'origin/main')
  clone.git('fetch', '-q', 'origin', 'feature/fn-7')
  return clone
}

/** Runs `receipt-gate check <args>` in `cwd` with only `env` as its environment. */
const run = async (
  cwd: string,
  env: Record<string, string>,
  ...args: string[]
): Promise<CliRun> => runCli(['check', ...args], cwd, { env })

const landEnv = (head: string): Record<string, string> => ({
  FLOW_HEAD_SHA: head,
  FLOW_BASE_REF: 'main',
  FLOW_PR_NUMBER: '7',
  FLOW_SPEC_ID: 'fn-7-receipt-gate'
})

describe('check as the land step runs it (env vars only, from the base checkout)', () => {
  const ship = origin('SHIP')
  const work = origin('NEEDS_WORK')
  const shipClone = landCheckout(ship.repo)
  const workClone = landCheckout(work.repo)

  it('the checkout is the base, the head is only fetched', () => {
    expect(shipClone.head()).toBe(ship.repo.revParse('main'))
    expect(shipClone.git('cat-file', '-t', ship.head)).toBe('commit')
    expect(shipClone.git('branch', '--contains', ship.head)).toBe('')
  })

  it('a current SHIP at FLOW_HEAD_SHA: exit 0, the report names the land context', async () => {
    const result = await run(shipClone.path, landEnv(ship.head))
    // The last stderr line is what land shows: the verdict.
    expect(result.stderr).toBe(
      'receipt-gate: success — SHIP — no introduced findings open; the gate passes: nothing blocks the merge\n'
    )
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('fn-7-receipt-gate')
    const json = await run(shipClone.path, landEnv(ship.head), '--format', 'json')
    const report = JSON.parse(json.stdout) as Report
    expect(report).toMatchObject({
      head: ship.head,
      conclusion: 'success',
      verdict: 'SHIP',
      base: ship.repo.git('merge-base', 'main', ship.head)
    })
    expect(report.receipts).toHaveLength(1)
    expect(report.notes).toContain(
      `Flow-Next land merge-verdict check: pull request #7, spec fn-7-receipt-gate, head ${ship.head.slice(0, 12)}, base main.`
    )
  })

  it('the base checkout itself carries no receipt: gating HEAD instead would differ', async () => {
    const local = await run(shipClone.path, {}, '--format', 'json')
    expect((JSON.parse(local.stdout) as Report).head).toBe(shipClone.head())
  })

  it('a current NEEDS_WORK at FLOW_HEAD_SHA: exit 1 (the merge is blocked)', async () => {
    const result = await run(workClone.path, landEnv(work.head), '--format', 'json')
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout)).toMatchObject({
      head: work.head,
      conclusion: 'failure',
      verdict: 'NEEDS_WORK'
    })
  })

  it('a head neither the checkout nor origin has, and no PR number: one line, exit 2', async () => {
    const missing = 'ab'.repeat(20)
    const result = await run(shipClone.path, { FLOW_HEAD_SHA: missing })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(
      /^receipt-gate: cannot decide — cannot fetch FLOW_HEAD_SHA abababa from origin: .*; set FLOW_PR_NUMBER and a token to read it through the API\n$/
    )
  })

  it('check flags land has no answer for are refused, not ignored', async () => {
    const result = await run(shipClone.path, landEnv(ship.head), '--branch', 'x')
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--branch does not apply while FLOW_HEAD_SHA')
  })

  it.each([
    [{ FLOW_HEAD_SHA: 'HEAD~1' }, 'FLOW_HEAD_SHA must be a full commit SHA'],
    [{ FLOW_HEAD_SHA: '--output=/tmp/x' }, 'FLOW_HEAD_SHA must be a full commit SHA'],
    [{ FLOW_PR_NUMBER: '7; rm -rf /' }, 'FLOW_PR_NUMBER must be a pull request number'],
    [
      { FLOW_HEAD_SHA: 'ab'.repeat(20), FLOW_BASE_REF: 'main^{tree}' },
      'FLOW_BASE_REF must be a branch name'
    ]
  ])('%j: refused in one line, exit 2', async (env, message) => {
    const result = await run(shipClone.path, env)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('an unknown FLOW_BASE_REF is an error, not the default branch', async () => {
    const result = await run(shipClone.path, {
      ...landEnv(ship.head),
      FLOW_BASE_REF: 'release'
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'receipt-gate: cannot decide — origin has no branch release; check FLOW_BASE_REF\n'
    )
  })

  it('--head and --base win over the variables', async () => {
    const result = await run(
      shipClone.path,
      landEnv('ab'.repeat(20)),
      '--head',
      ship.head,
      '--base',
      'origin/main',
      '--format',
      'json'
    )
    expect(result.stderr).toBe('')
    const report = JSON.parse(result.stdout) as Report
    expect(report.head).toBe(ship.head)
    expect(report.notes.some((note) => note.startsWith('Flow-Next land'))).toBe(false)
  })
})

describe('check --verbose: the decisions on stderr, and git in its own words', () => {
  const ship = origin('SHIP')

  it('the base it fell back to, each one tried', async () => {
    const clone = landCheckout(ship.repo)
    // The base checkout carries no receipt (exit 1): only stderr's trail matters here.
    const result = await run(clone.path, {}, '--verbose', '--format', 'json')
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /^receipt-gate check: base: no origin\/HEAD\nreceipt-gate check: base: main \([0-9a-f]{40}\)\n/
    )
    const quiet = await run(clone.path, {}, '--format', 'json')
    expect(quiet.stderr).toBe('')
  })

  // Ownership can only be given away by root; a broken configuration refuses for anyone.
  const refusals: Array<[string, (dir: string) => void, RegExp]> = [
    [
      'a broken configuration',
      (dir) => appendFileSync(join(dir, '.git', 'config'), '[broken\n'),
      /bad config line \d+ in file \.git\/config/
    ]
  ]
  if (process.getuid?.() === 0)
    refusals.push([
      'a safe.directory refusal',
      (dir) => chownSync(dir, 65534, 65534),
      /detected dubious ownership in repository at '[^']+'/
    ])
  it.each(refusals)(
    "a repository git refuses (%s): git's own first line, not 'not a git repository'",
    async (_, refuse, said) => {
      const clone = landCheckout(ship.repo)
      refuse(clone.path)
      const result = await run(clone.path, {}, '--head', ship.head)
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(new RegExp(`^receipt-gate check: ${said.source}\n$`))
    }
  )
})
