/**
 * The GraphQL source (issue 24) end to end: dist/index.js against the local API. One query
 * reads the PR and the receipts; what GraphQL cannot give byte for byte goes through REST;
 * a refused GraphQL read falls back to the REST source with the same report.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { ActionRun } from '../support/runner.js'
import { depth } from '../support/bench/processes.js'
import {
  DIR,
  prFixture,
  receipts230,
  receiptWith,
  refuseGraphql,
  runOnPr,
  type PrFixture
} from './support.js'

const open: PrFixture[] = []
afterEach(async () => {
  for (const f of open.splice(0)) {
    await f.fake.close()
    f.repo.cleanup()
  }
})

async function fixture(...args: Parameters<typeof prFixture>): Promise<PrFixture> {
  const f = await prFixture(...args)
  open.push(f)
  return f
}

const reportOf = (r: ActionRun): unknown =>
  JSON.parse(readFileSync(r.outputs.report ?? '', 'utf8'))
const count = (r: ActionRun, operationId: string): number =>
  r.requests.filter((q) => q.operationId === operationId).length
/** The operations one run used, each once (a read retried on a slow machine is one). */
const operations = (r: ActionRun): string[] =>
  [...new Set(r.requests.map((q) => q.operationId ?? `${q.route}`))].sort()

/** Runs the action through GraphQL, then with GraphQL refused (REST), on the same PR. */
async function bothWays(f: PrFixture): Promise<{ gql: ActionRun; rest: ActionRun }> {
  const gql = await runOnPr(f)
  refuseGraphql(f)
  const rest = await runOnPr(f)
  return { gql, rest }
}

