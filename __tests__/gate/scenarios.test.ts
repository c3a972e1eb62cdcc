/**
 * End to end on real git repositories: the CLI's `check` (in-process, real git
 * plumbing) over pull-request shapes Flow-Next teams produce. Every scenario asserts the
 * JSON report, not just the exit code.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { GitRepo } from '../support/git-repo.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonText,
  type BuiltObject
} from '../support/receipt-builders.js'
import { checkJson, runCli } from '../support/check-cli.js'
import type { Report } from '../../src/gate/report.js'
import { historyFileName } from '../../src/receipts/identity.js'

const DIR = '.flow/review-receipts'
const repos: GitRepo[] = []
afterEach(() => repos.splice(0).forEach((repo) => repo.cleanup()))

/** main with one code file, then a feature branch with one code commit (the reviewed head). */
function prRepo(): { repo: GitRepo; base: string; reviewed: string } {
  const repo = GitRepo.init()
  repos.push(repo)
  repo.write({ 'src/app.ts': 'export const a = 1\n', '.flow/config.json': '{}\n' })
  const base = repo.commit('initial')
  repo.branch('feature/fn-7')
  repo.write({ 'src/app.ts': 'export const a = 2\n' })
  const reviewed = repo.commit('fn-7.1: change a')
  return { repo, base, reviewed }
}

/** A receipt whose findings are bound to `head` (one anchored open P1 introduced finding). */
function findingsReceipt(
  head: string,
  base: string,
  options: { verdict?: string; id?: string; items?: BuiltObject[] } = {}
): string {
  const container = buildContainer({
    headSha: head,
    baseSha: base,
    ...(options.items ? { items: options.items } : {})
  })
  return jsonText(
    buildReceipt({
      verdict: options.verdict ?? 'SHIP',
      id: options.id ?? 'fn-7.1',
      findings: container
    })
  )
}

function legacyReceipt(fields: BuiltObject = {}): string {
  return jsonText({
    type: 'impl_review',
    id: 'fn-7.1',
    mode: 'codex',
    base: 'main',
    verdict: 'SHIP',
    review: 'ok',
    ...fields
  })
}

const row = (report: Report, name: string) =>
  report.receipts.find((r) => r.path === `${DIR}/${name}`)

