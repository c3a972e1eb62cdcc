/**
 * The fake's GraphQL endpoint (issue 24 item 5), through the client the product uses:
 * `getOctokit(token, { baseUrl }).graphql`. Queries are checked against GitHub's schema and
 * answered from a real repository; faults on demand like the REST routes.
 */
import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { getOctokit } from '@actions/github'
import { GitRepo } from '../support/git-repo.js'
import { BLOB_TEXT_LIMIT } from '../support/github-api/graphql.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- GraphQL answers are untyped JSON */
type Json = any

let repo: GitRepo
let fake: FakeGitHub
let octokit: ReturnType<typeof getOctokit>
let base: string
let head: string
let history: Record<string, string[]>

const DIR = '.flow/review-receipts'
const INVALID_UTF8 = Buffer.from([
  0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0xfe, 0x22, 0x7d, 0x0a
])
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x03])
// Over the limit, with a two-byte character straddling the cut.
const BIG = 'a'.repeat(BLOB_TEXT_LIMIT - 1) + 'é' + 'tail\n'.repeat(20)
const SUB_SHA = '1234567890abcdef1234567890abcdef12345678'
const gql = async (query: string, variables: Record<string, unknown> = {}) =>
  octokit.graphql<Json>(query, variables)

interface GqlFailure {
  name: string
  message: string
  status?: number
  errors?: Json[]
  data?: Json
  response?: { headers: Record<string, string> }
  /** GraphqlResponseError: the answer's headers. */
  headers?: Record<string, string>
}
const failure = async (p: Promise<unknown>) =>
  (await p.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e
  )) as GqlFailure

beforeAll(async () => {
  repo = GitRepo.init()
  repo.write({
    'README.md': 'hello\n',
    [`${DIR}/a.json`]: '{"v":1}\n',
    [`${DIR}/x.json.history/0001.json`]: '{"gen":1}\n'
  })
  base = repo.commit('base')
  repo.branch('feature')
  repo.write({ [`${DIR}/x.json.history/0002.json`]: '{"gen":2}\n' })
  repo.commit('second generation')
  const many: Record<string, string> = {}
  for (let i = 0; i < 150; i++) many[`src/f${String(i).padStart(3, '0')}.ts`] = `${i}\n`
  repo.write({
    ...many,
    [`${DIR}/a.json`]: '{"v":2}\n',
    [`${DIR}/bin.dat`]: BINARY,
    [`${DIR}/latin1.json`]: INVALID_UTF8,
    [`${DIR}/big.txt`]: BIG,
    [`${DIR}/run.sh`]: '#!/bin/sh\n'
  })
  chmodSync(join(repo.path, DIR, 'run.sh'), 0o755)
  repo.symlink(`${DIR}/link.json`, 'a.json')
  repo.submodule(`${DIR}/sub`, SUB_SHA)
  repo.commit('receipts and sources')
  repo.write({ [`${DIR}/x.json.history/0003.json`]: '{"gen":3}\n' })
  head = repo.commit('third generation')
  repo.git('tag', '-a', 'v1', '-m', 'release one', head)
  history = {}
  for (const p of [`${DIR}/a.json`, `${DIR}/x.json.history/0002.json`, 'README.md'])
    history[p] = repo.git('log', '--format=%H', head, '--', p).split('\n')
  // The schema (~0.5 s, seconds on a loaded machine) is built here, not in the first test.
  fake = await startFakeGitHub({
    repo,
    preloadGraphql: true,
    pulls: [
      { number: 7, head: { ref: 'feature' }, base: { ref: 'main' }, body: 'Body' },
      { number: 8, head: { ref: 'feature' }, base: { ref: 'main' }, fork: true }
    ]
  })
  octokit = getOctokit('test-token', { baseUrl: fake.url })
}, 60_000)

afterEach(() => {
  fake.faults.clear()
  fake.assertNoViolations()
})

afterAll(async () => {
  await fake?.close()
  repo?.cleanup()
})

const PR_QUERY = `
  query pr($owner: String!, $name: String!, $number: Int!, $after: String) {
    repository(owner: $owner, name: $name) {
      nameWithOwner
      pullRequest(number: $number) {
        number body headRefOid baseRefOid headRefName baseRefName isCrossRepository
        changedFiles
        headRepository { nameWithOwner }
        files(first: 100, after: $after) {
          totalCount
          pageInfo { hasNextPage endCursor }
          nodes { path changeType additions deletions }
        }
      }
    }
  }`

