/**
 * The outcome of a report in words (title, causes, next step), and how the renderers show
 * it: the next step under the title, coverage notes, exemptions; the terminal wrap counts
 * display cells and never repeats or splits what it cuts.
 */
import { describe, expect, it } from '@jest/globals'
import { causes, nextStep, reportTitle } from '../../src/gate/outcome.js'
import type { Report } from '../../src/gate/report.js'
import { renderSummary } from '../../src/render/summary.js'
import { renderText } from '../../src/render/text.js'
import { displayWidth } from '../../src/util/cells.js'
import {
  REPORT_HEAD,
  reportFinding,
  reportOf,
  reportRow
} from '../support/report-builders.js'

const HEAD7 = REPORT_HEAD.slice(0, 7)
const shipRow = reportRow({ verdict: 'SHIP', conclusion: 'success', reason: 'current' })
const openP2 = reportFinding({ severity: 'P2' })

/** A current SHIP with two open P2 findings whose run failed for `problems`. */
function shipFailing(over: Partial<Report>): Report {
  return reportOf([{ ...shipRow, findings: [openP2, { ...openP2, id: 'finding-2' }] }], {
    verdict: 'SHIP',
    required: ['impl_review'],
    ...over
  })
}

describe('the title names the cause, not the verdict of a passing receipt', () => {
  it('coverage failed under a current SHIP with open findings', () => {
    const report = shipFailing({
      problems: [
        { code: 'coverage-unreviewed', path: null, message: 'code commit 1234567 …' }
      ],
      coverage: {
        commits: 2,
        reviewed: 1,
        unreviewed: ['1234567'.padEnd(40, '0')],
        unknown: [],
        list: [],
        note: null
      }
    })
    // The cause leads; the open findings follow as context, without the verdict.
    expect(reportTitle(report)).toBe(
      'code commits not proven reviewed — 2 introduced findings open'
    )
    expect(nextStep(report)).toBe(
      'review the code commits no SHIP review holds (1234567), or set coverage to report'
    )
    expect(renderSummary(report)).not.toContain('**SHIP')
  })

  it('the deferral file failed', () => {
    const report = shipFailing({
      problems: [
        {
          code: 'deferral-unreadable',
          path: '.flow/review-deferred/x.md',
          message:
            'deferral file unreadable: .flow/review-deferred/x.md is a symlink, not a file'
        }
      ]
    })
    // The cause says which file and why; the step, what to make of it.
    expect(reportTitle(report)).toBe(
      'deferral file unreadable: .flow/review-deferred/x.md is a symlink, not a file — 2 introduced findings open'
    )
    expect(nextStep(report)).toBe(
      'make it a regular file of at most 1 MiB, or set audit-deferred to false'
    )
  })

  it('a passing run keeps its verdict line', () => {
    const report = reportOf([shipRow], { conclusion: 'success', verdict: 'SHIP' })
    expect(causes(report)).toEqual([])
    expect(reportTitle(report)).toBe('SHIP — no introduced findings open')
    expect(nextStep(report)).toBe('the gate passes: nothing blocks the merge')
  })

  it('a missing type with nothing in the folder: the folder, not a review', () => {
    const report = reportOf([], {
      verdict: '',
      missing: ['impl_review'],
      required: ['impl_review'],
      problems: [
        {
          code: 'empty-receipts-dir',
          path: '.flow/receipts',
          message: 'no receipts under .flow/receipts'
        },
        { code: 'missing-required', path: null, message: 'no current impl_review' }
      ]
    })
    expect(reportTitle(report)).toBe('No current impl_review')
    expect(nextStep(report)).toBe(
      `no receipts under .flow/receipts at ${HEAD7}: commit the review receipts there, or set receipts-dir to the folder that holds them`
    )
  })

  it('an exempt PR with nothing selected: neutral, and says who exempted it', () => {
    const report = reportOf([], {
      conclusion: 'neutral',
      verdict: '',
      exempt: { by: 'author', name: 'dependabot[bot]', input: 'exempt-authors' }
    })
    expect(reportTitle(report)).toBe(
      'Exempt: author dependabot[bot] — no review required'
    )
    expect(nextStep(report)).toMatch(
      /^exempt by exempt-authors \(author dependabot\[bot\]\)/
    )
    const summary = renderSummary(report)
    expect(summary).toContain(
      'Exempt: author dependabot\\[bot\\] (input `exempt-authors`)'
    )
    expect(renderText(report, false)).toContain(
      '  exempt: author dependabot[bot] (exempt-authors): no review is required'
    )
  })
})

