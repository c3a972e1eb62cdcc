/**
 * Issue 25.3 through the real bundled dist/index.js against the local GitHub API: review
 * coverage over the API source — the PR's commit graph from one pulls/commits list,
 * ranges computed over it, one compare per base outside the PR, and only the commits no
 * SHIP review holds read to tell code from bookkeeping. The git source (the CLI) gives
 * the same coverage for the same repository.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { checkJson } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import { buildContainer, buildReceipt, jsonText } from '../support/receipt-builders.js'
import { runAction, type ActionRun } from '../support/runner.js'
import { refuseGraphql } from './support.js'

jest.setTimeout(60_000)

const DIR = '.flow/review-receipts'

/** A SHIP receipt of task `id` reviewing `headSha` from `baseSha` (null: none recorded). */
const receipt = (id: string, headSha: string, baseSha: string | null): string =>
  jsonText(
    buildReceipt({
      id,
      verdict: 'SHIP',
      findings: buildContainer({ sourceReceiptId: id, headSha, baseSha, items: [] })
    })
  )

const repo = GitRepo.init()
const workspace = mkdtempSync(join(tmpdir(), 'rg-ws-'))
// main moved on once before the branch: the first review's base is main's older commit.
const old = repo.write({ 'src/a.ts': 'a\n' }).commit('old main')
repo.write({ 'src/b.ts': 'b\n' }).commit('main')
repo.branch('feature')
// Task 1 then task 2, each reviewed in turn from where the last review left off.
const c1 = repo.write({ 'src/t1.ts': '1\n' }).commit('task 1')
const b1 = repo
  .write({ [`${DIR}/impl-fn-1.1.json`]: receipt('fn-1.1', c1, old) })
  .commit('receipt 1')
const c2 = repo.write({ 'src/t2.ts': '2\n' }).commit('task 2')
const b2 = repo
  .write({ [`${DIR}/impl-fn-1.2.json`]: receipt('fn-1.2', c2, b1) })
  .commit('receipt 2')

const fake = servePr(repo)
afterAll(() => rmSync(workspace, { recursive: true, force: true }))

/** The local API serving `git`'s `feature` as PR 1 while the enclosing block runs. */
function servePr(git: GitRepo): () => FakeGitHub {
  let on: FakeGitHub | undefined
  beforeAll(async () => {
    on = await startFakeGitHub({
      repo: git,
      pulls: [{ number: 1, head: { ref: 'feature' }, base: { ref: 'main' }, body: '' }]
    })
  })
  afterAll(async () => {
    try {
      on?.assertNoViolations()
    } finally {
      await on?.close()
      git.cleanup()
    }
  })
  return () => on as FakeGitHub
}

/** The action on PR 1 through the API source (the workspace does not hold the head). */
async function action(
  inputs: Record<string, string> = {},
  on: FakeGitHub = fake()
): Promise<{ run: ActionRun; report: Report; calls: (op: string) => string[] }> {
  const run = await runAction({
    fake: on,
    event: { name: 'pull_request', pull: 1 },
    workspace,
    inputs,
    env: { RECEIPT_GATE_TIME_SCALE: '0.001' }
  })
  try {
    expect(run.stderr).toBe('')
    const report = JSON.parse(readFileSync(run.outputs.report ?? '', 'utf8')) as Report
    const calls = (op: string): string[] =>
      run.requests.filter((r) => r.operationId === op).map((r) => r.path)
    return { run, report, calls }
  } finally {
    run.cleanup()
  }
}

/** The CLI's coverage from git for the same repository. */
async function fromGit(): Promise<Report['coverage']> {
  return (await checkJson(repo.path, '--base', 'main')).report.coverage
}

/**
 * The API's coverage is git's: the same code commits, unreviewed and unknown ones (a
 * bookkeeping-only commit inside a SHIP review's range is no code commit from either).
 */
async function expectGitsCoverage(coverage: Report['coverage']): Promise<void> {
  expect(coverage).toEqual(await fromGit())
}