describe('pull request', () => {
  it('answers the PR and pages its files like REST lists them', async () => {
    const vars = { owner: 'acme', name: 'widgets', number: 7 }
    const first = await gql(PR_QUERY, vars)
    const pr = first.repository.pullRequest
    expect(first.repository.nameWithOwner).toBe('acme/widgets')
    expect(pr).toMatchObject({
      number: 7,
      body: 'Body',
      headRefOid: head,
      baseRefOid: base,
      headRefName: 'feature',
      baseRefName: 'main',
      isCrossRepository: false,
      headRepository: { nameWithOwner: 'acme/widgets' }
    })
    const rest = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: 'acme',
      repo: 'widgets',
      pull_number: 7,
      per_page: 100
    })
    expect(pr.changedFiles).toBe(rest.length)
    const { data: restPr } = await octokit.rest.pulls.get({
      owner: 'acme',
      repo: 'widgets',
      pull_number: 7
    })
    expect(pr.changedFiles).toBe(restPr.changed_files)
    expect(pr.files.totalCount).toBe(rest.length)
    expect(pr.files.nodes).toHaveLength(100)
    expect(pr.files.pageInfo.hasNextPage).toBe(true)
    const second = await gql(PR_QUERY, { ...vars, after: pr.files.pageInfo.endCursor })
    const page2 = second.repository.pullRequest.files
    expect(page2.pageInfo.hasNextPage).toBe(false)
    const all = [...pr.files.nodes, ...page2.nodes]
    const status: Record<string, string> = {
      added: 'ADDED',
      modified: 'MODIFIED',
      removed: 'DELETED'
    }
    expect(all).toEqual(
      rest.map((f) => ({
        path: f.filename,
        changeType: status[f.status],
        additions: f.additions,
        deletions: f.deletions
      }))
    )
    expect(fake.countByRoute()['POST /graphql']).toBe(2)
    const recorded = fake.requestsFor('graphql')
    expect(recorded.map((r) => [r.route, r.operationId, r.status])).toEqual([
      ['POST /graphql', 'graphql', 200],
      ['POST /graphql', 'graphql', 200]
    ])
    expect(recorded[0]!.requestBytes).toBeGreaterThan(PR_QUERY.length)
    expect(recorded[0]!.responseBytes).toBeGreaterThan(1000)
  })

  it('a fork PR is cross-repository with its own head repository; an empty body reads ""', async () => {
    const data = await gql(PR_QUERY, { owner: 'acme', name: 'widgets', number: 8 })
    expect(data.repository.pullRequest).toMatchObject({
      isCrossRepository: true,
      body: '',
      headRepository: { nameWithOwner: 'contributor/widgets' }
    })
  })

  it('unknown repository and unknown PR: null and a NOT_FOUND error, like GitHub', async () => {
    const repoErr = await failure(
      gql('query { repository(owner: "o", name: "r") { nameWithOwner } }')
    )
    expect(repoErr.name).toBe('GraphqlResponseError')
    expect(repoErr.data).toEqual({ repository: null })
    expect(repoErr.errors).toEqual([
      {
        type: 'NOT_FOUND',
        path: ['repository'],
        locations: [{ line: 1, column: 9 }],
        message: "Could not resolve to a Repository with the name 'o/r'."
      }
    ])
    const prErr = await failure(
      gql(PR_QUERY, { owner: 'acme', name: 'widgets', number: 99 })
    )
    expect(prErr.data.repository).toEqual({
      nameWithOwner: 'acme/widgets',
      pullRequest: null
    })
    expect(prErr.errors).toMatchObject([
      {
        type: 'NOT_FOUND',
        path: ['repository', 'pullRequest'],
        message: 'Could not resolve to a PullRequest with the number of 99.'
      }
    ])
  })
})

const TREE_QUERY = `
  query tree($expr: String!) {
    repository(owner: "acme", name: "widgets") {
      object(expression: $expr) {
        __typename
        ... on Tree {
          oid
          entries {
            name path type mode oid size
            object {
              __typename
              ... on Blob { oid byteSize isBinary isTruncated text }
              ... on Tree {
                entries { name path type mode object { ... on Blob { text } } }
              }
            }
          }
        }
      }
    }
  }`