describe('findings-bound receipts', () => {
  it('SHIP stays current through receipt-only commits', async () => {
    const { repo, base, reviewed } = prRepo()
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed, base) })
    repo.commit('chore(flow): record review')
    repo.write({ '.flow/specs/fn-7.json': '{"done":true}\n' })
    const head = repo.commit('chore(flow): mark done')
    const { code, report } = await checkJson(repo.path, '--base', 'main')
    expect(code).toBe(0)
    expect(report).toMatchObject({
      conclusion: 'success',
      head,
      verdict: 'SHIP',
      missing: []
    })
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'current',
      headSource: 'findings',
      reviewedHead: reviewed,
      structured: 'valid',
      round: 1,
      conclusion: 'success',
      reason: expect.stringContaining(
        `current: 2 bookkeeping commits after the reviewed head ${reviewed.slice(0, 7)}`
      )
    })
    expect(report.receipts[0]?.findings).toHaveLength(1)
    expect(report.annotations).toEqual([
      expect.objectContaining({
        path: 'src/file-1.ts',
        start_line: 10,
        end_line: 12,
        annotation_level: 'failure',
        title: 'P1 · introduced · confidence 75 — Finding 1'
      })
    ])
  })

  it('goes stale after a code commit: stale SHIP alone is neutral, but the required type is missing', async () => {
    const { repo, base, reviewed } = prRepo()
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed, base) })
    repo.commit('chore(flow): record review')
    repo.write({ 'src/app.ts': 'export const a = 3\n' })
    repo.commit('after review')
    const { code, report } = await checkJson(repo.path, '--base', 'main')
    expect(code).toBe(1)
    expect(report.conclusion).toBe('failure')
    expect(report.missing).toEqual(['impl_review'])
    expect(report.annotations).toEqual([])
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'stale',
      conclusion: 'neutral',
      findings: [],
      staleFindings: [expect.objectContaining({ title: 'Finding 1' })],
      reason: expect.stringContaining('src/app.ts')
    })
    const none = await checkJson(repo.path, '--base', 'main', '--require', '')
    expect(none.report.conclusion).toBe('neutral')
    expect(none.code).toBe(0)
  })

  it('a .flow/bin change makes it stale (and .flow/config.json too)', async () => {
    for (const path of ['.flow/bin/flowctl', '.flow/config.json']) {
      const { repo, base, reviewed } = prRepo()
      repo.write({
        [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed, base),
        [path]: 'changed\n'
      })
      repo.commit('chore(flow): record review and tool')
      const { report } = await checkJson(repo.path, '--base', 'main')
      expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
        currentness: 'stale',
        reason: expect.stringContaining(path)
      })
    }
  })

  it('reads a two-round chain with committed history as current round 2', async () => {
    const { repo, base, reviewed: first } = prRepo()
    const round1 = buildReceipt({
      id: 'fn-7.1',
      verdict: 'NEEDS_WORK',
      findings: buildContainer({
        sourceReceiptId: 'r1',
        headSha: first,
        baseSha: base,
        items: 2
      })
    })
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: jsonText(round1) })
    repo.commit('chore(flow): round 1')
    repo.write({ 'src/app.ts': 'export const a = 4\n' })
    const second = repo.commit('fix findings')
    const carried = [1, 2].map((ordinal) =>
      buildItem({
        ordinal,
        sourceReceiptId: 'r2',
        firstSeenReceiptId: 'r1',
        with: { status: ordinal === 1 ? 'fixed' : 'open' }
      })
    )
    const round2 = buildReceipt({
      id: 'fn-7.1',
      verdict: 'SHIP',
      findings: buildContainer({
        sourceReceiptId: 'r2',
        supersedesReceiptId: 'r1',
        round: 2,
        headSha: second,
        baseSha: base,
        items: carried
      })
    })
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: jsonText(round2),
      [`${DIR}/impl-fn-7.1.json.history/${historyFileName('r1')}`]: jsonText(round1)
    })
    repo.commit('chore(flow): round 2')
    const { code, report } = await checkJson(repo.path, '--base', 'main')
    expect(code).toBe(0)
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'current',
      round: 2,
      reviewedHead: second,
      conclusion: 'success'
    })
    expect(
      row(report, 'impl-fn-7.1.json')?.findings.map((f: { status: string }) => f.status)
    ).toEqual(['fixed', 'open'])
  })

  it('is ambiguous when the history of a round-2 receipt is missing', async () => {
    const { repo, base, reviewed } = prRepo()
    const round2 = buildReceipt({
      id: 'fn-7.1',
      verdict: 'SHIP',
      findings: buildContainer({
        sourceReceiptId: 'r2',
        supersedesReceiptId: 'r1',
        round: 2,
        headSha: reviewed,
        baseSha: base,
        items: 0
      })
    })
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: jsonText(round2) })
    repo.commit('chore(flow): round 2 without history')
    const { code, report } = await checkJson(repo.path, '--base', 'main')
    expect(code).toBe(1)
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'ambiguous',
      conclusion: 'failure',
      reason: expect.stringContaining('not in its history')
    })
    expect(report.problems).toContainEqual(
      expect.objectContaining({ code: 'ambiguous-receipt' })
    )
  })
})

describe('envelope heads', () => {
  it('uses rp `head` and QA `head_sha`; an empty head_sha is none', async () => {
    const { repo, reviewed } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: legacyReceipt({
        mode: 'rp',
        head: reviewed,
        base: 'abc'
      }),
      [`${DIR}/qa-fn-7.json`]: jsonText({
        type: 'qa_verdict',
        id: 'fn-7',
        mode: 'interactive',
        verdict: 'SHIP',
        qa_outcome: 'SHIP',
        head_sha: reviewed
      })
    })
    repo.commit('chore(flow): receipts')
    const { report } = await checkJson(
      repo.path,
      '--base',
      'main',
      '--require',
      'impl_review,qa_verdict'
    )
    expect(report.conclusion).toBe('success')
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'current',
      headSource: 'envelope',
      reviewedHead: reviewed
    })
    expect(row(report, 'qa-fn-7.json')).toMatchObject({
      currentness: 'current',
      headSource: 'envelope',
      reviewedHead: reviewed
    })
  })

  it('an envelope head that is not a commit, or not an ancestor, is stale', async () => {
    const { repo } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: legacyReceipt({
        mode: 'rp',
        head: 'c0ffee0123456789abcdef0123456789abcdef01'
      })
    })
    repo.commit('chore(flow): receipt')
    const { report } = await checkJson(repo.path, '--base', 'main')
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'stale',
      headSource: 'envelope',
      reason: expect.stringContaining('not a commit of this repository')
    })
  })
})

