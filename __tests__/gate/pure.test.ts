/** Unit tests of the pure gate modules: conclusions, the audit, options, planning, the head rule. */
import { describe, expect, it } from '@jest/globals'
import { auditDeferred, branchSlug } from '../../src/gate/deferred.js'
import {
  overallConclusion,
  rowConclusion,
  worstCurrentVerdict
} from '../../src/gate/gate.js'
import { OptionError, parseOptions } from '../../src/gate/options.js'
import { globMatcher } from '../../src/gate/glob-matcher.js'
import { applyCaps, planReceipts } from '../../src/gate/plan.js'
import {
  fullObjectId,
  notFullIdJudgement,
  judgeReviewedHead
} from '../../src/gate/review-head.js'
import type { TreeEntry } from '../../src/gate/source.js'

describe('rowConclusion (SPEC §4 table)', () => {
  it.each([
    ['unreadable', 'SHIP', 'failure'],
    ['ambiguous', 'SHIP', 'failure'],
    ['current', 'SHIP', 'success'],
    ['current', 'NEEDS_WORK', 'failure'],
    ['current', 'MAJOR_RETHINK', 'failure'],
    ['current', 'NEEDS_HUMAN', 'action_required'],
    ['stale', 'SHIP', 'neutral'],
    ['stale', 'NEEDS_WORK', 'failure'],
    ['stale', 'NEEDS_HUMAN', 'failure']
  ] as const)('%s %s → %s', (currentness, verdict, conclusion) => {
    expect(
      rowConclusion({ currentness, verdict, mode: 'codex' }, 'action_required').conclusion
    ).toBe(conclusion)
  })
  it('labels triage_skip and honours needs-human-conclusion', () => {
    expect(
      rowConclusion(
        { currentness: 'current', verdict: 'SHIP', mode: 'triage_skip' },
        'failure'
      ).why
    ).toBe('trivial diff, review skipped')
    expect(
      rowConclusion(
        { currentness: 'current', verdict: 'NEEDS_HUMAN', mode: 'rp' },
        'neutral'
      ).conclusion
    ).toBe('neutral')
  })
})

describe('overallConclusion', () => {
  it.each([
    [[], 0, false, 'neutral'],
    [['neutral'], 0, false, 'neutral'],
    [['neutral', 'success'], 0, false, 'success'],
    [['success', 'action_required'], 0, false, 'action_required'],
    [['success', 'failure', 'action_required'], 0, false, 'failure'],
    [['success'], 1, false, 'failure'],
    [['success'], 0, true, 'failure']
  ] as const)('%j missing=%d audit=%s → %s', (rows, missing, audit, want) => {
    const conclusions = rows.map((conclusion) => ({ conclusion }))
    expect(overallConclusion(conclusions, missing > 0 || audit)).toBe(want)
  })
  it('worst current verdict ignores stale rows', () => {
    expect(
      worstCurrentVerdict([
        { currentness: 'stale', verdict: 'MAJOR_RETHINK' },
        { currentness: 'current', verdict: 'NEEDS_HUMAN' },
        { currentness: 'current', verdict: 'SHIP' }
      ])
    ).toBe('NEEDS_HUMAN')
    expect(worstCurrentVerdict([{ currentness: 'stale', verdict: 'SHIP' }])).toBe('')
  })
  // Flow-Next merges review draws NEEDS_HUMAN > MAJOR_RETHINK > NEEDS_WORK > SHIP (SPEC §7).
  it.each([
    [['SHIP', 'NEEDS_WORK'], 'NEEDS_WORK'],
    [['NEEDS_WORK', 'MAJOR_RETHINK', 'SHIP'], 'MAJOR_RETHINK'],
    [['MAJOR_RETHINK', 'NEEDS_HUMAN'], 'NEEDS_HUMAN'],
    [['NEEDS_HUMAN', 'NEEDS_WORK', 'MAJOR_RETHINK'], 'NEEDS_HUMAN'],
    [['SHIP', 'SHIP'], 'SHIP']
  ] as const)('worst of %j (either order) is %s', (verdicts, want) => {
    const rows = verdicts.map((verdict) => ({ currentness: 'current' as const, verdict }))
    expect(worstCurrentVerdict(rows)).toBe(want)
    expect(worstCurrentVerdict([...rows].reverse())).toBe(want)
  })
})