describe('git objects', () => {
  let entries: Record<string, Json>

  beforeAll(async () => {
    const data = await gql(TREE_QUERY, { expr: `${head}:${DIR}` })
    const tree = data.repository.object
    expect(tree.__typename).toBe('Tree')
    expect(tree.oid).toBe(repo.git('rev-parse', `${head}:${DIR}`))
    entries = Object.fromEntries(tree.entries.map((e: Json) => [e.name, e]))
  })

  it('lists a folder with GitHub modes, types, paths and nested trees', () => {
    const lsTree = repo.git('ls-tree', `${head}:${DIR}`).split('\n')
    expect(Object.keys(entries).sort()).toEqual(
      lsTree.map((l) => l.split('\t')[1]!).sort()
    )
    const modes = Object.fromEntries(
      Object.entries(entries).map(([n, e]) => [n, [e.type, e.mode]])
    )
    expect(modes).toEqual({
      'a.json': ['blob', 33188],
      'big.txt': ['blob', 33188],
      'bin.dat': ['blob', 33188],
      'latin1.json': ['blob', 33188],
      'link.json': ['blob', 40960],
      'run.sh': ['blob', 33261],
      sub: ['commit', 57344],
      'x.json.history': ['tree', 16384]
    })
    expect(entries['a.json'].path).toBe(`${DIR}/a.json`)
    expect(entries['sub']).toMatchObject({ oid: SUB_SHA, size: 0, object: null })
    const hist = entries['x.json.history'].object
    expect(hist.__typename).toBe('Tree')
    expect(hist.entries).toEqual(
      [1, 2, 3].map((g) => ({
        name: `000${g}.json`,
        path: `${DIR}/x.json.history/000${g}.json`,
        type: 'blob',
        mode: 33188,
        object: { text: `{"gen":${g}}\n` }
      }))
    )
  })

  it('blobs: text, binary (null text), invalid UTF-8 replaced, truncated past the limit', () => {
    const blob = (n: string) => entries[n].object
    const oid = (n: string) => repo.git('rev-parse', `${head}:${DIR}/${n}`)
    expect(blob('a.json')).toEqual({
      __typename: 'Blob',
      oid: oid('a.json'),
      byteSize: 8,
      isBinary: false,
      isTruncated: false,
      text: '{"v":2}\n'
    })
    expect(blob('bin.dat')).toMatchObject({ isBinary: true, text: null, byteSize: 8 })
    const latin = blob('latin1.json')
    expect(latin.isBinary).toBe(false)
    expect(latin.text).toBe(INVALID_UTF8.toString('utf8'))
    expect(latin.text).toContain('\ufffd')
    expect(Buffer.from(latin.text, 'utf8').equals(INVALID_UTF8)).toBe(false)
    const big = blob('big.txt')
    expect(big.byteSize).toBe(Buffer.byteLength(BIG))
    expect(big.isTruncated).toBe(true)
    expect(big.text).toBe(Buffer.from(BIG).subarray(0, BLOB_TEXT_LIMIT).toString('utf8'))
    expect(big.text.endsWith('a\ufffd')).toBe(true)
    expect(blob('link.json')).toMatchObject({ text: 'a.json', byteSize: 6 })
    expect(entries['run.sh'].size).toBe(10)
  })

  it('expression: absent path is null without error; refused revision syntax is null', async () => {
    const obj = async (expr: string) =>
      (await gql(TREE_QUERY, { expr })).repository.object
    expect(await obj(`${head}:${DIR}/nope.json`)).toBeNull()
    expect(await obj(`${head}:${DIR}/a.json/deeper`)).toBeNull()
    expect(await obj(`feature~1:${DIR}`)).toBeNull()
    expect(await obj(`feature^:${DIR}`)).toBeNull()
    expect(await obj(`feature@{0}:${DIR}`)).toBeNull()
    expect(await obj(`:/second`)).toBeNull()
    expect(await obj(`${head}:./${DIR}`)).toBeNull()
    expect(await obj(`${head}:${DIR}/../README.md`)).toBeNull()
    expect(await obj(`nobranch:${DIR}`)).toBeNull()
    expect((await obj(`feature:${DIR}`)).entries).toHaveLength(8)
    expect((await obj(`HEAD:README.md`)).__typename).toBe('Blob')
    expect((await obj(`${head}:`)).__typename).toBe('Tree')
  })

  it('object(oid:) and object(expression: rev) give Commit, Tree, Blob and Tag', async () => {
    const q = `query($oid: GitObjectID!, $tree: GitObjectID!, $rev: String!) {
      repository(owner: "acme", name: "widgets") {
        commit: object(oid: $oid) {
          __typename
          ... on Commit {
            oid
            parents(first: 2) { totalCount nodes { oid } }
            tree { oid }
            file(path: "${DIR}/a.json") { name path mode object { ... on Blob { text } } }
            missing: file(path: "nope") { name }
          }
        }
        tree: object(oid: $tree) { __typename oid }
        tag: object(expression: $rev) {
          __typename
          ... on Tag { name message target { __typename oid } }
        }
        none: object(oid: "0000000000000000000000000000000000000000") { oid }
      }
    }`
    const tree = repo.git('rev-parse', `${head}^{tree}`)
    const data = await gql(q, { oid: head, tree, rev: 'v1' })
    const r = data.repository
    expect(r.commit).toEqual({
      __typename: 'Commit',
      oid: head,
      parents: { totalCount: 1, nodes: [{ oid: repo.git('rev-parse', `${head}^`) }] },
      tree: { oid: tree },
      file: {
        name: 'a.json',
        path: `${DIR}/a.json`,
        mode: 33188,
        object: { text: '{"v":2}\n' }
      },
      missing: null
    })
    expect(r.tree).toEqual({ __typename: 'Tree', oid: tree })
    expect(r.tag).toEqual({
      __typename: 'Tag',
      name: 'v1',
      message: 'release one',
      target: { __typename: 'Commit', oid: head }
    })
    expect(r.none).toBeNull()
  })

  it('history aliases with path variables: each path its newest commit and its parent', async () => {
    const paths = Object.keys(history)
    const decl = paths.map((_, i) => `$p${i}: String!`).join(', ')
    const sel = paths
      .map(
        (_, i) =>
          `h${i}: history(first: 1, path: $p${i}) { nodes { oid parents(first: 1) { nodes { oid } } } }`
      )
      .join('\n')
    const q = `query($head: GitObjectID!, ${decl}) {
      repository(owner: "acme", name: "widgets") {
        object(oid: $head) { ... on Commit { ${sel} } }
      }
    }`
    const vars = Object.fromEntries(paths.map((p, i) => [`p${i}`, p]))
    const data = await gql(q, { head, ...vars })
    const commit = data.repository.object
    paths.forEach((p, i) => {
      const newest = history[p]![0]!
      expect(commit[`h${i}`].nodes).toEqual([
        {
          oid: newest,
          parents: {
            nodes: newest === base ? [] : [{ oid: repo.git('rev-parse', `${newest}^`) }]
          }
        }
      ])
    })
  })

  it('history pages with cursors and counts like git log', async () => {
    const q = `query($head: GitObjectID!, $after: String) {
      repository(owner: "acme", name: "widgets") {
        object(oid: $head) {
          ... on Commit {
            history(first: 2, after: $after) {
              totalCount pageInfo { hasNextPage endCursor } nodes { oid }
            }
          }
        }
      }
    }`
    const all = repo.git('log', '--format=%H', head).split('\n')
    const seen: string[] = []
    let after: string | null = null
    for (;;) {
      const h: Json = (await gql(q, { head, after })).repository.object.history
      expect(h.totalCount).toBe(all.length)
      seen.push(...h.nodes.map((n: Json) => n.oid))
      if (!h.pageInfo.hasNextPage) break
      after = h.pageInfo.endCursor
    }
    expect(seen).toEqual(all)
  })

  it('rateLimit answers cost and remaining', async () => {
    const data = await gql('query { rateLimit { cost remaining resetAt } }')
    expect(data.rateLimit.cost).toBe(1)
    expect(data.rateLimit.remaining).toBeGreaterThan(0)
    expect(Date.parse(data.rateLimit.resetAt)).toBeGreaterThan(Date.now())
  })
})

