/**
 * End to end: the real bundled `dist/index.js`, run as the runner runs it, against the
 * local GitHub API (every request and response validated against GitHub's OpenAPI
 * description), on pull requests built in real git repositories.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { BuiltObject } from '../support/receipt-builders.js'
import {
  DIR,
  receipts230,
  receiptWith,
  refuseGraphql,
  rejectAnnotationsWith,
  trackedPrs
} from './support.js'
import type { ActionRun } from '../support/runner.js'
import MarkdownIt from 'markdown-it'

// Several tests run the action two or three times: jest's default 5 s is too tight on a
// loaded 2-core machine (a limit on the test, not an assertion on the action's speed).
jest.setTimeout(30_000)

const { fixture, run } = trackedPrs(afterEach)

/** Requests of one run by operation, the refused GraphQL read aside. */
const countOf = (r: ActionRun): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const q of r.requests)
    if (q.operationId !== null && q.operationId !== 'graphql')
      counts[q.operationId] = (counts[q.operationId] ?? 0) + 1
  return counts
}

/** The operations one run used, each once (a read retried on a slow machine is one). */
const operations = (r: ActionRun): string[] =>
  [...new Set(r.requests.map((q) => q.operationId ?? `${q.route}`))].sort()

/** The run's `::error::` lines that are not annotations (the step's own error). */
const errorLines = (r: ActionRun): string[] =>
  r.stdout.split('\n').filter((line) => line.startsWith('::error::'))

const writes = (r: ActionRun) => r.requests.filter((q) => q.method !== 'GET')