describe('unbound receipts (no head anywhere)', () => {
  it('infers the reviewed head from history when the receipt commit is bookkeeping only', async () => {
    const { repo, reviewed } = prRepo()
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: legacyReceipt() })
    repo.commit('chore(flow): record codex SHIP')
    const { code, report } = await checkJson(repo.path, '--base', 'main')
    expect(code).toBe(0)
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'current',
      headSource: 'history',
      reviewedHead: reviewed,
      label: 'inferred',
      structured: 'absent',
      reason: expect.stringContaining('current (inferred from history)')
    })
  })

  it('is stale when the receipt was committed together with code', async () => {
    const { repo } = prRepo()
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: legacyReceipt(), 'src/more.ts': 'x\n' })
    repo.commit('code and receipt together')
    const { report } = await checkJson(repo.path, '--base', 'main')
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'stale',
      headSource: 'history',
      reviewedHead: null,
      reason: expect.stringContaining('together with code (src/more.ts)')
    })
  })

  it('unbound-head fail makes it stale and allow makes it current (unverified)', async () => {
    const { repo } = prRepo()
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: legacyReceipt() })
    repo.commit('chore(flow): record')
    const fail = await checkJson(repo.path, '--base', 'main', '--unbound-head', 'fail')
    expect(row(fail.report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'stale',
      headSource: 'none',
      reviewedHead: null
    })
    expect(fail.report.conclusion).toBe('failure')
    const allow = await checkJson(repo.path, '--base', 'main', '--unbound-head', 'allow')
    expect(row(allow.report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'current',
      headSource: 'none',
      label: 'unverified'
    })
    expect(allow.report.conclusion).toBe('success')
  })
})

