/** The renderers: hostile receipt text is neutralised; summaries stay within GitHub's byte limits. */
import { describe, expect, it } from '@jest/globals'
import type { Report, ReceiptRow, ReportFinding } from '../../src/gate/report.js'
import { mdFence, mdInline } from '../../src/render/markdown-escape.js'
import { reportTitle } from '../../src/gate/outcome.js'
import { renderSummary } from '../../src/render/summary.js'
import { renderText } from '../../src/render/text.js'
import MarkdownIt from 'markdown-it'
import { reportFinding, reportOf, reportRow } from '../support/report-builders.js'

const HOSTILE =
  '::set-output name=x::1 <img src=x onerror=alert(1)> @everyone @org/team </details> | a | b | [x](javascript:alert(1)) ```\u001b[31m\u202e'

function finding(over: Partial<ReportFinding> = {}): ReportFinding {
  return reportFinding({
    title: HOSTILE,
    body: `${HOSTILE}\n\`\`\`\`\nbreak out`,
    suggestion: HOSTILE,
    rIds: ['R1'],
    anchor: { path: 'src/a.ts', side: 'head', startLine: 4, endLine: 9 },
    ...over
  })
}

function report(rows: Partial<ReceiptRow>[] = [{}]): Report {
  return reportOf(
    rows.map((over) =>
      reportRow({
        mode: HOSTILE,
        reviewedHead: 'c0ffee0',
        reason: HOSTILE,
        findings: [finding()],
        details: {
          suppressed: { '25': 2 },
          deferred: 1,
          validator: null,
          verdictChanges: [],
          introducedCount: 1,
          preExistingCount: 0,
          prose: HOSTILE,
          unaddressed: []
        },
        ...over
      })
    ),
    {
      required: ['impl_review'],
      deferred: {
        expected: 1,
        named: 0,
        unnamed: [HOSTILE],
        uncounted: 0,
        hints: [{ item: HOSTILE, nearMiss: HOSTILE, why: HOSTILE, paste: HOSTILE }],
        skipped: false,
        notes: []
      }
    }
  )
}

/** Renders Markdown as GitHub does (GFM tables, raw HTML allowed) and returns the HTML. */
function html(markdown: string): string {
  return new MarkdownIt({ html: true, linkify: true }).render(markdown)
}

/** Text a reader sees, without tags. */
function visibleText(rendered: string): string {
  return rendered.replace(/<[^>]*>/g, '')
}