describe('history across merges', () => {
  it('history(first: 1, path:) names the commit git log -1 names, for every path and start', async () => {
    const r = GitRepo.init()
    r.write({ 'f.txt': '1\n', 'd/g.txt': 'g\n', 'gone.txt': 'x\n' })
    r.commit('root')
    r.branch('side')
    r.write({ 'f.txt': '2\n' })
    r.commit('side changes f')
    r.checkout('main')
    r.write({ 'd/g.txt': 'g2\n', 'gone.txt': null })
    r.commit('main changes g, removes gone')
    r.merge('side') // f from side: TREESAME to the second parent only
    r.branch('evil')
    r.write({ 'f.txt': '3\n' })
    r.commit('evil base')
    r.checkout('main')
    r.write({ 'd/g.txt': 'g3\n' })
    r.commit('main again')
    r.gitWith({}, 'merge', '-q', '--no-ff', '--no-commit', 'evil')
    r.write({ 'f.txt': 'neither\n', 'gone.txt': 'back\n' })
    const tip = r.commit('evil merge') // f differs from both parents
    chmodSync(join(r.path, 'd/g.txt'), 0o755)
    const modeOnly = r.commit('mode change only')
    const paths = ['f.txt', 'd/g.txt', 'd', 'gone.txt', 'never.txt']
    const starts = r.git('rev-list', '--all').split('\n')
    expect(starts).toContain(tip)
    expect(starts).toContain(modeOnly)
    const f = await startFakeGitHub({ repo: r })
    try {
      const client = getOctokit('t', { baseUrl: f.url })
      const sel = paths
        .map((_, i) => `h${i}: history(first: 1, path: $p${i}) { nodes { oid } }`)
        .join(' ')
      const decl = paths.map((_, i) => `$p${i}: String!`).join(', ')
      const q = `query($start: GitObjectID!, ${decl}) {
        repository(owner: "acme", name: "widgets") { object(oid: $start) { ... on Commit { ${sel} } } }
      }`
      const vars = Object.fromEntries(paths.map((p, i) => [`p${i}`, p]))
      for (const start of starts) {
        const data: Json = await client.graphql(q, { start, ...vars })
        paths.forEach((p, i) => {
          const expected = r.git('log', '-1', '--format=%H', start, '--', p)
          const got = data.repository.object[`h${i}`].nodes.map((n: Json) => n.oid)
          expect([start, p, got]).toEqual([start, p, expected ? [expected] : []])
        })
      }
      f.assertNoViolations()
    } finally {
      await f.close()
      r.cleanup()
    }
  }, 30_000)
})

