/**
 * Findings placed in the PR's diff (issue 25): `inDiff` on current findings, base-side
 * anchors annotated at the change that removed their line ("on the removed line N"),
 * unmapped ones listed and not annotated, outside-the-diff ones still annotated and
 * listed with links in the summary.
 */
import { describe, expect, it } from '@jest/globals'
import { buildAnnotations } from '../../src/gate/annotations.js'
import { diffMap, parsePatch } from '../../src/gate/diff-map.js'
import { placeFindings } from '../../src/gate/placement.js'
import type { ReceiptRow, ReportFinding } from '../../src/gate/report.js'
import { renderSummary } from '../../src/render/summary.js'
import { reportOf, reportRow } from '../support/report-builders.js'

const HEAD = 'a'.repeat(40)

function finding(
  id: string,
  anchor: ReportFinding['anchor'],
  extra: Partial<ReportFinding> = {}
): ReportFinding {
  return {
    id,
    ordinal: 1,
    severity: 'P1',
    confidence: 75,
    classification: 'introduced',
    status: 'open',
    title: `title ${id}`,
    body: `body ${id}`,
    suggestion: null,
    rIds: [],
    anchor,
    ...extra
  }
}

function row(findings: ReportFinding[]): ReceiptRow {
  return reportRow({
    path: '.flow/review-receipts/impl-fn-1.json',
    id: 'fn-1',
    mode: 'rp',
    reviewedHead: HEAD,
    findings
  })
}

// a.ts: base lines 10-11 replaced by head 10-12; base 30 deleted (head 31 after it).
const PATCH_A = [
  '@@ -7,8 +7,9 @@',
  ' line 7',
  ' line 8',
  ' line 9',
  '-line 10',
  '-line 11',
  '+new A',
  '+new B',
  '+new C',
  ' line 12',
  ' line 13',
  ' line 14',
  '@@ -27,7 +28,6 @@',
  ' line 27',
  ' line 28',
  ' line 29',
  '-line 30',
  ' line 31',
  ' line 32',
  ' line 33'
].join('\n')

const MAP = diffMap({
  files: [
    { path: 'a.ts', hunks: parsePatch(PATCH_A) },
    { path: 'big.json', hunks: null },
    {
      path: 'new/b.ts',
      previousPath: 'old/b.ts',
      hunks: parsePatch('@@ -1,2 +1,2 @@\n-x\n+y\n z')
    }
  ]
})

const head = (path: string, startLine: number, endLine = startLine) =>
  ({ path, side: 'head', startLine, endLine }) as const
const base = (path: string, startLine: number) =>
  ({ path, side: 'base', startLine, endLine: startLine }) as const

describe('placeFindings', () => {
  const rows = [
    row([
      finding('in', head('a.ts', 11)),
      finding('out', head('a.ts', 20)),
      finding('unchanged', head('c (1).ts', 3)),
      finding('big', head('big.json', 4)),
      finding('removed', base('a.ts', 30)),
      finding('renamed', base('old/b.ts', 1)),
      finding('kept', base('a.ts', 2)),
      finding('fixed', head('a.ts', 40), { status: 'fixed' }),
      finding('none', null)
    ])
  ]
  const placed = placeFindings(rows, MAP, null, HEAD, 'https://github.com/acme/widgets')
  const byId = new Map(placed.rows[0]?.findings.map((f) => [f.id, f]))

  it('says for each current finding whether it is in the diff', () => {
    expect(byId.get('in')?.inDiff).toBe(true)
    expect(byId.get('out')?.inDiff).toBe(false)
    expect(byId.get('unchanged')?.inDiff).toBe(false)
    expect(byId.get('big')?.inDiff).toBeNull()
    expect(byId.get('none')?.inDiff).toBeNull()
    expect(byId.get('removed')).toMatchObject({
      inDiff: true,
      mappedTo: { path: 'a.ts', line: 31 }
    })
    expect(byId.get('renamed')?.mappedTo).toEqual({ path: 'new/b.ts', line: 1 })
    expect(byId.get('kept')).toMatchObject({ inDiff: false, mappedTo: null })
  })

  it('lists annotated findings outside the diff with links, and unmapped base-side ones', () => {
    expect(placed.diff.outside.map((e) => [e.id, e.url])).toEqual([
      ['out', `https://github.com/acme/widgets/blob/${HEAD}/a.ts#L20`],
      ['unchanged', `https://github.com/acme/widgets/blob/${HEAD}/c%20(1).ts#L3`]
    ])
    expect(placed.diff.unmapped.map((e) => e.id)).toEqual(['kept'])
    // Without a repository: plain file:line.
    const plain = placeFindings(rows, MAP, null, HEAD, null)
    expect(plain.diff.outside.every((e) => e.url === null)).toBe(true)
  })

  it('annotates mapped base-side findings and keeps every head-side one', () => {
    const annotations = buildAnnotations(placed.rows)
    const byTitle = new Map(annotations.map((a) => [a.title.replace(/^.* — /, ''), a]))
    // Head-side annotations are as before, in the diff or not.
    expect(byTitle.get('title out')).toMatchObject({ path: 'a.ts', start_line: 20 })
    expect(byTitle.get('title unchanged')).toMatchObject({ path: 'c (1).ts' })
    expect(byTitle.get('title big')).toMatchObject({ path: 'big.json', start_line: 4 })
    expect(byTitle.get('title removed')).toMatchObject({
      path: 'a.ts',
      start_line: 31,
      end_line: 31,
      message: 'On the removed line 30: body removed'
    })
    expect(byTitle.get('title renamed')).toMatchObject({
      path: 'new/b.ts',
      start_line: 1
    })
    expect(byTitle.has('title kept')).toBe(false)
    expect(annotations).toHaveLength(6)
  })

  it('shows the sections in the summary, links escaped', () => {
    const report = reportOf(placed.rows, { head: HEAD, diff: placed.diff })
    const summary = renderSummary(report)
    expect(summary).toContain('### Outside the diff — shown only in the Checks tab')
    expect(summary).toContain(
      `- [a\\.ts:20](https://github.com/acme/widgets/blob/${HEAD}/a.ts#L20) — **P1** title out`
    )
    expect(summary).toContain(`/blob/${HEAD}/c%20%281%29.ts#L3)`)
    expect(summary).toMatch(
      /### Base-side, not mapped[^\n]*\n+- `a\.ts:2` — \*\*P1\*\* title kept/
    )
  })

  it('leaves everything unknown when the changed files are unknown', () => {
    const unknown = placeFindings(rows, null, 'too many files', HEAD, null)
    expect(unknown.diff).toMatchObject({
      known: false,
      note: 'too many files',
      outside: []
    })
    // Base-side findings cannot be placed: listed, not annotated (as before issue 25).
    expect(unknown.diff.unmapped.map((e) => e.id)).toEqual(['removed', 'renamed', 'kept'])
    expect(unknown.rows[0]?.findings.every((f) => f.inDiff === null)).toBe(true)
    expect(buildAnnotations(unknown.rows)).toHaveLength(4)
  })
})