describe('markdown escaping', () => {
  it('neutralises HTML, mentions, links, tables and controls inline', () => {
    const out = mdInline(HOSTILE)
    expect(out).not.toMatch(
      /<img|<\/details>|@everyone|@org\/team|\]\(|\u001b|\u202e|(?<!\\)\|/
    )
    expect(out).toContain('&lt;img')
  })
  it('fences cannot be closed from inside', () => {
    const fenced = mdFence('a\n````\n<details>')
    expect(fenced.startsWith('`````text\n')).toBe(true)
    expect(fenced.endsWith('\n`````')).toBe(true)
  })
  it('the rendered summary has no live hostile HTML, links, mentions or broken tables', () => {
    const rendered = html(renderSummary(report()))
    expect(rendered).not.toMatch(/<img|href="javascript|onerror=alert\(1\)>/)
    expect(visibleText(rendered)).not.toMatch(/@everyone|@org\/team|\u001b|\u202e/)
    expect(rendered.match(/<details>/g)?.length).toBe(
      rendered.match(/<\/details>/g)?.length
    )
    // One header row and one body row, each with six cells: the pipes in the text stayed text.
    const table = rendered.slice(
      rendered.indexOf('<table>'),
      rendered.indexOf('</table>')
    )
    expect(table.match(/<tr>/g)).toHaveLength(2)
    expect(table.slice(table.indexOf('<tbody>')).match(/<td>/g)).toHaveLength(6)
  })
})

describe('summary', () => {
  it('escapes a hostile receipt path inside the raw-HTML prose summary', () => {
    const rendered = html(
      renderSummary(
        report([
          {
            path: '.flow/review-receipts/</summary><img src=x onerror=alert(1)>@everyone.json'
          }
        ])
      )
    )
    expect(rendered).not.toMatch(/<img/)
    expect(visibleText(rendered)).not.toContain('@everyone')
    expect(rendered.match(/<details>/g)?.length).toBe(
      rendered.match(/<\/details>/g)?.length
    )
    expect(rendered.match(/<summary>/g)?.length).toBe(
      rendered.match(/<\/summary>/g)?.length
    )
  })

  it('follows the human reading order', () => {
    const text = renderSummary(report())
    const order = [
      '### 1. Verdict',
      '### 2. Introduced findings',
      '### 3. Suppressed and deferred',
      '### 4. Validation state',
      '### 5. Confidence anchors',
      'Reviewer prose'
    ]
    const at = order.map((heading) => text.indexOf(heading))
    expect(at.every((i) => i >= 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
  })
  it('stays within 65535 bytes and says what it cut', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      finding({ id: `f${i}`, ordinal: i + 1, body: 'x'.repeat(3000) })
    )
    const text = renderSummary(report([{ findings: many }, { findings: many }]))
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(65535)
    expect(text).toMatch(/not shown/)
  })
  it('at every limit: fits, keeps the most it can, and renders a report alike each time', () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      finding({ id: `f${i}`, ordinal: i + 1, body: `é${'x'.repeat(40 * i)}` })
    )
    const rows = [{ findings: many }, { findings: many.slice(0, 7) }]
    const shared = report(rows)
    const full = renderSummary(shared, 1e9)
    let previous = ''
    for (let limit = 200; limit <= Buffer.byteLength(full) + 2; limit += 97) {
      const text = renderSummary(shared, limit)
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit)
      // Sizes are added up from the blocks: the text must be what a fresh report gives
      // (nothing cached across reports) and the largest cut that fits (grows with the limit).
      expect(renderSummary(report(rows), limit)).toBe(text)
      expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(Buffer.byteLength(previous))
      if (Buffer.byteLength(text) < limit - 1)
        expect(renderSummary(shared, Buffer.byteLength(text))).toBe(text)
      previous = text
    }
    expect(renderSummary(shared, Buffer.byteLength(full))).toBe(full)
    expect(renderSummary(shared, Buffer.byteLength(full) - 1)).not.toBe(full)
  })
  it('renders alike whichever limit comes first (blocks cached per report)', () => {
    // Bodies with what escaping lengthens (controls, mentions, backticks, astral
    // characters) and suggestions; the prose too.
    const body = (i: number) =>
      `@team \u0007 ${'`'.repeat(i % 5)} ${'é😀'.repeat(i * 7)}\nline ${i}`
    const many = Array.from({ length: 60 }, (_, i) =>
      finding({
        id: `f${i}`,
        ordinal: i + 1,
        body: body(i),
        ...(i % 3 === 0 ? { suggestion: `use ${body(i + 1)}` } : {})
      })
    )
    const rows = [{ findings: many }, { findings: many.slice(0, 9) }]
    const full = Buffer.byteLength(renderSummary(report(rows), 1e9))
    const limits = [200, 2_000, 9_000, 30_000, full - 1, full, 65_535, 1024 * 1024]
    const fresh = new Map(
      limits.map((limit) => [limit, renderSummary(report(rows), limit)])
    )
    for (const order of [limits, [...limits].reverse(), [65_535, 1024 * 1024, 200]]) {
      const shared = report(rows)
      for (const limit of order)
        expect(renderSummary(shared, limit)).toBe(fresh.get(limit))
    }
  })
  it("holds every finding's details exactly when they fit (their least size is never more than their size)", () => {
    // Details are made only once the least they can be fits: a bound above their real
    // size would drop details that fit. Bodies whose bytes escaping does not change, and
    // bodies it lengthens (controls, mentions, lone surrogates, CRLF); no prose, so the
    // largest summary is the one with every detail.
    const bodies = ['x'.repeat(500), `é😀\ud800\r\n@a \u0007 ${'`'.repeat(4)}`, '']
    const many = Array.from({ length: 30 }, (_, i) =>
      finding({
        id: `f${i}`,
        ordinal: i + 1,
        body: bodies[i % 3] as string,
        suggestion: i % 2 === 0 ? (bodies[(i + 1) % 3] as string) : null
      })
    )
    const noProse = report([{ findings: many }]).receipts.map((row) => ({
      ...row,
      details: row.details && { ...row.details, prose: '' }
    }))
    const full = renderSummary(report(noProse), 1e9)
    expect(full).toMatch(/<details><summary>details<\/summary>/)
    expect(full).not.toMatch(/not shown/)
    expect(renderSummary(report(noProse), Buffer.byteLength(full))).toBe(full)
    expect(renderSummary(report(noProse), Buffer.byteLength(full) - 1)).toMatch(
      /not shown/
    )
  })
  it("indents every line of a finding's details under its list item", () => {
    const text = renderSummary(
      report([
        { findings: [finding({ body: 'first\n\nthird', suggestion: 'use\nthis' })] }
      ]),
      1e9
    )
    expect(text).toContain(
      '  <details><summary>details</summary>\n\n  ```text\n  first\n  \n  third\n  \n  Suggestion:\n  use\n  this\n  ```\n\n  </details>'
    )
  })
  it('titles say the verdict and the open introduced findings', () => {
    expect(
      reportTitle({
        ...report(),
        deferred: { ...reportOf([]).deferred, skipped: false }
      })
    ).toBe('NEEDS_WORK — 1 introduced finding open (1 P1)')
    expect(reportTitle({ ...report([]), verdict: '', missing: ['impl_review'] })).toMatch(
      /^No current impl_review/
    )
  })
})

describe('text report', () => {
  it('escapes terminal controls and colours only when asked', () => {
    const plain = renderText(report(), false)
    expect(plain).not.toMatch(/\u001b|\u202e/)
    expect(plain).toContain('\\u{1b}')
    expect(renderText(report(), true)).toMatch(/\u001b\[31m/)
  })
})
