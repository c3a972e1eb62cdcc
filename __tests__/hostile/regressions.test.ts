/**
 * Regression cases for the defects the hostile corpus, the properties and the fault
 * matrix found (issue 6), each pinned at the smallest level that shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { logUntrusted } from '../../src/action/log.js'
import { buildAnnotations } from '../../src/gate/annotations.js'
import { evaluate } from '../../src/gate/evaluate.js'
import { parseOptions } from '../../src/gate/options.js'
import type { ReceiptRow, ReportFinding } from '../../src/gate/report.js'
import { globMatcher } from '../../src/gate/glob-matcher.js'
import { apiSource } from '../../src/github/api-source.js'
import { malformedAnswer } from '../../src/github/answers.js'
import { publishCheckRun } from '../../src/github/checks.js'
import { GitHubError, createClient } from '../../src/github/client.js'
import {
  checkContainer,
  checkCriteria,
  checkFindings
} from '../../src/receipts/findings.js'
import { isJsonObject, readJsonBytes } from '../../src/receipts/json.js'
import { inspectReceipt } from '../../src/receipts/receipt.js'
import { reportTitle } from '../../src/gate/outcome.js'
import { findingLine, renderSummary } from '../../src/render/summary.js'
import { GitRepo } from '../support/git-repo.js'
import { localServer } from '../support/local-server.js'
import { reportFinding, reportOf, reportRow } from '../support/report-builders.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonBytes,
  type Built
} from '../support/receipt-builders.js'
import { paths, replaced } from '../support/mutations.js'
import { MEMORY_HEAD, memorySource } from './memory-source.js'
import { invisibleIn } from './neutral.js'

describe('bookkeeping paths with line breaks (every receipt went stale)', () => {
  it('a file named with a newline under .flow/ is bookkeeping', () => {
    const isBookkeeping = globMatcher(['.flow/**', '!.flow/bin/**'])
    for (const path of [
      '.flow/review-receipts/x\n::set-output name=x::y.json',
      '.flow/a\rb.json',
      '.flow/a\u2028b.json'
    ])
      expect(isBookkeeping(path)).toBe(true)
    expect(isBookkeeping('.flow/bin/x\ny')).toBe(false)
    expect(isBookkeeping('src/x\n.flow/y')).toBe(false)
  })
})

describe('validation reasons echo bounded text (an unknown key of any length)', () => {
  it('clips a 60,000-character unknown key', () => {
    const container = buildContainer({
      items: [buildItem({ with: { ['k'.repeat(60_000)]: 1 } })]
    })
    const checked = checkContainer(
      JSON.parse(new TextDecoder().decode(jsonBytes(container)))
    )
    expect(checked.ok).toBe(false)
    if (!checked.ok)
      for (const reason of checked.reasons) expect(reason.length).toBeLessThan(200)
  })
})

describe('a `length` key where a string or a list belongs (the pipeline fuzz, seed -1279685685)', () => {
  // zod ran its length checks on any value with a `length`, after the type check had
  // failed: comparing `{}` (no prototype, as every parsed object) with a number threw.
  const LENGTHY = '{"length":{}}'

  it('in the envelope: refused with the guard’s reason, not thrown', () => {
    const bytes = new TextEncoder().encode(`{"id":${LENGTHY}}`)
    expect(inspectReceipt('impl-fn-7.1.json', bytes)).toMatchObject({
      readable: false,
      reason: 'missing type/id (both must be non-empty strings)'
    })
  })

  it('in the findings: a string field and each list refused, not thrown', () => {
    const parse = (value: Built) => readJsonBytes(jsonBytes(value))
    for (const [key, where] of [
      ['title', 'item'],
      ['rIds', 'item'],
      ['items', 'container']
    ] as const) {
      const item = buildItem(where === 'item' ? { with: { [key]: { length: {} } } } : {})
      const container = buildContainer({ items: [item] })
      const value =
        where === 'container' ? { ...container, [key]: { length: {} } } : container
      const read = parse(value)
      if (!read.ok) throw new Error(read.reason)
      const checked = checkContainer(read.value)
      expect({ key, ok: checked.ok }).toEqual({ key, ok: false })
      if (!checked.ok) expect(checked.reasons.join('\n')).toContain(key)
    }
    const receipt = parse({ type: 'completion_review', criteria: { length: {} } })
    if (!receipt.ok || !isJsonObject(receipt.value)) throw new Error('unreadable')
    expect(checkCriteria(receipt.value)).toMatchObject({ ok: false })
  })
})

describe('any JSON value in place of any field is refused, never thrown', () => {
  // Every key of a valid receipt (envelope, container, item, anchor) in turn holds each
  // of these: the validators must answer, whatever zod or the plain checks meet.
  const ODD = [
    '{}',
    '{"length":{}}',
    '{"length":1}',
    '[]',
    '[{}]',
    '1.5',
    '-1',
    'true',
    '""'
  ]
  const receipt = buildReceipt({
    findings: buildContainer({
      items: [buildItem({ anchor: { headSha: 'a'.repeat(40), baseSha: 'b'.repeat(40) } })]
    })
  })
  const fields = paths(receipt).filter((path) => path.length > 0)

  it(`holds for ${fields.length} fields × ${ODD.length} values`, () => {
    for (const path of fields) {
      for (const odd of ODD) {
        const bytes = jsonBytes(replaced(receipt, path, JSON.parse(odd) as Built))
        const run = () => {
          const inspected = inspectReceipt('impl-fn-7.1.json', bytes)
          if (inspected.readable && inspected.data) checkFindings(inspected.data)
        }
        expect({ path: path.join('.'), odd, threw: threw(run) }).toEqual({
          path: path.join('.'),
          odd,
          threw: null
        })
      }
    }
  })
})

function threw(run: () => void): string | null {
  try {
    run()
    return null
  } catch (error) {
    return String(error)
  }
}

const finding = reportFinding

function row(
  findings: ReportFinding[],
  path = '.flow/review-receipts/impl-fn-1.1.json'
): ReceiptRow {
  return reportRow({ path, reviewedHead: MEMORY_HEAD, findings })
}

describe('annotations are neutral and within GitHub limits', () => {
  it('titles fit 255 UTF-16 units (240 emoji were refused with 422)', () => {
    const [annotation] = buildAnnotations([row([finding({ title: '🦀'.repeat(240) })])])
    expect(annotation!.title.length).toBeLessThanOrEqual(255)
    expect(annotation!.title).toMatch(/…$/)
    expect(annotation!.title).not.toMatch(/\uFFFD|[\uD800-\uDBFF]$/)
  })
  it('titles drop zero-width and bidi marks; messages show controls as \\u{…}', () => {
    const [annotation] = buildAnnotations([
      row([
        finding({
          title: 'a\u200bb\u200ec\u061cd\ufeffe',
          body: 'red \u001b[31m x \u202e y \u200b z\nnext line',
          suggestion: 'bell \u0007'
        })
      ])
    ])
    expect(invisibleIn(annotation!.title)).toBeNull()
    expect(invisibleIn(annotation!.message.replace(/\n/g, ''))).toBeNull()
    expect(annotation!.message).toContain('\\u{1b}[31m')
    expect(annotation!.message).toContain('\nnext line')
  })
})

describe('the log inside stop-commands blocks', () => {
  it('shows ANSI escapes and bidi overrides instead of rendering them', () => {
    const lines: string[] = []
    logUntrusted((line) => lines.push(line), ['\u001b[8mhidden \u202eevil\u200b'])
    expect(lines[1]).toBe('\\u{1b}[8mhidden \\u{202e}evil\\u{200b}')
  })
  it('shows every format character: tag characters, soft hyphens, annotation marks', () => {
    const lines: string[] = []
    logUntrusted(
      (line) => lines.push(line),
      ['t\u{e0041}\u{e007f} s\u00ad a\ufff9b\ufffb \u2029']
    )
    expect(lines[1]).toBe('t\\u{e0041}\\u{e007f} s\\u{ad} a\\u{fff9}b\\u{fffb} \\u{2029}')
  })
})

describe('a truncated listing is an unknown state (it used to be only a note)', () => {
  it('fails the gate even when every receipt it did list passes', async () => {
    const receipt = buildReceipt({
      id: 'fn-1.1',
      verdict: 'SHIP',
      findings: buildContainer({ headSha: MEMORY_HEAD, items: 0 })
    })
    const options = parseOptions({ select: 'all' })
    const report = await evaluate({
      source: memorySource({
        dir: options.receiptsDir,
        files: [{ path: 'impl-fn-1.1.json', bytes: jsonBytes(receipt) }],
        ancestry: new Map(),
        truncated: true
      }),
      options,
      body: null,
      branch: null
    })
    expect(report.receipts[0]).toMatchObject({
      currentness: 'current',
      conclusion: 'success'
    })
    expect(report.conclusion).toBe('failure')
    expect(reportTitle(report)).toContain('receipts folder listed incompletely')
  })
})

describe('nothing lost when the summary is cut at 65535 bytes', () => {
  it('counts every finding line it cannot show', () => {
    const findings = (n: number): ReportFinding[] =>
      Array.from({ length: n }, (_, i) =>
        finding({
          id: `finding-${i}`,
          ordinal: i + 1,
          title: `${'t'.repeat(200)} ${i}`,
          body: 'b'.repeat(3000),
          anchor: null
        })
      )
    const rows = [
      row(findings(200)),
      row(findings(200), '.flow/review-receipts/impl-fn-1.2.json')
    ]
    const report = reportOf(rows, { head: MEMORY_HEAD })
    const summary = renderSummary(report)
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(65535)
    const lines = new Set(summary.split('\n'))
    const shown = rows
      .flatMap((r) => r.findings.map((f) => findingLine(f, r.path)))
      .filter((line) => lines.has(line)).length
    const counted = Number(
      /(\d+) findings? (?:and \d+ detail blocks? )?not shown/.exec(summary)?.[1]
    )
    expect(shown).toBeLessThan(400)
    expect(shown + counted).toBe(400)
  })
})

describe('the GitHub client', () => {
  const server = localServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"number":1}')
    }, 1500)
  })

  it('times a request out (the timeout signal used to be dropped by the hook chain)', async () => {
    // The timeout's floor, 1 s, against an answer that takes 1.5 s; a write is not
    // retried after a timeout, so one attempt shows it.
    const octokit = createClient({ token: 't', baseUrl: server.url(), timeScale: 0.001 })
    const error = await octokit.rest.checks
      .create({ owner: 'a', repo: 'b', name: 'n', head_sha: 'abc' })
      .then(
        () => null,
        (e: unknown) => e
      )
    expect(error).toBeInstanceOf(GitHubError)
    // Answered at 1.5 s, it would have succeeded without the deadline.
    expect((error as Error).message).toMatch(/request timed out/)
  })
})

describe('the GitHub client, redirected', () => {
  // A renamed repository answers reads with 301 to its new name; each hop here takes
  // 400 ms and the last answers 200.
  const server = localServer((req, res) => {
    const hop = Number(/\/hop\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0)
    setTimeout(() => {
      if (hop < 3) {
        res.writeHead(301, { location: `/repos/a/b/hop/${hop + 1}` })
        res.end()
      } else {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"number":1}')
      }
    }, 400)
  })

  it('follows a read to where it moved', async () => {
    const octokit = createClient({ token: 't', baseUrl: server.url(), timeScale: 1 })
    const { data } = await octokit.request('GET /repos/a/b/hop/0')
    expect(data).toEqual({ number: 1 })
  })

  it('keeps one deadline for an attempt, its redirects included', async () => {
    // Four hops of 400 ms against the deadline's floor, 1 s: each hop alone is in time,
    // the attempt is not (a deadline per hop let a redirect chain run past it).
    const octokit = createClient({ token: 't', baseUrl: server.url(), timeScale: 0.001 })
    const error = await octokit.request('GET /repos/a/b/hop/0').then(
      () => null,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(GitHubError)
    expect((error as Error).message).toMatch(/request timed out/)
  })
})

/** The REST source of repository a/b at head d…d, against a local server's raw answers. */
const apiSourceAt = (url: string) =>
  apiSource({
    octokit: createClient({ token: 't', baseUrl: url, timeScale: 0.001 }),
    owner: 'a',
    repo: 'b',
    head: 'd'.repeat(40),
    pullNumber: 1,
    changedFiles: Promise.resolve(0),
    pullHead: 'd'.repeat(40)
  })

