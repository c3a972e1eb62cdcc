/**
 * A review followed by bookkeeping that touches more files than a compare lists (GitHub's
 * 300): git lists any diff and finds the review current; over the API the compare is cut,
 * and the head's tree and the reviewed commit's (read with the PR's commits, checked
 * against their ids) must give the same verdict — current when only bookkeeping changed,
 * stale when code changed too — on the bundled action and on `check --pr`.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { checkJson, runCli } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub } from '../support/github-api/server.js'
import { runAction } from '../support/runner.js'
import { DIR, receiptWith } from './support.js'

jest.setTimeout(90_000)

const cleanups: Array<() => void> = []
afterAll(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

/** A reviewed commit, its SHIP receipt, then 320 task files and `extra` in one commit. */
function reviewThenBookkeeping(extra: Record<string, string>): GitRepo {
  const repo = GitRepo.init()
  cleanups.push(() => repo.cleanup())
  const m0 = repo.write({ 'src/app.ts': 'a\n' }).commit('main')
  repo.branch('feature')
  const c1 = repo.write({ 'src/app.ts': 'b\n' }).commit('reviewed')
  repo.write({ [`${DIR}/impl-fn-1.1.json`]: receiptWith(c1, m0, { id: 'fn-1.1' }) })
  const tasks = Object.fromEntries(
    Array.from({ length: 320 }, (_, i) => [`.flow/tasks/fn-1.${i}.json`, `{"n": ${i}}\n`])
  )
  repo.write({ ...tasks, ...extra }).commit('SHIP review, task states')
  return repo
}

/** The verdicts from git, from `check --pr` and from the bundled action over the API. */
async function threeWays(repo: GitRepo): Promise<Report[]> {
  const { report: git } = await checkJson(repo.path, '--base', 'main')
  const fake = await startFakeGitHub({
    repo,
    pulls: [{ number: 1, head: { ref: 'feature' }, base: { ref: 'main' }, body: '' }]
  })
  const workspace = mkdtempSync(join(tmpdir(), 'rg-ws-'))
  try {
    const argv = ['check', '--pr', '1', '--repo-slug', 'acme/widgets', '--format', 'json']
    const cli = await runCli(argv, undefined, {
      env: { GITHUB_API_URL: fake.url, GITHUB_TOKEN: 'test-token' }
    })
    expect(cli.stderr).toBe('')
    const run = await runAction({
      fake,
      event: { name: 'pull_request', pull: 1 },
      workspace,
      env: { RECEIPT_GATE_TIME_SCALE: '0.001' }
    })
    const action = JSON.parse(readFileSync(run.outputs.report ?? '', 'utf8')) as Report
    run.cleanup()
    // The compare was cut: the verdict cannot have come from its files.
    const compares = fake.requests.filter(
      (r) => r.operationId === 'repos/compare-commits-with-basehead'
    )
    expect(compares.length).toBeGreaterThan(0)
    fake.assertNoViolations()
    return [git, JSON.parse(cli.stdout) as Report, action]
  } finally {
    await fake.close()
    rmSync(workspace, { recursive: true, force: true })
  }
}

const verdicts = (report: Report): Array<[string, string | null, string]> =>
  report.receipts.map((r) => [r.currentness, r.verdict, r.reason])

describe('the head rule past the files a compare lists', () => {
  it('only bookkeeping after the review: current from every source, for the same reason', async () => {
    const [git, ...api] = await threeWays(reviewThenBookkeeping({}))
    expect(verdicts(git!)).toEqual([
      ['current', 'SHIP', expect.stringMatching(/^current: 1 bookkeeping commit after/)]
    ])
    for (const report of api) expect(verdicts(report)).toEqual(verdicts(git!))
    for (const report of [git!, ...api]) expect(report.conclusion).toBe('success')
  })

  it('code among them: stale from every source', async () => {
    const [git, ...api] = await threeWays(
      reviewThenBookkeeping({ 'src/late.ts': 'unreviewed\n' })
    )
    expect(git?.receipts.map((r) => r.currentness)).toEqual(['stale'])
    for (const report of api) {
      expect(report.receipts.map((r) => r.currentness)).toEqual(['stale'])
      expect(report.conclusion).toBe('failure')
    }
  })

  it('an excluded bookkeeping path among them (.flow/config.json): stale from every source', async () => {
    const [git, ...api] = await threeWays(
      reviewThenBookkeeping({ '.flow/config.json': '{}\n' })
    )
    expect(git?.receipts.map((r) => r.currentness)).toEqual(['stale'])
    for (const report of api)
      expect(report.receipts.map((r) => r.currentness)).toEqual(['stale'])
  })
})
