/**
 * The fake answers git reads from the repository: a real `@actions/github` client reads trees,
 * blobs, compare, PR files/commits, commits and contents, and they match `git` on the same repo.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { getOctokit } from '@actions/github'
import { execFileSync } from 'node:child_process'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import { buildScenario, type Scenario } from './scenario.js'

let s: Scenario
let fake: FakeGitHub
let octokit: ReturnType<typeof getOctokit>
const repo = { owner: 'acme', repo: 'widgets' }
const BODY = 'Fixes things.\n\n## Open items\n- [ ] a — deferred from impl-review (`x`)\n'

beforeAll(async () => {
  s = buildScenario()
  fake = await startFakeGitHub({
    repo: s.repo,
    pulls: [
      {
        number: 7,
        head: { ref: 'feature' },
        base: { ref: 'main' },
        body: BODY,
        title: 'Feature'
      },
      {
        number: 8,
        head: { ref: 'feature' },
        base: { ref: 'main' },
        fork: { owner: 'forker' }
      }
    ]
  })
  octokit = getOctokit('test-token', { baseUrl: fake.url })
})

afterEach(() => fake.assertNoViolations())

afterAll(async () => {
  await fake?.close()
  s?.repo.cleanup()
})

const git = (...args: string[]) => s.repo.git(...args)

describe('pulls', () => {
  it('pulls.get carries the PR metadata, git shas and a real test merge commit', async () => {
    const { data: pr } = await octokit.rest.pulls.get({ ...repo, pull_number: 7 })
    expect(pr.number).toBe(7)
    expect(pr.title).toBe('Feature')
    expect(pr.body).toBe(BODY)
    expect(pr.head.sha).toBe(s.feature)
    expect(pr.base.sha).toBe(s.main)
    expect(pr.head.ref).toBe('feature')
    expect(pr.head.repo.full_name).toBe('acme/widgets')
    expect(pr.mergeable).toBe(true)
    expect(pr.commits).toBe(2)
    const mb = s.mergeBase
    expect(pr.changed_files).toBe(
      git('diff', '--name-only', '-M', mb, 'feature').split('\n').length
    )
    const merge = pr.merge_commit_sha!
    expect(git('rev-list', '--parents', '-n', '1', merge).split(' ')).toEqual([
      merge,
      s.main,
      s.feature
    ])
  })

  it('a fork PR names the fork as head repository and has a null body by default', async () => {
    const { data: pr } = await octokit.rest.pulls.get({ ...repo, pull_number: 8 })
    expect(pr.head.repo.full_name).toBe('forker/widgets')
    expect(pr.head.repo.fork).toBe(true)
    expect(pr.head.label).toBe('forker:feature')
    expect(pr.body).toBeNull()
  })

  it('pulls.listFiles paginates (Link header) and matches git diff --name-status', async () => {
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      ...repo,
      pull_number: 7,
      per_page: 2
    })
    const mb = s.mergeBase
    const expected = git('diff', '--name-status', '-M', mb, 'feature')
      .split('\n')
      .map((l) => {
        const [code, a, b] = l.split('\t')
        return { status: code!.charAt(0), filename: b ?? a }
      })
    const letter: Record<string, string> = {
      added: 'A',
      removed: 'D',
      modified: 'M',
      renamed: 'R'
    }
    expect(
      files.map((f) => ({ status: letter[f.status], filename: f.filename }))
    ).toEqual(expected)
    expect(fake.requestsFor('pulls/list-files').length).toBe(Math.ceil(files.length / 2))
    const renamed = files.find((f) => f.status === 'renamed')!
    expect(renamed.previous_filename).toBe('src/util/deep.ts')
    const a = files.find((f) => f.filename === 'src/a.ts')!
    expect(a.patch).toContain('+export const b = 3')
    expect([a.additions, a.deletions]).toEqual([2, 1])
    expect(a.sha).toBe(git('rev-parse', 'feature:src/a.ts'))
    const bin = files.find((f) => f.filename === 'assets/logo.bin')!
    expect(bin.patch).toBeUndefined()
  })

  it('pulls.listCommits lists the PR commits oldest first', async () => {
    const { data } = await octokit.rest.pulls.listCommits({ ...repo, pull_number: 7 })
    expect(data.map((c) => c.sha)).toEqual(
      git('rev-list', '--reverse', 'main..feature').split('\n')
    )
    expect(data[1]!.parents.map((p) => p.sha)).toEqual([data[0]!.sha])
  })

  it('pulls.list filters by state and head owner:ref; commits/{sha}/pulls finds same-repo PRs', async () => {
    const { data: open } = await octokit.rest.pulls.list({
      ...repo,
      state: 'open',
      head: 'acme:feature'
    })
    expect(open.map((p) => p.number)).toEqual([7])
    const { data: forks } = await octokit.rest.pulls.list({
      ...repo,
      head: 'forker:feature'
    })
    expect(forks.map((p) => p.number)).toEqual([8])
    const { data: all } = await octokit.rest.pulls.list({ ...repo })
    expect(all.find((p) => p.head.sha === s.feature)?.number).toBeDefined()
    const { data: assoc } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit(
      {
        ...repo,
        commit_sha: s.receiptCommit
      }
    )
    expect(assoc.map((p) => p.number)).toEqual([7])
  })
})

describe('git data', () => {
  it('git.getTree recursive from a commit sha matches git ls-tree -r -t -l', async () => {
    const { data } = await octokit.rest.git.getTree({
      ...repo,
      tree_sha: s.main,
      recursive: '1'
    })
    expect(data.sha).toBe(git('rev-parse', `${s.main}^{tree}`))
    expect(data.truncated).toBe(false)
    const expected = git('ls-tree', '-r', '-t', '-l', s.main)
      .split('\n')
      .map((l) => {
        const [meta, path] = l.split('\t')
        const [mode, type, sha, size] = meta!.split(/\s+/)
        return {
          path,
          mode,
          type,
          sha,
          ...(type === 'blob' ? { size: Number(size) } : {})
        }
      })
    expect(data.tree.map(({ url: _u, ...e }) => e)).toEqual(expected)
    expect(data.tree.find((e) => e.path === 'link-to-a')).toMatchObject({
      mode: '120000',
      type: 'blob'
    })
    expect(data.tree.find((e) => e.path === 'vendor/lib')).toEqual({
      path: 'vendor/lib',
      mode: '160000',
      type: 'commit',
      sha: s.root
    })
  })

  it('git.getTree without recursive lists one level, from a tree sha or a branch name', async () => {
    const sub = git('rev-parse', `${s.feature}:src`)
    const { data } = await octokit.rest.git.getTree({ ...repo, tree_sha: sub })
    expect(data.tree.map((e) => `${e.type} ${e.path}`)).toEqual(
      git('ls-tree', sub)
        .split('\n')
        .map((l) => `${l.split(/\s+/)[1]} ${l.split('\t')[1]}`)
    )
    const { data: byName } = await octokit.rest.git.getTree({
      ...repo,
      tree_sha: 'feature'
    })
    expect(byName.sha).toBe(git('rev-parse', 'feature^{tree}'))
  })

  it('git.getBlob returns base64 content equal to git cat-file, binary included', async () => {
    for (const path of ['src/a.ts', 'assets/logo.bin']) {
      const sha = git('rev-parse', `feature:${path}`)
      const { data } = await octokit.rest.git.getBlob({ ...repo, file_sha: sha })
      expect(data.encoding).toBe('base64')
      const bytes = Buffer.from(data.content, 'base64')
      const expected = execFileSync('git', ['cat-file', 'blob', sha], {
        cwd: s.repo.path
      })
      expect(bytes.equals(expected)).toBe(true)
      expect(data.size).toBe(expected.length)
    }
  })

  it('git.getBlob in the raw media type answers the bytes themselves, binary included; other routes still refuse raw', async () => {
    for (const path of ['src/a.ts', 'assets/logo.bin']) {
      const sha = git('rev-parse', `feature:${path}`)
      const expected = execFileSync('git', ['cat-file', 'blob', sha], {
        cwd: s.repo.path
      })
      // Twice: the second answer is the kept one (change 38), kept apart from the JSON form.
      for (let round = 0; round < 2; round++) {
        const raw = await octokit.rest.git.getBlob({
          ...repo,
          file_sha: sha,
          mediaType: { format: 'raw' }
        })
        expect(raw.headers['content-type']).toBe('application/vnd.github.raw')
        expect(Buffer.from(raw.data as unknown as ArrayBuffer).equals(expected)).toBe(
          true
        )
        const json = await octokit.rest.git.getBlob({ ...repo, file_sha: sha })
        expect(Buffer.from(json.data.content, 'base64').equals(expected)).toBe(true)
      }
    }
    await expect(
      octokit.rest.pulls.get({ ...repo, pull_number: 1, mediaType: { format: 'raw' } })
    ).rejects.toMatchObject({ status: 415 })
    expect(fake.unexpected.map((u) => u.reason)).toEqual([
      'media type not served by the fake: application/vnd.github.v3.raw'
    ])
    fake.unexpected.length = 0
  })

  it('an answer its URL fixes (a blob, a tree, a comparison named by SHAs) read again is the same, Link included; faults (a truncated tree too) and tweaks still apply', async () => {
    const sha = git('rev-parse', 'feature:src/a.ts')
    const read = async () =>
      octokit.rest.git.getBlob({ ...repo, file_sha: sha.toUpperCase() })
    const first = (await read()).data
    expect((await read()).data).toEqual(first)
    const tree = async () =>
      octokit.rest.git.getTree({ ...repo, tree_sha: `${s.feature}:src`, recursive: '1' })
    const whole = (await tree()).data
    expect((await tree()).data).toEqual(whole)
    const truncate = fake.faults.add({ kind: 'truncated-tree', keep: 1 })
    expect((await tree()).data).toMatchObject({
      truncated: true,
      tree: [expect.anything()]
    })
    truncate()
    expect((await tree()).data).toEqual(whole)
    const compare = async () =>
      octokit.rest.repos.compareCommitsWithBasehead({
        ...repo,
        basehead: `${s.main}...${s.feature}`,
        per_page: 1
      })
    const [once, again] = [await compare(), await compare()]
    expect(again.data).toEqual(once.data)
    expect(once.headers.link).toContain('rel="next"')
    expect(again.headers.link).toBe(once.headers.link)

    const remove = fake.faults.add({ kind: 'status', route: 'git/get-blob', status: 502 })
    await expect(read()).rejects.toMatchObject({ status: 502 })
    remove()
    fake.faults.add({ kind: 'status', route: 'git/get-blob', status: 500, applied: true })
    await expect(read()).rejects.toMatchObject({ status: 500 })

    fake.tweak('git/get-blob', (body: { size: number }) => ({ ...body, size: 1 }))
    try {
      expect((await read()).data.size).toBe(1)
    } finally {
      fake.tweak('git/get-blob', undefined)
    }
    expect((await read()).data).toEqual(first)
  })

  it('git.getCommit returns tree, parents and the message', async () => {
    const { data } = await octokit.rest.git.getCommit({
      ...repo,
      commit_sha: s.receiptCommit
    })
    expect(data.tree.sha).toBe(git('rev-parse', `${s.receiptCommit}^{tree}`))
    expect(data.parents.map((p) => p.sha)).toEqual([s.featureWork])
    expect(data.message).toBe('receipt')
    expect(data.author.date).toBe('2024-01-01T00:03:00Z')
  })

  it('unknown objects are 404', async () => {
    await expect(
      octokit.rest.git.getBlob({ ...repo, file_sha: '0'.repeat(40) })
    ).rejects.toMatchObject({ status: 404 })
  })
})

describe('compare and commits', () => {
  it('compare main...feature is diverged with counts, commits and files from git', async () => {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: 'main...feature'
    })
    expect(data.status).toBe('diverged')
    expect(data.ahead_by).toBe(Number(git('rev-list', '--count', 'main..feature')))
    expect(data.behind_by).toBe(Number(git('rev-list', '--count', 'feature..main')))
    expect(data.merge_base_commit.sha).toBe(s.mergeBase)
    expect(data.base_commit.sha).toBe(s.main)
    expect(data.commits.map((c) => c.sha)).toEqual(
      git('rev-list', '--reverse', 'main..feature').split('\n')
    )
    const mb = s.mergeBase
    expect(data.files!.map((f) => f.filename).sort()).toEqual(
      git('diff', '--name-only', '-M', mb, 'feature').split('\n').sort()
    )
  })

  it('compare status ahead / behind / identical, by sha', async () => {
    const c = async (basehead: string) =>
      (await octokit.rest.repos.compareCommitsWithBasehead({ ...repo, basehead })).data
    const same = await c(`${s.receiptCommit}...${s.receiptCommit}`)
    expect([same.status, same.ahead_by, same.files]).toEqual(['identical', 0, []])
    const parent = s.featureWork
    const a = await c(`${parent}...${s.receiptCommit}`)
    expect([a.status, a.ahead_by, a.behind_by]).toEqual(['ahead', 1, 0])
    expect(a.files!.map((f) => f.filename)).toEqual([
      '.flow/review-receipts/impl-fn-1.2.json'
    ])
    const b = await c(`${s.receiptCommit}...${parent}`)
    expect([b.status, b.ahead_by, b.behind_by]).toEqual(['behind', 0, 1])
  })

  it('repos.listCommits with path lists commits touching the path, newest first', async () => {
    const { data } = await octokit.rest.repos.listCommits({
      ...repo,
      sha: 'feature',
      path: 'src/a.ts',
      per_page: 10
    })
    expect(data.map((c) => c.sha)).toEqual(
      git('log', '--format=%H', 'feature', '--', 'src/a.ts').split('\n')
    )
    expect(data[0]!.parents.length).toBe(1)
    const receipts = await octokit.rest.repos.listCommits({
      ...repo,
      sha: s.feature,
      path: '.flow/review-receipts/impl-fn-1.2.json',
      per_page: 1
    })
    expect(receipts.data.map((c) => c.sha)).toEqual([s.receiptCommit])
  })

  it('repos.getCommit lists the files of a commit against its first parent', async () => {
    const { data } = await octokit.rest.repos.getCommit({ ...repo, ref: s.receiptCommit })
    expect(data.sha).toBe(s.receiptCommit)
    expect(data.files!.map((f) => [f.status, f.filename])).toEqual([
      ['added', '.flow/review-receipts/impl-fn-1.2.json']
    ])
    expect(data.stats).toEqual({ additions: 1, deletions: 0, total: 1 })
    const byBranch = await octokit.rest.repos.getCommit({ ...repo, ref: 'feature' })
    expect(byBranch.data.sha).toBe(s.feature)
  })
})

describe('contents', () => {
  it('repos.getContent reads a file at a ref (octokit sends the path %2F-encoded)', async () => {
    const { data } = await octokit.rest.repos.getContent({
      ...repo,
      path: '.flow/review-receipts/impl-fn-1.2.json',
      ref: s.feature
    })
    expect(fake.requests.at(-1)!.path).toContain(
      '.flow%2Freview-receipts%2Fimpl-fn-1.2.json'
    )
    expect(Array.isArray(data)).toBe(false)
    const file = data as { type: string; content: string; sha: string }
    expect(file.type).toBe('file')
    expect(Buffer.from(file.content, 'base64').toString('utf8')).toBe(
      git('show', `${s.feature}:.flow/review-receipts/impl-fn-1.2.json`) + '\n'
    )
    expect(file.sha).toBe(
      git('rev-parse', `${s.feature}:.flow/review-receipts/impl-fn-1.2.json`)
    )
  })

  it('accepts literal slashes too, and lists directories', async () => {
    const { data } = await octokit.request(
      'GET /repos/acme/widgets/contents/.flow/review-receipts?ref=feature'
    )
    expect((data as { name: string }[]).map((e) => e.name)).toEqual([
      'impl-fn-1.1.json',
      'impl-fn-1.2.json'
    ])
    const { data: root } = await octokit.rest.repos.getContent({
      ...repo,
      path: 'vendor',
      ref: 'main'
    })
    // submodules are listed with type "file" in directory listings, like GitHub
    expect((root as { type: string }[]).map((e) => e.type)).toEqual(['file'])
  })

  it('follows a symlink to a file, describes a dangling one, and describes a submodule', async () => {
    const { data: link } = await octokit.rest.repos.getContent({
      ...repo,
      path: 'link-to-a',
      ref: 'main'
    })
    expect(link).toMatchObject({ type: 'file', path: 'src/a.ts' })
    const { data: dangling } = await octokit.rest.repos.getContent({
      ...repo,
      path: 'dangling',
      ref: 'main'
    })
    expect(dangling).toMatchObject({ type: 'symlink', target: '../outside' })
    const { data: sub } = await octokit.rest.repos.getContent({
      ...repo,
      path: 'vendor/lib',
      ref: 'main'
    })
    expect(sub).toMatchObject({ type: 'submodule', sha: s.root })
  })

  it('a missing path is 404', async () => {
    await expect(
      octokit.rest.repos.getContent({ ...repo, path: 'nope.txt', ref: 'main' })
    ).rejects.toMatchObject({ status: 404 })
  })
})

describe('caps and live repositories', () => {
  it('sees commits made after start; compare caps files at 300, PR files do not', async () => {
    s.repo.branch('many', s.main)
    const files: Record<string, string> = {}
    for (let i = 0; i < 305; i++)
      files[`many/f${String(i).padStart(3, '0')}.txt`] = `${i}\n`
    s.repo.write(files)
    const many = s.repo.commit('305 files')
    s.repo.checkout('main')
    fake.addPull({ number: 9, head: { ref: 'many' }, base: { ref: 'main' } })

    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: 'main...many'
    })
    expect([data.status, data.ahead_by, data.files!.length]).toEqual(['ahead', 1, 300])
    expect(data.commits.map((c) => c.sha)).toEqual([many])
    const prFiles = await octokit.paginate(octokit.rest.pulls.listFiles, {
      ...repo,
      pull_number: 9,
      per_page: 100
    })
    expect(prFiles).toHaveLength(305)
    expect(
      fake.requestsFor('pulls/list-files').filter((q) => q.path.includes('/pulls/9/'))
        .length
    ).toBe(4)
  })
})

describe('unknown routes', () => {
  it('answer 404 with GitHub’s error shape and are recorded as unexpected', async () => {
    const err = await octokit
      .request('GET /repos/acme/widgets/issues')
      .catch((e: unknown) => e)
    expect(err).toMatchObject({
      status: 404,
      response: { data: { message: 'Not Found' } }
    })
    expect(fake.unexpected).toEqual([
      { method: 'GET', path: '/repos/acme/widgets/issues', reason: expect.any(String) }
    ])
    expect(fake.countByRoute()['UNKNOWN GET /repos/acme/widgets/issues']).toBe(1)
    fake.unexpected.length = 0
  })
})