describe('the action on a pull request', () => {
  it('current SHIP → success: one completed check run on the PR head, outputs, summary, report', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
        item: () => ({ severity: 'P2' })
      })
    }))
    const result = await run(f)
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    const head = f.repo.revParse('feature/fn-7')
    const checkRuns = f.fake.checks.runs
    expect(checkRuns).toHaveLength(1)
    expect(checkRuns[0]).toMatchObject({
      name: 'Review receipts',
      head_sha: head,
      status: 'completed',
      conclusion: 'success',
      external_id: '4242-1'
    })
    expect(checkRuns[0]?.annotations).toEqual([
      expect.objectContaining({
        path: 'src/file-1.ts',
        start_line: 10,
        end_line: 12,
        annotation_level: 'warning'
      })
    ])
    expect(result.outputs).toMatchObject({
      conclusion: 'success',
      verdict: 'SHIP',
      current: 'true',
      receipts: '1',
      'introduced-open': '1',
      'deferred-unnamed': '0',
      'check-run-id': String(checkRuns[0]?.id)
    })
    expect(result.outputs['check-run-url']).toMatch(/^https:\/\//)
    expect(result.summary).toContain('### 1. Verdict')
    const reportText = readFileSync(result.outputs.report ?? '', 'utf8')
    const report = JSON.parse(reportText)
    expect(report).toMatchObject({ conclusion: 'success', head })
    // Written in pieces (issue 7), read as `check --format json` prints it.
    expect(reportText).toBe(`${JSON.stringify(report, null, 2)}\n`)
    expect(result.stdout).toContain('::stop-commands::')
    // One GraphQL read (the PR, the receipt's text, the deferral file, the PR's commits
    // with their trees, which tell review coverage code from bookkeeping), the REST files
    // list beside it (the patches), one compare, one write.
    expect(operations(result)).toEqual([
      'checks/create',
      'graphql',
      'pulls/list-files',
      'repos/compare-commits-with-basehead'
    ])
    // Through REST, the blob's JSON form (base64): fetch would decode a raw answer as text.
    refuseGraphql(f)
    const rest = await run(f)
    expect(rest.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
    const blobs = rest.requests.filter((q) => q.operationId === 'git/get-blob')
    expect(blobs.length).toBeGreaterThan(0)
    for (const blob of blobs) expect(blob.accept).not.toMatch(/raw/)
  }, 20_000)

  it('a receipt that is not valid UTF-8 is read as its exact bytes through the API', async () => {
    let at = 0
    const f = await fixture((reviewed, base) => {
      const text = Buffer.from(receiptWith(reviewed, base))
      at = text.indexOf('Finding 1')
      text[at] = 0xff // an invalid byte inside a string: the JSON stays well-formed
      return { [`${DIR}/impl-fn-7.1.json`]: text }
    })
    const result = await run(f)
    const report = JSON.parse(readFileSync(result.outputs.report ?? '', 'utf8'))
    expect(report.receipts[0].reason).toContain(`not valid UTF-8 (at byte ${at})`)
  })

  it('a server that answers blobs in JSON whatever the media type: the receipts are read from their base64', async () => {
    const f = await fixture(
      (reviewed, base) => ({
        [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
          verdict: 'NEEDS_WORK',
          count: 3
        })
      }),
      {},
      { rawBlobs: false }
    )
    refuseGraphql(f) // the REST source reads the blobs
    const result = await run(f)
    expect(result.stderr).toBe('')
    expect(result.outputs).toMatchObject({ conclusion: 'failure', receipts: '1' })
    expect(f.fake.checks.runs[0]?.annotations).toHaveLength(3)
    const blobs = result.requests.filter((q) => q.operationId === 'git/get-blob')
    expect(blobs.length).toBeGreaterThan(0)
  })

  it('NEEDS_WORK with 230 anchored findings → failure; 230 annotations in 5 requests of at most 50', async () => {
    const f = await fixture(receipts230)
    const result = await run(f)
    expect(result.exitCode).toBe(1)
    const checkWrites = writes(result).filter(
      (q) => q.operationId === 'checks/create' || q.operationId === 'checks/update'
    )
    expect(checkWrites.map((q) => q.operationId)).toEqual([
      'checks/create',
      'checks/update',
      'checks/update',
      'checks/update',
      'checks/update'
    ])
    const sizes = checkWrites.map(
      (q) =>
        ((q.body as { output: { annotations: unknown[] } }).output.annotations ?? [])
          .length
    )
    expect(sizes).toEqual([50, 50, 50, 50, 30])
    expect(f.fake.checks.runs[0]?.annotations).toHaveLength(230)
    expect(result.outputs).toMatchObject({
      conclusion: 'failure',
      verdict: 'NEEDS_WORK',
      'introduced-open': '230'
    })
  })

  it('NEEDS_HUMAN → action_required and a failed step', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, { verdict: 'NEEDS_HUMAN' })
    }))
    const result = await run(f)
    expect(result.exitCode).toBe(1)
    expect(f.fake.checks.runs[0]?.conclusion).toBe('action_required')
    expect(result.outputs.conclusion).toBe('action_required')
  })

  it('fail-step: false keeps the step green on a failing gate', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, { verdict: 'NEEDS_WORK' })
    }))
    const result = await run(f, { inputs: { 'fail-step': 'false' } })
    expect(result.exitCode).toBe(0)
    expect(result.outputs.conclusion).toBe('failure')
  })

  it('stale → failure with the reason in the summary', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base),
      'src/late.ts': 'after the review\n'
    }))
    const result = await run(f)
    expect(result.exitCode).toBe(1)
    const runRecord = f.fake.checks.runs[0]
    expect(runRecord?.conclusion).toBe('failure')
    expect(runRecord?.output.summary).toContain('src/late\\.ts')
    expect(runRecord?.output.summary).toMatch(/No current impl\\_review/)
  })

  it('an unreadable receipt gets a failure annotation on its own file', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base),
      [`${DIR}/impl-fn-7.2.json`]: '{"type": "impl_review",'
    }))
    const result = await run(f)
    expect(result.exitCode).toBe(1)
    expect(f.fake.checks.runs[0]?.annotations).toContainEqual(
      expect.objectContaining({
        path: `${DIR}/impl-fn-7.2.json`,
        annotation_level: 'failure',
        start_line: 1
      })
    )
  })

  it('reads the workspace with git when it holds the head (no tree/blob API calls)', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    const result = await run(f, { workspace: f.repo.path })
    expect(result.exitCode).toBe(0)
    expect(result.requests.map((q) => q.operationId)).toEqual([
      'graphql',
      'checks/create'
    ])
  })

  it('a deferral file over 1 MB fails the audit with the same reason through the API and from the workspace (GitHub sends no content past 1 MB)', async () => {
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
        '.flow/review-deferred/feature-fn-7.md': `# Deferred\n${'x'.repeat(1024 * 1024)}\n`
      }),
      { body: '- [ ] a:1 — b — deferred from impl-review (`x`)' }
    )
    const why =
      'deferral file unreadable, its bullets unknown: .flow/review-deferred/feature-fn-7.md is over the 1 MiB read cap'
    const results: ActionRun[] = []
    for (const workspace of [f.emptyWorkspace, f.repo.path]) {
      const result = await run(f, { workspace })
      results.push(result)
      expect(result.exitCode).toBe(1)
      const report = JSON.parse(readFileSync(result.outputs.report ?? '', 'utf8'))
      expect(report.deferred).toMatchObject({ expected: 1, named: 1, notes: [why] })
      expect(report.conclusion).toBe('failure')
    }
    // The API source knew its size from the GraphQL read: no content asked for.
    expect(operations(results[0]!)).toEqual([
      'checks/create',
      'graphql',
      'pulls/list-files',
      'repos/compare-commits-with-basehead'
    ])
    // Through REST, once, by the contents API (encoding: none past 1 MB).
    refuseGraphql(f)
    const rest = await run(f)
    expect(rest.exitCode).toBe(1)
    const report = JSON.parse(readFileSync(rest.outputs.report ?? '', 'utf8'))
    expect(report.deferred).toMatchObject({ expected: 1, named: 1, notes: [why] })
    expect(
      rest.requests.filter((q) => q.operationId === 'repos/get-content')
    ).toHaveLength(1)
  }, 20_000)

  it('behind a proxy: requests go through the toolkit proxy agent, NO_PROXY honoured', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    // Nothing listens on port 9: a request that took the proxy would fail. The runner
    // emulation sets NO_PROXY=127.0.0.1,localhost, as the fake is local.
    const result = await run(f, {
      env: { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' }
    })
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    expect(result.outputs.conclusion).toBe('success')
    expect(f.fake.checks.runs).toHaveLength(1)
  })

  it('behind a proxy, a request past its deadline times out (octokit gets it as a signal)', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    // The first answer to the PR read comes after the deadline (20 s × 0.001, floored at
    // 1 s): that attempt times out and the read is asked again. Without the deadline it
    // would simply be answered late, once.
    f.fake.faults.add({ kind: 'latency', route: 'graphql', ms: 1500, times: 1 })
    const result = await run(f, {
      env: { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' }
    })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^POST \/graphql: network error; retrying/m)
    expect(f.fake.requests.filter((q) => q.operationId === 'graphql')).toHaveLength(2)
  }, 15_000)
})

