/**
 * Issue 26.1: `receipt-gate check --pr N` gates a pull request through the GitHub API
 * with the action's own source and gate. Against the local GitHub API, its JSON report
 * is the one the bundled action (dist/index.js, run as the runner runs it) writes for
 * the same PR; API and usage failures are one line on stderr and exit 2.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { prTarget } from '../../src/cli/pr-source.js'
import type { Report } from '../../src/gate/report.js'
import { DIR, receiptWith, trackedPrs, type PrFixture } from '../action/support.js'
import { runCli, type CliRun } from '../support/check-cli.js'
import { PROJECT_ROOT } from '../support/runner.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub } from '../support/github-api/server.js'
import { buildContainer, buildReceipt, jsonText } from '../support/receipt-builders.js'

const { fixture, run: runOnPr } = trackedPrs(afterAll)

/** `receipt-gate <argv>` in-process with only `env` as its environment. */
const cli = async (
  env: Record<string, string>,
  argv: string[],
  cwd?: string
): Promise<CliRun> =>
  runCli(argv, cwd, { env: { RECEIPT_GATE_TIME_SCALE: '0.001', ...env } })

const apiEnv = (f: PrFixture): Record<string, string> => ({
  GITHUB_API_URL: f.fake.url,
  GITHUB_TOKEN: 'test-token'
})

/** The action's JSON report (its `report` output) for PR 1, and its exit code. */
async function actionReport(
  f: PrFixture
): Promise<{ code: number | null; report: Report }> {
  const run = await runOnPr(f)
  try {
    expect(run.outputs.report).toBeTruthy()
    return {
      code: run.exitCode,
      report: JSON.parse(readFileSync(run.outputs.report as string, 'utf8')) as Report
    }
  } finally {
    run.cleanup()
  }
}

const fanout = (reviewed: string, base: string): string => {
  const receipt = JSON.parse(
    receiptWith(reviewed, base, { verdict: 'NEEDS_WORK' })
  ) as Record<string, unknown>
  receipt.draws = [{ axis: 'correctness' }, { axis: 'contracts' }, { axis: 'security' }]
  return JSON.stringify(receipt, null, 2)
}

// The e2e scenarios' shapes: each is a PR the action and `check --pr` must judge alike.
// Objects, not tuples: jest.each hands a test whose function takes more parameters than
// its row has items a `done` callback in the last one (a two-item row would have made
// the PR body a function, which the local API rightly refused as a pulls/get answer).
interface Scenario {
  name: string
  files: (reviewed: string, base: string) => Record<string, string>
  body?: string
}
const SCENARIOS: Scenario[] = [
  {
    name: 'a current SHIP with a finding',
    files: (r, b) => ({ [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b) })
  },
  {
    name: 'a current NEEDS_WORK',
    files: (r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b, { verdict: 'NEEDS_WORK', count: 3 })
    })
  },
  {
    name: 'NEEDS_HUMAN beside MAJOR_RETHINK',
    files: (r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b, { verdict: 'MAJOR_RETHINK' }),
      [`${DIR}/impl-fn-7.2.json`]: receiptWith(r, b, {
        verdict: 'NEEDS_HUMAN',
        id: 'fn-7.2'
      })
    })
  },
  {
    name: 'a stale SHIP',
    files: (_r, b) => ({ [`${DIR}/impl-fn-7.1.json`]: receiptWith(b, b) })
  },
  { name: 'no receipt at all', files: () => ({}) },
  {
    name: 'an unbound receipt (history rule)',
    files: () => ({
      [`${DIR}/impl-fn-7.1.json`]: jsonText(
        buildReceipt({ id: 'fn-7.1', verdict: 'SHIP', findings: false })
      )
    })
  },
  {
    name: 'a fan-out of three draws',
    files: (r, b) => ({ [`${DIR}/impl-fn-7.1.json`]: fanout(r, b) })
  },
  {
    name: 'a deferral the PR body does not name',
    files: (r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b),
      '.flow/review-deferred/feature-fn-7.md': '- fn-7.1: the cache is cold (R2)\n'
    }),
    body: '## Summary\n\nNothing deferred.\n'
  },
  {
    name: 'an unreadable receipt',
    files: () => ({
      [`${DIR}/impl-fn-7.1.json`]: '{ not json',
      [`${DIR}/plan-fn-7.json`]: jsonText(
        buildReceipt({
          type: 'plan_review',
          id: 'fn-7',
          findings: buildContainer({ reviewKind: 'plan', items: 0 })
        })
      )
    })
  }
]

