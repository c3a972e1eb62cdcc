/**
 * Issue 27, tried as a new user would: each defect through the real bundled CLI
 * (dist/receipt-gate.mjs, run as a user runs it) on real git repositories. The headline names
 * what failed the run; selection says what it used and what matched nothing; a typo in
 * `--require` is refused; `validate` reads the lineage `check` reads; messages say what
 * happened in words; rows fit the width and a summary line ends the report.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { historyFileName } from '../../src/receipts/identity.js'
import { runCli } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { buildContainer, buildReceipt, jsonText } from '../support/receipt-builders.js'
import { PROJECT_ROOT } from '../support/runner.js'

const CLI = join(PROJECT_ROOT, 'dist', 'receipt-gate.mjs')
const DIR = '.flow/review-receipts'
const cleanup: Array<() => void> = []
afterAll(() => cleanup.forEach((fn) => fn()))

function cli(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' }
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

/**
 * A PR whose ten first receipts (`impl-fn-7.1` … `.10`) asked for work at an older head,
 * and whose eleventh ships the head: the run fails on the ten stale ones.
 */
function staleWorkRepo(): { repo: GitRepo; head: string; base: string } {
  const repo = GitRepo.init()
  cleanup.push(() => repo.cleanup())
  repo.write({ 'src/app.ts': 'export const a = 1\n' })
  const base = repo.commit('initial')
  repo.branch('feature/fn-7')
  repo.write({ 'src/app.ts': 'export const a = 2\n' })
  const older = repo.commit('fn-7: first try')
  const receipt = (n: number, head: string, verdict: string) =>
    jsonText(
      buildReceipt({
        id: `fn-7.${n}`,
        verdict,
        findings: buildContainer({
          sourceReceiptId: `r-${n}`,
          headSha: head,
          baseSha: base,
          // No findings: the headline is about the verdicts alone.
          items: 0
        })
      })
    )
  for (let n = 1; n <= 10; n++)
    repo.write({ [`${DIR}/impl-fn-7.${n}.json`]: receipt(n, older, 'NEEDS_WORK') })
  repo.commit('chore(flow): reviews')
  repo.write({ 'src/app.ts': 'export const a = 3\n' })
  const head = repo.commit('fn-7: second try')
  repo.write({ [`${DIR}/impl-fn-7.11.json`]: receipt(11, head, 'SHIP') })
  repo.commit('chore(flow): review ships')
  return { repo, head: repo.head(), base }
}

const pr = staleWorkRepo()
const CHECK = ['check', '--repo', pr.repo.path, '--base', 'main']

function json(...flags: string[]): { code: number | null; report: Report } {
  const run = cli(pr.repo.path, ...CHECK, '--format', 'json', ...flags)
  expect(run.stderr).toBe('')
  return { code: run.code, report: JSON.parse(run.stdout) as Report }
}

describe('27.3: the headline names what made the conclusion', () => {
  it('ten stale NEEDS_WORK and one current SHIP: text, Markdown and JSON say the stale ones failed it', () => {
    const text = cli(pr.repo.path, ...CHECK)
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(
      /^✗ failure — 10 stale receipts ended unresolved \(NEEDS_WORK\) \(head [0-9a-f]{7}\)\n/
    )
    expect(text.stdout).not.toMatch(/^✗ failure — SHIP/)
    const markdown = cli(pr.repo.path, ...CHECK, '--format', 'markdown').stdout
    expect(markdown).toContain(
      '**10 stale receipts ended unresolved \\(NEEDS\\_WORK\\)**'
    )
    const { report } = json()
    const codes = report.problems.map((p) => [p.code, p.path])
    expect(codes).toHaveLength(10)
    for (let n = 1; n <= 10; n++)
      expect(codes).toContainEqual(['stale-unresolved', `${DIR}/impl-fn-7.${n}.json`])
  })

  it('a current NEEDS_WORK: its verdict leads and is a current-not-shipping problem', () => {
    const repo = GitRepo.init()
    cleanup.push(() => repo.cleanup())
    repo.write({ 'src/app.ts': 'export const a = 1\n' })
    const base = repo.commit('initial')
    repo.branch('feature/fn-8')
    repo.write({ 'src/app.ts': 'export const a = 2\n' })
    const head = repo.commit('fn-8: change a')
    const container = buildContainer({ headSha: head, baseSha: base })
    repo.write({
      [`${DIR}/impl-fn-8.1.json`]: jsonText(
        buildReceipt({ id: 'fn-8.1', findings: container })
      )
    })
    repo.commit('chore(flow): review')
    const run = cli(repo.path, 'check', '--base', 'main')
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^✗ failure — NEEDS_WORK — /)
    const report = JSON.parse(
      cli(repo.path, 'check', '--format', 'json').stdout
    ) as Report
    expect(report.problems).toEqual([
      expect.objectContaining({
        code: 'current-not-shipping',
        path: `${DIR}/impl-fn-8.1.json`
      })
    ])
  })
})

