/**
 * The lists the head rule and review coverage need, over the API (the bundled action,
 * GraphQL and its REST fallback, and `check --pr`, against the local GitHub API):
 * - one head per run: the event names head H1, but GitHub's pull request has moved on to
 *   H2 by the time the run reads it (a force-push), or moves while it reads. The receipts
 *   and the check run are H1's, so the changed files (`select: changed`, the diff map)
 *   and the commits (review coverage) must be H1's too — from the compare of the PR's
 *   base with H1 — never the PR's lists, which are H2's;
 * - an answer without its list (a compare or a commit without `files`, which GitHub's
 *   description makes optional) is an unknown, never "nothing changed".
 */
import {
  afterAll,
  afterEach,
  beforeEach,
  describe,
  expect,
  it,
  jest
} from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { runCli } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import { DIR, receiptWith, refuseGraphql, runOnPr } from './support.js'

jest.setTimeout(60_000)

const workspace = mkdtempSync(join(tmpdir(), 'rg-ws-'))
afterAll(() => rmSync(workspace, { recursive: true, force: true }))

let repo: GitRepo
let fake: FakeGitHub
beforeEach(() => {
  repo = GitRepo.init()
})
afterEach(async () => {
  try {
    fake?.assertNoViolations()
  } finally {
    await fake?.close()
    repo.cleanup()
  }
})

const serve = async (): Promise<FakeGitHub> =>
  (fake = await startFakeGitHub({
    repo,
    preloadGraphql: true,
    pulls: [{ number: 1, head: { ref: 'feature' }, base: { ref: 'main' }, body: '' }]
  }))

/** Force-pushes `feature` (checked out) to `sha`, as `git push --force` moves the PR. */
const forcePush = (sha: string): void => {
  repo.git('reset', '-q', '--hard', sha)
}

/**
 * The action on the `synchronize` event of H1 (the PR's head when the event was sent),
 * run after the PR moved to `moved` (null: it did not): its report, and the check run
 * it posted.
 */
async function actionOnEvent(
  moved: string | null,
  inputs: Record<string, string> = {}
): Promise<{ report: Report; posted: { head: string; conclusion: string | null } }> {
  const payload = (await fake.pullRequestEvent(1)) as {
    pull_request: { head: { sha: string } }
  }
  const h1 = payload.pull_request.head.sha
  if (moved !== null) forcePush(moved)
  const run = await runOnPr(
    { fake, emptyWorkspace: workspace },
    { event: { name: 'pull_request', payload, sha: h1 }, inputs }
  )
  try {
    expect(run.stderr).toBe('')
    const report = JSON.parse(readFileSync(run.outputs.report ?? '', 'utf8')) as Report
    const last = fake.checks.runs.at(-1)
    return {
      report,
      posted: { head: last?.head_sha ?? '', conclusion: last?.conclusion ?? null }
    }
  } finally {
    run.cleanup()
    forcePush(h1)
  }
}

/**
 * H1 brings a NEEDS_WORK review; H2, force-pushed before H1's run reads, drops it. The
 * PR's files (H2's) would leave the NEEDS_WORK receipt unselected: H1 passed.
 */
function needsWorkDroppedByH2(): { h1: string; h2: string } {
  const m0 = repo.write({ 'src/app.ts': 'a\n' }).commit('main')
  repo.branch('feature')
  const c1 = repo.write({ 'src/app.ts': 'b\n' }).commit('change')
  const h2 = repo
    .write({ [`${DIR}/impl-fn-1.1.json`]: receiptWith(c1, m0, { id: 'fn-1.1' }) })
    .commit('SHIP review')
  const h1 = repo
    .write({
      [`${DIR}/impl-fn-1.2.json`]: receiptWith(c1, m0, {
        id: 'fn-1.2',
        verdict: 'NEEDS_WORK'
      })
    })
    .commit('NEEDS_WORK review')
  return { h1, h2 }
}

/**
 * H1 holds a code commit no review covers (c0: the review's base is after it); H2 is the
 * receipt alone on main. Coverage over the PR's commits (H2's: no code) passed H1.
 */
function unreviewedCommitHiddenByH2(): { h1: string; h2: string; c0: string } {
  const m0 = repo.write({ 'src/app.ts': 'a\n' }).commit('main')
  repo.branch('feature')
  const c0 = repo.write({ 'src/zero.ts': '0\n' }).commit('never reviewed')
  const c1 = repo.write({ 'src/app.ts': 'b\n' }).commit('reviewed')
  const receipt = { [`${DIR}/impl-fn-1.1.json`]: receiptWith(c1, c0, { id: 'fn-1.1' }) }
  const h1 = repo.write(receipt).commit('SHIP review of c0..c1')
  forcePush(m0)
  const h2 = repo.write(receipt).commit('the receipt alone')
  forcePush(h1)
  return { h1, h2, c0 }
}

