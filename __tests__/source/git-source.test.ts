/**
 * The git source on real repositories: SHA-256 object ids, the history rule's one walk
 * for every receipt (with git's own answer where the walk cannot see), answers that do
 * not depend on the folder git is pointed at, and a shallow clone that says so instead of
 * deciding from a cut history.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { workspaceSource } from '../../src/action/workspace.js'
import { gitSource, openRepository } from '../../src/source/git.js'
import { checkJson, runCli } from '../support/check-cli.js'
import { GitRepo, gitEnv } from '../support/git-repo.js'

jest.setTimeout(60_000)

const DIR = '.flow/review-receipts'
const cleanups: Array<() => void> = []
afterAll(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function repo(): GitRepo {
  const made = GitRepo.init()
  cleanups.push(() => made.cleanup())
  return made
}

/** An unbound receipt (no head anywhere): its history decides. */
const unbound = (id: string) =>
  `${JSON.stringify({ type: 'impl_review', id, mode: 'codex', verdict: 'SHIP' })}\n`

describe('the history rule', () => {
  it('finds each receipt’s commit in one walk, as `git log -1 -- path` does, merges included', async () => {
    const r = repo()
    r.write({ 'src/a.ts': '1\n' })
    r.commit('initial')
    r.branch('feature')
    r.write({ 'src/a.ts': '2\n' })
    r.commit('code')
    r.write({ [`${DIR}/impl-fn-1.1.json`]: unbound('fn-1.1') })
    r.commit('receipt 1')
    r.write({ [`${DIR}/impl-fn-1.2.json`]: unbound('fn-1.2'), 'src/b.ts': 'b\n' })
    r.commit('receipt 2 with code')
    // A receipt that arrives by a merge from another branch.
    r.branch('side', 'main')
    r.write({ [`${DIR}/impl-fn-1.3.json`]: unbound('fn-1.3') })
    r.commit('receipt 3 on a side branch')
    r.checkout('feature')
    r.merge('side')
    const head = r.revParse('HEAD')
    const source = gitSource({ repo: r.path, head, mergeBase: null })
    const listed = (await source.listTree(DIR)).entries
    const found = await source.receiptCommits(
      listed.map((entry) => ({ path: entry.path, blob: entry.sha }))
    )
    for (const entry of listed) {
      const [sha, parent] = r
        .git('log', '-1', '--format=%H %P', head, '--', entry.path)
        .split(' ')
      expect(found.get(entry.path)).toMatchObject({ sha, parent })
    }
    expect(found.get(`${DIR}/impl-fn-1.2.json`)?.changedPaths).toEqual([
      `${DIR}/impl-fn-1.2.json`,
      'src/b.ts'
    ])
  })

  it('in a shallow clone, says the history is cut instead of blaming files the commit never touched', async () => {
    const r = repo()
    r.write({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    r.commit('initial')
    r.write({ 'a.txt': 'a2\n' })
    r.commit('code')
    r.write({ [`${DIR}/impl-fn-1.1.json`]: unbound('fn-1.1') })
    r.commit('chore(flow): receipt')
    const clone = mkdtempSync(join(tmpdir(), 'rg-shallow-'))
    cleanups.push(() => rmSync(clone, { recursive: true, force: true }))
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${r.path}`, clone], {
      env: gitEnv()
    })
    const full = await checkJson(r.path, '--select', 'all', '--base', 'main')
    expect(full.report.receipts[0]?.currentness).toBe('current')
    const cut = await checkJson(clone, '--select', 'all')
    const row = cut.report.receipts[0]
    expect(row?.currentness).toBe('stale')
    expect(row?.reason).toContain('shallow clone')
    expect(row?.reason).toContain('git fetch --unshallow')
    expect(row?.reason).not.toContain('a.txt')
  })
})

describe('answers do not depend on the folder git is pointed at', () => {
  it('the same report from the root, from a subfolder, and with --repo on a subfolder', async () => {
    const r = repo()
    r.write({ 'src/a.ts': '1\n', 'plugins/x/readme.md': 'x\n' })
    const base = r.commit('initial')
    r.branch('feature')
    r.write({ 'src/a.ts': '2\n' })
    r.commit('code')
    r.write({ [`${DIR}/impl-fn-1.1.json`]: unbound('fn-1.1') })
    r.commit('chore(flow): receipt')
    const flags = ['--base', base, '--require', 'impl_review']
    const root = await checkJson(r.path, ...flags)
    expect(root.report.receipts[0]?.currentness).toBe('current')
    const sub = join(r.path, 'plugins')
    const pointed = await checkJson(sub, ...flags)
    const ran = await runCli(['check', '--format', 'json', ...flags], sub)
    expect(pointed.report).toEqual(root.report)
    expect(JSON.parse(ran.stdout)).toEqual(root.report)
    expect((await openRepository(join(r.path, 'plugins', 'x'))).root).toBe(r.path)
  })
})

describe('SHA-256 repositories', () => {
  it('lists, reads and compares with 64-digit object ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-sha256-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', dir, ...args], {
        env: gitEnv({
          GIT_AUTHOR_NAME: 'T',
          GIT_AUTHOR_EMAIL: 't@example.invalid',
          GIT_COMMITTER_NAME: 'T',
          GIT_COMMITTER_EMAIL: 't@example.invalid'
        })
      })
        .toString('utf8')
        .trim()
    git('init', '-q', '--object-format=sha256', '-b', 'main')
    mkdirSync(join(dir, DIR), { recursive: true })
    execFileSync('sh', ['-c', `echo code > ${dir}/a.txt`])
    git('add', '-A')
    git('commit', '-q', '-m', 'code')
    const reviewed = git('rev-parse', 'HEAD')
    execFileSync('sh', [
      '-c',
      `printf '%s' '${unbound('fn-1.1').trim()}' > ${dir}/${DIR}/impl-fn-1.1.json`
    ])
    git('add', '-A')
    git('commit', '-q', '-m', 'receipt')
    const head = git('rev-parse', 'HEAD')
    expect(head).toMatch(/^[0-9a-f]{64}$/)
    const source = gitSource({ repo: dir, head, mergeBase: null })
    const [entry] = (await source.listTree(DIR)).entries
    expect(entry?.sha).toMatch(/^[0-9a-f]{64}$/)
    const blobs = await source.readBlobs([entry?.sha as string])
    expect(
      Buffer.from(blobs.get(entry?.sha as string) as Uint8Array).toString()
    ).toContain('fn-1.1')
    expect(await source.ancestry(reviewed)).toEqual({
      kind: 'ahead',
      commits: 1,
      changedPaths: [`${DIR}/impl-fn-1.1.json`]
    })
    const report = await checkJson(dir, '--select', 'all', '--require', 'impl_review')
    expect(report.report.receipts[0]).toMatchObject({
      currentness: 'current',
      reviewedHead: reviewed
    })
  })
})

describe('ancestry: one walk tells a commit from other objects', () => {
  it('answers for every kind of object id as git does', async () => {
    const r = repo()
    r.write({ 'src/a.ts': '1\n', [`${DIR}/x.json`]: '{}\n' })
    const first = r.commit('initial')
    r.write({ 'src/a.ts': '2\n' })
    const second = r.commit('code')
    r.write({ [`${DIR}/x.json`]: '{"a":1}\n' })
    const head = r.commit('bookkeeping')
    r.branch('side', first)
    r.write({ 'src/b.ts': 'b\n' })
    const side = r.commit('side')
    r.git('tag', '-a', '-m', 'annotated', 'v1', second)
    const source = gitSource({ repo: r.path, head, mergeBase: null })
    const ask = async (id: string) => source.ancestry(id)
    expect(await ask(head)).toEqual({ kind: 'identical' })
    expect(await ask(first)).toEqual({
      kind: 'ahead',
      commits: 2,
      changedPaths: [`${DIR}/x.json`, 'src/a.ts']
    })
    expect(await ask(side)).toEqual({ kind: 'not-ancestor' })
    // A tag object peels to an ancestor in the walk, but is not a commit itself.
    expect(await ask(r.git('rev-parse', 'v1'))).toEqual({ kind: 'not-a-commit' })
    expect(await ask(r.git('rev-parse', `${head}^{tree}`))).toEqual({
      kind: 'not-a-commit'
    })
    expect(await ask(r.git('rev-parse', `${head}:src/a.ts`))).toEqual({
      kind: 'not-a-commit'
    })
    expect(await ask('c0ffee0123456789abcdef0123456789abcdef01')).toEqual({
      kind: 'unknown-commit'
    })
  })
})

describe("the PR's one diff", () => {
  it('names the paths diff-tree --no-renames names, both sides of a rename included', async () => {
    const r = repo()
    r.write({
      'src/a.ts': 'one\ntwo\nthree\nfour\n',
      'src/gone.ts': 'x\n',
      'keep.md': 'k\n'
    })
    const base = r.commit('initial')
    r.git('mv', 'src/a.ts', 'src/renamed.ts')
    r.write({ 'src/gone.ts': null, 'src/new.ts': 'n\n', 'keep.md': 'k2\n' })
    const head = r.commit('rename, delete, add, modify')
    const source = gitSource({ repo: r.path, head, mergeBase: base })
    const changed = await source.changedPaths()
    const treeDiff = r.git('diff-tree', '-r', '--name-only', '--no-renames', base, head)
    expect(changed.paths?.slice().sort()).toEqual(treeDiff.split('\n').sort())
    const files = await source.changedFiles?.()
    expect(files?.files?.find((f) => f.path === 'src/renamed.ts')).toMatchObject({
      previousPath: 'src/a.ts'
    })
  })
})

describe('the runner workspace as the source', () => {
  it('is used for a full-history checkout of the head; never given a base or head that is no full id', async () => {
    const r = repo()
    r.write({ 'a.txt': '1\n' })
    const base = r.commit('base')
    r.write({ 'a.txt': '2\n' })
    const head = r.commit('head')
    expect(await workspaceSource(r.path, head, base)).not.toBeNull()
    for (const [h, b] of [
      [head, '--all'],
      [head, base.slice(0, 12)],
      [head, 'main'],
      ['--all', base]
    ] as const)
      expect(await workspaceSource(r.path, h, b)).toBeNull()
  })
})

describe('the runner workspace: only git refusing means "use the API"', () => {
  it('a base that fails for another reason is that failure, not a silent fallback', async () => {
    const r = repo()
    r.write({ 'a.txt': '1\n' })
    const base = r.commit('base')
    const told: string[] = []
    const fault = Promise.reject(new TypeError('base is not a function'))
    fault.catch(() => undefined) // awaited only once the repository is open, as main.ts does
    await expect(
      workspaceSource(r.path, base, fault, (m) => told.push(m))
    ).rejects.toThrow(TypeError)
    expect(told).toEqual([])
  })

  it("git's refusal is told, in git's words", async () => {
    const r = repo()
    r.write({ 'a.txt': '1\n' })
    const base = r.commit('base')
    const told: string[] = []
    expect(
      await workspaceSource(r.path, 'ab'.repeat(20), base, (m) => told.push(m))
    ).toBeNull()
    // `rev-parse` and `merge-base` both refuse the unknown head; whichever answers first.
    expect(told).toEqual([
      expect.stringMatching(
        /^receipts through the API, not the workspace: git: (unknown revision "(ab)+"|Not a valid commit name (ab)+)$/
      )
    ])
  })
})