describe('27.4: selection says what it used', () => {
  it('receipts in natural number order; base and selected in the JSON report', () => {
    const { report } = json()
    expect(report.receipts.map((r) => r.path.slice(DIR.length + 1))).toEqual(
      Array.from({ length: 11 }, (_, i) => `impl-fn-7.${i + 1}.json`)
    )
    expect(report.base).toBe(pr.base)
    expect(report.selected).toBe(11)
    expect(cli(pr.repo.path, ...CHECK, '--format', 'markdown').stdout).toContain(
      `Head \`${pr.head.slice(0, 7)}\` · changed since \`${pr.base.slice(0, 7)}\` · 11 receipts selected`
    )
    expect(cli(pr.repo.path, ...CHECK).stdout).toContain(
      `\n  selected: 11 receipts changed since ${pr.base.slice(0, 7)} (the merge base); required: impl_review\n`
    )
  })

  it('base = head: nothing selected, and the report says why', () => {
    const run = cli(pr.repo.path, 'check', '--repo', pr.repo.path, '--base', 'HEAD')
    expect(run.stdout).toContain(
      `  note: none of the 11 receipts changed since the base ${pr.head.slice(0, 7)} (select: all checks every one)`
    )
    expect(run.stdout).toContain('  selected: 0 receipts changed since')
    const { report } = json('--base', 'HEAD')
    expect(report).toMatchObject({ base: pr.head, selected: 0, missing: ['impl_review'] })
  })

  it('a glob that matches nothing and a missing receipts folder are named', () => {
    const globs = json('--select', `${DIR}/impl-*.json,${DIR}/plan-*.json`).report
    expect(globs.selected).toBe(11)
    expect(globs.notes).toContain(`select: "${DIR}/plan-*.json" matched no receipt`)
    const folder = json('--receipts-dir', '.flow/receipts').report
    expect(folder.selected).toBe(0)
    expect(folder.notes).toContain(
      `no receipts under .flow/receipts at ${pr.head.slice(0, 7)}`
    )
  })
})

describe('27.5: a receipt type that does not exist is refused', () => {
  it('--require impl-review: exit 2 with the known types', () => {
    expect(cli(pr.repo.path, ...CHECK, '--require', 'impl-review')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'receipt-gate check: --require: unknown receipt type "impl-review": the types are plan_review, impl_review, completion_review, qa_verdict; did you mean impl_review?\n'
    })
    // '' requires nothing: accepted (the stale receipts still fail the run).
    expect(cli(pr.repo.path, ...CHECK, '--require', '').code).toBe(1)
  })
})