const receiptsOf = (report: Report): Array<Array<string | null>> =>
  report.receipts.map((r) => [r.path, r.verdict, r.currentness])

describe.each([
  ['GraphQL', false],
  ['REST', true]
])('the action when the PR moved on from the event’s head (%s)', (_name, rest) => {
  it('selects the receipts H1 changed, not H2’s: the NEEDS_WORK review fails H1', async () => {
    const { h1, h2 } = needsWorkDroppedByH2()
    await serve()
    if (rest) refuseGraphql({ fake })
    const { report, posted } = await actionOnEvent(h2)
    expect(report.head).toBe(h1)
    expect(receiptsOf(report)).toEqual([
      [`${DIR}/impl-fn-1.1.json`, 'SHIP', 'current'],
      [`${DIR}/impl-fn-1.2.json`, 'NEEDS_WORK', 'current']
    ])
    expect(posted).toEqual({ head: h1, conclusion: 'failure' })
    expect(report.diff?.known).toBe(true)
    // The PR's lists were not used: the compare of its base with H1 gave both.
    const compared = fake
      .requestsFor('repos/compare-commits-with-basehead')
      .filter((r) => r.path.includes(`...${h1}`) && !r.path.includes('per_page'))
    expect(compared).toHaveLength(1)
  })

  it('reviews coverage over H1’s commits, not H2’s: the unreviewed commit fails require', async () => {
    const { h1, h2, c0 } = unreviewedCommitHiddenByH2()
    await serve()
    if (rest) refuseGraphql({ fake })
    const { report, posted } = await actionOnEvent(h2, { coverage: 'require' })
    expect(report.coverage).toMatchObject({ commits: 2, unreviewed: [c0], unknown: [] })
    expect(posted).toEqual({ head: h1, conclusion: 'failure' })
  })
})

/** `check --pr 1 --format json` against the local API: its exit code and report. */
async function checkPr(...flags: string[]): Promise<{ code: number; report: Report }> {
  const argv = ['check', '--pr', '1', '--repo-slug', 'acme/widgets', ...flags]
  const env = {
    GITHUB_API_URL: fake.url,
    GITHUB_TOKEN: 't',
    RECEIPT_GATE_TIME_SCALE: '0.001'
  }
  const run = await runCli([...argv, '--format', 'json'], repo.path, { env })
  expect(run.stderr).toBe('')
  return { code: run.code, report: JSON.parse(run.stdout) as Report }
}

describe('check --pr when the PR moves while it is read', () => {
  it('takes the commits at the head it judges, not those of the head the PR moved to', async () => {
    const { h1, h2, c0 } = unreviewedCommitHiddenByH2()
    await serve()
    // The PR moves right after its read: the lists that follow are H2's.
    fake.tweak('pulls/get', (body: { head: { sha: string } }) => {
      if (body.head.sha === h1) forcePush(h2)
      return body
    })
    try {
      const { code, report } = await checkPr('--coverage', 'require')
      expect(report.head).toBe(h1)
      expect(report.coverage).toMatchObject({ commits: 2, unreviewed: [c0], unknown: [] })
      expect([code, report.conclusion]).toEqual([1, 'failure'])
    } finally {
      forcePush(h1)
    }
  })
})

type DiffEntry = { contents_url: string }

/**
 * GitHub's files list of the PR at `sha`, as the local API answers it while the PR is
 * there: what a list read sees when a force-push lands before it and another (back)
 * after it, so every read of the PR around it names the head it is back at.
 */
async function filesListAt(sha: string): Promise<DiffEntry[]> {
  const back = repo.revParse('HEAD')
  forcePush(sha)
  try {
    const answer = await fetch(`${fake.url}/repos/acme/widgets/pulls/1/files`, {
      headers: { authorization: 'token t' }
    })
    return (await answer.json()) as DiffEntry[]
  } finally {
    forcePush(back)
  }
}

describe.each([
  ['the action over GraphQL', 'graphql'],
  ['the action over REST', 'rest'],
  ['check --pr', 'cli']
])('the PR moves away and back around its files list read (%s)', (_name, via) => {
  it.each([
    ['names H2', (entry: DiffEntry) => entry],
    [
      'names no commit',
      (entry: DiffEntry) => ({ ...entry, contents_url: entry.contents_url.split('?')[0] })
    ]
  ])(
    'takes H1’s changed files, not a list read at H2 that %s: the NEEDS_WORK review fails H1',
    async (_what, entryAs) => {
      const { h1, h2 } = needsWorkDroppedByH2()
      await serve()
      // H1 → H2 → H1 around the list read: the PR reads name H1, the list is H2's.
      const listOfH2 = (await filesListAt(h2)).map(entryAs)
      fake.tweak('pulls/list-files', () => structuredClone(listOfH2))
      if (via === 'rest') refuseGraphql({ fake })
      const report =
        via === 'cli'
          ? (await checkPr()).report
          : await actionOnEvent(null).then(({ report, posted }) => {
              expect(posted).toEqual({ head: h1, conclusion: 'failure' })
              return report
            })
      expect(report.head).toBe(h1)
      expect(receiptsOf(report)).toEqual([
        [`${DIR}/impl-fn-1.1.json`, 'SHIP', 'current'],
        [`${DIR}/impl-fn-1.2.json`, 'NEEDS_WORK', 'current']
      ])
      expect(report.conclusion).toBe('failure')
      expect(report.diff?.known).toBe(true)
    }
  )
})

