/**
 * The deferred audit's fail-open cases, each built for real and judged on every source
 * that reads a PR body: the bundled action through GraphQL (an empty workspace, and a
 * workspace holding the head), the action through REST (GraphQL refused), `receipt-gate
 * check --pr` (REST), and where the body is a file, `check --body-file`. Before the fixes
 * each of these passed: an empty description skipped the audit, a bullet hidden in an
 * HTML comment or a code block named a deferral, and a PR opened on another PR's head
 * posted success on the shared commit with a body the other PR does not have.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import {
  DIR,
  receiptWith,
  refuseGraphql,
  trackedPrs,
  type PrFixture
} from '../action/support.js'
import { checkJson, runCli } from '../support/check-cli.js'
import type { PullRequestSpec } from '../support/github-api/server.js'

// Each case runs the action three times and the CLI against a local API.
jest.setTimeout(90_000)

const { fixture, run } = trackedPrs(afterAll)

const SINK = '.flow/review-deferred/feature-fn-7.md'
const TAILS = [
  'src/app.ts:1 — null deref in loader',
  'src/app.ts:2 — off-by-one on empty list'
]
const bullet = (tail: string): string =>
  `- [ ] [P1, confidence 75, introduced] ${tail} — deferred from impl-review (\`${SINK}\`)`
const NAMING_BOTH = `## Open items\n\n${TAILS.map(bullet).join('\n')}\n`

/** A PR whose current SHIP deferred two findings, both in the deferral file of its branch. */
async function deferringPr(pull: Partial<PullRequestSpec>): Promise<PrFixture> {
  return fixture(
    (reviewed, base) => ({
      [`${DIR}/impl-fn-7.1.json`]: JSON.stringify({
        ...JSON.parse(receiptWith(reviewed, base)),
        walkthrough: {
          applied: 0,
          deferred: 2,
          skipped: 0,
          acknowledged: 0,
          lfg_rest: false
        }
      }),
      [SINK]: `# Deferred review findings — feature-fn-7\n\n${TAILS.map((t) => `- [P1, confidence 75, introduced] ${t}`).join('\n')}\n`
    }),
    pull
  )
}

type Source = 'action (GraphQL)' | 'action (workspace)' | 'action (REST)' | 'check --pr'

/** The reports of PR `number` on every source that reads its body from GitHub. */
async function judgeEverywhere(
  f: PrFixture,
  number = 1
): Promise<Array<{ source: Source; report: Report; requests: string[] }>> {
  const out: Array<{ source: Source; report: Report; requests: string[] }> = []
  const action = async (source: Source, workspace: string): Promise<void> => {
    const result = await run(f, {
      event: { name: 'pull_request', pull: number },
      workspace
    })
    expect(result.stderr).toBe('')
    out.push({
      source,
      report: JSON.parse(readFileSync(result.outputs.report ?? '', 'utf8')) as Report,
      requests: result.requests.map((q) => q.operationId ?? q.route ?? '')
    })
  }
  await action('action (GraphQL)', f.emptyWorkspace)
  await action('action (workspace)', f.repo.path)
  const before = f.fake.requests.length
  const cli = await runCli(
    ['check', '--pr', String(number), '--repo-slug', 'acme/widgets', '--format', 'json'],
    undefined,
    {
      env: {
        GITHUB_API_URL: f.fake.url,
        GITHUB_TOKEN: 'test-token',
        RECEIPT_GATE_TIME_SCALE: '0.001'
      }
    }
  )
  expect(cli.stderr).toBe('')
  out.push({
    source: 'check --pr',
    report: JSON.parse(cli.stdout) as Report,
    requests: f.fake.requests.slice(before).map((q) => q.operationId ?? q.route ?? '')
  })
  // Last: GraphQL stays refused for this fixture from here on.
  refuseGraphql(f)
  await action('action (REST)', f.emptyWorkspace)
  return out
}

describe('an empty PR description is an empty body, audited', () => {
  // GitHub answers null through REST and "" through GraphQL for an empty description.
  it('two deferred findings fail on every source', async () => {
    const f = await deferringPr({ body: null })
    for (const { source, report } of await judgeEverywhere(f)) {
      expect({ source, conclusion: report.conclusion }).toEqual({
        source,
        conclusion: 'failure'
      })
      expect(report.deferred).toMatchObject({
        skipped: false,
        expected: 2,
        named: 0,
        unnamed: TAILS
      })
      expect(report.notes).not.toContain('no PR body given')
    }
  })

  it('only the CLI without --body-file skips the audit, saying so', async () => {
    const f = await deferringPr({})
    const { report } = await checkJson(f.repo.path, '--base', 'main')
    expect(report.deferred).toMatchObject({ skipped: true, notes: ['no PR body given'] })
  })
})