describe('the GraphQL read', () => {
  it('10 receipts: one GraphQL request, the REST files list beside it, one compare, one write; no REST tree, blob or PR read', async () => {
    const f = await fixture((reviewed, base) =>
      Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [
          `${DIR}/impl-fn-7.${i + 1}.json`,
          receiptWith(reviewed, base, { id: `fn-7.${i + 1}`, verdict: 'SHIP' })
        ])
      )
    )
    const { gql, rest } = await bothWays(f)
    expect(gql.exitCode).toBe(0)
    expect(gql.outputs).toMatchObject({ conclusion: 'success', receipts: '10' })
    // Review coverage tells the PR's 2 commits apart with no read: the reviewed one by its
    // tree and its parent's (the first commit's parents come with the read); the head's
    // parent is the reviewed commit, so the compare of the two is its diff.
    expect(operations(gql)).toEqual([
      'checks/create',
      'graphql',
      'pulls/list-files',
      'repos/compare-commits-with-basehead'
    ])
    expect(count(gql, 'repos/compare-commits-with-basehead')).toBe(1)
    expect(count(gql, 'checks/create')).toBe(1)
    // The same verdicts through REST, at a request per blob.
    expect(reportOf(rest)).toEqual(reportOf(gql))
    expect(count(rest, 'git/get-blob')).toBe(10)
    expect(count(rest, 'pulls/get')).toBe(1)
  }, 30_000)

  it('the REST files list is asked for while the GraphQL read is on its way (one round trip for both)', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    // A slow GraphQL answer: a files list asked for after it would arrive after its end.
    f.fake.faults.add({ kind: 'latency', route: 'graphql', ms: 1000 })
    const result = await runOnPr(f)
    expect(result.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    const [read] = result.requests.filter((q) => q.operationId === 'graphql')
    const [files] = result.requests.filter((q) => q.operationId === 'pulls/list-files')
    expect(files!.receivedMs).toBeLessThan(read!.receivedMs + read!.durationMs)
  }, 30_000)

  it('230 findings at 150 ms a request: 8 requests, 7 deep (2 + ceil(230 / 50): the read and the files list, the compare, 5 writes)', async () => {
    const f = await fixture(
      receipts230,
      {},
      // A latency long enough that a request sent after an answer is a round of its own.
      { latencyMs: 150 }
    )
    const result = await runOnPr(f)
    expect(result.outputs).toMatchObject({ 'introduced-open': '230' })
    const routes: Record<string, number> = {}
    for (const q of result.requests) {
      const name = q.operationId ?? `${q.method} ${q.path}`
      routes[name] = (routes[name] ?? 0) + 1
    }
    expect(routes).toEqual({
      graphql: 1,
      'pulls/list-files': 1,
      'repos/compare-commits-with-basehead': 1,
      'checks/create': 1,
      'checks/update': 4
    })
    expect(depth(result.requests)).toBe(7)
  }, 30_000)

  it('a head the event does not name (workflow_dispatch): the folder in a second query, the deferral file through REST', async () => {
    const f = await fixture(
      (reviewed, base) => ({
        [`${DIR}/impl-fn-7.1.json`]: JSON.stringify({
          ...JSON.parse(receiptWith(reviewed, base)),
          walkthrough: {
            applied: 0,
            deferred: 1,
            skipped: 0,
            acknowledged: 0,
            lfg_rest: false
          }
        }),
        '.flow/review-deferred/feature-fn-7.md': '- [P2] a:1 — b\n'
      }),
      { body: '- [ ] a:1 — b — deferred from impl-review (`x`)' }
    )
    const event = await runOnPr(f)
    const dispatch = await runOnPr(f, {
      event: { name: 'workflow_dispatch', payload: {} },
      inputs: { 'pull-number': '1' }
    })
    expect(dispatch.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    expect(reportOf(dispatch)).toEqual(reportOf(event))
    expect((reportOf(dispatch) as { deferred: unknown }).deferred).toMatchObject({
      expected: 1,
      named: 1
    })
    expect(count(event, 'graphql')).toBe(1)
    expect(count(event, 'repos/get-content')).toBe(0)
    expect(count(dispatch, 'graphql')).toBe(2)
    expect(count(dispatch, 'repos/get-content')).toBe(1)
  }, 30_000)

  it('an invalid UTF-8 receipt and a binary one are read through REST blobs and judged as before', async () => {
    let at = 0
    const f = await fixture((reviewed, base) => {
      const text = Buffer.from(receiptWith(reviewed, base, { id: 'fn-7.1' }))
      at = text.indexOf('Finding 1')
      text[at] = 0xff // GraphQL's text would carry U+FFFD here: its hash tells
      const binary = Buffer.from(receiptWith(reviewed, base, { id: 'fn-7.2' }))
      binary[binary.indexOf('Finding 1')] = 0 // a NUL: GraphQL calls it binary, no text
      return {
        [`${DIR}/impl-fn-7.1.json`]: text,
        [`${DIR}/impl-fn-7.2.json`]: binary,
        [`${DIR}/impl-fn-7.3.json`]: receiptWith(reviewed, base, { id: 'fn-7.3' })
      }
    })
    const { gql, rest } = await bothWays(f)
    const report = reportOf(gql) as { receipts: { path: string; reason: string }[] }
    expect(report.receipts[0]?.reason).toContain(`not valid UTF-8 (at byte ${at})`)
    expect(report.receipts[1]?.reason).toMatch(/\S/)
    expect(reportOf(rest)).toEqual(report)
    // Exactly the two inexact blobs went through REST; the third came with the query.
    expect(count(gql, 'git/get-blob')).toBe(2)
    expect(count(gql, 'git/get-tree')).toBe(0)
  }, 30_000)

  it('a truncated blob text falls back to the REST blob; the verdict is the same', async () => {
    const f = await fixture(
      (reviewed, base) => ({
        [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
          verdict: 'NEEDS_WORK'
        })
      }),
      {},
      { blobTextLimit: 100 }
    )
    const { gql, rest } = await bothWays(f)
    expect(gql.outputs).toMatchObject({ conclusion: 'failure', receipts: '1' })
    expect(count(gql, 'git/get-blob')).toBe(1)
    expect(reportOf(rest)).toEqual(reportOf(gql))
  }, 30_000)

  it('folders deeper than the query reaches are listed through REST', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/a/b/impl-fn-7.1.json`]: receiptWith(reviewed, base, { id: 'fn-7.1' }),
      [`${DIR}/a/b/c/impl-fn-7.2.json`]: receiptWith(reviewed, base, { id: 'fn-7.2' })
    }))
    const { gql, rest } = await bothWays(f)
    expect(gql.outputs).toMatchObject({ conclusion: 'success', receipts: '2' })
    // `a/b/c` is the fourth level: its tree and blob come through REST.
    expect(
      gql.requests
        .filter((q) => q.operationId === 'git/get-tree')
        .map((q) => decodeURIComponent(q.path).replace(/^.*\/git\/trees\/[0-9a-f]+:/, ''))
    ).toEqual([`${DIR}/a/b/c?recursive=1`])
    expect(count(gql, 'git/get-blob')).toBe(1)
    expect(reportOf(rest)).toEqual(reportOf(gql))
  }, 30_000)
})

describe('a receipts folder too large for one answer', () => {
  it('is listed with its sizes, its texts read in bounded queries: no answer over the limit, the same report', async () => {
    // 12 receipts of ~200 KB: 2.4 MB of text, where GitHub's answer limit is 1.5 MB here.
    const limit = 1_500_000
    const f = await fixture(
      (reviewed, base) =>
        Object.fromEntries(
          Array.from({ length: 12 }, (_, i) => [
            `${DIR}/impl-fn-7.${i + 1}.json`,
            JSON.stringify({
              ...JSON.parse(receiptWith(reviewed, base, { id: `fn-7.${i + 1}` })),
              notes: `${i} `.repeat(100_000)
            })
          ])
        ),
      {},
      { graphqlAnswerLimit: limit }
    )
    const { gql, rest } = await bothWays(f)
    expect(gql.outputs).toMatchObject({ conclusion: 'success', receipts: '12' })
    expect(reportOf(rest)).toEqual(reportOf(gql))
    const reads = gql.requests.filter((q) => q.operationId === 'graphql')
    // The one read with every text was refused; then the listing, then ~1 MB of texts a
    // query (4 of them: ~300 KB a receipt), every answer within the limit, no REST blob.
    expect(reads.filter((q) => q.overLimit)).toHaveLength(1)
    expect(reads[0]?.overLimit).toBe(true)
    expect(reads).toHaveLength(1 + 1 + 4)
    for (const q of reads) expect(q.responseBytes).toBeLessThanOrEqual(limit)
    expect(count(gql, 'git/get-blob')).toBe(0)
    expect(count(gql, 'git/get-tree')).toBe(0)
    // The listing kept the commits' trees: coverage tells them apart without a read.
    expect(count(gql, 'repos/get-commit')).toBe(0)
  }, 60_000)
})

describe('commits whose trees make the one read too large', () => {
  it('the listing without the trees: still GraphQL, coverage by reads, the same report', async () => {
    // 2,000 files at the root: the PR's last commit's tree alone is ~170 KB of entries.
    const limit = 100_000
    const f = await fixture(
      (reviewed, base) => ({
        ...Object.fromEntries(
          Array.from({ length: 2000 }, (_, i) => [
            `r${String(i).padStart(4, '0')}.txt`,
            `${i}\n`
          ])
        ),
        [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
      }),
      {},
      { graphqlAnswerLimit: limit }
    )
    const { gql, rest } = await bothWays(f)
    expect(reportOf(rest)).toEqual(reportOf(gql))
    const reads = gql.requests.filter((q) => q.operationId === 'graphql')
    // The read with the trees was refused, and the listing with them; the listing without
    // them was not, nor the query of the receipt's text after it: no REST read of the PR.
    expect(reads.slice(0, 2).map((q) => q.overLimit)).toEqual([true, true])
    for (const q of reads.slice(2)) expect(q.responseBytes).toBeLessThanOrEqual(limit)
    expect(count(gql, 'pulls/get')).toBe(0)
    // Coverage reads the PR's commits the trees would have told.
    expect(count(gql, 'repos/get-commit')).toBeGreaterThan(0)
  }, 60_000)
})

describe('GraphQL failing', () => {
  it('refused (FORBIDDEN): the REST source, the same report, and why in the log', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, { verdict: 'NEEDS_WORK' })
    }))
    const { gql, rest } = await bothWays(f)
    expect(rest.exitCode).toBe(1)
    expect(reportOf(rest)).toEqual(reportOf(gql))
    expect(rest.stdout).toMatch(
      /the GraphQL read failed \(FORBIDDEN: .*Resource not accessible by integration.*\); reading through REST/
    )
    expect(count(rest, 'graphql')).toBe(1)
    expect(count(rest, 'pulls/get')).toBe(1)
  }, 30_000)

  it('an HTTP 403 without a rate limit: the REST source', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    f.fake.faults.add({ kind: 'status', route: 'graphql', status: 403, times: Infinity })
    const result = await runOnPr(f)
    expect(result.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    expect(count(result, 'graphql')).toBe(1)
    expect(count(result, 'git/get-blob')).toBe(1)
  }, 30_000)

  it('5xx answers are retried (the client policy for reads); no REST reads', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    f.fake.faults.failFirst('graphql', 2, 502)
    const result = await runOnPr(f)
    expect(result.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    expect(result.stdout).toMatch(/^POST \/graphql: HTTP 502; retrying/m)
    expect(count(result, 'graphql')).toBeGreaterThanOrEqual(3)
    expect(count(result, 'pulls/get')).toBe(0)
    expect(count(result, 'git/get-blob')).toBe(0)
  }, 30_000)
})