describe('renderers', () => {
  const report = shipFailing({
    problems: [{ code: 'missing-required', path: null, message: 'x' }],
    missing: ['plan_review']
  })

  it('the Markdown summary has the next step right under the title', () => {
    const lines = renderSummary(report).split('\n')
    const title = lines.findIndex((line) => line.startsWith('**'))
    expect(lines[title + 2]).toBe(
      `**Next:** run plan\\-review at ${HEAD7} and commit its receipt`
    )
  })

  it('coverage notes are printed in the summary and the text report', () => {
    const note = '2 commits counted as code without their paths read'
    const withNote: Report = {
      ...report,
      coverage: { commits: 2, reviewed: 2, unreviewed: [], unknown: [], list: [], note }
    }
    expect(renderSummary(withNote)).toContain(`> ${note}`)
    expect(renderText(withNote, false)).toContain(`    note: ${note}`)
  })
})

describe('the terminal wrap', () => {
  const row = (path: string, title: string): Report =>
    reportOf([
      reportRow({
        path,
        findings: [
          reportFinding({
            title,
            anchor: { path: 'src/a.ts', side: 'head', startLine: 1, endLine: 1 }
          })
        ]
      })
    ])

  it('cuts a long name without repeating characters at the cut (80 columns)', () => {
    const name = `.flow/review-receipts/${'abcdefghij'.repeat(12)}.json`
    const text = renderText(row(name, 't'), false, 80)
    const lines = text.split('\n')
    const start = lines.findIndex((line) => line.includes('.flow/review-receipts/'))
    // The name's pieces, joined, are the name: nothing repeated, nothing lost.
    let joined = ''
    for (let i = start; !joined.includes('.json'); i++) {
      const line = (lines[i] ?? '').trim().replace(/^✗ /, '')
      joined += line.split('  ')[0] ?? ''
    }
    expect(joined.slice(0, name.length)).toBe(name)
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80)
  })

  it('counts wide characters and emoji as two columns, and keeps graphemes whole', () => {
    const title = `${'漢字'.repeat(30)} ${'👍🏽'.repeat(30)} ${'e\u0301'.repeat(90)}`
    const text = renderText(
      row('.flow/review-receipts/impl-fn-1.1.json', title),
      false,
      60
    )
    for (const line of text.split('\n'))
      expect(displayWidth(line)).toBeLessThanOrEqual(60)
    // No skin-tone modifier is cut from its hand, no accent from its letter.
    expect(text).not.toMatch(/^\s*(?:🏽|\u0301)/mu)
    expect(text.replace(/\n\s*/g, '')).toContain('👍🏽'.repeat(30))
    // 90 accented letters take 90 columns, not 180: two lines at most.
    expect(text.split('\n').filter((line) => line.includes('\u0301'))).toHaveLength(2)
  })

  it('keeps a label with its value', () => {
    for (let width = 40; width <= 100; width++) {
      const text = renderText(
        row('.flow/review-receipts/impl-fn-1.1.json', 'x'),
        false,
        width
      )
      expect(text).not.toMatch(/confidence\n/)
      expect(text).not.toMatch(/\(head\n/)
    }
  })
})

describe('a receipt whose names run long', () => {
  /** A current NEEDS_WORK receipt with a 10,000-character type, and 40 long notes. */
  const long = reportOf([reportRow({ type: `${'::error::x '.repeat(1000)}` })], {
    notes: Array.from({ length: 40 }, (_, i) => `note ${i} ${'n'.repeat(200)}`)
  })

  it('keeps the next step to 500 characters', () => {
    const next = nextStep(long)
    expect(
      next.startsWith('address the findings of impl-fn-1.1.json, then re-run ')
    ).toBe(true)
    expect(next).toHaveLength(500)
    expect(next.endsWith('…')).toBe(true)
  })

  it('keeps the conclusion, the title and the counts in the smallest summary', () => {
    const summary = renderSummary(long, 1500)
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(1500)
    expect(summary).toContain('Review receipts: failure')
    expect(summary).toContain('**NEEDS\\_WORK — no introduced findings open**')
    expect(summary).toContain('1 receipt selected')
    expect(summary).toMatch(/\d+ detail blocks not shown/)
  })
})