describe('check --pr agrees with the action', () => {
  it.each(SCENARIOS)('$name', async ({ files, body }) => {
    const f = await fixture(files, body === undefined ? {} : { body })
    const action = await actionReport(f)
    const run = await cli(apiEnv(f), [
      'check',
      '--pr',
      '1',
      '--repo-slug',
      'acme/widgets',
      '--format',
      'json'
    ])
    expect(run.stderr).toBe('')
    const report = JSON.parse(run.stdout) as Report
    // No run-specific field: the report is the same, byte for byte, once parsed.
    expect(report).toEqual(action.report)
    const failing =
      report.conclusion === 'failure' || report.conclusion === 'action_required'
    expect(run.code).toBe(failing ? 1 : 0)
    // Nothing posted without --post: the action's own run is the only check run.
    expect(f.fake.checks.runs).toHaveLength(1)
  })

  it('text and Markdown are rendered from that report; GITHUB_REPOSITORY names the repository', async () => {
    const f = await fixture((r, b) => ({ [`${DIR}/impl-fn-7.1.json`]: fanout(r, b) }))
    const env = { ...apiEnv(f), GITHUB_REPOSITORY: 'acme/widgets' }
    const text = await cli(env, ['check', '--pr', '1'])
    expect(text.code).toBe(1)
    expect(text.stdout).toContain('impl_review codex NEEDS_WORK 3 draws')
    const markdown = await cli(env, ['check', '--pr', '1', '--format', 'markdown'])
    expect(markdown.stdout).toContain('NEEDS\\_WORK (3 draws)')
    expect(f.fake.checks.runs).toHaveLength(0)
  })

  it('the bundled dist/receipt-gate.mjs reads the PR as the in-process CLI does', async () => {
    const f = await fixture((r, b) => ({ [`${DIR}/impl-fn-7.1.json`]: fanout(r, b) }))
    const argv = ['check', '--pr', '1', '--repo-slug', 'acme/widgets', '--format', 'json']
    const env = { ...apiEnv(f), RECEIPT_GATE_TIME_SCALE: '0.001' }
    // Asynchronously: the local API answers from this process.
    const bundled = await new Promise<{ code: number | null; stdout: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          [join(PROJECT_ROOT, 'dist', 'receipt-gate.mjs'), ...argv],
          { env: { PATH: process.env.PATH ?? '', ...env } },
          (_error, stdout) => resolve({ code: child.exitCode, stdout })
        )
      }
    )
    const inProcess = await cli(env, argv)
    expect(bundled).toEqual({ code: 1, stdout: inProcess.stdout })
    expect(inProcess.code).toBe(1)
  })

  it("links findings to the head on GITHUB_SERVER_URL's server, as the action does", async () => {
    const f = await fixture((r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b)
    }))
    const head = f.repo.revParse('feature/fn-7')
    const argv = ['check', '--pr', '1', '--repo-slug', 'acme/widgets', '--format', 'json']
    const urls = async (env: Record<string, string>): Promise<Array<string | null>> =>
      (
        JSON.parse((await cli({ ...apiEnv(f), ...env }, argv)).stdout) as Report
      ).diff?.outside.map((entry) => entry.url) ?? []
    expect(await urls({ GITHUB_SERVER_URL: 'https://ghe.example' })).toEqual([
      `https://ghe.example/acme/widgets/blob/${head}/src/file-1.ts#L10`
    ])
    // Without it, a GitHub Enterprise Server API names its server.
    const target = await prTarget('1', 'acme/widgets', process.cwd(), {
      GITHUB_TOKEN: 't',
      GITHUB_API_URL: 'https://ghe.example/api/v3/'
    })
    expect(target.repositoryUrl).toBe('https://ghe.example/acme/widgets')
  })

  it('the origin remote names the repository when nothing else does', async () => {
    const f = await fixture((r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b)
    }))
    const clone = GitRepo.init()
    try {
      clone.git('remote', 'add', 'origin', 'git@github.com:acme/widgets.git')
      const run = await cli(
        apiEnv(f),
        ['check', '--pr', '1', '--format', 'json'],
        clone.path
      )
      expect(run.stderr).toBe('')
      expect(JSON.parse(run.stdout)).toMatchObject({ conclusion: 'success' })
    } finally {
      clone.cleanup()
    }
  })

  it('--post publishes the check run on the PR head, as the action does', async () => {
    const f = await fixture((r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b, { verdict: 'NEEDS_WORK' })
    }))
    const run = await cli(apiEnv(f), [
      'check',
      '--pr',
      '1',
      '--repo-slug',
      'acme/widgets',
      '--post',
      '--format',
      'json'
    ])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^receipt-gate check: posted \S+\n$/)
    expect(f.fake.checks.runs).toHaveLength(1)
    expect(f.fake.checks.runs[0]).toMatchObject({
      name: 'Review receipts',
      head_sha: f.repo.revParse('feature/fn-7'),
      status: 'completed',
      conclusion: 'failure'
    })
  })

  it('reads the PR as the action does: one GraphQL query, REST when GraphQL fails; the same report', async () => {
    const f = await fixture((r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b)
    }))
    const argv = ['check', '--pr', '1', '--repo-slug', 'acme/widgets', '--format', 'json']
    const viaGraphql = await cli(apiEnv(f), argv)
    expect(viaGraphql).toMatchObject({ code: 0, stderr: '' })
    expect(f.fake.requests[0]?.route).toBe('POST /graphql')
    expect(f.fake.countByOperation()['pulls/get'] ?? 0).toBe(0)
    const undo = f.fake.faults.add({
      kind: 'status',
      route: 'graphql',
      status: 502,
      times: Infinity
    })
    try {
      const viaRest = await cli(apiEnv(f), argv)
      expect(viaRest.stdout).toBe(viaGraphql.stdout)
      // The client's retries are said as they happen, then why REST read the PR.
      expect(viaRest.stderr.replace(/^receipt-gate check: .*; retrying\n/gm, '')).toMatch(
        /^receipt-gate: the GraphQL read failed \(.*\); read through REST\n$/
      )
      expect(f.fake.countByOperation()['pulls/get']).toBe(1)
    } finally {
      undo()
    }
  })

  it('land through the API: FLOW_PR_NUMBER when the checkout lacks FLOW_HEAD_SHA', async () => {
    const f = await fixture((r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b)
    }))
    const base = GitRepo.init()
    try {
      base.write({ 'README.md': 'base\n' })
      base.commit('unrelated base')
      const head = f.repo.revParse('feature/fn-7')
      const land = {
        ...apiEnv(f),
        GITHUB_REPOSITORY: 'acme/widgets',
        FLOW_HEAD_SHA: head,
        FLOW_PR_NUMBER: '1',
        FLOW_BASE_REF: 'main',
        FLOW_SPEC_ID: 'fn-7'
      }
      const run = await cli(land, ['check', '--format', 'json'], base.path)
      // No origin to fetch from: the API read it, GraphQL first, as the action does.
      expect(run.stderr).toBe(
        'receipt-gate: success — SHIP — 1 introduced finding open (1 P1); the gate passes: nothing blocks the merge\n'
      )
      expect(run.code).toBe(0)
      expect(f.fake.requests[0]?.route).toBe('POST /graphql')
      const report = JSON.parse(run.stdout) as Report
      expect(report).toMatchObject({ head, conclusion: 'success' })
      expect(report.notes).toContain(
        `Flow-Next land merge-verdict check: pull request #1, spec fn-7, head ${head.slice(0, 12)}, base main.`
      )
      // The PR moved on since land read it: not the head land asked about.
      const moved = await cli(
        { ...land, FLOW_HEAD_SHA: 'ab'.repeat(20) },
        ['check'],
        base.path
      )
      expect(moved.code).toBe(2)
      expect(moved.stderr).toContain('pull request #1 moved')
    } finally {
      base.cleanup()
    }
  })
})