describe('review coverage through dist/index.js (API source)', () => {
  let c3 = ''
  it('covers two tasks reviewed in turn, at a handful of requests', async () => {
    const { report, calls } = await action()
    expect(report.coverage).toMatchObject({
      commits: 2,
      reviewed: 2,
      unreviewed: [],
      unknown: []
    })
    expect(report.coverage?.list.map((c) => [c.sha, c.state])).toEqual([
      [c1, 'reviewed'],
      [c2, 'reviewed']
    ])
    await expectGitsCoverage(report.coverage)
    // The PR's commits came with the GraphQL read (issue 24): no list of their own.
    expect(calls('pulls/list-commits')).toHaveLength(0)
    // Main's older commit is outside the PR: one compare tells which PR commits it reaches.
    expect(
      calls('repos/compare-commits-with-basehead').filter((p) => p.includes(old))
    ).toHaveLength(1)
    // Every commit is told code or bookkeeping, reviewed ones too, by its trees and its
    // parent's, read with the PR: c1's parent, on the base side, as the first commit's.
    // The head b2's only parent is the reviewed c2: the head rule's compare c2...b2 is
    // b2's diff, asked for once.
    expect(calls('repos/get-commit')).toEqual([])
    expect(
      calls('repos/compare-commits-with-basehead').filter((p) => p.includes(`${c2}...`))
    ).toEqual([expect.stringContaining(`${c2}...${b2}`)])
  })

  it("reads the commits to classify in the compare's round trip, not after it", async () => {
    // With 100 ms on every request, a read sent only once the compare is answered would
    // arrive after it: each read must arrive while the compare is still open. The first
    // commit's parent comes without its `src` entry: its tree settles nothing, c1 is read.
    fake().faults.add({ kind: 'latency', ms: 100, route: '*', times: Infinity })
    type Parent = { tree?: { entries?: Array<{ name: string }> } }
    fake().tweak('graphql', (body: unknown) => {
      const start = (
        body as {
          data?: {
            repository?: {
              pullRequest?: {
                start?: { nodes?: Array<{ commit: { parents: { nodes: Parent[] } } }> }
              }
            }
          }
        }
      ).data?.repository?.pullRequest?.start
      for (const parent of start?.nodes?.[0]?.commit.parents.nodes ?? [])
        if (parent.tree?.entries)
          parent.tree.entries = parent.tree.entries.filter((e) => e.name !== 'src')
      return body
    })
    try {
      const { run, report } = await action()
      expect(report.coverage).toMatchObject({ commits: 2, reviewed: 2 })
      const compare = run.requests.find(
        (r) =>
          r.operationId === 'repos/compare-commits-with-basehead' && r.path.includes(c2)
      )!
      const reads = run.requests.filter((r) => r.operationId === 'repos/get-commit')
      expect(reads.map((r) => r.path)).toEqual([expect.stringContaining(c1)])
      for (const read of reads)
        expect(read.receivedMs).toBeLessThan(compare.receivedMs + compare.durationMs)
    } finally {
      fake().faults.clear()
      fake().tweak('graphql', undefined)
    }
  })

  it('trees an answer altered settle nothing: those commits are read', async () => {
    // A GraphQL answer whose trees leave out `src` on every commit would make c2 (which
    // changes only src/) look bookkeeping: each list must hash to its tree's id.
    type Node = { commit: { tree?: { entries?: Array<{ name: string }> } } }
    fake().tweak('graphql', (body: unknown) => {
      const nodes = (
        body as {
          data?: { repository?: { pullRequest?: { commits?: { nodes?: Node[] } } } }
        }
      ).data?.repository?.pullRequest?.commits?.nodes
      for (const { commit } of nodes ?? [])
        if (commit.tree?.entries)
          commit.tree.entries = commit.tree.entries.filter((e) => e.name !== 'src')
      return body
    })
    try {
      const { report, calls } = await action()
      await expectGitsCoverage(report.coverage)
      expect(report.coverage?.list.map((c) => c.sha)).toEqual([c1, c2])
      const read = calls('repos/get-commit').map(
        (p) => /\/commits\/([0-9a-f]+)/.exec(p)?.[1]
      )
      expect(new Set(read)).toEqual(new Set([c1, b1, c2]))
    } finally {
      fake().tweak('graphql', undefined)
    }
  })

  it('finds a code commit a later review skipped; require fails on it; off reads nothing', async () => {
    c3 = repo.write({ 'src/t3.ts': '3\n' }).commit('pushed after the last review')
    const c4 = repo.write({ 'src/t3.ts': '3 fixed\n' }).commit('task 3')
    // The review of task 3 recorded c3 as its base: c3 itself is inside no range.
    repo
      .write({ [`${DIR}/impl-fn-1.3.json`]: receipt('fn-1.3', c4, c3) })
      .commit('receipt 3')
    const { report } = await action()
    expect(report.coverage).toMatchObject({
      commits: 4,
      reviewed: 3,
      unreviewed: [c3],
      unknown: []
    })
    await expectGitsCoverage(report.coverage)
    expect(report.conclusion).toBe('success')

    const required = await action({ coverage: 'require' })
    expect(required.report.conclusion).toBe('failure')
    expect(required.report.problems).toContainEqual(
      expect.objectContaining({ code: 'coverage-unreviewed' })
    )

    const off = await action({ coverage: 'off' })
    expect(off.report.coverage).toBeUndefined()
    expect(off.calls('pulls/list-commits')).toEqual([])
    expect(off.calls('repos/get-commit')).toEqual([])
  })

  it('reports commits under reviews with unknown bases as unknown, never reviewed', async () => {
    const c5 = repo.write({ 'src/t5.ts': '5\n' }).commit('task 5')
    repo
      .write({ [`${DIR}/impl-fn-1.5.json`]: receipt('fn-1.5', c5, null) })
      .commit('receipt 5 (no base recorded)')
    const c6 = repo.write({ 'src/t6.ts': '6\n' }).commit('task 6')
    // A base no repository holds: GitHub's compare says 404, git knows no such commit.
    repo
      .write({ [`${DIR}/impl-fn-1.6.json`]: receipt('fn-1.6', c6, 'f'.repeat(40)) })
      .commit('receipt 6 (unknown base)')
    const { report } = await action()
    // Review 5 could hold anything before c5 (c3 too): unknown, not unreviewed.
    expect(report.coverage).toMatchObject({ commits: 6, reviewed: 3 })
    expect(report.coverage?.unknown).toEqual([c3, c5, c6])
    await expectGitsCoverage(report.coverage)
    const required = await action({ coverage: 'require' })
    expect(required.report.conclusion).toBe('failure')
    expect(required.report.problems).toContainEqual(
      expect.objectContaining({ code: 'coverage-unknown' })
    )
  })
})

