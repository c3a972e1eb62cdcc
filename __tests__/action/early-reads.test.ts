/**
 * The light entry's early reads (src/action/prefetch.ts, issue 7): which reads start
 * before dist/main.js loads, that each is the very request the client makes first, and
 * that the client takes each answer once, as its first attempt, against the local
 * GitHub API. (The fault matrix runs the bundled action with every fault on these
 * routes: a refused or hung early read is retried as any first attempt.)
 */
import { describe, expect, it } from '@jest/globals'
import type { RunContext } from '../../src/action/context.js'
import type { EventRoute } from '../../src/action/event.js'
import type { ActionInputs } from '../../src/action/inputs.js'
import { earlyUrls, startEarlyReads } from '../../src/action/prefetch.js'
import type { RunStart } from '../../src/action/quick.js'
import { parseOptions } from '../../src/gate/options.js'
import { createClient } from '../../src/github/client.js'
import { servedScenario } from '../github-api/scenario.js'

function inputs(gate: Record<string, string> = {}): ActionInputs {
  return {
    token: 'test-token',
    checkName: 'Receipt Gate',
    failStep: true,
    pullNumber: null,
    gate: parseOptions(gate)
  }
}

function context(over: Partial<RunContext> = {}): RunContext {
  return {
    eventName: 'pull_request',
    payload: Object.create(null),
    owner: 'acme',
    repo: 'widgets',
    runId: '1',
    runAttempt: '1',
    apiUrl: 'http://127.0.0.1:9/api/',
    workspace: '/runner/work/widgets',
    timeScale: 1,
    ...over
  }
}

const pull = (headSha: string | null): EventRoute => ({
  kind: 'pull',
  number: 7,
  headSha
})
const start = (over: Partial<RunStart> = {}): RunStart => ({
  inputs: inputs(),
  context: context(),
  route: pull('abc123'),
  ...over
})
const noCheckout = (): boolean => false
const api = 'http://127.0.0.1:9/api/repos/acme/widgets'

describe('earlyUrls', () => {
  it('without a checkout: the PR, its first page of files and the receipts folder by name', () => {
    expect(earlyUrls(start(), {}, noCheckout)).toEqual([
      `${api}/pulls/7`,
      `${api}/pulls/7/files?per_page=100`,
      `${api}/git/trees/abc123%3A.flow%2Freview-receipts?recursive=1`
    ])
  })

  it('with a repository in the workspace: only the PR (git may answer the rest)', () => {
    const seen: string[] = []
    const hasCheckout = (workspace: string): boolean => {
      seen.push(workspace)
      return true
    }
    expect(earlyUrls(start(), {}, hasCheckout)).toEqual([`${api}/pulls/7`])
    expect(seen).toEqual(['/runner/work/widgets'])
    // No workspace at all is no checkout.
    expect(
      earlyUrls(start({ context: context({ workspace: undefined }) }), {}, () => true)
    ).toHaveLength(3)
  })

  it('reads only what the run will: the files when select is changed, the folder by a plain name, with a head', () => {
    expect(
      earlyUrls(start({ inputs: inputs({ select: 'all' }) }), {}, noCheckout)
    ).toEqual([
      `${api}/pulls/7`,
      `${api}/git/trees/abc123%3A.flow%2Freview-receipts?recursive=1`
    ])
    expect(
      earlyUrls(start({ inputs: inputs({ receiptsDir: 'a/./b' }) }), {}, noCheckout)
    ).toEqual([`${api}/pulls/7`, `${api}/pulls/7/files?per_page=100`])
    // workflow_dispatch with pull-number: no head known before the PR is read.
    expect(earlyUrls(start({ route: pull(null) }), {}, noCheckout)).toEqual([
      `${api}/pulls/7`
    ])
  })

  it('none behind a proxy, for other events, or without a repository', () => {
    expect(earlyUrls(start(), { HTTPS_PROXY: 'http://proxy:3128' }, noCheckout)).toEqual(
      []
    )
    const run: EventRoute = {
      kind: 'workflow-run',
      number: 7,
      headSha: 'abc123',
      headBranch: null,
      headOwner: null
    }
    expect(earlyUrls(start({ route: run }), {}, noCheckout)).toEqual([])
    expect(earlyUrls(start({ context: context({ repo: '' }) }), {}, noCheckout)).toEqual(
      []
    )
  })
})

describe('early reads against the local GitHub API', () => {
  const served = servedScenario()

  const earlyStart = (): RunStart =>
    start({
      context: context({ apiUrl: served.fake.url, workspace: undefined }),
      route: pull(served.s.feature)
    })

  it('are sent before the client exists, and each answers the client once', async () => {
    const before = served.fake.requests.length
    const early = await startEarlyReads(earlyStart(), {})
    expect(early).not.toBeNull()
    // Sent already: the local API has all three before any client asks.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const sent = served.fake.requests.slice(before).map((r) => r.operationId)
    expect(sent.sort((a, b) => String(a).localeCompare(String(b)))).toEqual([
      'git/get-tree',
      'pulls/get',
      'pulls/list-files'
    ])

    const client = createClient({
      token: 'test-token',
      baseUrl: served.fake.url,
      timeScale: 1,
      early: early ?? undefined
    })
    const repo = { owner: 'acme', repo: 'widgets' }
    const { data: pr } = await client.rest.pulls.get({ ...repo, pull_number: 7 })
    expect(pr.head.sha).toBe(served.s.feature)
    const { data: tree } = await client.rest.git.getTree({
      ...repo,
      tree_sha: `${served.s.feature}:.flow/review-receipts`,
      recursive: '1'
    })
    expect(tree.tree.map((entry) => entry.path).sort()).toEqual([
      'impl-fn-1.1.json',
      'impl-fn-1.2.json'
    ])
    // No second request for either; asked again, each goes to the API.
    expect(served.fake.requests.length - before).toBe(3)
    await client.rest.pulls.get({ ...repo, pull_number: 7 })
    expect(served.fake.requests.length - before).toBe(4)
    served.fake.assertNoViolations()
  })

  it('a refused early read is the first attempt: the client retries it', async () => {
    served.fake.faults.add({ kind: 'status', route: 'pulls/get', status: 502, times: 1 })
    const before = served.fake.requests.length
    const early = await startEarlyReads(earlyStart(), {})
    const retries: string[] = []
    const client = createClient({
      token: 'test-token',
      baseUrl: served.fake.url,
      timeScale: 0.001,
      early: early ?? undefined,
      onRetry: (line) => retries.push(line)
    })
    const { data: pr } = await client.rest.pulls.get({
      owner: 'acme',
      repo: 'widgets',
      pull_number: 7
    })
    expect(pr.number).toBe(7)
    const reads = served.fake.requests
      .slice(before)
      .filter((r) => r.operationId === 'pulls/get')
    expect(reads.map((r) => r.status)).toEqual([502, 200])
    // The client saw the early 502 as its own first attempt.
    expect(retries).toEqual([
      expect.stringMatching(/pulls\/\{pull_number\}: HTTP 502; retrying/)
    ])
  })

  it('none when the API cannot be reached: the action runs as without them', async () => {
    const early = await startEarlyReads(
      start({ context: context({ apiUrl: 'http://127.0.0.1:1', workspace: undefined }) }),
      {}
    )
    // Started (a refused connection settles them), and taken as failed first attempts.
    const answer = early?.take('GET', 'http://127.0.0.1:1/repos/acme/widgets/pulls/7')
    await expect(answer).rejects.toThrow()
  })
})