describe('forks and failing GitHub', () => {
  it('fork 403 → workflow-command annotations, job summary, exit 1, and why in the log', async () => {
    const f = await fixture(
      (reviewed, base) => ({
        [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
          verdict: 'NEEDS_WORK'
        })
      }),
      { fork: true }
    )
    f.fake.faults.add({ kind: 'forbidden', route: 'checks/create', times: Infinity })
    const result = await run(f, { inputs: { 'fail-step': 'false' } })
    expect(result.exitCode).toBe(1)
    expect(f.fake.checks.runs).toHaveLength(0)
    expect(result.stdout).toMatch(
      /^::error title=P1 · introduced · confidence 75 — Finding 1,file=src\/file-1\.ts,line=10,endLine=12::/m
    )
    expect(result.summary).toContain('### 1. Verdict')
    expect(result.outputs).toMatchObject({
      conclusion: 'failure',
      'check-run-id': '',
      'check-run-url': ''
    })
    // The step's error is what a maintainer reads first: it names the trigger that reports.
    expect(errorLines(result)).toEqual([
      '::error::Receipt Gate: failure (see the job summary); no "Review receipts" check run was posted, so branch protection waits for it as "Expected": a fork PR\'s GITHUB_TOKEN is read-only under pull_request; run Receipt Gate on pull_request_target (safe: it reads receipts through the API and runs no PR code) or in the workflow_run pair.'
    ])
  })

  it('a passing fork PR without a check run: the step passes, the warning names the fix', async () => {
    const f = await fixture(
      (reviewed, base) => ({ [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base) }),
      { fork: true }
    )
    f.fake.faults.readOnlyToken()
    const result = await run(f, { inputs: { 'check-name': 'Receipts' } })
    expect(result.exitCode).toBe(0)
    expect(result.outputs.conclusion).toBe('success')
    expect(result.stdout).toMatch(
      /^::warning::no "Receipts" check run was posted, so branch protection waits for it as "Expected": .*pull_request_target.*workflow_run pair\.$/m
    )
  })

  it("a same-repository 403: the step error names checks: write, and forks' triggers for Dependabot", async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, { verdict: 'NEEDS_WORK' })
    }))
    f.fake.faults.readOnlyToken()
    const result = await run(f)
    expect(result.exitCode).toBe(1)
    expect(errorLines(result)).toEqual([
      expect.stringMatching(
        /^::error::Receipt Gate: failure \(see the job summary\); no "Review receipts" check run .* 'permissions: checks: write' .*Dependabot.*pull_request_target.*workflow_run pair\.$/
      )
    ])
  })

  it('two 502s on the create, then success → exactly one completed check run', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    f.fake.faults.add({ kind: 'status', status: 502, route: 'checks/create', times: 2 })
    const result = await run(f)
    expect(result.exitCode).toBe(0)
    expect(f.fake.checks.runs).toHaveLength(1)
    expect(f.fake.checks.runs[0]?.status).toBe('completed')
  })

  it('a create that succeeded behind a 502 is found by external_id, not duplicated', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, { count: 60 })
    }))
    f.fake.faults.add({
      kind: 'status',
      status: 502,
      route: 'checks/create',
      applied: true
    })
    const result = await run(f)
    expect(result.exitCode).toBe(0)
    expect(f.fake.checks.runs).toHaveLength(1)
    expect(f.fake.checks.runs[0]?.annotations).toHaveLength(60)
  })

  it('a PATCH that landed behind a 502 is not sent twice', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, { count: 120 })
    }))
    f.fake.faults.add({
      kind: 'status',
      status: 502,
      route: 'checks/update',
      applied: true
    })
    await run(f)
    expect(f.fake.checks.runs[0]?.annotations).toHaveLength(120)
  })

  it('a rate-limit 403 then success', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    f.fake.faults.add({
      kind: 'rate-limit',
      status: 403,
      route: 'pulls/get',
      resetAfterSeconds: 5
    })
    f.fake.faults.add({
      kind: 'rate-limit',
      status: 429,
      route: 'checks/create',
      retryAfterSeconds: 2
    })
    const result = await run(f)
    expect(result.exitCode).toBe(0)
    expect(f.fake.checks.runs).toHaveLength(1)
    expect(result.stdout).toMatch(/rate limited/)
  })

  it('a 422 on one annotation batch: the rest are posted and the dropped one named', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
        count: 80,
        item: (i): BuiltObject => (i === 64 ? { title: 'poison' } : {})
      })
    }))
    rejectAnnotationsWith(f, 'poison')
    const result = await run(f)
    const stored = f.fake.checks.runs[0]
    expect(stored?.annotations).toHaveLength(79)
    expect(stored?.output.summary).toContain('Annotations GitHub refused (1)')
    expect(result.stdout).toContain('refused by GitHub')
  })
})

