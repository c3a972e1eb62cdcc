/**
 * The fake enforces GitHub's contract: request bodies against the OpenAPI description plus the
 * rules it does not encode (422 like GitHub, the broken rule recorded), responses against the
 * description (a drifting fixture is a recorded fake bug), and check runs behave like GitHub's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { getOctokit } from '@actions/github'
import { performance } from 'node:perf_hooks'
import { GitRepo } from '../support/git-repo.js'
import {
  loadContract,
  startFakeGitHub,
  type FakeGitHub
} from '../support/github-api/server.js'

let repo: GitRepo
let head: string
let fake: FakeGitHub
let octokit: ReturnType<typeof getOctokit>
const r = { owner: 'acme', repo: 'widgets' }

beforeAll(async () => {
  repo = GitRepo.init()
  repo.write({ 'src/a.ts': 'export const a = 1\n' })
  repo.commit('base')
  repo.branch('feature')
  repo.write({ 'src/a.ts': 'export const a = 2\n' })
  head = repo.commit('change')
  const t0 = performance.now()
  fake = await startFakeGitHub({
    repo,
    pulls: [{ number: 3, head: { ref: 'feature' }, base: { ref: 'main' }, body: null }]
  })
  const wall = performance.now() - t0
  process.stdout.write(
    `fake GitHub startup: ${fake.startupMs.toFixed(1)} ms (schema load ${fake.schemaLoadMs.toFixed(1)} ms, ` +
      `${loadContract().contract.operations.length} operations, OpenAPI ${loadContract().contract.version}; ` +
      `wall ${wall.toFixed(1)} ms)\n`
  )
  octokit = getOctokit('test-token', { baseUrl: fake.url })
})

afterEach(() => fake.assertNoViolations())

afterAll(async () => {
  await fake?.close()
  repo?.cleanup()
})

const annotation = (i: number) => ({
  path: 'src/a.ts',
  start_line: 1,
  end_line: 1,
  annotation_level: 'warning' as const,
  message: `finding ${i}`
})
const annotations = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => annotation(from + i))

/** Sends a create, expects 422, returns the recorded rules (and forgets them). */
async function rejected(
  body: Record<string, unknown>,
  route = 'POST /repos/{owner}/{repo}/check-runs'
) {
  const err = (await octokit
    .request(route, { ...r, ...body })
    .catch((e: unknown) => e)) as {
    status: number
    message: string
  }
  expect(err.status).toBe(422)
  expect(err.message).toMatch(/^Invalid request\.\n\n/)
  return { message: err.message, rules: fake.takeViolations().map((v) => v.rule) }
}

