/**
 * The line Flow-Next land shows of a refusal (stderr's last line, cut to 200 characters):
 * every refusal class says its cause and the next step, within 200 bytes, whatever the
 * hostile text in it.
 */
import { describe, expect, it } from '@jest/globals'
import { LINE_LIMIT, reportLine, verdictLine } from '../../src/cli/land-line.js'
import {
  REPORT_HEAD,
  reportFinding,
  reportOf,
  reportRow
} from '../support/report-builders.js'

const AT = REPORT_HEAD.slice(0, 7)
const problem = (code: string, message: string, path: string | null = null) => ({
  code,
  path,
  message
})

describe('the land line of each refusal class', () => {
  it.each([
    [
      'NEEDS_HUMAN',
      reportOf([reportRow({ verdict: 'NEEDS_HUMAN', conclusion: 'action_required' })], {
        conclusion: 'action_required'
      }),
      `receipt-gate: action_required — impl-fn-1.1.json says NEEDS_HUMAN at ${AT}: the reviewer asks a person to decide; decide, then re-run impl-review at ${AT}`
    ],
    [
      'MAJOR_RETHINK with open findings',
      reportOf([reportRow({ verdict: 'MAJOR_RETHINK', findings: [reportFinding()] })]),
      `receipt-gate: failure — impl-fn-1.1.json says MAJOR_RETHINK at ${AT} (1 introduced finding open); fix them, then re-run impl-review at ${AT}`
    ],
    [
      'an unreadable receipt',
      reportOf([
        reportRow({
          currentness: 'unreadable',
          verdict: null,
          reason: 'not JSON: unexpected token — unreadable receipt: an unknown state'
        })
      ]),
      `receipt-gate: failure — impl-fn-1.1.json unreadable: not JSON: unexpected token; fix it (receipt-gate validate .flow/review-receipts/impl-fn-1.1.json) or re-run impl-review at ${AT}`
    ],
    [
      'a stale review that never shipped',
      reportOf([
        reportRow({
          currentness: 'stale',
          reason: `stale: the reviewed head 1234567 is not an ancestor of the head (rebased or from another branch) — last verdict at an older head was NEEDS_WORK; never resolved`
        })
      ]),
      `receipt-gate: failure — impl-fn-1.1.json: NEEDS_WORK never resolved, stale: the reviewed head 1234567 is not an ancestor of the head (rebased or from another branch); re-run impl-review at ${AT}`
    ],
    [
      'a required type with no receipt',
      reportOf([], { missing: ['plan_review'] }),
      `receipt-gate: failure — no plan_review receipt at ${AT}; re-run plan-review at ${AT} and commit its receipt`
    ],
    [
      'unreviewed code commits (coverage: require)',
      reportOf([], {
        problems: [
          problem(
            'coverage-unreviewed',
            "code commit abcdef0 is inside no SHIP review's range"
          )
        ]
      }),
      `receipt-gate: failure — code commit abcdef0 is inside no SHIP review's range; re-run impl-review at ${AT} to cover it`
    ],
    [
      'deferrals counted on the receipts, none named',
      reportOf([], {
        deferred: {
          expected: 2,
          named: 0,
          unnamed: [],
          uncounted: 2,
          hints: [],
          skipped: false,
          notes: []
        },
        problems: [problem('deferred-unnamed', 'a deferred finding … is not named')]
      }),
      'receipt-gate: failure — 2 deferred findings not named in the PR body; name each in the PR body as make-pr does (- [ ] … — deferred from impl-review (…))'
    ]
  ])('%s', (_name, report, line) => {
    expect(reportLine(report)).toBe(`${line}\n`)
  })

  it('several refusals: the first, and how many more', () => {
    const report = reportOf([reportRow(), reportRow({ path: 'x/impl-fn-1.2.json' })], {
      missing: ['plan_review']
    })
    expect(reportLine(report)).toMatch(
      /; fix|; address the review, then re-run .* \(\+2 more in the report\)\n$/
    )
  })

  it('a pass says what passed', () => {
    expect(
      reportLine(
        reportOf([reportRow({ verdict: 'SHIP', conclusion: 'success' })], {
          conclusion: 'success',
          verdict: 'SHIP'
        })
      )
    ).toBe(`receipt-gate: success — SHIP at ${AT}\n`)
  })
})

describe('the line fits what land keeps', () => {
  it('a long, hostile cause is cut (the verdict and the step are kept); controls are made visible', () => {
    const line = verdictLine('failure', `${'é'.repeat(150)}\n\u001b[31mred`, 'the step')
    expect(Buffer.byteLength(line.trimEnd())).toBeLessThanOrEqual(LINE_LIMIT)
    expect(line).toMatch(/^receipt-gate: failure — é+…; the step\n$/)
    const hostile = verdictLine('failure', 'a\nb\u001b[2Jc', 'x')
    expect(hostile.trimEnd().split('\n')).toHaveLength(1)
    expect(hostile).not.toContain('\u001b')
  })
})
