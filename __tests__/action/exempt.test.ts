/**
 * Exemptions through the bundled action (run as the runner runs it, against the local
 * GitHub API): a Dependabot PR with no receipt is `neutral` and says who exempted it —
 * never a silent pass — from the author GitHub names (GraphQL spells a bot's login
 * without `[bot]`; REST with it) or a label; off by default; the receipts an exempt PR
 * brings still gate. `check --pr` applies the same rule. The closing next step is in the
 * summary (under the title) and the log; a mistyped select fails the step naming the word.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { Report } from '../../src/gate/report.js'
import { mdInline } from '../../src/render/markdown-escape.js'
import { runCli } from '../support/check-cli.js'
import { DIR, receiptWith, refuseGraphql, trackedPrs } from './support.js'

const { fixture, run } = trackedPrs(afterAll)

const noReceipt = (): Record<string, string> => ({})
const BOT = { user: 'dependabot[bot]' }

function reportOf(path: string | undefined): Report {
  return JSON.parse(readFileSync(path as string, 'utf8')) as Report
}

describe('exempt-authors', () => {
  it('off by default: a Dependabot PR without a receipt fails', async () => {
    const f = await fixture(noReceipt, BOT)
    const result = await run(f)
    expect(result.exitCode).toBe(1)
    expect(result.outputs.conclusion).toBe('failure')
    expect(f.fake.checks.runs[0]?.output?.title).toBe('No current impl_review')
  })

  it.each([
    ['GraphQL', false],
    ['REST', true]
  ])(
    'the author named (read through %s): neutral, titled with who exempted it',
    async (_how, rest) => {
      const f = await fixture(noReceipt, BOT)
      if (rest) refuseGraphql(f)
      const result = await run(f, {
        inputs: { 'exempt-authors': 'renovate[bot]\nDependabot[bot]' }
      })
      expect(result.exitCode).toBe(0)
      expect(result.outputs.conclusion).toBe('neutral')
      const checkRun = f.fake.checks.runs[0]
      expect(checkRun?.conclusion).toBe('neutral')
      expect(checkRun?.output?.title).toBe(
        'Exempt: author dependabot[bot] — no review required'
      )
      expect(result.summary).toContain(
        'Exempt: author dependabot\\[bot\\] (input `exempt-authors`)'
      )
      expect(result.stdout).toContain('next: exempt by exempt-authors')
      expect(reportOf(result.outputs.report)).toMatchObject({
        conclusion: 'neutral',
        required: [],
        missing: [],
        exempt: { by: 'author', name: 'dependabot[bot]', input: 'exempt-authors' }
      })
    }
  )

  it('a human whose login is the bot name without [bot] is not the bot', async () => {
    const f = await fixture(noReceipt, { user: 'dependabot' })
    const result = await run(f, { inputs: { 'exempt-authors': 'dependabot[bot]' } })
    expect(result.outputs.conclusion).toBe('failure')
  })

  it('the receipts an exempt PR brings still gate', async () => {
    const f = await fixture(
      (r, b) => ({
        [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b, { verdict: 'NEEDS_WORK' })
      }),
      BOT
    )
    const result = await run(f, { inputs: { 'exempt-authors': 'dependabot[bot]' } })
    expect(result.exitCode).toBe(1)
    expect(f.fake.checks.runs[0]?.output?.title).toMatch(
      /^Exempt: author dependabot\[bot\] — NEEDS_WORK — 1 introduced finding open/
    )
  })
})

describe('exempt-labels', () => {
  it('a labelled hotfix: neutral, the label named', async () => {
    const f = await fixture(noReceipt, { labels: ['bug', 'Hotfix'] })
    const result = await run(f, { inputs: { 'exempt-labels': 'hotfix' } })
    expect(result.outputs.conclusion).toBe('neutral')
    expect(f.fake.checks.runs[0]?.output?.title).toBe(
      'Exempt: label Hotfix — no review required'
    )
  })

  it('an unlabelled PR is not exempt', async () => {
    const f = await fixture(noReceipt, { labels: ['bug'] })
    const result = await run(f, { inputs: { 'exempt-labels': 'hotfix' } })
    expect(result.outputs.conclusion).toBe('failure')
  })
})

describe('check --pr', () => {
  it('--exempt-authors: the same neutral report as the action', async () => {
    const f = await fixture(noReceipt, BOT)
    const cli = await runCli(
      [
        'check',
        '--pr',
        '1',
        '--repo-slug',
        'acme/widgets',
        '--exempt-authors',
        'dependabot[bot]'
      ],
      undefined,
      {
        env: {
          GITHUB_API_URL: f.fake.url,
          GITHUB_TOKEN: 't',
          RECEIPT_GATE_TIME_SCALE: '0.001'
        }
      }
    )
    expect(cli.stderr).toBe('')
    expect(cli.code).toBe(0)
    expect(cli.stdout).toMatch(
      /^○ neutral — Exempt: author dependabot\[bot\] — no review required/
    )
    expect(cli.stdout).toContain('exempt by exempt-authors (author dependabot[bot])')
  })
})

describe('the next step and typos in the action', () => {
  it('the summary has the next step under the title; the log has it too', async () => {
    const f = await fixture((_r, b) => ({
      [`${DIR}/impl-fn-7.1.json`]: receiptWith(b, b, { verdict: 'NEEDS_WORK' })
    }))
    const result = await run(f)
    const head = f.repo.revParse('feature/fn-7').slice(0, 7)
    const next = `re-run impl-review at ${head} for each stale receipt that asked for changes (impl-fn-7.1.json)`
    const lines = result.summary.split('\n')
    expect(lines.slice(0, 6)).toContain(`**Next:** ${mdInline(next)}`)
    expect(result.stdout).toContain(`next: ${next}`)
  })

  it('select: chnaged fails the step with the word meant', async () => {
    const f = await fixture(noReceipt)
    const result = await run(f, { inputs: { select: 'chnaged' } })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain(
      '::error::Receipt Gate: select: unknown mode "chnaged": did you mean changed?'
    )
    expect(f.fake.checks.runs).toHaveLength(0)
  })
})