describe('request validation (422 like GitHub, rule recorded)', () => {
  const base = () => ({
    name: 'Review receipts',
    head_sha: head,
    status: 'completed',
    conclusion: 'success',
    output: { title: 'ok', summary: 'ok' }
  })

  it('51 annotations in one request', async () => {
    const out = await rejected({
      ...base(),
      output: { title: 't', summary: 's', annotations: annotations(51) }
    })
    expect(out.message).toContain('No more than 50 items are allowed; 51 were supplied.')
    expect(out.rules).toEqual(['schema:maxItems /output/annotations'])
  })

  it('an annotation without annotation_level', async () => {
    const bad: Partial<ReturnType<typeof annotation>> = annotation(0)
    delete bad.annotation_level
    const out = await rejected({
      ...base(),
      output: { title: 't', summary: 's', annotations: [bad] }
    })
    expect(out.message).toContain('"annotation_level" wasn\'t supplied.')
    expect(out.rules).toEqual(['schema:required /output/annotations/0'])
  })

  it('a 70,000-character summary', async () => {
    const out = await rejected({
      ...base(),
      output: { title: 't', summary: 'x'.repeat(70_000) }
    })
    expect(out.message).toContain(
      'only 65535 characters are allowed; 70000 were supplied'
    )
    expect(out.rules).toEqual(['schema:maxLength /output/summary'])
  })

  it('a 300-character annotation title', async () => {
    const out = await rejected({
      ...base(),
      output: {
        title: 't',
        summary: 's',
        annotations: [{ ...annotation(0), title: 'T'.repeat(300) }]
      }
    })
    expect(out.message).toContain('only 255 characters are allowed; 300 were supplied')
    expect(out.rules).toEqual(['annotation.title.maxLength'])
  })

  it('the other rules the description does not encode', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...annotation(0), message: 'm'.repeat(64 * 1024 + 1) },
        'annotation.message.maxBytes'
      ],
      [
        { ...annotation(0), raw_details: 'é'.repeat(33_000) },
        'annotation.raw_details.maxBytes'
      ],
      [{ ...annotation(0), start_line: 0, end_line: 0 }, 'annotation.start_line.min'],
      [{ ...annotation(0), start_line: 5, end_line: 4 }, 'annotation.end_line.order'],
      [
        { ...annotation(0), end_line: 2, start_column: 1, end_column: 3 },
        'annotation.columns.singleLine'
      ],
      [{ ...annotation(0), start_col: 3 }, 'unknown-property']
    ]
    for (const [a, rule] of cases) {
      const out = await rejected({
        ...base(),
        output: { title: 't', summary: 's', annotations: [a] }
      })
      expect(out.rules).toEqual([rule])
    }
    const multiByte = await rejected({
      ...base(),
      output: { title: 't', summary: '€'.repeat(30_000) }
    })
    expect(multiByte.rules).toEqual(['output.summary.maxBytes'])
    const noConclusion = await rejected({ ...base(), conclusion: undefined })
    expect(noConclusion.rules).toEqual(['check_run.completed.conclusion'])
    const stale = await rejected({ ...base(), conclusion: 'stale' })
    expect(stale.rules).toEqual(['check_run.conclusion.stale'])
    const level = await rejected({
      ...base(),
      output: {
        title: 't',
        summary: 's',
        annotations: [{ ...annotation(0), annotation_level: 'error' }]
      }
    })
    expect(level.rules).toEqual(['schema:enum /output/annotations/0/annotation_level'])
  })

  it('a head_sha that is not a commit of the repository', async () => {
    const err = (await octokit.rest.checks
      .create({ ...r, ...base(), head_sha: 'f'.repeat(40) } as never)
      .catch((e: unknown) => e)) as { status: number }
    expect(err.status).toBe(422)
    expect(fake.takeViolations().map((v) => v.rule)).toEqual([
      'check_run.head_sha.unknown'
    ])
  })

  it('PATCH {status: completed} without a conclusion (encoded in the update schema)', async () => {
    const { data: run } = await octokit.rest.checks.create({
      ...r,
      name: 'x',
      head_sha: head,
      status: 'in_progress'
    })
    const out = await rejected(
      { check_run_id: run.id, status: 'completed' },
      'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}'
    )
    expect(out.message).toContain('"conclusion" wasn\'t supplied.')
    expect(out.rules).toContain('schema:required /')
    await octokit.rest.checks.update({
      ...r,
      check_run_id: run.id,
      conclusion: 'neutral'
    })
  })

  it('bad query parameters are 422 too', async () => {
    const err = (await octokit.rest.checks
      .listForRef({ ...r, ref: head, filter: 'newest' as never })
      .catch((e: unknown) => e)) as { status: number }
    expect(err.status).toBe(422)
    expect(fake.takeViolations().map((v) => v.rule)).toEqual(['parameter.filter.enum'])
  })

  it('writes without a token are 401', async () => {
    const res = await fetch(`${fake.url}/repos/acme/widgets/check-runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', head_sha: head })
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ message: 'Requires authentication' })
  })
})

describe('check runs', () => {
  it('create (completed, 50 annotations) + PATCH batches append + list for ref + annotations', async () => {
    const { data: run } = await octokit.rest.checks.create({
      ...r,
      name: 'Review receipts',
      head_sha: head,
      external_id: '1000-1',
      conclusion: 'failure',
      output: { title: 'NEEDS_WORK', summary: 'summary', annotations: annotations(50) }
    })
    expect(run.status).toBe('completed')
    expect(run.conclusion).toBe('failure')
    expect(run.completed_at).toEqual(expect.any(String))
    expect(run.external_id).toBe('1000-1')
    expect(run.html_url).toBe(`https://github.com/acme/widgets/runs/${run.id}`)
    expect(run.output.annotations_count).toBe(50)
    expect(run.pull_requests.map((p) => p.number)).toEqual([3])
    expect(run.app?.slug).toBe('github-actions')

    const { data: patched } = await octokit.rest.checks.update({
      ...r,
      check_run_id: run.id,
      output: {
        title: 'NEEDS_WORK',
        summary: 'summary 2',
        annotations: annotations(30, 50)
      }
    })
    expect(patched.output.annotations_count).toBe(80)
    expect(patched.output.summary).toBe('summary 2')
    expect(patched.conclusion).toBe('failure')

    const { data: list } = await octokit.rest.checks.listForRef({
      ...r,
      ref: 'feature',
      check_name: 'Review receipts'
    })
    expect(list.total_count).toBe(1)
    expect(list.check_runs[0]!.id).toBe(run.id)
    const none = await octokit.rest.checks.listForRef({
      ...r,
      ref: head,
      check_name: 'Other'
    })
    expect(none.data.total_count).toBe(0)

    const all = await octokit.paginate(octokit.rest.checks.listAnnotations, {
      ...r,
      check_run_id: run.id,
      per_page: 50
    })
    expect(all.map((a) => a.message)).toEqual(annotations(80).map((a) => a.message))

    const stored = fake.checks.get(run.id)!
    expect(stored.writes.map((w) => w.method)).toEqual(['POST', 'PATCH'])
    expect(stored.annotations).toHaveLength(80)
  })

  it('filter=latest keeps the newest run per name; filter=all keeps every run', async () => {
    for (let i = 0; i < 2; i++) {
      await octokit.rest.checks.create({
        ...r,
        name: 'dup',
        head_sha: head,
        conclusion: 'neutral',
        output: { title: 't', summary: 's' }
      })
    }
    const latest = await octokit.rest.checks.listForRef({
      ...r,
      ref: head,
      check_name: 'dup'
    })
    const all = await octokit.rest.checks.listForRef({
      ...r,
      ref: head,
      check_name: 'dup',
      filter: 'all'
    })
    expect([latest.data.total_count, all.data.total_count]).toEqual([1, 2])
    expect(latest.data.check_runs[0]!.id).toBe(
      Math.max(...all.data.check_runs.map((c) => c.id))
    )
  })

  it('a run created by another app cannot be PATCHed (403, recorded)', async () => {
    const other = fake.seedCheckRun({ name: 'theirs', head_sha: head }, 99)
    const err = (await octokit.rest.checks
      .update({ ...r, check_run_id: other.id, conclusion: 'success' })
      .catch((e: unknown) => e)) as { status: number; message: string }
    expect(err.status).toBe(403)
    expect(err.message).toContain(
      'check run can only be modified by the GitHub App that created it'
    )
    expect(fake.takeViolations().map((v) => v.rule)).toEqual(['check_run.app'])
  })

  it('records method, route, status and byte counts of every request', async () => {
    fake.resetRecords()
    const body = {
      ...r,
      name: 'bytes',
      head_sha: head,
      conclusion: 'success' as const,
      output: { title: 't', summary: 's' }
    }
    await octokit.rest.checks.create(body)
    const [rec] = fake.requests
    expect(rec).toMatchObject({
      method: 'POST',
      route: 'POST /repos/{owner}/{repo}/check-runs',
      operationId: 'checks/create',
      status: 201
    })
    expect(rec!.requestBytes).toBeGreaterThan(50)
    expect(rec!.responseBytes).toBeGreaterThan(500)
    expect(fake.countByRoute()).toEqual({ 'POST /repos/{owner}/{repo}/check-runs': 1 })
    expect(fake.bytes().requestBytes).toBe(rec!.requestBytes)
  })
})