describe('the gate over several receipts', () => {
  function multiTask(olderVerdict: string) {
    const { repo, base, reviewed: task1 } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(task1, base, {
        verdict: olderVerdict,
        id: 'fn-7.1',
        items: []
      })
    })
    repo.commit('chore(flow): task 1 review')
    repo.write({ 'src/b.ts': 'export const b = 1\n' })
    const task2 = repo.commit('fn-7.2: add b')
    repo.write({
      [`${DIR}/impl-fn-7.2.json`]: findingsReceipt(task2, base, {
        id: 'fn-7.2',
        items: []
      })
    })
    repo.commit('chore(flow): task 2 review')
    return repo
  }

  it('older task receipts stale SHIP + last one current SHIP → success', async () => {
    const { code, report } = await checkJson(multiTask('SHIP').path, '--base', 'main')
    expect(code).toBe(0)
    expect(report.conclusion).toBe('success')
    expect(report.receipts.map((r) => [r.currentness, r.conclusion])).toEqual([
      ['stale', 'neutral'],
      ['current', 'success']
    ])
  })

  it('an older task receipt stale NEEDS_WORK → failure (never resolved)', async () => {
    const { code, report } = await checkJson(
      multiTask('NEEDS_WORK').path,
      '--base',
      'main'
    )
    expect(code).toBe(1)
    expect(report.conclusion).toBe('failure')
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      conclusion: 'failure',
      reason: expect.stringContaining(
        'last verdict at an older head was NEEDS_WORK; never resolved'
      )
    })
  })

  it('a current NEEDS_HUMAN → action_required (or the configured conclusion)', async () => {
    const { repo, base, reviewed } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed, base, {
        verdict: 'NEEDS_HUMAN',
        items: []
      })
    })
    repo.commit('chore(flow): review')
    const { code, report } = await checkJson(repo.path, '--base', 'main')
    expect(code).toBe(1)
    expect(report).toMatchObject({
      conclusion: 'action_required',
      verdict: 'NEEDS_HUMAN'
    })
    const neutral = await checkJson(
      repo.path,
      '--base',
      'main',
      '--needs-human-conclusion',
      'neutral'
    )
    expect(neutral.report.conclusion).toBe('neutral')
    expect(neutral.code).toBe(0)
  })

  it('a missing required type fails and is listed', async () => {
    const { repo, base, reviewed } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed, base, { items: [] })
    })
    repo.commit('chore(flow): review')
    const { code, report } = await checkJson(
      repo.path,
      '--base',
      'main',
      '--require',
      'impl_review,plan_review'
    )
    expect(code).toBe(1)
    expect(report).toMatchObject({ conclusion: 'failure', missing: ['plan_review'] })
    expect(report.problems).toContainEqual({
      code: 'missing-required',
      path: null,
      message: expect.stringContaining('no current plan_review')
    })
  })

  it('an unreadable receipt fails next to a good one, which is still judged', async () => {
    const { repo, base, reviewed } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed, base, { items: [] }),
      [`${DIR}/impl-fn-7.2.json`]: '{"type": "impl_review", "id": '
    })
    repo.commit('chore(flow): reviews')
    const { code, report } = await checkJson(repo.path, '--base', 'main')
    expect(code).toBe(1)
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({
      currentness: 'current',
      conclusion: 'success'
    })
    expect(row(report, 'impl-fn-7.2.json')).toMatchObject({
      currentness: 'unreadable',
      conclusion: 'failure',
      reason: expect.stringContaining('invalid JSON')
    })
    expect(report.annotations).toContainEqual(
      expect.objectContaining({
        path: `${DIR}/impl-fn-7.2.json`,
        annotation_level: 'failure',
        start_line: 1
      })
    )
  })

  it('select: changed ignores receipts already on the base branch; select: all sees them', async () => {
    const repo = GitRepo.init()
    repos.push(repo)
    repo.write({
      'src/app.ts': '1\n',
      [`${DIR}/impl-fn-1.1.json`]: legacyReceipt({ id: 'fn-1.1', verdict: 'NEEDS_WORK' })
    })
    repo.commit('old work with an old receipt')
    repo.branch('feature')
    repo.write({ 'src/app.ts': '2\n' })
    repo.commit('code')
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: legacyReceipt() })
    repo.commit('chore(flow): review')
    const changed = await checkJson(repo.path, '--base', 'main')
    expect(changed.report.receipts.map((r) => r.path)).toEqual([
      `${DIR}/impl-fn-7.1.json`
    ])
    expect(changed.report.conclusion).toBe('success')
    const all = await checkJson(repo.path, '--base', 'main', '--select', 'all')
    expect(all.report.receipts).toHaveLength(2)
    expect(all.report.conclusion).toBe('failure')
    const globbed = await checkJson(
      repo.path,
      '--base',
      'main',
      '--select',
      `${DIR}/impl-fn-1.*.json`
    )
    expect(globbed.report.receipts.map((r) => r.path)).toEqual([
      `${DIR}/impl-fn-1.1.json`
    ])
  })

  it('symlinks and submodules where a receipt should be are unreadable, not followed', async () => {
    const { repo, reviewed } = prRepo()
    repo.symlink(`${DIR}/impl-fn-7.2.json`, '/etc/passwd')
    repo.submodule(`${DIR}/impl-fn-7.3.json`, reviewed)
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: legacyReceipt() })
    repo.commit('chore(flow): odd entries')
    const { report } = await checkJson(repo.path, '--base', 'main')
    expect(row(report, 'impl-fn-7.2.json')).toMatchObject({
      currentness: 'unreadable',
      reason: expect.stringContaining('symbolic link')
    })
    expect(row(report, 'impl-fn-7.3.json')).toMatchObject({
      currentness: 'unreadable',
      reason: expect.stringContaining('submodule')
    })
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({ currentness: 'current' })
  })

  it('a receipt over 2 MiB is unreadable; the rest runs', async () => {
    const { repo } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.2.json`]: legacyReceipt({
        id: 'fn-7.2',
        review: 'x'.repeat(2 * 1024 * 1024)
      }),
      [`${DIR}/impl-fn-7.1.json`]: legacyReceipt()
    })
    repo.commit('chore(flow): big')
    const { report } = await checkJson(repo.path, '--base', 'main')
    expect(row(report, 'impl-fn-7.2.json')).toMatchObject({
      currentness: 'unreadable',
      reason: expect.stringContaining('2 MiB')
    })
    expect(row(report, 'impl-fn-7.1.json')).toMatchObject({ currentness: 'current' })
  })
})

describe('deferred audit', () => {
  function deferredRepo() {
    const { repo } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: legacyReceipt({
        walkthrough: {
          applied: 0,
          deferred: 2,
          skipped: 0,
          acknowledged: 0,
          lfg_rest: false
        }
      }),
      '.flow/review-deferred/feature-fn-7.md': [
        '# Deferred review findings — feature-fn-7',
        '',
        '- [P1, confidence 75, introduced] src/auth.ts:42 — null deref in middleware',
        '  - Deferred reason: later',
        '- [P2, confidence 50, introduced] src/cart.ts:88 — off-by-one on empty cart',
        ''
      ].join('\n')
    })
    repo.commit('chore(flow): review with deferrals')
    return repo
  }
  const bullet = (tail: string) =>
    `- [ ] [P1, confidence 75, introduced] ${tail} — deferred from impl-review (\`.flow/review-deferred/feature-fn-7.md\`)`
  /** `check --base main` with a PR body of these lines (and any further arguments). */
  const checkWithBody = async (repo: GitRepo, lines: string[], ...args: string[]) => {
    const body = `${repo.path}.body.md`
    writeFileSync(body, lines.join('\n'))
    return checkJson(repo.path, '--base', 'main', '--body-file', body, ...args)
  }

  it('passes when the PR body names every deferred finding', async () => {
    const repo = deferredRepo()
    repo.write({})
    const { code, report } = await checkWithBody(repo, [
      '## Open items',
      bullet('src/auth.ts:42 — null deref in middleware'),
      bullet('src/cart.ts:88  —  off-by-one on empty cart')
    ])
    expect(code).toBe(0)
    expect(report.deferred).toMatchObject({
      expected: 2,
      named: 2,
      unnamed: [],
      skipped: false
    })
  })

  it('fails and lists what the PR body does not name', async () => {
    const repo = deferredRepo()
    const { code, report } = await checkWithBody(repo, [
      '## Open items',
      bullet('src/auth.ts:42 — null deref in middleware')
    ])
    expect(code).toBe(1)
    expect(report.conclusion).toBe('failure')
    expect(report.deferred).toMatchObject({
      expected: 2,
      named: 1,
      unnamed: ['src/cart.ts:88 — off-by-one on empty cart']
    })
  })

  it('is skipped with a note when there is no PR body', async () => {
    const { report } = await checkJson(deferredRepo().path, '--base', 'main')
    expect(report.deferred).toMatchObject({
      skipped: true,
      notes: [expect.stringContaining('no PR body')]
    })
    expect(report.conclusion).toBe('success')
  })

  it.each([
    [
      'over the 1 MiB read cap',
      (repo: GitRepo) =>
        repo.write({
          '.flow/review-deferred/feature-fn-7.md': `# x\n${'y'.repeat(1024 * 1024)}`
        })
    ],
    [
      'a directory, not a file',
      (repo: GitRepo) =>
        repo.write({
          '.flow/review-deferred/feature-fn-7.md/inner.md': '- [P1] a:1 — b\n'
        })
    ]
  ])(
    'fails when the deferral file is %s: a padded file does not skip its bullets',
    async (what, change) => {
      const repo = deferredRepo()
      repo.write({ '.flow/review-deferred/feature-fn-7.md': null })
      change(repo)
      repo.commit('chore(flow): the deferral file changed')
      const { code, report } = await checkWithBody(repo, [
        bullet('src/a.ts:1 — a'),
        bullet('src/b.ts:2 — b')
      ])
      expect(code).toBe(1)
      expect(report.conclusion).toBe('failure')
      expect(report.deferred).toMatchObject({ expected: 2, named: 2, unnamed: [] })
      expect(report.deferred.notes).toEqual([
        `deferral file unreadable, its bullets unknown: .flow/review-deferred/feature-fn-7.md is ${what}`
      ])
    }
  )

  it('checks counts only when the branch has no deferral file', async () => {
    const repo = deferredRepo()
    const { report } = await checkWithBody(
      repo,
      [bullet('src/x.ts:1 — something')],
      '--branch',
      'other'
    )
    expect(report.deferred).toMatchObject({
      expected: 2,
      named: 1,
      unnamed: [],
      uncounted: 1
    })
    expect(report.deferred.hints).toEqual([
      expect.objectContaining({
        item: null,
        paste: expect.stringContaining('— deferred from impl-review (')
      })
    ])
    expect(report.notes.join(' ')).toContain('.flow/review-deferred/other.md')
  })
})

describe('CLI errors are one line and exit 2', () => {
  it.each([
    [['check', '--repo', '/'], /not a git repository/],
    [['check', '--format', 'yaml'], /--format must be one of text, markdown, json/],
    [
      ['check', '--unbound-head', 'maybe'],
      /--unbound-head: must be one of history, fail, allow/
    ],
    [['check', '--bogus'], /unknown option --bogus/],
    // Names every object has are not flags either.
    [['check', '--toString', 'x'], /unknown option --toString/],
    [['check', '--__proto__=x'], /unknown option --__proto__/]
  ])('%j', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('unknown revision and no merge base', async () => {
    const { repo } = prRepo()
    const unknown = await runCli(['check', '--repo', repo.path, '--head', 'nope'])
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/unknown revision "nope"/)
    })
    repo.git('checkout', '-q', '--orphan', 'lonely')
    repo.write({ 'x.txt': '1\n' })
    repo.commit('unrelated root')
    const lonely = await runCli(['check', '--repo', repo.path, '--base', 'main'])
    expect(lonely).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no merge base/)
    })
  })
})
