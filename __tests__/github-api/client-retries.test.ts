/**
 * The client's retry and rate-limit policy (src/github/client.ts), request by request
 * against the local GitHub API: what is asked again, how often, after what wait, and what
 * the log and the error say. The fault matrix proves the whole action under the same
 * faults; this pins the policy itself.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { createClient, GitHubError, type Octokit } from '../../src/github/client.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'

let repo: GitRepo
let head: string
let fake: FakeGitHub
let octokit: Octokit
const log: string[] = []
const r = { owner: 'acme', repo: 'widgets' }

beforeAll(async () => {
  repo = GitRepo.init()
  repo.write({ 'a.txt': '1\n' })
  head = repo.commit('a')
  fake = await startFakeGitHub({ repo })
  // Every wait a thousandth: a 2 s retry-after is 2 ms.
  octokit = createClient({
    token: 'ghs_test',
    baseUrl: fake.url,
    timeScale: 0.001,
    onRetry: (line) => log.push(line)
  })
})

afterEach(() => {
  fake.faults.clear()
  fake.assertNoViolations()
  fake.requests.length = 0
  log.length = 0
})

afterAll(async () => {
  await fake?.close()
  repo?.cleanup()
})

const asked = (operationId: string): number =>
  fake.requests.filter((q) => q.operationId === operationId).length
const read = async (request: Record<string, unknown> = {}) =>
  octokit.rest.git.getCommit({ ...r, commit_sha: head, request })
const write = async () =>
  octokit.rest.checks.create({
    ...r,
    name: 'Review receipts',
    head_sha: head,
    conclusion: 'success',
    output: { title: 't', summary: 's' }
  })
const query = async () =>
  octokit.graphql<{ repository: { name: string } }>(
    'query($o: String!, $n: String!) { repository(owner: $o, name: $n) { name } }',
    { o: r.owner, n: r.repo }
  )
const failure = async (p: Promise<unknown>): Promise<GitHubError> =>
  p.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e as GitHubError
  )

describe('reads', () => {
  it('a 502 twice, then the answer: asked 3 times, each retry logged', async () => {
    fake.faults.add({ kind: 'status', status: 502, route: 'git/get-commit', times: 2 })
    expect((await read()).status).toBe(200)
    expect(asked('git/get-commit')).toBe(3)
    expect(log).toEqual([
      expect.stringMatching(/^GET \/repos\/.*: HTTP 502; retrying$/),
      expect.stringMatching(/^GET \/repos\/.*: HTTP 502; retrying$/)
    ])
  })

  it('a 5xx that persists: 3 retries, then one error naming the route and status', async () => {
    fake.faults.add({
      kind: 'status',
      status: 503,
      route: 'git/get-commit',
      times: Infinity
    })
    const error = await failure(read())
    expect(error).toBeInstanceOf(GitHubError)
    expect(error.status).toBe(503)
    expect(error.message).toMatch(
      /^GET \/repos\/\{owner\}\/\{repo\}\/git\/commits\/.*: 503/
    )
    expect(asked('git/get-commit')).toBe(4)
  })

  it('a connection reset is retried like a 5xx', async () => {
    fake.faults.add({ kind: 'reset', route: 'git/get-commit', times: 1 })
    expect((await read()).status).toBe(200)
    expect(asked('git/get-commit')).toBe(2)
    expect(log).toEqual([expect.stringMatching(/: network error; retrying$/)])
  })

  it('a 404 is an answer: asked once', async () => {
    const error = await failure(
      octokit.rest.git.getCommit({ ...r, commit_sha: 'f'.repeat(40) })
    )
    expect(error.status).toBe(404)
    expect(asked('git/get-commit')).toBe(1)
    expect(log).toEqual([])
  })

  it('asked with `retries: 0` (its caller asks again another way): asked once', async () => {
    fake.faults.add({ kind: 'status', status: 502, route: 'git/get-commit', times: 1 })
    expect((await failure(read({ retries: 0 }))).status).toBe(502)
    expect(asked('git/get-commit')).toBe(1)
  })
})

describe('writes', () => {
  it('a 502 is not asked again here (checks.ts looks for the write first)', async () => {
    fake.faults.add({ kind: 'status', status: 502, route: 'checks/create', times: 1 })
    expect((await failure(write())).status).toBe(502)
    expect(asked('checks/create')).toBe(1)
    expect(log).toEqual([])
  })

  it('a secondary rate limit (429, retry-after 2 s) is waited for, then asked again', async () => {
    fake.faults.add({
      kind: 'rate-limit',
      status: 429,
      retryAfterSeconds: 2,
      route: 'checks/create',
      times: 1
    })
    expect((await write()).status).toBe(201)
    expect(asked('checks/create')).toBe(2)
    expect(log).toEqual([
      'POST /repos/{owner}/{repo}/check-runs: rate limited; retrying in 2 s'
    ])
  })
})

describe('rate limits', () => {
  it('a primary limit (403) resetting within 60 s is waited for', async () => {
    fake.faults.add({
      kind: 'rate-limit',
      status: 403,
      resetAfterSeconds: 5,
      route: 'git/get-commit',
      times: 1
    })
    expect((await read()).status).toBe(200)
    expect(asked('git/get-commit')).toBe(2)
    expect(log).toEqual([expect.stringMatching(/: rate limited; retrying in [5-7] s$/)])
  })

  it('one resetting in 2 minutes is not: the error says when GitHub would answer', async () => {
    fake.faults.add({
      kind: 'rate-limit',
      status: 403,
      resetAfterSeconds: 120,
      route: 'git/get-commit',
      times: 1
    })
    const error = await failure(read())
    expect(error.status).toBe(403)
    expect(error.message).toMatch(/retry possible in 1[12]\d s, more than the 60 s/)
    expect(asked('git/get-commit')).toBe(1)
  })

  it('one that persists: waited for 3 times, then the error says so', async () => {
    fake.faults.add({
      kind: 'rate-limit',
      status: 429,
      retryAfterSeconds: 1,
      route: 'git/get-commit',
      times: Infinity
    })
    const error = await failure(read())
    expect(error.message).toMatch(/persisted after 3 waits/)
    expect(asked('git/get-commit')).toBe(4)
  })
})

describe('GraphQL', () => {
  it('RATE_LIMITED in a 200 answer is a rate limit: waited for, asked again', async () => {
    fake.faults.add({
      kind: 'rate-limit',
      resetAfterSeconds: 3,
      route: 'graphql',
      times: 1
    })
    expect((await query()).repository.name).toBe('widgets')
    expect(asked('graphql')).toBe(2)
    expect(log).toEqual([
      expect.stringMatching(/^POST \/graphql: rate limited; retrying in/)
    ])
  })

  it('"Something went wrong while executing your query" is retried like a 5xx', async () => {
    fake.faults.add({
      kind: 'graphql-error',
      type: 'INTERNAL',
      route: 'graphql',
      times: 2
    })
    expect((await query()).repository.name).toBe('widgets')
    expect(asked('graphql')).toBe(3)
    expect(log).toEqual([
      'POST /graphql: HTTP 500; retrying',
      'POST /graphql: HTTP 500; retrying'
    ])
  })

  it('any other error is an answer: asked once', async () => {
    fake.faults.add({
      kind: 'graphql-error',
      type: 'FORBIDDEN',
      message: 'Resource not accessible by integration',
      route: 'graphql',
      times: 1
    })
    expect((await failure(query())).message).toMatch(/Resource not accessible/)
    expect(asked('graphql')).toBe(1)
  })
})
