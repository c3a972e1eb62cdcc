/**
 * Three ways the gate passed what it cannot prove, each built for real and run on the
 * git source (`check`) and the API source (`check --pr`, and the bundled action on an
 * empty workspace, over real HTTP against the local GitHub API backed by the same
 * repository): a merge commit carrying its own code escaped review coverage; bookkeeping
 * exclusions matched only in the letter case written; `--select all` and globs computed
 * no merge base, so coverage and the diff were unknown.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Report } from '../../src/gate/report.js'
import { createClient } from '../../src/github/client.js'
import { prCommitMethods } from '../../src/github/pr-commits.js'
import { checkJson, runCli } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import { receiptWith, runOnPr } from '../action/support.js'

// Each case runs the CLI on git and on the local API.
jest.setTimeout(60_000)

const DIR = '.flow/review-receipts'
const cleanups: Array<() => void> = []
afterAll(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

/** The gate's report for PR `feature` → main, from git, `check --pr` and the action. */
async function bothSources(
  repo: GitRepo,
  ...flags: string[]
): Promise<{ git: Report; api: Report; requests: string[]; action: Report }> {
  const { report: git } = await checkJson(repo.path, '--base', 'main', ...flags)
  const fake = await startFakeGitHub({
    repo,
    pulls: [{ number: 1, head: { ref: 'feature' }, base: { ref: 'main' }, body: '' }]
  })
  try {
    const argv = ['check', '--pr', '1', '--repo-slug', 'acme/widgets', '--format', 'json']
    const run = await runCli([...argv, ...flags], undefined, {
      env: {
        GITHUB_API_URL: fake.url,
        GITHUB_TOKEN: 'test-token',
        RECEIPT_GATE_TIME_SCALE: '0.001'
      }
    })
    expect(run.stderr).toBe('')
    const requests = fake.requests.map((r) => `${r.operationId ?? ''} ${r.path}`)
    const action = await actionOnApi(fake, flags)
    fake.assertNoViolations()
    return { git, api: JSON.parse(run.stdout) as Report, requests, action }
  } finally {
    await fake.close()
  }
}

/**
 * The bundled action on PR 1 with an empty workspace (the API source, its commit graph
 * from the GraphQL read); the CLI's `--name value` flags are its inputs.
 */
async function actionOnApi(fake: FakeGitHub, flags: readonly string[]): Promise<Report> {
  const workspace = mkdtempSync(join(tmpdir(), 'rg-ws-'))
  const inputs = Object.fromEntries(
    flags.flatMap((flag, i) => (i % 2 === 0 ? [[flag.slice(2), flags[i + 1] ?? '']] : []))
  )
  const run = await runOnPr({ fake, emptyWorkspace: workspace }, { inputs })
  try {
    expect(run.stderr).toBe('')
    return JSON.parse(readFileSync(run.outputs.report ?? '', 'utf8')) as Report
  } finally {
    run.cleanup()
    rmSync(workspace, { recursive: true, force: true })
  }
}