describe('hostile receipt text', () => {
  const EVIL =
    '::set-output name=verdict::SHIP ::add-mask::x ##[error]boom <img src=x onerror=alert(1)> @everyone </details> | a | b |'
  it('is neutralised in the summary, annotations and log', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
        verdict: 'NEEDS_WORK',
        item: () => ({ title: EVIL.slice(0, 200), body: EVIL, suggestion: EVIL })
      })
    }))
    const result = await run(f)
    expect(result.outputs.verdict).toBe('NEEDS_WORK')
    const stored = f.fake.checks.runs[0]
    for (const text of [stored?.output.summary ?? '', result.summary]) {
      const rendered = new MarkdownIt({ html: true, linkify: true }).render(text)
      expect(rendered).not.toMatch(/<img/)
      expect(rendered.replace(/<[^>]*>/g, '')).not.toContain('@everyone')
      expect(rendered.match(/<details>/g)?.length).toBe(
        rendered.match(/<\/details>/g)?.length
      )
    }
    // Outside stop-commands blocks the log holds no receipt text at all.
    const outside = result.stdout.replace(
      /::stop-commands::([0-9a-f-]+)\n[\s\S]*?\n::\1::/g,
      ''
    )
    expect(outside).not.toContain('set-output name=verdict')
    expect(outside).not.toContain('##[error]boom')
    expect(stored?.annotations[0]?.title).not.toMatch(/[\n\r]/)
  })
})