describe('review coverage over the API: a PR that merged its base branch in', () => {
  // Flow-Next's way: every review's base is the merge base of its base branch and head.
  const other = GitRepo.init()
  const m0 = other.write({ 'src/a.ts': 'a\n' }).commit('main')
  other.branch('feature')
  // Task 1 in nine commits: more reviewed commits than are read to count them exactly.
  let c1 = m0
  for (let i = 1; i <= 9; i++)
    c1 = other.write({ 'src/t1.ts': `${i}\n` }).commit(`task 1.${i}`)
  other
    .write({ [`${DIR}/impl-fn-2.1.json`]: receipt('fn-2.1', c1, m0) })
    .commit('receipt 1')
  other.checkout('main')
  const m1 = other.write({ 'src/b.ts': 'b\n' }).commit('main moves on')
  other.checkout('feature')
  const merge = other.merge('main')
  const c2 = other.write({ 'src/t2.ts': '2\n' }).commit('task 2')
  const head = other
    .write({ [`${DIR}/impl-fn-2.2.json`]: receipt('fn-2.2', c2, m1) })
    .commit('receipt 2')
  const on = servePr(other)

  it('walks the merge, asks nothing of the merge base or the PR base, counts as git does', async () => {
    const { report, calls } = await action({}, on())
    // Receipt 1's commit and the clean merge, inside review 2's range, are no code
    // commits here either (they were counted as code, 12 of 12 where git says 10 of 10).
    expect(report.coverage).toMatchObject({
      commits: 10,
      reviewed: 10,
      unreviewed: [],
      unknown: [],
      note: null
    })
    const git = (await checkJson(other.path, '--base', 'main')).report.coverage
    expect(report.coverage).toEqual(git)
    // The merge's own paths cost a compare a parent; no review range asks of the bases.
    const compared = calls('repos/compare-commits-with-basehead').filter(
      (p) => !p.includes(`...${merge}`)
    )
    expect(compared.filter((p) => p.includes(m0) || p.includes(m1))).toEqual([])
    // Receipt 2's commit, the head: its parent c2 is the reviewed commit, so the head
    // rule's compare c2...head is its diff (no read of its own).
    expect(compared.filter((p) => p.includes(`${c2}...`))).toHaveLength(1)
    expect(calls('repos/get-commit')).not.toContainEqual(expect.stringContaining(head))
  })
})

