/**
 * The line Flow-Next land shows of a refusal (stderr's last line, cut to 200 characters):
 * every refusal class says its cause and the next step, within 200 bytes, whatever the
 * hostile text in it.
 */
import { describe, expect, it } from '@jest/globals'
import { LINE_LIMIT, reportLine, verdictLine } from '../../src/cli/land-line.js'
import { causes } from '../../src/gate/outcome.js'
import type { Report } from '../../src/gate/report.js'
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

const coverage = (unreviewed: string[], unknown: string[]) => ({
  commits: 2,
  reviewed: 1,
  unreviewed: unreviewed.map((sha) => sha.padEnd(40, '0')),
  unknown: unknown.map((sha) => sha.padEnd(40, '0')),
  list: [],
  note: null
})
const SINK = '.flow/review-deferred/feature-fn-1.md'
const deferred = (hints: Report['deferred']['hints']) => ({
  expected: 2,
  named: 0,
  unnamed: [],
  uncounted: 2,
  hints,
  skipped: false,
  notes: []
})
const countHint = {
  item: null,
  nearMiss: null,
  why: '2 deferred findings counted on the receipts (walkthrough.deferred) but not named by a deferral bullet',
  paste: '- [ ] …'
}

describe('the land line of each refusal class: the cause and step every output says', () => {
  it.each([
    [
      'NEEDS_HUMAN',
      reportOf([reportRow({ verdict: 'NEEDS_HUMAN', conclusion: 'action_required' })], {
        conclusion: 'action_required',
        verdict: 'NEEDS_HUMAN'
      }),
      `receipt-gate: action_required — NEEDS_HUMAN — no introduced findings open; a human must review (the reviewer of impl-fn-1.1.json asks for one), then re-run impl-review at ${AT}`
    ],
    [
      'MAJOR_RETHINK with open findings',
      reportOf([reportRow({ verdict: 'MAJOR_RETHINK', findings: [reportFinding()] })], {
        verdict: 'MAJOR_RETHINK'
      }),
      `receipt-gate: failure — MAJOR_RETHINK — 1 introduced finding open (1 P1); address the findings of impl-fn-1.1.json, then re-run impl-review at ${AT}`
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
      'receipt-gate: failure — 1 unreadable or ambiguous; fix the unreadable or ambiguous receipts (receipt-gate validate .flow/review-receipts/impl-fn-1.1.json says why)'
    ],
    [
      'a stale review that never shipped',
      reportOf([
        reportRow({
          currentness: 'stale',
          reason: `stale: the reviewed head 1234567 is not an ancestor of the head (rebased or from another branch) — last verdict at an older head was NEEDS_WORK; never resolved`
        })
      ]),
      `receipt-gate: failure — 1 stale receipt ended unresolved (NEEDS_WORK); re-run impl-review at ${AT} for each stale receipt that asked for changes (impl-fn-1.1.json)`
    ],
    [
      'a required type with no receipt',
      reportOf([], { missing: ['plan_review'] }),
      `receipt-gate: failure — No current plan_review; run plan-review at ${AT} and commit its receipt`
    ],
    [
      'a required type whose SHIP went stale: the receipt and what changed',
      reportOf(
        [
          reportRow({
            verdict: 'SHIP',
            currentness: 'stale',
            conclusion: 'neutral',
            reason: `stale: 1 non-bookkeeping path changed since the reviewed head 1234567 (src/a.ts) — an older SHIP approves nothing`
          })
        ],
        { missing: ['impl_review'] }
      ),
      `receipt-gate: failure — No current impl_review (impl-fn-1.1.json stale: 1 non-bookkeeping path changed since the reviewed head 1234567 (src/a.ts)); run impl-review at ${AT} and commit its receipt`
    ],
    [
      'an empty receipts folder',
      reportOf([], {
        missing: ['impl_review'],
        problems: [problem('empty-receipts-dir', 'no receipts', '.flow/review-receipts')]
      }),
      `receipt-gate: failure — No current impl_review; no receipts under .flow/review-receipts at ${AT}: commit the review receipts there, or set receipts-dir to the folder that holds them`
    ],
    [
      'nothing selected',
      reportOf([], {
        missing: ['impl_review'],
        problems: [problem('nothing-selected', 'select matched no receipt')]
      }),
      "receipt-gate: failure — No current impl_review; select matched no receipt: commit this pull request's review receipt, or change select"
    ],
    [
      'unreviewed code commits (coverage: require)',
      reportOf([], {
        problems: [problem('coverage-unreviewed', 'code commit abcdef0 …')],
        coverage: coverage(['abcdef0'], [])
      }),
      'receipt-gate: failure — code commits not proven reviewed; review the code commits no SHIP review holds (abcdef0), or set coverage to report'
    ],
    [
      'code commits under a review of unknown base',
      reportOf([], {
        problems: [problem('coverage-unknown', 'the base of … is unknown')],
        coverage: coverage([], ['abcdef0'])
      }),
      'receipt-gate: failure — code commits not proven reviewed; review again so the receipt records its base (a full SHA), or set coverage to report: the base of the review holding abcdef0 is unknown'
    ],
    [
      'deferrals counted on the receipts, none named',
      reportOf([], {
        deferred: deferred([countHint]),
        problems: [problem('deferred-unnamed', 'a deferred finding … is not named', SINK)]
      }),
      `receipt-gate: failure — deferred findings not named in the PR body; name each deferred finding of ${SINK} in the PR body (the report lists the lines to paste)`
    ],
    [
      'a deferral file that cannot be read',
      reportOf([], {
        problems: [
          problem(
            'deferral-unreadable',
            `deferral file unreadable: ${SINK} is a symlink, not a file`,
            SINK
          )
        ]
      }),
      `receipt-gate: failure — deferral file unreadable: ${SINK} is a symlink, not a file; make it a regular file of at most 1 MiB, or set audit-deferred to false`
    ]
  ])('%s', (_name, report, line) => {
    expect(reportLine(report)).toBe(`${line}\n`)
  })

  it('the line is the first cause of the report, its step, and how many more', () => {
    const report = reportOf([reportRow(), reportRow({ path: 'x/impl-fn-1.2.json' })], {
      missing: ['plan_review']
    })
    const [first] = causes(report)
    expect(reportLine(report)).toBe(
      `receipt-gate: failure — ${first?.title}; ${first?.next} (+1 more in the report)\n`
    )
    expect(first?.next).toBe(
      `address the findings of impl-fn-1.1.json and 1 more, then re-run impl-review at ${AT}`
    )
  })

  it('a pass says what passed, as the report does', () => {
    expect(
      reportLine(
        reportOf([reportRow({ verdict: 'SHIP', conclusion: 'success' })], {
          conclusion: 'success',
          verdict: 'SHIP'
        })
      )
    ).toBe(
      'receipt-gate: success — SHIP — no introduced findings open; the gate passes: nothing blocks the merge\n'
    )
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