describe('a bullet counts only where a reader sees it', () => {
  const hidden: Record<string, string> = {
    // The comment's `]` reads as the end of a `[<sev>, …]` prefix: an empty checkbox named them.
    'inside an inline HTML comment': TAILS.map(
      (t) => `- [ ] <!-- ] ${t} — deferred from impl-review (\`${SINK}\`) -->`
    ).join('\n'),
    'inside an HTML comment block': `<!--\n${NAMING_BOTH}-->`,
    'inside a fenced code block': `\`\`\`\`md\n${NAMING_BOTH}\`\`\`\n\`\`\`\``,
    'inside an indented code block': `Open items:\n\n${TAILS.map((t) => `    ${bullet(t)}`).join('\n')}\n`,
    'inside a fence in a list item': `- notes\n  ~~~\n${TAILS.map((t) => `  ${bullet(t)}`).join('\n')}\n  ~~~\n`
  }

  it.each(Object.entries(hidden))(
    '%s, the deferrals are not named (action, check --pr, --body-file)',
    async (_, body) => {
      const f = await deferringPr({ body })
      const bodyFile = join(mkdtempSync(join(tmpdir(), 'rg-body-')), 'body.md')
      writeFileSync(bodyFile, body)
      const local = await checkJson(
        f.repo.path,
        '--base',
        'main',
        '--branch',
        'feature/fn-7',
        '--body-file',
        bodyFile
      )
      const reports = [
        { source: 'check --body-file', report: local.report },
        ...(await judgeEverywhere(f))
      ]
      for (const { source, report } of reports) {
        expect({ source, conclusion: report.conclusion }).toEqual({
          source,
          conclusion: 'failure'
        })
        expect(report.deferred).toMatchObject({ expected: 2, named: 0, unnamed: TAILS })
        expect(report.deferred.hints.map((h) => h.why)).toEqual(
          TAILS.map(
            () => 'a reader does not see it: it is inside an HTML comment or a code block'
          )
        )
      }
    }
  )

  it('the same bullets in plain sight name both', async () => {
    const f = await deferringPr({
      body: `<!-- flow-next:make-pr spec=fn-7 base=main -->\n${NAMING_BOTH}`
    })
    for (const { source, report } of await judgeEverywhere(f)) {
      expect({ source, conclusion: report.conclusion }).toEqual({
        source,
        conclusion: 'success'
      })
      expect(report.deferred).toMatchObject({ expected: 2, named: 2, unnamed: [] })
    }
  })
})

describe('every open PR on the judged head holds the audit', () => {
  /** PR 1 names nothing; PR 2, opened on the same head branch, names both deferrals. */
  async function twoPrs(first: string): Promise<PrFixture> {
    const f = await deferringPr({ body: first })
    f.fake.addPull({
      number: 2,
      head: { ref: 'feature/fn-7' },
      base: { ref: 'main' },
      body: NAMING_BOTH
    })
    return f
  }

  it("PR 2 cannot borrow success for PR 1's commit: its run fails naming #1's body", async () => {
    const f = await twoPrs('## Summary\n')
    for (const { source, report, requests } of await judgeEverywhere(f, 2)) {
      expect({ source, conclusion: report.conclusion }).toEqual({
        source,
        conclusion: 'failure'
      })
      expect(report.deferred).toMatchObject({ expected: 2, named: 0, unnamed: TAILS })
      expect(report.deferred.hints.map((h) => [h.item, h.pull])).toEqual(
        TAILS.map((t) => [t, 1])
      )
      expect(report.problems.filter((p) => p.code === 'deferred-unnamed')).toEqual(
        TAILS.map((t) =>
          expect.objectContaining({
            message: expect.stringContaining(
              `${t} is not named in the body of #1 (an open PR on the same head commit)`
            )
          })
        )
      )
      // The other PRs come with the GraphQL read; through REST, one request more.
      const listed = requests.filter(
        (r) => r === 'repos/list-pull-requests-associated-with-commit'
      ).length
      expect({ source, listed }).toEqual({
        source,
        listed: source.includes('GraphQL') || source.includes('workspace') ? 0 : 1
      })
    }
    // The check runs (the action's three) say whose body lacks which item (Markdown-escaped).
    const summaries = f.fake.checks.runs.map((r) =>
      (r.output.summary ?? '').replaceAll('\\', '')
    )
    expect(summaries).toHaveLength(3)
    for (const summary of summaries)
      for (const tail of TAILS)
        expect(summary).toContain(
          `not named: ${tail}, in the body of #1 (an open PR on the same head commit)`
        )
  })

  it('both bodies naming both: success; a closed PR on the head is not asked', async () => {
    const f = await twoPrs(NAMING_BOTH)
    f.fake.addPull({
      number: 3,
      head: { ref: 'feature/fn-7' },
      base: { ref: 'main' },
      state: 'closed',
      body: ''
    })
    for (const { source, report } of await judgeEverywhere(f, 2)) {
      expect({ source, conclusion: report.conclusion }).toEqual({
        source,
        conclusion: 'success'
      })
      expect(report.notes).toContain(
        'also audited: the body of #1 (open on the same head commit, so the check run is theirs too)'
      )
    }
  })
})
