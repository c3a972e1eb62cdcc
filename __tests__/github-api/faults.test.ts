/** Each fault mode of the fake behaves as specified (issue 4, "Faults on demand"). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { getOctokit } from '@actions/github'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'

let repo: GitRepo
let head: string
let fake: FakeGitHub
let octokit: ReturnType<typeof getOctokit>
const r = { owner: 'acme', repo: 'widgets' }

interface ErrorLike {
  status: number
  message: string
  response?: { headers: Record<string, string>; data: unknown }
}
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e: unknown) => e
  )) as ErrorLike

beforeAll(async () => {
  repo = GitRepo.init()
  repo.write({
    'a/one.txt': '1\n',
    'a/two.txt': '2\n',
    'b/three.txt': '3\n',
    'top.txt': 't\n'
  })
  head = repo.commit('files')
  fake = await startFakeGitHub({ repo })
  octokit = getOctokit('test-token', { baseUrl: fake.url })
})

afterEach(() => {
  fake.faults.clear()
  fake.assertNoViolations()
})

afterAll(async () => {
  await fake?.close()
  repo?.cleanup()
})

const create = async (extra: Record<string, unknown> = {}) =>
  octokit.rest.checks.create({
    ...r,
    name: 'Review receipts',
    head_sha: head,
    conclusion: 'success',
    output: { title: 't', summary: 's' },
    ...extra
  })
const tree = async (recursive?: string) =>
  octokit.rest.git.getTree({ ...r, tree_sha: head, ...(recursive ? { recursive } : {}) })

describe('server errors', () => {
  it('500/502 for the first N calls of a route, then normal answers', async () => {
    fake.faults.failFirst('git/get-tree', 2, 502)
    fake.faults.add({
      kind: 'status',
      route: 'GET /repos/{owner}/{repo}/git/commits/{commit_sha}',
      status: 500
    })
    expect((await failure(tree())).status).toBe(502)
    expect((await failure(tree())).status).toBe(502)
    expect((await tree()).status).toBe(200)
    expect(
      (await failure(octokit.rest.git.getCommit({ ...r, commit_sha: head }))).status
    ).toBe(500)
    expect((await octokit.rest.git.getCommit({ ...r, commit_sha: head })).status).toBe(
      200
    )
    expect(fake.requestsFor('git/get-tree').map((q) => [q.status, q.fault])).toEqual([
      [502, 'status'],
      [502, 'status'],
      [200, undefined]
    ])
  })

  it('skip lets calls through first; the returned function removes a fault', async () => {
    const remove = fake.faults.add({
      kind: 'status',
      route: 'git/get-tree',
      status: 503,
      skip: 1,
      times: Infinity
    })
    expect((await tree()).status).toBe(200)
    expect((await failure(tree())).status).toBe(503)
    expect((await failure(tree())).status).toBe(503)
    expect(fake.faults.fired).toEqual([
      { kind: 'status', route: 'git/get-tree', applied: 2 }
    ])
    remove()
    expect((await tree()).status).toBe(200)
  })

  it('applied: the create succeeds behind a 502 (the run exists and can be found by external_id)', async () => {
    fake.faults.add({
      kind: 'status',
      route: 'checks/create',
      status: 502,
      applied: true
    })
    expect(
      (await failure(create({ name: 'behind-502', external_id: '77-1' }))).status
    ).toBe(502)
    const { data } = await octokit.rest.checks.listForRef({
      ...r,
      ref: head,
      check_name: 'behind-502'
    })
    expect(data.check_runs.map((c) => c.external_id)).toEqual(['77-1'])
  })
})

describe('network', () => {
  it('connection reset: the client gets a network error, the next call works', async () => {
    fake.faults.add({ kind: 'reset', route: 'git/get-tree' })
    const err = await failure(tree())
    expect(err.message).toMatch(/fetch failed|socket|ECONNRESET|other side closed/i)
    expect(fake.requests.at(-1)).toMatchObject({
      operationId: 'git/get-tree',
      fault: 'reset',
      status: 0
    })
    expect((await tree()).status).toBe(200)
  })

  it('connection reset after the write took effect (applied)', async () => {
    const { data: run } = await create({ name: 'reset-after' })
    fake.faults.add({ kind: 'reset', route: 'checks/update', applied: true })
    await failure(
      octokit.rest.checks.update({
        ...r,
        check_run_id: run.id,
        output: {
          summary: 'x',
          annotations: [
            {
              path: 'top.txt',
              start_line: 1,
              end_line: 1,
              annotation_level: 'notice',
              message: 'm'
            }
          ]
        }
      })
    )
    expect(fake.checks.get(run.id)!.annotations).toHaveLength(1)
  })

  it('latency delays the answer (small values; no timing assertion)', async () => {
    fake.faults.add({ kind: 'latency', route: '*', ms: 15, times: 2 })
    expect((await tree()).status).toBe(200)
    expect((await tree()).status).toBe(200)
    expect((await tree()).status).toBe(200)
    expect(fake.requests.slice(-3).map((q) => q.fault)).toEqual([
      'latency',
      'latency',
      undefined
    ])
  })
})

describe('permissions and rate limits', () => {
  it('read-only token: writes get 403 "Resource not accessible by integration", reads work', async () => {
    const { data: run } = await create({ name: 'before-read-only' })
    fake.faults.readOnlyToken()
    const err = await failure(create())
    expect(err.status).toBe(403)
    expect(err.message).toContain('Resource not accessible by integration')
    expect(
      (
        await failure(
          octokit.rest.checks.update({
            ...r,
            check_run_id: run.id,
            conclusion: 'failure'
          })
        )
      ).status
    ).toBe(403)
    expect((await tree()).status).toBe(200)
  })

  it('primary rate limit: 403 with x-ratelimit-remaining 0 and x-ratelimit-reset', async () => {
    fake.faults.add({
      kind: 'rate-limit',
      status: 403,
      resetAfterSeconds: 2,
      route: 'git/get-tree'
    })
    const before = Math.floor(Date.now() / 1000)
    const err = await failure(tree())
    expect(err.status).toBe(403)
    expect(err.message).toContain('API rate limit exceeded')
    const h = err.response!.headers
    expect(h['x-ratelimit-remaining']).toBe('0')
    const reset = Number(h['x-ratelimit-reset'])
    expect(reset).toBeGreaterThanOrEqual(before + 2)
    expect(reset).toBeLessThanOrEqual(before + 3)
    expect((await tree()).status).toBe(200)
  })

  it('secondary rate limit: 429 with retry-after', async () => {
    fake.faults.add({
      kind: 'rate-limit',
      status: 429,
      retryAfterSeconds: 1,
      route: 'checks/create'
    })
    const err = await failure(create())
    expect(err.status).toBe(429)
    expect(err.message).toContain('secondary rate limit')
    expect(err.response!.headers['retry-after']).toBe('1')
  })

  it('ordinary answers carry x-ratelimit headers', async () => {
    const res = await tree()
    expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThan(0)
    expect(res.headers['x-ratelimit-limit']).toBe('1000')
  })
})

describe('data faults', () => {
  it('truncated tree: recursive listings come back truncated; non-recursive ones are untouched', async () => {
    fake.faults.add({ kind: 'truncated-tree', keep: 2, times: Infinity })
    const flat = await tree()
    expect(flat.data.truncated).toBe(false)
    const deep = await tree('1')
    expect(deep.data.truncated).toBe(true)
    expect(deep.data.tree).toHaveLength(2)
    expect(fake.faults.fired[0]!.applied).toBe(1)
  })

  it('422 on a chosen PATCH batch: that batch is not applied, the others are', async () => {
    const { data: run } = await create({
      name: 'batches',
      conclusion: undefined,
      status: 'in_progress'
    })
    fake.faults.add({ kind: 'reject', route: 'checks/update', skip: 1 })
    const batch = (i: number) => ({
      ...r,
      check_run_id: run.id,
      output: {
        summary: `batch ${i}`,
        annotations: [
          {
            path: 'top.txt',
            start_line: 1,
            end_line: 1,
            annotation_level: 'notice' as const,
            message: `m${i}`
          }
        ]
      }
    })
    expect((await octokit.rest.checks.update(batch(1))).status).toBe(200)
    const err = await failure(octokit.rest.checks.update(batch(2)))
    expect(err.status).toBe(422)
    expect(err.message).toMatch(/^Invalid request\./)
    expect((await octokit.rest.checks.update(batch(3))).status).toBe(200)
    expect(fake.checks.get(run.id)!.annotations.map((a) => a.message)).toEqual([
      'm1',
      'm3'
    ])
    expect(fake.violations).toEqual([])
  })

  it('reject with a predicate: every batch holding a given annotation', async () => {
    const { data: run } = await create({ name: 'poison' })
    fake.faults.add({
      kind: 'reject',
      route: 'checks/update',
      times: Infinity,
      when: (call) => JSON.stringify(call.body).includes('"poison"')
    })
    const patch = async (messages: string[]) =>
      octokit.rest.checks.update({
        ...r,
        check_run_id: run.id,
        output: {
          summary: 's',
          annotations: messages.map((message) => ({
            path: 'top.txt',
            start_line: 1,
            end_line: 1,
            annotation_level: 'notice' as const,
            message
          }))
        }
      })
    expect((await failure(patch(['ok', 'poison']))).status).toBe(422)
    expect((await patch(['ok'])).status).toBe(200)
    expect((await failure(patch(['poison']))).status).toBe(422)
    expect(fake.checks.get(run.id)!.annotations.map((a) => a.message)).toEqual(['ok'])
  })
})