describe('deferred audit', () => {
  it('slugs branches as flowctl does', () => {
    expect(branchSlug('feature/fn-7 receipt!')).toBe('feature-fn-7receipt')
    expect(branchSlug('///')).toBe('---')
    expect(branchSlug('✓')).toBe('HEAD')
  })
  it('reads sink tails', () => {
    const markdown =
      '# h\n\n- [P1, confidence 75, introduced] a.ts:1 — t\n  - Suggested: x\n  - [nested] no\n'
    const audit = auditDeferred({
      enabled: true,
      body: '',
      deferredCount: 0,
      sink: { path: 'd.md', markdown },
      sinkNote: null
    })
    expect(audit.unnamed).toEqual(['a.ts:1 — t', 'no'])
  })
  it('counts only when there is no sink', () => {
    const result = auditDeferred({
      enabled: true,
      body: '- [ ] a — deferred from impl-review (x)',
      deferredCount: 3,
      sink: null,
      sinkNote: 'no file'
    })
    expect(result).toMatchObject({
      expected: 3,
      named: 1,
      unnamed: [],
      uncounted: 2,
      failed: true
    })
  })
  it('fails when the deferral file is there but unreadable: its bullets are unknown', () => {
    const result = auditDeferred({
      enabled: true,
      body: '- [ ] a — deferred from impl-review (x)',
      deferredCount: 1,
      sink: null,
      sinkUnreadable: '.flow/review-deferred/b.md is over the 1 MiB read cap',
      sinkNote: 'no file'
    })
    expect(result).toEqual({
      skipped: false,
      expected: 1,
      named: 1,
      unnamed: [],
      uncounted: 0,
      hints: [],
      notes: [
        'deferral file unreadable, its bullets unknown: .flow/review-deferred/b.md is over the 1 MiB read cap'
      ],
      unreadableSink: '.flow/review-deferred/b.md is over the 1 MiB read cap',
      failed: true
    })
  })
  it('is skipped when disabled or without a body', () => {
    expect(
      auditDeferred({
        enabled: false,
        body: '',
        deferredCount: 2,
        sink: null,
        sinkNote: null
      })
    ).toMatchObject({ skipped: true, failed: false })
    expect(
      auditDeferred({
        enabled: true,
        body: null,
        deferredCount: 2,
        sink: null,
        sinkNote: null
      })
    ).toMatchObject({ skipped: true, failed: false })
  })
  it('needs enough bullets for the receipts count even when the tails appear', () => {
    const sink = {
      path: 's.md',
      markdown: '- [P1, confidence 75, introduced] a.ts:1 — t\n'
    }
    const body = 'We will fix a.ts:1 — t later.'
    expect(
      auditDeferred({ enabled: true, body, deferredCount: 1, sink, sinkNote: null })
    ).toMatchObject({ named: 0, failed: true })
    const listed = `- [ ] [P1] a.ts:1 — t — deferred from impl-review (s.md)`
    expect(
      auditDeferred({
        enabled: true,
        body: listed,
        deferredCount: 1,
        sink,
        sinkNote: null
      })
    ).toMatchObject({ expected: 1, named: 1, unnamed: [], failed: false })
  })
})

describe('options', () => {
  it('has the documented defaults', () => {
    expect(parseOptions({})).toEqual({
      receiptsDir: '.flow/review-receipts',
      select: { mode: 'changed' },
      require: ['impl_review'],
      bookkeepingPaths: ['.flow/**', '!.flow/bin/**', '!.flow/config.json'],
      unboundHead: 'history',
      needsHumanConclusion: 'action_required',
      auditDeferred: true,
      maxAnnotations: 1000,
      coverage: 'report',
      exemptAuthors: [],
      exemptLabels: []
    })
  })
  it('splits lists on commas and newlines; empty require is nothing', () => {
    expect(
      parseOptions({
        require: 'impl_review,\nplan_review\n',
        select: 'a/*.json\nb/*.json'
      })
    ).toMatchObject({
      require: ['impl_review', 'plan_review'],
      select: { mode: 'globs', globs: ['a/*.json', 'b/*.json'] }
    })
    expect(parseOptions({ require: '' }).require).toEqual([])
  })
  it.each([
    [{ 'unbound-head': 'sometimes' }, 'unbound-head'],
    [{ 'needs-human-conclusion': 'success' }, 'needs-human-conclusion'],
    [{ 'audit-deferred': 'yes' }, 'audit-deferred'],
    [{ 'max-annotations': '-1' }, 'max-annotations'],
    [{ 'receipts-dir': '../outside' }, 'receipts-dir'],
    [{ select: 'all,changed' }, 'select']
  ])('%j fails naming %s', (raw, input) => {
    expect(() => parseOptions(raw)).toThrow(OptionError)
    expect(() => parseOptions(raw)).toThrow(new RegExp(`^${input}: `))
  })
})

const blob = (path: string, size = 10): TreeEntry => ({
  path,
  type: 'blob',
  mode: '100644',
  sha: path,
  size
})