/** main with `src/util.ts`, then `feature` from it; returns the fork point. */
function forked(): { repo: GitRepo; base: string } {
  const repo = GitRepo.init()
  cleanups.push(() => repo.cleanup())
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`)
  repo.write({ 'src/util.ts': `${lines.join('\n')}\n` })
  const base = repo.commit('main')
  repo.branch('feature')
  return { repo, base }
}

/** `src/util.ts` with line `n` replaced. */
const utilWith = (n: number, text: string): string =>
  `${Array.from({ length: 20 }, (_, i) => (i + 1 === n ? text : `line ${i + 1}`)).join('\n')}\n`

describe('a merge commit that carries its own code is a code commit', () => {
  /**
   * Review 1 ships base..c1; main moves on and is merged in, `ownEdit` made inside the
   * merge; review 2 ships M..c2, its base being the merge. Returns the merge's sha.
   */
  function mergedPr(
    ownEdit: Record<string, string>,
    mainEdit: Record<string, string> = { 'src/b.ts': 'b\n' },
    featureEdit: Record<string, string> = {}
  ): { repo: GitRepo; merge: string; c1: string; c2: string } {
    const { repo, base } = forked()
    const c1 = repo.write({ 'src/t1.ts': '1\n', ...featureEdit }).commit('task 1')
    repo
      .write({ [`${DIR}/impl-fn-1.1.json`]: receiptWith(c1, base, { id: 'fn-1.1' }) })
      .commit('chore(flow): review 1')
    repo.checkout('main')
    repo.write(mainEdit).commit('main moves on')
    repo.checkout('feature')
    repo.git('merge', '-q', '--no-ff', '--no-commit', 'main')
    const merge = repo.write(ownEdit).commit('Merge main')
    const c2 = repo.write({ 'src/t2.ts': '2\n' }).commit('task 2')
    repo
      .write({ [`${DIR}/impl-fn-1.2.json`]: receiptWith(c2, merge, { id: 'fn-1.2' }) })
      .commit('chore(flow): review 2')
    return { repo, merge, c1, c2 }
  }

  it.each([
    ['adds src/evil.ts', { 'src/evil.ts': 'steal()\n' }],
    ['edits src/util.ts', { 'src/util.ts': utilWith(5, 'steal()') }]
  ])('inside the merge %s: unreviewed, and coverage: require fails', async (_, edit) => {
    const { repo, merge, c1, c2 } = mergedPr(edit)
    const { git, api, action, requests } = await bothSources(
      repo,
      '--coverage',
      'require'
    )
    for (const report of [git, api, action]) {
      expect(report.coverage?.unreviewed).toEqual([merge])
      expect(report.coverage?.unknown).toEqual([])
      expect(report.conclusion).toBe('failure')
      expect(report.problems).toContainEqual(
        expect.objectContaining({ code: 'coverage-unreviewed' })
      )
    }
    expect(git.coverage?.list.map((c) => c.sha)).toEqual([c1, merge, c2])
    // Over the API the merge's own paths come from one compare per parent.
    const fromParents = requests.filter(
      (r) => r.startsWith('repos/compare-commits-with-basehead') && r.includes(merge)
    )
    expect(fromParents).toHaveLength(2)
  })

  it('a clean merge is no code commit: every code commit reviewed, require passes', async () => {
    // The merge's own edit is bookkeeping only: still clean as far as code goes.
    const { repo, merge } = mergedPr({ '.flow/specs/fn-1.md': 'notes\n' })
    const { git, api, action } = await bothSources(repo, '--coverage', 'require')
    for (const report of [git, api, action]) {
      expect(report.coverage).toMatchObject({ unreviewed: [], unknown: [] })
      expect(report.coverage?.list.map((c) => c.sha)).not.toContain(merge)
      expect(report.conclusion).toBe('success')
    }
  })

  it('a merge of two edits of one file differs from both parents there: code, on both sources', async () => {
    // The path-level rule (`git log -c`, and the API's compare per parent) cannot tell a
    // clean textual merge from an edit inside it, so it is counted as code: fail closed.
    const { repo, merge } = mergedPr(
      {},
      { 'src/util.ts': utilWith(20, 'main') },
      { 'src/util.ts': utilWith(1, 'feature') }
    )
    const { git, api, action } = await bothSources(repo, '--coverage', 'require')
    for (const report of [git, api, action]) {
      expect(report.coverage?.unreviewed).toEqual([merge])
      expect(report.conclusion).toBe('failure')
    }
  })
})

describe('a merge whose own paths cannot be established is code (fail closed)', () => {
  it('a diff from a parent too large to list, or an answer without `files`: unknown paths', async () => {
    const { repo, base } = forked()
    const c1 = repo.write({ 'src/t1.ts': '1\n' }).commit('task 1')
    repo.checkout('main')
    // Main's side brings 300 files: the merge's diff from the feature parent is cut there.
    const many = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`lib/f${i}.ts`, `${i}\n`])
    )
    repo.write(many).commit('main moves on a lot')
    repo.checkout('feature')
    const merge = repo.merge('main')
    // Review 1 holds c1; review 2, current, starts at the merge: nothing holds the merge.
    repo.write({
      [`${DIR}/impl-fn-1.1.json`]: receiptWith(c1, base, { id: 'fn-1.1' }),
      [`${DIR}/impl-fn-1.2.json`]: receiptWith(merge, merge, { id: 'fn-1.2' })
    })
    repo.commit('chore(flow): reviews')
    const fake = await startFakeGitHub({
      repo,
      pulls: [{ number: 1, head: { ref: 'feature' }, base: { ref: 'main' }, body: '' }]
    })
    // The same API, with `files` dropped from every commit and compare answer.
    const proxy = createServer((req, res) => {
      void fetch(`${fake.url}${req.url ?? ''}`, {
        headers: { authorization: req.headers.authorization ?? '' }
      }).then(async (answer) => {
        const body = (await answer.json()) as Record<string, unknown>
        if (!Array.isArray(body)) delete body.files
        res.writeHead(answer.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      const paths = async (url: string) => {
        const octokit = createClient({ token: 't', baseUrl: url, timeScale: 0.001 })
        const head = repo.revParse('feature')
        const on = { octokit, owner: 'acme', repo: 'widgets', head, pullNumber: 1 }
        return prCommitMethods(on).commitPaths?.([c1, merge])
      }
      // Cut at 300 files: the merge is unknown (code), the plain commit is listed.
      expect(await paths(fake.url)).toEqual(
        new Map([
          [c1, ['src/t1.ts']],
          [merge, null]
        ])
      )
      const { port } = proxy.address() as AddressInfo
      expect(await paths(`http://127.0.0.1:${port}`)).toEqual(
        new Map([
          [c1, null],
          [merge, null]
        ])
      )
      // Through the gate: git lists the clean merge as changing no path; the API cannot
      // tell, so it counts it as code, unreviewed, and coverage: require fails there.
      const { git, api, action } = await bothSources(repo, '--coverage', 'require')
      expect(git.coverage?.list.map((c) => c.sha)).toEqual([c1])
      expect(git.conclusion).toBe('success')
      for (const report of [api, action])
        expect(report.coverage?.unreviewed).toEqual([merge])
      expect(api.conclusion).toBe('failure')
    } finally {
      proxy.close()
      await fake.close()
    }
  })
})