describe('one read', () => {
  it('the PR, the receipts folder two levels deep and an absent file in one query', async () => {
    const q = `query read($owner: String!, $name: String!, $number: Int!, $dir: String!, $deferrals: String!) {
      repository(owner: $owner, name: $name) {
        pullRequest(number: $number) {
          headRefOid
          files(first: 100) { totalCount pageInfo { hasNextPage endCursor } nodes { path changeType } }
        }
        receipts: object(expression: $dir) {
          ... on Tree {
            entries {
              name type oid
              object {
                ... on Blob { byteSize isBinary isTruncated text }
                ... on Tree { entries { name type oid object { ... on Blob { text } } } }
              }
            }
          }
        }
        deferrals: object(expression: $deferrals) { ... on Blob { text } }
      }
    }`
    const before = fake.requestsFor('graphql').length
    const data = await gql(q, {
      owner: 'acme',
      name: 'widgets',
      number: 7,
      dir: `${head}:${DIR}`,
      deferrals: `${head}:.flow/deferrals.json`
    })
    const r = data.repository
    expect(r.pullRequest.headRefOid).toBe(head)
    expect(r.deferrals).toBeNull()
    const hist = r.receipts.entries.find((e: Json) => e.name === 'x.json.history')
    expect(hist.object.entries.map((e: Json) => e.object.text)).toEqual([
      '{"gen":1}\n',
      '{"gen":2}\n',
      '{"gen":3}\n'
    ])
    expect(fake.requestsFor('graphql')).toHaveLength(before + 1)
  })
})