describe('27.6: validate reads the lineage check reads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rg-validate-'))
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  const round1 = buildReceipt({
    id: 'fn-7.1',
    findings: buildContainer({ sourceReceiptId: 'r1', items: 0 })
  })
  const round2 = buildReceipt({
    id: 'fn-7.1',
    verdict: 'SHIP',
    findings: buildContainer({
      sourceReceiptId: 'r2',
      supersedesReceiptId: 'r1',
      items: 0
    })
  })
  const file = join(dir, 'impl-fn-7.1.json')
  writeFileSync(file, jsonText(round2))

  it('round 2 without its history: refused, as check refuses it', () => {
    const run = cli(dir, 'validate', 'impl-fn-7.1.json')
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(
      /\n {2}lineage: ambiguous — check would refuse it: .*not in its history.*\(no impl-fn-7\.1\.json\.history\/ folder beside it\)\n$/
    )
    const rows = JSON.parse(cli(dir, 'validate', '--format', 'json', file).stdout)
    expect(rows[0].lineage).toMatchObject({ state: 'ambiguous' })
  })

  it('with its history beside it: the lineage holds', () => {
    mkdirSync(`${file}.history`)
    writeFileSync(join(`${file}.history`, historyFileName('r1')), jsonText(round1))
    const run = cli(dir, 'validate', 'impl-fn-7.1.json')
    expect(run.stdout).toContain('\n  lineage: ok — 2 generations\n')
    expect(run.code).toBe(0)
    // A history file under another name is one flowctl would refuse: so is it here.
    writeFileSync(join(`${file}.history`, 'misnamed.json'), jsonText(round1))
    const bad = cli(dir, 'validate', 'impl-fn-7.1.json')
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('lineage: ambiguous — check would refuse it: history')
  })

  it('a round-1 receipt without a history folder has no lineage to check', () => {
    writeFileSync(join(dir, 'plain.json'), jsonText(round1))
    const rows = JSON.parse(cli(dir, 'validate', '--format', 'json', 'plain.json').stdout)
    expect(rows[0]).toMatchObject({ structured: 'valid', lineage: null })
  })
})

describe('27.8: messages in words', () => {
  it('validate: a folder, a missing file, no file at all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-validate-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const run = cli(dir, 'validate', '.', 'nope.json')
    expect(run.code).toBe(1)
    expect(run.stdout).toBe(
      '.\n  unreadable: is a folder with no receipt file (*.json) in it\nnope.json\n  unreadable: no such file\n'
    )
    expect(cli(dir, 'validate')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'receipt-gate validate: no FILE given: name one or more receipt files (see --help)\n'
    })
  })

  it('an empty repository has no commits; a skipped audit says so once', () => {
    const empty = GitRepo.init()
    cleanup.push(() => empty.cleanup())
    expect(cli(empty.path, 'check')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'receipt-gate check: the repository has no commits\n'
    })
    const text = cli(pr.repo.path, ...CHECK).stdout
    expect(text).toContain('\n  deferred audit: skipped (no PR body given)\n')
    const markdown = cli(pr.repo.path, ...CHECK, '--format', 'markdown').stdout
    expect(markdown).toContain('- Deferred audit: skipped \\(no PR body given\\)\n')
  })
})

describe('27.9: terminal output', () => {
  it('not a terminal: lines fit 100 columns, wrapped ones indented; a summary line ends it', () => {
    const lines = cli(pr.repo.path, ...CHECK)
      .stdout.trimEnd()
      .split('\n')
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100)
    // Wrapped lines are indented under their entry: only the headline and the summary
    // start at column 0, the summary after a blank line.
    const summary = lines.indexOf('') + 1
    expect(lines.filter((line) => /^\S/.test(line))).toEqual([lines[0], lines[summary]])
    expect(lines.slice(summary + 1).every((line) => line.startsWith('  '))).toBe(true)
    expect(lines.slice(summary).join(' ').replace(/ +/g, ' ')).toBe(
      `✗ failure: 11 receipts (1 current, 10 stale) — re-run impl-review at ${pr.head.slice(0, 7)} for each stale receipt that asked for changes (impl-fn-7.1.json and 9 more)`
    )
  })

  it("a terminal's width (injected through CliIo) is used", async () => {
    for (const columns of [60, 140]) {
      const run = await runCli(CHECK, pr.repo.path, { columns })
      const lines = run.stdout.trimEnd().split('\n')
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns)
      expect(Math.max(...lines.map((line) => [...line].length))).toBeGreaterThan(
        columns - 15
      )
    }
  })
})
