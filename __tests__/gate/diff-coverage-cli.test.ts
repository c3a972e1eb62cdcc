/**
 * Issue 25 end to end through the CLI on real repositories: findings in and outside the
 * PR's diff, base-side anchors mapped and unmapped, a rename; review coverage with two
 * tasks reviewed in turn, a code commit a later review's base skips, unknown bases.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals'
import type { Report, ReportFinding } from '../../src/gate/report.js'
import { checkJson, runCli } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonText,
  type BuiltObject
} from '../support/receipt-builders.js'

jest.setTimeout(60_000)

const DIR = '.flow/review-receipts'
const cleanups: Array<() => void> = []
afterAll(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

const numbered = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => `${tag} ${i + 1}\n`).join('')

function anchored(
  ordinal: number,
  at: { path: string; side: 'head' | 'base'; line: number },
  shas: { headSha: string; baseSha: string }
): BuiltObject {
  return buildItem({
    ordinal,
    sourceReceiptId: 'fn-1.1',
    with: {
      title: `finding ${ordinal}`,
      anchor: {
        path: at.path,
        side: at.side,
        startLine: at.line,
        endLine: at.line,
        ...shas
      }
    }
  })
}

/** A receipt of task `id` reviewing `headSha` from `baseSha` (null: none recorded). */
function receipt(
  id: string,
  verdict: string,
  headSha: string,
  baseSha: string | null,
  items: BuiltObject[] = []
): string {
  return jsonText(
    buildReceipt({
      id,
      verdict,
      findings: buildContainer({ sourceReceiptId: id, headSha, baseSha, items })
    })
  )
}

describe('findings and the diff (CLI, git source)', () => {
  const repo = GitRepo.init()
  cleanups.push(() => repo.cleanup())
  const a = numbered(40, 'a')
  const old = numbered(30, 'old')
  const base = repo.write({ 'src/a.ts': a, 'src/old.ts': old }).commit('base')
  repo.branch('feature')
  const code = repo
    .write({
      'src/a.ts': a.replace('a 20\n', 'changed 20\n').replace('a 30\n', ''),
      'src/old.ts': null,
      'src/new.ts': old.replace('old 5\n', 'new 5\n')
    })
    .commit('code')
  const shas = { headSha: code, baseSha: base }
  repo
    .write({
      [`${DIR}/impl-fn-1.1.json`]: receipt('fn-1.1', 'NEEDS_WORK', code, base, [
        anchored(1, { path: 'src/a.ts', side: 'head', line: 20 }, shas),
        anchored(2, { path: 'src/a.ts', side: 'head', line: 5 }, shas),
        anchored(3, { path: 'src/a.ts', side: 'base', line: 30 }, shas),
        anchored(4, { path: 'src/a.ts', side: 'base', line: 2 }, shas),
        anchored(5, { path: 'src/old.ts', side: 'base', line: 5 }, shas),
        anchored(6, { path: 'src/new.ts', side: 'head', line: 5 }, shas)
      ])
    })
    .commit('receipt')

  let report: Report
  const byTitle = (title: string): ReportFinding | undefined =>
    report.receipts[0]?.findings.find((f) => f.title === title)

  it('says which findings are in the diff and maps base-side anchors', async () => {
    ;({ report } = await checkJson(repo.path, '--base', 'main'))
    expect(byTitle('finding 1')?.inDiff).toBe(true)
    expect(byTitle('finding 2')?.inDiff).toBe(false)
    expect(byTitle('finding 3')).toMatchObject({
      inDiff: true,
      mappedTo: { path: 'src/a.ts', line: 30 }
    })
    expect(byTitle('finding 4')).toMatchObject({ inDiff: false, mappedTo: null })
    expect(byTitle('finding 5')?.mappedTo).toEqual({ path: 'src/new.ts', line: 5 })
    expect(byTitle('finding 6')?.inDiff).toBe(true)
    expect(report.diff?.outside.map((e) => `${e.path}:${e.line}`)).toEqual(['src/a.ts:5'])
    expect(report.diff?.unmapped.map((e) => `${e.path}:${e.line}`)).toEqual([
      'src/a.ts:2'
    ])
  })

  it('annotates in and outside the diff, mapped base-side findings at their head line', () => {
    const lines = report.annotations.map((x) => `${x.path}:${x.start_line}`)
    expect(lines.sort()).toEqual(
      ['src/a.ts:20', 'src/a.ts:5', 'src/a.ts:30', 'src/new.ts:5', 'src/new.ts:5'].sort()
    )
    const removed = report.annotations.find((x) => x.title.endsWith('finding 3'))
    expect(removed?.message).toMatch(/^On the removed line 30: /)
  })

  it('lists outside and unmapped findings in the markdown summary (plain file:line from git)', async () => {
    const run = await runCli([
      'check',
      '--repo',
      repo.path,
      '--base',
      'main',
      '--format',
      'markdown'
    ])
    expect(run.stdout).toContain('### Outside the diff — shown only in the Checks tab')
    expect(run.stdout).toContain('- `src/a.ts:5` — **P1** finding 2')
    expect(run.stdout).toMatch(
      /### Base-side, not mapped.*\n+- `src\/a\.ts:2` — \*\*P1\*\* finding 4/
    )
  })
})