describe('bookkeeping exclusions match whatever the letter case', () => {
  /** A reviewed PR, then `after` committed on top of the review's receipt. */
  function reviewedThen(after: Record<string, string>): GitRepo {
    const { repo, base } = forked()
    const reviewed = repo.write({ 'src/t1.ts': '1\n' }).commit('task 1')
    repo.write({
      [`${DIR}/impl-fn-1.1.json`]: receiptWith(reviewed, base, { id: 'fn-1.1' })
    })
    repo.commit('chore(flow): review')
    repo.write(after).commit('after the review')
    return repo
  }

  it.each([
    '.flow/BIN/flowctl',
    '.flow/Bin/flowctl',
    '.flow/Config.json',
    '.flow/CONFIG.JSON'
  ])(
    '%s after the review (.flow/bin, .flow/config.json on macOS and Windows) makes it stale',
    async (path) => {
      const { git, api, action } = await bothSources(reviewedThen({ [path]: 'x\n' }))
      for (const report of [git, api, action]) {
        expect(report.receipts[0]).toMatchObject({ currentness: 'stale' })
        expect(report.receipts[0]?.reason).toContain(path)
        expect(report.conclusion).toBe('failure')
      }
    }
  )

  it('a user-given exclusion too; an inclusion matches only as written', async () => {
    const flags = ['--bookkeeping-paths', '.flow/**,docs/**,!.flow/secrets/**']
    const excluded = await bothSources(
      reviewedThen({ '.flow/Secrets/key': 'k\n' }),
      ...flags
    )
    const notIncluded = await bothSources(reviewedThen({ 'Docs/x.md': 'x\n' }), ...flags)
    const included = await bothSources(reviewedThen({ 'docs/x.md': 'x\n' }), ...flags)
    for (const report of [excluded, notIncluded].flatMap((r) => [r.git, r.api, r.action]))
      expect(report.receipts[0]).toMatchObject({ currentness: 'stale' })
    for (const report of [included.git, included.api, included.action])
      expect(report.receipts[0]).toMatchObject({ currentness: 'current' })
  })
})

describe('the merge base does not depend on the selection', () => {
  it.each([['all'], [`${DIR}/impl-*.json`]])(
    '--select %s: coverage and the diff are known, a fully reviewed PR passes coverage: require',
    async (select) => {
      const { repo, base } = forked()
      const lines = Array.from({ length: 20 }, (_, i) => `code ${i + 1}`).join('\n')
      const reviewed = repo.write({ 'src/file-1.ts': `${lines}\n` }).commit('task 1')
      repo.write({
        [`${DIR}/impl-fn-1.1.json`]: receiptWith(reviewed, base, { id: 'fn-1.1' })
      })
      repo.commit('chore(flow): review')
      const flags = ['--select', select, '--coverage', 'require']
      const { git, api, action } = await bothSources(repo, ...flags)
      for (const report of [git, api, action]) {
        expect(report.coverage).toMatchObject({
          commits: 1,
          reviewed: 1,
          unreviewed: [],
          unknown: []
        })
        expect(report.diff?.known).toBe(true)
        expect(report.receipts[0]?.findings[0]?.inDiff).toBe(true)
        expect(report.conclusion).toBe('success')
        // The merge base chose no receipt: the report does not claim it did.
        expect(report.base).toBeNull()
      }
    }
  )

  it('--select all with no base to find: an environment error (exit 2), as with changed', async () => {
    const repo = GitRepo.init({ branch: 'trunk' })
    cleanups.push(() => repo.cleanup())
    repo.write({ 'src/a.ts': 'a\n' }).commit('trunk')
    for (const select of ['all', 'changed']) {
      const run = await runCli(['check', '--repo', repo.path, '--select', select])
      expect(run).toMatchObject({
        code: 2,
        stderr: expect.stringContaining(
          'no base branch found (origin/HEAD, main, master, origin/main, origin/master)'
        )
      })
    }
  })
})