describe('REST answers that are not what GitHub documents (any answer may be hostile)', () => {
  // Per route: a blob by SHA (GitHub's JSON form, a text form, no content), a tree that
  // lists no entries (`null` by name, a non-list by id), a compare of `null`, a files list
  // whose entry has no name, a created check run without an id.
  const RECEIPT = '{"type":"impl_review"}'
  const server = localServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '')
    const sha = /\/git\/blobs\/(\w+)$/.exec(url)?.[1]
    const answer = sha
      ? sha === 'a'.repeat(40)
        ? { content: Buffer.from(RECEIPT).toString('base64'), encoding: 'base64' }
        : sha === 'b'.repeat(40)
          ? { content: RECEIPT, encoding: 'utf-8' }
          : { sha: 'c' }
      : url.includes('/git/trees/')
        ? url.includes(':')
          ? null
          : { tree: 'x' }
        : url.includes('/pulls/1/files')
          ? [{ filename: 'a.ts', status: 'added' }, { status: 'added' }]
          : url.includes('/check-runs')
            ? { html_url: 'https://example.test/run' }
            : null
    res.writeHead(req.method === 'POST' ? 201 : 200, {
      'content-type': 'application/json; charset=utf-8'
    })
    res.end(JSON.stringify(answer))
  })
  const malformed = (route: string, at: string) =>
    `${route}: GitHub's answer is malformed at ${at}: Invalid input: expected`

  it('checks the answer of every route the product reads, and only those', () => {
    const { rest } = createClient({ token: 't', timeScale: 1 })
    const read = [
      rest.repos.compareCommitsWithBasehead,
      rest.repos.getCommit,
      rest.repos.listCommits,
      rest.repos.getContent,
      rest.pulls.get,
      rest.pulls.list,
      rest.pulls.listFiles,
      rest.pulls.listCommits,
      rest.git.getTree,
      rest.git.getBlob,
      rest.checks.create,
      rest.checks.get,
      rest.checks.listForRef
    ]
    for (const { endpoint } of read) {
      const { method, url } = endpoint.DEFAULTS
      expect([url, malformedAnswer(method, url, null)]).toEqual([url, expect.any(String)])
    }
    for (const { endpoint } of [rest.checks.update, rest.repos.get]) {
      const { method, url } = endpoint.DEFAULTS
      expect(malformedAnswer(method, url, null)).toBeNull()
    }
    // A later page, by the URL of GitHub's `link` header.
    const page = 'https://api.github.com/repositories/1/pulls/2/files?page=3'
    expect(malformedAnswer('GET', page, [{}])).toMatch(/at 0\.filename/)
  })

  it('decodes a blob’s JSON form, and gives a reason for one with no content', async () => {
    const source = apiSourceAt(server.url())
    const [base64, text, empty] = ['a', 'b', 'c'].map((c) => c.repeat(40))
    const blobs = await source.readBlobs([base64!, text!, empty!])
    expect(Buffer.from(blobs.get(base64!) as Uint8Array).toString()).toBe(RECEIPT)
    expect(Buffer.from(blobs.get(text!) as Uint8Array).toString()).toBe(RECEIPT)
    expect(blobs.get(empty!)).toMatch(
      malformed('GET /repos/{owner}/{repo}/git/blobs/{file_sha}', 'content')
    )
  })

  it('refuses a tree that lists no entries, rather than reading no receipts', async () => {
    const route = 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}'
    await expect(
      apiSourceAt(server.url()).listTree('.flow/review-receipts')
    ).rejects.toThrow(
      `${route}: GitHub's answer is malformed: Invalid input: expected object`
    )
    await expect(apiSourceAt(server.url()).listTree('./receipts')).rejects.toThrow(
      malformed(route, 'tree')
    )
  })

  it('names a malformed compare and files list, where a TypeError used to fail the step', async () => {
    const source = apiSourceAt(server.url())
    const error = await source.ancestry('e'.repeat(40)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GitHubError)
    expect((error as Error).message).toBe(
      "GET /repos/{owner}/{repo}/compare/{basehead}: GitHub's answer is malformed: Invalid input: expected object, received null"
    )
    await expect(source.changedFiles()).rejects.toThrow(
      // The files list is read by page number: its pages are named by their route.
      malformed('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', '1.filename')
    )
  })

  it('refuses a created check run without an id, rather than PATCHing run "undefined"', async () => {
    const octokit = createClient({ token: 't', baseUrl: server.url(), timeScale: 0.001 })
    const published = publishCheckRun(octokit, {
      owner: 'a',
      repo: 'b',
      name: 'Review receipts',
      headSha: 'd'.repeat(40),
      externalId: '1-1',
      conclusion: 'success',
      title: 't',
      summary: 's',
      annotations: [],
      summaryWithDropped: () => 's',
      timeScale: 0.001,
      log: () => undefined
    })
    await expect(published).rejects.toThrow(
      malformed('POST /repos/{owner}/{repo}/check-runs', 'id')
    )
  })
})