describe('planning', () => {
  it('groups receipts with their history and keeps orphaned histories', () => {
    const plans = planReceipts([
      blob('d/b.json'),
      blob('d/a.json.history/1.json'),
      blob('d/a.json'),
      blob('d/c.json.history/2.json'),
      blob('d/a.json.history/deep/3.json'),
      blob('d/x.history/4.json'),
      blob('d/readme.md')
    ])
    expect(
      plans.map((p) => [p.path, p.latest?.path ?? null, p.history.map((h) => h.path)])
    ).toEqual([
      ['d/a.json', 'd/a.json', ['d/a.json.history/1.json']],
      ['d/b.json', 'd/b.json', []],
      ['d/c.json', null, ['d/c.json.history/2.json']]
    ])
  })
  it('applies the caps in path order', () => {
    const many = Array.from({ length: 502 }, (_, i) =>
      blob(`d/r${String(i).padStart(3, '0')}.json`)
    )
    const capped = applyCaps(planReceipts(many))
    expect(capped.filter((p) => p.unreadable).map((p) => p.path)).toEqual([
      'd/r500.json',
      'd/r501.json'
    ])
    const big = applyCaps(
      planReceipts([blob('d/a.json', 3 * 1024 * 1024), blob('d/b.json')])
    )
    expect(big.map((p) => p.unreadable === null)).toEqual([false, true])
    const total = applyCaps(
      planReceipts(
        Array.from({ length: 40 }, (_, i) =>
          blob(`d/t${String(i).padStart(2, '0')}.json`, 2 * 1024 * 1024)
        )
      )
    )
    expect(total.filter((p) => p.unreadable).length).toBe(8)
  })
})

describe('review-head rule', () => {
  const matcher = globMatcher(['.flow/**', '!.flow/bin/**', '!.flow/config.json'])
  it('matches bookkeeping paths with dot files', () => {
    expect(
      ['.flow/review-receipts/a.json', '.flow/.hidden', '.flow/specs/x/y.json'].every(
        matcher
      )
    ).toBe(true)
    expect(
      ['.flow/bin/flowctl', '.flow/config.json', 'src/a.ts', '.flowx/a', 'flow/a'].some(
        matcher
      )
    ).toBe(false)
  })
  it('select globs: a leading ! excludes, as in bookkeeping-paths', () => {
    const select = globMatcher([
      '.flow/review-receipts/*.json',
      '!.flow/review-receipts/qa-*.json'
    ])
    expect(select('.flow/review-receipts/impl-fn-1.1.json')).toBe(true)
    expect(select('.flow/review-receipts/qa-fn-1.json')).toBe(false)
    expect(select('src/a.json')).toBe(false)
  })
  it('a negated extglob `!(…)` is a pattern, not an exclusion; `!x` still excludes', () => {
    const outsideSrc = globMatcher(['!(src)/**'])
    expect(outsideSrc('docs/a.md')).toBe(true)
    expect(outsideSrc('src/a.ts')).toBe(false)
    const withExclusion = globMatcher(['!(src)/**', '!docs/private/**'])
    expect(withExclusion('docs/a.md')).toBe(true)
    expect(withExclusion('docs/private/b.md')).toBe(false)
  })
  it('a reviewed SHA counts only as a full object id of the head’s kind', () => {
    const head = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
    expect(fullObjectId(head.toUpperCase(), head)).toBe(head)
    expect(fullObjectId(head.slice(0, 7), head)).toBeNull()
    expect(fullObjectId(`${head}${head.slice(0, 24)}`, head)).toBeNull()
    expect(fullObjectId('refs/heads/main', head)).toBeNull()
    expect(notFullIdJudgement('a1b2').reason).toContain(
      'is abbreviated, not a full commit id'
    )
  })
  it('judges every ancestry', () => {
    const sha = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678'
    expect(judgeReviewedHead(sha, { kind: 'identical' }, matcher).current).toBe(true)
    expect(
      judgeReviewedHead(
        sha,
        { kind: 'ahead', commits: 2, changedPaths: ['.flow/x'] },
        matcher
      )
    ).toEqual({
      current: true,
      reason: 'current: 2 bookkeeping commits after the reviewed head a1b2c3d'
    })
    expect(
      judgeReviewedHead(
        sha,
        { kind: 'ahead', commits: 1, changedPaths: ['.flow/x', 'src/a.ts'] },
        matcher
      ).current
    ).toBe(false)
    expect(judgeReviewedHead(sha, { kind: 'not-ancestor' }, matcher).current).toBe(false)
    expect(judgeReviewedHead(sha, { kind: 'unknown-commit' }, matcher).current).toBe(
      false
    )
    expect(
      judgeReviewedHead(sha, { kind: 'too-large', commits: 9 }, matcher).current
    ).toBe(false)
  })
})