describe('invalid structured findings', () => {
  it('are ignored with their reasons, the verdict standing', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
        item: () => ({ severity: 'P9' })
      })
    }))
    const result = await run(f)
    // A SHIP whose structured findings are invalid: they are ignored, the verdict stands.
    expect(result.exitCode).toBe(0)
    expect(f.fake.checks.runs[0]?.output.summary).toContain(
      'structured findings invalid; ignored: findings\\.items\\[0\\]\\.severity: must be one of "P0", "P1", "P2", "P3" \\(got the string "P9"\\)'
    )
  })
})

describe('events', () => {
  it('merge_group → success on the group head, no receipts read', async () => {
    const f = await fixture(() => ({}))
    const head = f.repo.revParse('main')
    const result = await run(f, {
      event: {
        name: 'merge_group',
        payload: {
          merge_group: {
            head_sha: head,
            head_ref: 'refs/heads/gh-readonly-queue/main/pr-1'
          }
        }
      }
    })
    expect(result.exitCode).toBe(0)
    expect(f.fake.checks.runs[0]).toMatchObject({
      head_sha: head,
      conclusion: 'success'
    })
    expect(result.outputs).toMatchObject({
      conclusion: 'success',
      receipts: '0',
      verdict: ''
    })
  })

  it('an event with nothing to gate → no check run, neutral', async () => {
    const f = await fixture(() => ({}))
    const result = await run(f, { event: { name: 'push', payload: {} } })
    expect(result.exitCode).toBe(0)
    expect(result.requests).toHaveLength(0)
    expect(result.outputs.conclusion).toBe('neutral')
  })

  it('workflow_run for a fork PR finds the PR by head SHA; an unknown head fails', async () => {
    const f = await fixture((reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base)
    }))
    const head = f.repo.revParse('feature/fn-7')
    const payload = (sha: string) => ({
      workflow_run: {
        head_sha: sha,
        head_branch: 'feature/fn-7',
        pull_requests: [],
        head_repository: { owner: { login: 'acme' } }
      }
    })
    const found = await run(f, {
      event: { name: 'workflow_run', payload: payload(head) }
    })
    expect(found.exitCode).toBe(0)
    expect(found.outputs.conclusion).toBe('success')
    const missing = await run(f, {
      event: { name: 'workflow_run', payload: payload(f.repo.revParse('main')) }
    })
    expect(missing.exitCode).toBe(1)
    expect(missing.outputs.conclusion).toBe('failure')
    expect(f.fake.checks.runs.at(-1)).toMatchObject({
      head_sha: f.repo.revParse('main'),
      conclusion: 'failure',
      output: { title: 'No pull request found for this head' }
    })
  })

  it('a bad input fails fast naming the input and its values', async () => {
    const f = await fixture(() => ({}))
    const result = await run(f, { inputs: { 'unbound-head': 'sometimes' } })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toMatch(/unbound-head: must be one of history, fail, allow/)
    expect(result.requests).toHaveLength(0)
  })

  it('a receipt type that does not exist in require fails fast with the known types (issue 27)', async () => {
    const f = await fixture(() => ({}))
    const result = await run(f, { inputs: { require: 'impl-review' } })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain(
      'require: unknown receipt type "impl-review": the types are plan_review, impl_review, completion_review, qa_verdict'
    )
    expect(result.requests).toHaveLength(0)
  })
})