/** GitHub's answers to `operationId` from now on without their `files` list. */
const withoutFiles = (operationId: string): void =>
  fake.tweak(operationId, (body: { files?: unknown }) => {
    delete body.files
    return body
  })

/** A SHIP review of c1, then code pushed after it: the review is stale at the head. */
function codeAfterReview(): void {
  const m0 = repo.write({ 'src/app.ts': 'a\n' }).commit('main')
  repo.branch('feature')
  const c1 = repo.write({ 'src/app.ts': 'b\n' }).commit('reviewed')
  repo.write({ [`${DIR}/impl-fn-1.1.json`]: receiptWith(c1, m0, { id: 'fn-1.1' }) })
  repo.commit('SHIP review')
  repo.write({ 'src/late.ts': 'unreviewed\n' }).commit('code after the review')
}

describe.each([
  ['the action over GraphQL', 'graphql'],
  ['the action over REST', 'rest'],
  ['check --pr', 'cli']
])('an answer without its files list is an unknown (%s)', (_name, via) => {
  /** The PR's report through `via`, with `inputs` (action input names, CLI flags). */
  const gate = async (inputs: Record<string, string> = {}): Promise<Report> => {
    if (via === 'cli')
      return (await checkPr(...Object.entries(inputs).flatMap(([k, v]) => [`--${k}`, v])))
        .report
    if (via === 'rest') refuseGraphql({ fake })
    return (await actionOnEvent(null, inputs)).report
  }

  it('a compare without files proves nothing: the review before the code is stale', async () => {
    codeAfterReview()
    await serve()
    withoutFiles('repos/compare-commits-with-basehead')
    const report = await gate()
    expect(receiptsOf(report)).toEqual([[`${DIR}/impl-fn-1.1.json`, 'SHIP', 'stale']])
    expect(report.receipts[0]?.reason).toMatch(
      /cannot prove .* current .*no files listed/
    )
    expect(report.conclusion).toBe('failure')
  })

  it('a commit without files is code: the unreviewed commit is not bookkeeping', async () => {
    const { h1, c0 } = unreviewedCommitHiddenByH2()
    await serve()
    withoutFiles('repos/get-commit')
    // The first commit's parents come without their trees: c0, whose parent is on the
    // base side, is read over GraphQL too.
    fake.tweak(
      'graphql',
      (body: { data?: { repository?: { pullRequest?: object } } }) => {
        const pull = body.data?.repository?.pullRequest
        if (pull && 'start' in pull) delete pull.start
        return body
      }
    )
    const report = await gate({ coverage: 'require' })
    // The commits read are unlisted, so code. The receipt's commit h1 is not read: its
    // parent is the reviewed commit, and the head rule's compare of the two, which lists
    // its files, is its diff (bookkeeping). Over GraphQL, c1's trees and its parent's
    // (read with the PR) settle it without a read: only c0 is read.
    expect(report.coverage).toMatchObject({ commits: 2, unreviewed: [c0] })
    expect(report.coverage?.list.map((c) => c.sha)).not.toContain(h1)
    expect(report.coverage?.note).toMatch(
      via === 'rest'
        ? /^2 commits counted as code without their paths listed/
        : /^1 commit counted as code without its paths listed/
    )
    expect(report.conclusion).toBe('failure')
  })
})

describe('an answer without its files list, when the PR moved on', () => {
  it('selects every receipt when the compare at the event’s head lists no files', async () => {
    const { h2 } = needsWorkDroppedByH2()
    await serve()
    withoutFiles('repos/compare-commits-with-basehead')
    const { report, posted } = await actionOnEvent(h2)
    expect(report.notes.join('\n')).toMatch(/lists no files: all receipts selected/)
    expect(receiptsOf(report).map(([path, verdict]) => [path, verdict])).toEqual([
      [`${DIR}/impl-fn-1.1.json`, 'SHIP'],
      [`${DIR}/impl-fn-1.2.json`, 'NEEDS_WORK']
    ])
    expect(posted.conclusion).toBe('failure')
  })
})