describe('response validation', () => {
  it('a response that breaks the schema becomes a 500 and a recorded fake bug', async () => {
    fake.tweak('pulls/get', (pr: { number: unknown }) => ({ ...pr, number: 'three' }))
    try {
      const err = (await octokit.rest.pulls
        .get({ ...r, pull_number: 3 })
        .catch((e: unknown) => e)) as { status: number }
      expect(err.status).toBe(500)
      expect(fake.fakeBugs).toHaveLength(1)
      expect(fake.fakeBugs[0]!.issues[0]!.message).toContain('/number must be integer')
      expect(() => fake.assertNoViolations()).toThrow(
        /fake bug: pulls\/get 200 response breaks the schema/
      )
    } finally {
      fake.tweak('pulls/get', undefined)
      fake.fakeBugs.length = 0
    }
  })

  it('a valid tweak passes (mergeable still being computed)', async () => {
    fake.tweak('pulls/get', (pr: object) => ({
      ...pr,
      mergeable: null,
      mergeable_state: 'unknown'
    }))
    try {
      const { data } = await octokit.rest.pulls.get({ ...r, pull_number: 3 })
      expect(data.mergeable).toBeNull()
    } finally {
      fake.tweak('pulls/get', undefined)
    }
  })

  it('fixtures can be checked against any component schema directly', () => {
    const { contract } = loadContract()
    const pr = { number: '1' }
    expect(contract.validateComponent('pull-request', pr).length).toBeGreaterThan(0)
    expect(contract.validateComponent('basic-error', { message: 'Not Found' })).toEqual(
      []
    )
  })
})