describe('what GitHub refuses', () => {
  it('a field the schema lacks: 200 with errors in GitHub wording, recorded as a violation', async () => {
    const err = await failure(
      gql('query { repository(owner: "acme", name: "widgets") { nameWithOwnr } }')
    )
    expect(err.errors).toEqual([
      {
        extensions: { code: 'undefinedField' },
        locations: [{ line: 1, column: 54 }],
        message: "Field 'nameWithOwnr' doesn't exist on type 'Repository'"
      }
    ])
    expect(err.data).toBeUndefined()
    expect(fake.requestsFor('graphql').at(-1)!.status).toBe(200)
    expect(() => fake.assertNoViolations()).toThrow(/graphql.validation.*nameWithOwnr/)
    expect(fake.takeViolations().map((v) => v.rule)).toEqual(['graphql.validation'])
  })

  it('wrong arguments and variables, a parse error, connections without bounds', async () => {
    const refused = async (query: string, vars: Record<string, unknown> = {}) => {
      const err = await failure(gql(query, vars))
      expect(err.data).toBeUndefined()
      return err.errors!.map((e: Json) => e.message)
    }
    expect(
      await refused('query { repository(owner: "acme") { nameWithOwner } }')
    ).toEqual(["Field 'repository' is missing required arguments: name"])
    expect(
      await refused(
        'query { repository(owner: "acme", name: "widgets", color: 1) { nameWithOwner } }'
      )
    ).toEqual(["Field 'repository' doesn't accept argument 'color'"])
    expect(
      await refused(
        'query($n: Int!) { repository(owner: "acme", name: "widgets") { nameWithOwner } }',
        { n: 1 }
      )
    ).toEqual(['Variable $n is declared by anonymous query but not used'])
    expect(
      await refused(
        'query q($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { number } } }',
        { n: 'seven' }
      )
    ).toEqual(['Variable $n of type Int! was provided invalid value'])
    expect(
      await refused('query { repository(owner: "acme", name: "widgets") { ')
    ).toHaveLength(1)
    expect(
      await refused(
        'query { repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { files { totalCount } } } }'
      )
    ).toEqual([
      'You must provide a `first` or `last` value to properly paginate the `files` connection.'
    ])
    expect(
      await refused(
        'query { repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { files(first: 101) { totalCount } } } }'
      )
    ).toEqual([
      'Requesting 101 records on the `files` connection exceeds the `first` limit of 100 records.'
    ])
    expect(fake.takeViolations().map((v) => v.rule)).toEqual([
      'graphql.validation',
      'graphql.validation',
      'graphql.validation',
      'graphql.variables',
      'graphql.parse',
      'graphql.pagination',
      'graphql.pagination'
    ])
  })

  it('a field the fake does not implement: an error and an unexpected record, never a silent null', async () => {
    const err = await failure(
      gql(
        'query { repository(owner: "acme", name: "widgets") { nameWithOwner stargazerCount } }'
      )
    )
    expect(err.data).toEqual({ repository: null })
    expect(err.errors).toMatchObject([
      {
        type: 'FAKE_UNIMPLEMENTED',
        path: ['repository', 'stargazerCount'],
        message: 'fake GitHub does not implement Repository.stargazerCount'
      }
    ])
    expect(fake.unexpected.splice(0).map((u) => u.reason)).toEqual([
      'fake GitHub does not implement Repository.stargazerCount'
    ])
  })

  it('a request without a token answers 401', async () => {
    const res = await fetch(`${fake.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query { rateLimit { cost } }' })
    })
    expect(res.status).toBe(401)
    expect(((await res.json()) as Json).message).toBe(
      'This endpoint requires you to be authenticated.'
    )
  })
})

describe('faults', () => {
  const q = 'query { repository(owner: "acme", name: "widgets") { nameWithOwner } }'
  const ok = { repository: { nameWithOwner: 'acme/widgets' } }

  it('502 and other statuses, then normal answers', async () => {
    fake.faults.failFirst('graphql', 1, 502)
    fake.faults.add({ kind: 'status', route: 'POST /graphql', status: 503 })
    expect((await failure(gql(q))).status).toBe(502)
    expect((await failure(gql(q))).status).toBe(503)
    expect(await gql(q)).toEqual(ok)
    expect(
      fake
        .requestsFor('graphql')
        .slice(-3)
        .map((r) => [r.status, r.fault])
    ).toEqual([
      [502, 'status'],
      [503, 'status'],
      [200, undefined]
    ])
  })

  it('connection reset', async () => {
    fake.faults.add({ kind: 'reset', route: 'graphql' })
    const err = await failure(gql(q))
    expect(err.message).toMatch(/fetch failed|socket|ECONNRESET|other side closed/i)
    expect(await gql(q)).toEqual(ok)
  })

  it('secondary rate limit: 403 with retry-after, as REST', async () => {
    fake.faults.add({ kind: 'rate-limit', route: 'graphql', retryAfterSeconds: 3 })
    const err = await failure(gql(q))
    expect(err.status).toBe(403)
    expect(err.message).toMatch(/secondary rate limit/)
    expect(err.response!.headers['retry-after']).toBe('3')
  })

  it('primary rate limit: 200 with a RATE_LIMITED error, or 403 when asked, both with spent headers', async () => {
    fake.faults.add({ kind: 'rate-limit', route: 'graphql', resetAfterSeconds: 30 })
    const err = await failure(gql(q))
    expect(err.name).toBe('GraphqlResponseError')
    expect(err.errors).toMatchObject([{ type: 'RATE_LIMITED' }])
    expect(err.headers).toMatchObject({
      'x-ratelimit-remaining': '0',
      'x-ratelimit-resource': 'graphql'
    })
    expect(Number(err.headers!['x-ratelimit-reset'])).toBeGreaterThan(
      Date.now() / 1000 + 20
    )
    const rec = fake.requestsFor('graphql').at(-1)!
    expect([rec.status, rec.fault]).toEqual([200, 'rate-limit'])
    fake.faults.add({ kind: 'rate-limit', route: 'graphql', status: 403 })
    const err403 = await failure(gql(q))
    expect(err403.status).toBe(403)
    expect(err403.response!.headers['x-ratelimit-remaining']).toBe('0')
    expect(err403.response!.headers['x-ratelimit-resource']).toBe('graphql')
    expect(Number(err403.response!.headers['x-ratelimit-reset'])).toBeGreaterThan(
      Date.now() / 1000
    )
  })

  it('200 with errors only', async () => {
    fake.faults.add({ kind: 'graphql-error', route: 'graphql' })
    const err = await failure(gql(q))
    expect(err.data).toBeUndefined()
    expect(err.errors![0].message).toMatch(
      /^Something went wrong while executing your query/
    )
    expect(await gql(q)).toEqual(ok)
  })

  it('200 with partial data and errors at an aliased path', async () => {
    fake.faults.add({
      kind: 'graphql-error',
      path: ['repository', 'blob'],
      type: 'SERVICE_UNAVAILABLE',
      message: 'Timeout on blob'
    })
    const err = await failure(
      gql(`query { repository(owner: "acme", name: "widgets") {
        nameWithOwner
        blob: object(expression: "${head}:README.md") { ... on Blob { text } }
      } }`)
    )
    expect(err.data).toEqual({
      repository: { nameWithOwner: 'acme/widgets', blob: null }
    })
    expect(err.errors).toMatchObject([
      {
        type: 'SERVICE_UNAVAILABLE',
        path: ['repository', 'blob'],
        message: 'Timeout on blob'
      }
    ])
  })

  it('latency faults and the global latencyMs apply to GraphQL as to REST', async () => {
    fake.faults.add({ kind: 'latency', route: 'graphql', ms: 20 })
    await gql(q)
    const rec = fake.requestsFor('graphql').at(-1)!
    expect(rec.fault).toBe('latency')
    expect(rec.durationMs).toBeGreaterThanOrEqual(19)

    const slow = await startFakeGitHub({ repo, latencyMs: 25 })
    try {
      const client = getOctokit('t', { baseUrl: slow.url })
      await client.graphql(q)
      await client.rest.git.getCommit({
        owner: 'acme',
        repo: 'widgets',
        commit_sha: head
      })
      expect(slow.requests.map((r) => r.operationId)).toEqual([
        'graphql',
        'git/get-commit'
      ])
      for (const r of slow.requests) expect(r.durationMs).toBeGreaterThanOrEqual(24)
      slow.assertNoViolations()
    } finally {
      await slow.close()
    }
  })
})