describe('review coverage (CLI, git source)', () => {
  const repo = GitRepo.init()
  cleanups.push(() => repo.cleanup())
  const base = repo.write({ 'src/a.ts': 'a\n' }).commit('base')
  repo.branch('feature')
  // Task 1 then task 2, each reviewed in turn from where the last review left off.
  const c1 = repo.write({ 'src/t1.ts': '1\n' }).commit('task 1')
  const b1 = repo
    .write({ [`${DIR}/impl-fn-1.1.json`]: receipt('fn-1.1', 'SHIP', c1, base) })
    .commit('receipt 1')
  const c2 = repo.write({ 'src/t2.ts': '2\n' }).commit('task 2')
  repo
    .write({ [`${DIR}/impl-fn-1.2.json`]: receipt('fn-1.2', 'SHIP', c2, b1) })
    .commit('receipt 2')

  it('covers both tasks reviewed in turn', async () => {
    const { report } = await checkJson(repo.path, '--base', 'main')
    expect(report.coverage).toMatchObject({
      commits: 2,
      reviewed: 2,
      unreviewed: [],
      unknown: []
    })
    expect(report.coverage?.list.map((c) => [c.sha, c.state])).toEqual([
      [c1, 'reviewed'],
      [c2, 'reviewed']
    ])
  })

  it('finds a code commit a later review skipped; require fails on it, report does not', async () => {
    const c3 = repo.write({ 'src/t3.ts': '3\n' }).commit('pushed after the last review')
    const c4 = repo.write({ 'src/t3.ts': '3 fixed\n' }).commit('task 3')
    // The review of task 3 recorded c3 as its base: c3 itself is inside no range.
    repo
      .write({ [`${DIR}/impl-fn-1.3.json`]: receipt('fn-1.3', 'SHIP', c4, c3) })
      .commit('receipt 3')
    const reported = await checkJson(repo.path, '--base', 'main')
    expect(reported.report.coverage).toMatchObject({
      commits: 4,
      reviewed: 3,
      unreviewed: [c3],
      unknown: []
    })
    const conclusion = reported.report.conclusion
    expect(conclusion).not.toBe('failure')
    const required = await checkJson(repo.path, '--base', 'main', '--coverage', 'require')
    expect(required.report.conclusion).toBe('failure')
    expect(required.code).toBe(1)
    expect(required.report.problems).toContainEqual(
      expect.objectContaining({ code: 'coverage-unreviewed' })
    )
    const off = await checkJson(repo.path, '--base', 'main', '--coverage', 'off')
    expect(off.report.coverage).toBeUndefined()
    expect(off.report.conclusion).toBe(conclusion)
    const text = await runCli(['check', '--repo', repo.path, '--base', 'main'])
    expect(text.stdout).toMatch(/coverage: 3 of 4 code commits reviewed/)
  })

  it('reports commits under a review with an unknown base as unknown, never reviewed', async () => {
    const c5 = repo.write({ 'src/t5.ts': '5\n' }).commit('task 5')
    repo
      .write({ [`${DIR}/impl-fn-1.5.json`]: receipt('fn-1.5', 'SHIP', c5, null) })
      .commit('receipt 5 (no base recorded)')
    const { report } = await checkJson(repo.path, '--base', 'main')
    expect(report.coverage?.list.find((c) => c.sha === c5)?.state).toBe('unknown')
    expect(report.coverage?.unknown).toContain(c5)
    const required = await checkJson(repo.path, '--base', 'main', '--coverage', 'require')
    expect(required.report.problems).toContainEqual(
      expect.objectContaining({ code: 'coverage-unknown' })
    )
  })

  it('holds no commit in the range of a review that does not ship', async () => {
    const c6 = repo.write({ 'src/t6.ts': '6\n' }).commit('task 6')
    repo
      .write({ [`${DIR}/impl-fn-1.6.json`]: receipt('fn-1.6', 'NEEDS_WORK', c6, base) })
      .commit('receipt 6')
    const { report } = await checkJson(repo.path, '--base', 'main')
    expect(report.coverage?.list.find((c) => c.sha === c6)?.state).toBe('unreviewed')
  })
})