describe('requests (SPEC §9)', () => {
  it('the receipts folder is one tree asked for by name; walked to when GitHub refuses the name; a missing folder lists nothing', async () => {
    const receipts = (reviewed: string, base: string) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
        item: () => ({ severity: 'P3' })
      })
    })
    const trees = (r: ActionRun) =>
      r.requests
        .filter((q) => q.operationId === 'git/get-tree')
        .map((q) => [
          decodeURIComponent(q.path.replace(/^.*\/git\/trees\//, '')),
          q.status
        ])
    const named = await fixture(receipts)
    refuseGraphql(named)
    const head = named.repo.revParse('feature/fn-7')
    const byName = await run(named)
    expect(trees(byName)).toEqual([[`${head}:${DIR}?recursive=1`, 200]])

    const refused = await fixture(receipts, {}, { treePaths: false })
    refuseGraphql(refused)
    const walked = await run(refused)
    expect(
      trees(walked).map(([path, status]) => [String(path).slice(41), status])
    ).toEqual([
      [`${DIR}?recursive=1`, 404],
      ['', 200],
      ['', 200],
      ['recursive=1', 200]
    ])
    // The same receipt, the same verdict, either way.
    for (const result of [byName, walked]) {
      expect(result.exitCode).toBe(0)
      expect(result.outputs).toMatchObject({ conclusion: 'success', receipts: '1' })
      expect(result.summary).toContain('- **P3** · confidence 75 · open — Finding 1')
    }

    const none = await fixture(() => ({ 'docs/readme.md': 'no receipts\n' }))
    // Through GraphQL a missing folder is a null object: no tree read at all.
    const missingGql = await run(none)
    expect(trees(missingGql)).toEqual([])
    expect(missingGql.outputs).toMatchObject({ receipts: '0' })
    refuseGraphql(none)
    const missing = await run(none)
    expect(trees(missing).map(([, status]) => status)).toEqual([404, 200])
    expect(missing.outputs).toMatchObject({ receipts: '0' })
  }, 20_000)

  it('unbound receipts through the API: one history query for all (REST: one commit lookup each), one compare per distinct reviewed SHA', async () => {
    const legacy = (id: string) =>
      JSON.stringify({
        type: 'impl_review',
        id,
        mode: 'codex',
        verdict: 'SHIP',
        review: 'ok'
      })
    const f = await fixture(() => ({
      [`${DIR}/impl-fn-7.1.json`]: legacy('fn-7.1'),
      [`${DIR}/impl-fn-7.2.json`]: legacy('fn-7.2')
    }))
    const rows = (result: ActionRun) =>
      (
        JSON.parse(readFileSync(result.outputs.report ?? '', 'utf8')).receipts as {
          currentness: string
          headSource: string
          label: string
        }[]
      ).map((r) => [r.currentness, r.headSource, r.label])
    const inferred = [
      ['current', 'history', 'inferred'],
      ['current', 'history', 'inferred']
    ]
    const gql = await run(f)
    expect(gql.exitCode).toBe(0)
    expect(rows(gql)).toEqual(inferred)
    expect(f.fake.countByOperation()).toEqual({
      graphql: 2,
      'pulls/list-files': 1,
      'repos/compare-commits-with-basehead': 1,
      // Coverage reads no commit: each is told bookkeeping or code by its tree and its
      // parent's, read with the PR (the first commit's parent too).
      'checks/create': 1
    })
    refuseGraphql(f)
    const result = await run(f)
    expect(result.exitCode).toBe(0)
    expect(rows(result)).toEqual(inferred)
    expect(countOf(result)).toEqual({
      'pulls/get': 1,
      // The other open PRs on the head, whose bodies the deferred audit reads too.
      'repos/list-pull-requests-associated-with-commit': 1,
      'git/get-tree': 1,
      'pulls/list-files': 1,
      'git/get-blob': 2,
      'repos/get-content': 1,
      'repos/list-commits': 2,
      'repos/compare-commits-with-basehead': 1,
      'checks/create': 1,
      // Review coverage (issue 25.3, not in SPEC §9's bound): the PR's commits, and the
      // files of its two (few enough to count exactly).
      'pulls/list-commits': 1,
      'repos/get-commit': 2
    })
    expect(result.requests.filter((q) => q.operationId === 'graphql')).toHaveLength(1)
  })

  /** 230 bookkeeping files that sort before the receipt push it to the third page. */
  const threePagePr = async (): Promise<Awaited<ReturnType<typeof fixture>>> =>
    fixture((reviewed, base) => ({
      ...Object.fromEntries(
        Array.from({ length: 230 }, (_, i) => [
          `.flow/a/${String(i).padStart(3, '0')}.json`,
          '{}\n'
        ])
      ),
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(reviewed, base, {
        item: () => ({ severity: 'P2' })
      })
    }))

  it('a files list of three pages: the receipt on the last one is selected (the first page asked beside the PR read)', async () => {
    const f = await threePagePr()
    const result = await run(f)
    expect(result.exitCode).toBe(0)
    expect(result.outputs.conclusion).toBe('success')
    expect(result.outputs.receipts).toBe('1')
    // The REST list (the patches) gives the paths too: its three pages, one GraphQL read.
    expect(f.fake.countByOperation()).toMatchObject({ graphql: 1, 'pulls/list-files': 3 })
  })

  it('a files list of three pages: the pages after the first are asked for at once', async () => {
    const f = await threePagePr()
    f.fake.faults.add({ kind: 'latency', ms: 100, route: '*', times: Infinity })
    try {
      const result = await run(f)
      expect(result.outputs.conclusion).toBe('success')
      const pages = result.requests.filter((r) => r.operationId === 'pulls/list-files')
      expect(
        pages.map((r) => new URL(r.path, 'http://x').searchParams.get('page'))
      ).toEqual(['1', '2', '3'])
      // The PR's count (3 pages) is known once the PR is read: pages 2 and 3 are one round.
      const [, second, third] = pages
      expect(third!.receivedMs).toBeLessThan(second!.receivedMs + second!.durationMs)
    } finally {
      f.fake.faults.clear()
    }
  })

  it('a file count short of the list (a hostile or stale answer) cannot cut it: a full last page reads on', async () => {
    const f = await threePagePr()
    // The PR read says 10 files: one page, were the count believed.
    f.fake.tweak('graphql', (body: unknown) => {
      const pull = (
        body as { data?: { repository?: { pullRequest?: { changedFiles?: number } } } }
      ).data?.repository?.pullRequest
      if (pull?.changedFiles !== undefined) pull.changedFiles = 10
      return body
    })
    try {
      const result = await run(f)
      // The receipt on the third page is selected and gates: nothing required goes missing.
      expect(result.outputs.conclusion).toBe('success')
      expect(result.outputs.receipts).toBe('1')
      expect(f.fake.countByOperation()).toMatchObject({ 'pulls/list-files': 3 })
    } finally {
      f.fake.tweak('graphql', undefined)
    }
  })

  it('an unbound receipt committed together with code is stale through the API too', async () => {
    const f = await fixture(() => ({
      [`${DIR}/impl-fn-7.1.json`]: JSON.stringify({
        type: 'impl_review',
        id: 'fn-7.1',
        mode: 'codex',
        verdict: 'SHIP'
      }),
      'src/extra.ts': 'export const extra = 1\n'
    }))
    const result = await run(f)
    expect(result.exitCode).toBe(1)
    const report = JSON.parse(readFileSync(result.outputs.report ?? '', 'utf8'))
    expect(report.receipts[0]).toMatchObject({
      currentness: 'stale',
      headSource: 'history',
      reason: expect.stringContaining('src/extra.ts')
    })
  })
})