describe('review coverage over the API: more commits than REST lists', () => {
  const long = GitRepo.init()
  const m0 = long.write({ 'src/a.ts': 'a\n' }).commit('main')
  long.branch('feature')
  let head = m0
  for (let i = 0; i < 250; i++)
    head = long.write({ 'src/step.ts': `${i}\n` }).commit(`step ${i}`)
  long
    .write({ [`${DIR}/impl-fn-3.1.json`]: receipt('fn-3.1', head, m0) })
    .commit('receipt')
  const on = servePr(long)

  it('GraphQL pages past 250 commits: coverage computed, as git computes it', async () => {
    const { report, calls, run } = await action({}, on())
    const git = (await checkJson(long.path, '--base', 'main')).report.coverage
    expect(git).toMatchObject({ commits: 250, reviewed: 250, unknown: [] })
    expect(report.coverage).toEqual(git)
    // The first 100 with the PR, then 2 pages of their own: no REST list.
    expect(calls('pulls/list-commits')).toHaveLength(0)
    expect(run.requests.filter((r) => r.operationId === 'graphql')).toHaveLength(3)
  })

  it('through REST (GraphQL refused): coverage unknown with why, and require fails', async () => {
    refuseGraphql({ fake: on() })
    try {
      const { report, calls } = await action({}, on())
      expect(report.coverage).toBeNull()
      expect(report.notes).toContain(
        'coverage not computed: the PR has 250 commits or more, more than GitHub lists'
      )
      expect(calls('repos/get-commit')).toEqual([])
      const required = await action({ coverage: 'require' }, on())
      expect(required.report.conclusion).toBe('failure')
    } finally {
      on().faults.clear()
    }
  })

  it("over GraphQL's 100: the later pages through GraphQL, coverage computed", async () => {
    const mid = GitRepo.init()
    const base = mid.write({ 'src/a.ts': 'a\n' }).commit('main')
    mid.branch('feature')
    let tip = base
    for (let i = 0; i < 120; i++) tip = mid.commit(`step ${i}`, { allowEmpty: true })
    mid
      .write({ [`${DIR}/impl-fn-3.1.json`]: receipt('fn-3.1', tip, base) })
      .commit('receipt')
    const api = await startFakeGitHub({
      repo: mid,
      pulls: [{ number: 1, head: { ref: 'feature' }, base: { ref: 'main' }, body: '' }]
    })
    try {
      const { report, calls } = await action({}, api)
      expect(report.coverage).not.toBeNull()
      expect(calls('pulls/list-commits')).toHaveLength(0)
      expect(calls('graphql')).toHaveLength(2)
      api.assertNoViolations()
    } finally {
      await api.close()
      mid.cleanup()
    }
  })
})