describe('check --pr failures: one clear line, exit 2', () => {
  const oneLine = (run: CliRun, pattern: RegExp): void => {
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr.endsWith('\n')).toBe(true)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(run.stderr).toMatch(pattern)
    expect(run.stderr).not.toContain('test-token')
  }

  it('a bad slug', async () => {
    for (const slug of [
      'widgets',
      'acme/widgets/extra',
      '../x/y',
      'acme/',
      'ac me/widgets'
    ])
      oneLine(
        await cli({ GITHUB_TOKEN: 'test-token' }, [
          'check',
          '--pr',
          '1',
          '--repo-slug',
          slug
        ]),
        /--repo-slug must be OWNER\/REPO/
      )
    oneLine(
      await cli({ GITHUB_TOKEN: 'test-token', GITHUB_REPOSITORY: 'nonsense' }, [
        'check',
        '--pr',
        '1'
      ]),
      /GITHUB_REPOSITORY must be OWNER\/REPO \(got "nonsense"\): pass --repo-slug/
    )
  })

  it('a bad PR number', async () => {
    for (const pr of ['0', 'one', '-1', '1.5'])
      oneLine(
        await cli({ GITHUB_TOKEN: 'test-token' }, [
          'check',
          '--pr',
          pr,
          '--repo-slug',
          'a/b'
        ]),
        /--pr must be a pull request number|needs a value|unknown option/
      )
  })

  it('no repository known', async () => {
    const repo = GitRepo.init()
    try {
      oneLine(
        await cli({ GITHUB_TOKEN: 'test-token' }, ['check', '--pr', '1'], repo.path),
        /pass --repo-slug OWNER\/REPO/
      )
    } finally {
      repo.cleanup()
    }
  })

  it('a missing token', async () => {
    oneLine(
      await cli({}, ['check', '--pr', '1', '--repo-slug', 'acme/widgets']),
      /needs a token: set GITHUB_TOKEN or GH_TOKEN/
    )
  })

  it('flags that name what the PR names', async () => {
    oneLine(
      await cli({ GITHUB_TOKEN: 'test-token' }, [
        'check',
        '--pr',
        '1',
        '--repo-slug',
        'a/b',
        '--head',
        'HEAD'
      ]),
      /--head does not apply to a pull request/
    )
    oneLine(await cli({}, ['check', '--post']), /--post applies only with --pr/)
  })

  describe('API answers', () => {
    let f: PrFixture
    const check = async (env: Record<string, string>, pr = '1'): Promise<CliRun> =>
      cli({ ...apiEnv(f), ...env }, ['check', '--pr', pr, '--repo-slug', 'acme/widgets'])

    it('an unknown PR (404)', async () => {
      f = await fixture((r, b) => ({ [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b) }))
      oneLine(
        await check({}, '99'),
        /cannot read pull request #99 of acme\/widgets: 404 .*no such pull request/
      )
    })

    it('an unknown repository (404)', async () => {
      const run = await cli(apiEnv(f), [
        'check',
        '--pr',
        '1',
        '--repo-slug',
        'acme/gadgets'
      ])
      oneLine(run, /cannot read pull request #1 of acme\/gadgets: 404/)
      // The fake answers an unknown repository as GitHub does, and notes it as unexpected.
      expect(f.fake.unexpected.splice(0).map((u) => u.reason)).toEqual([
        'unknown repository acme/gadgets'
      ])
    })

    /** GraphQL refused too: the CLI reads through REST, as the action does. */
    const refuseGraphql = () =>
      f.fake.faults.add({
        kind: 'status',
        route: 'graphql',
        status: 403,
        times: Infinity
      })

    it('a 403', async () => {
      const undoGraphql = refuseGraphql()
      const undo = f.fake.faults.add({
        kind: 'status',
        route: 'pulls/get',
        status: 403,
        message: 'Resource not accessible by integration',
        times: Infinity
      })
      try {
        oneLine(
          await check({}),
          /cannot read pull request #1 of acme\/widgets: 403 Resource not accessible by integration \(the token may lack access/
        )
      } finally {
        undo()
        undoGraphql()
      }
    })

    it('a 403 while reading the receipts', async () => {
      const undoGraphql = refuseGraphql()
      const undo = f.fake.faults.add({
        kind: 'status',
        route: 'git/get-tree',
        status: 403,
        times: Infinity
      })
      try {
        // The REST fallback is said first; the failure is the last line.
        const run = await check({})
        expect(run.code).toBe(2)
        expect(run.stderr.trimEnd().split('\n')).toEqual([
          expect.stringContaining('the GraphQL read failed'),
          expect.stringMatching(/cannot gate pull request #1 of acme\/widgets: 403/)
        ])
      } finally {
        undo()
        undoGraphql()
      }
    })

    it('a refused token (401)', async () => {
      const repo = GitRepo.init()
      repo.write({ 'a.txt': 'a\n' })
      repo.commit('base')
      repo.branch('feature')
      repo.write({ 'a.txt': 'b\n' })
      repo.commit('change')
      const fake = await startFakeGitHub({
        repo,
        token: 'the-right-token',
        pulls: [{ number: 1, head: { ref: 'feature' }, base: { ref: 'main' } }]
      })
      try {
        const run = await cli({ GITHUB_API_URL: fake.url, GH_TOKEN: 'test-token' }, [
          'check',
          '--pr',
          '1',
          '--repo-slug',
          'acme/widgets'
        ])
        oneLine(
          run,
          /cannot read pull request #1 of acme\/widgets: 401 .*the token was refused/
        )
        const ok = await cli({ GITHUB_API_URL: fake.url, GH_TOKEN: 'the-right-token' }, [
          'check',
          '--pr',
          '1',
          '--repo-slug',
          'acme/widgets'
        ])
        expect(ok.stderr).toBe('')
      } finally {
        await fake.close()
        repo.cleanup()
      }
    })
  })
})