describe('a write that lands after its timeout is not sent twice', () => {
  let repo: GitRepo
  let fake: FakeGitHub
  let head: string
  beforeAll(async () => {
    repo = GitRepo.init()
    repo.write({ 'a.txt': 'a\n' })
    head = repo.commit('a')
    fake = await startFakeGitHub({ repo })
  })
  afterAll(async () => {
    await fake.close()
    repo.cleanup()
  })

  const annotations = Array.from({ length: 60 }, (_, i) => ({
    path: 'a.txt',
    start_line: 1,
    end_line: 1,
    annotation_level: 'notice' as const,
    title: `n${i}`,
    message: 'm'
  }))
  const publish = async (externalId: string) =>
    publishCheckRun(createClient({ token: 't', baseUrl: fake.url, timeScale: 0.01 }), {
      owner: 'acme',
      repo: 'widgets',
      name: 'Review receipts',
      headSha: head,
      externalId,
      conclusion: 'success',
      title: 't',
      summary: 's',
      annotations,
      summaryWithDropped: () => 's',
      timeScale: 0.01,
      log: () => undefined
    })

  it.each([
    [
      'a create that times out and lands later: one check run',
      'checks/create',
      'create-1'
    ],
    [
      'a PATCH that times out and lands later: no annotation twice',
      'checks/update',
      'update-1'
    ]
  ])('%s', async (_name, route, externalId) => {
    // 1.5 s latency against the 1 s timeout: the write lands after the client gave up.
    const remove = fake.faults.add({ kind: 'latency', route, ms: 1500, times: 1 })
    await publish(externalId)
    await new Promise((resolve) => setTimeout(resolve, 600))
    remove()
    const runs = fake.checks.runs.filter((r) => r.external_id === externalId)
    expect(runs).toHaveLength(1)
    expect(runs[0]!.annotations).toHaveLength(60)
  })
})
