// Builds the demo repository: a PR branch with code commits, reviews recorded in
// `.flow/`-only commits (as Flow-Next teams commit them) and a deferred finding.
// The passing pull request names the deferral in its body and every review is current.
// The failing one (`{ failing: true }`) shows the three ways a real PR fails: code
// committed after task 1's review (that review is stale), task 2 reviewed NEEDS_WORK,
// and a body that does not name the deferred finding. Used by `npm run demo` and the tests.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Demo Dev',
  GIT_AUTHOR_EMAIL: 'dev@example.com',
  GIT_COMMITTER_NAME: 'Demo Dev',
  GIT_COMMITTER_EMAIL: 'dev@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null'
}

function lineageId(firstSeen, ordinal) {
  const hex = createHash('sha256')
    .update(`flow-next-finding-v1\0${firstSeen}\0${ordinal}`)
    .digest('hex')
  return `finding-${hex.slice(0, 32)}`
}

export const DEMO_BRANCH = 'feature/fn-7-receipt-gate'

/** Creates the demo repository in a new temp folder; returns its facts. */
export function buildDemoRepo(
  root = mkdtempSync(join(tmpdir(), 'receipt-gate-demo-')),
  { failing = false } = {}
) {
  let clock = Date.parse('2026-11-02T09:00:00Z') / 1000
  const git = (...args) =>
    execFileSync('git', ['-C', root, ...args], {
      env: {
        ...ENV,
        GIT_AUTHOR_DATE: `${clock} +0000`,
        GIT_COMMITTER_DATE: `${clock} +0000`
      },
      encoding: 'utf8'
    }).trim()
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const commit = (message) => {
    clock += 3600
    git('add', '-A')
    git('commit', '-q', '-m', message)
    return git('rev-parse', 'HEAD')
  }
  git('init', '-q', '-b', 'main')
  write('README.md', '# shop\n')
  // A bug older than the PR, on a line the PR does not change: its finding sits outside
  // the diff (shown only in the Checks tab, listed in the summary).
  write(
    'src/cart.ts',
    'export const total = (items: number[]) => items.reduce((a, b) => a + b, 1)\n'
  )
  const base = commit('initial import')

  git('checkout', '-q', '-b', DEMO_BRANCH)
  write(
    'src/parser.ts',
    'export function parse(text: string) {\n  return JSON.parse(text)\n}\n'
  )
  const task1 = commit('fn-7.1: receipt parser')
  write(
    '.flow/review-receipts/impl-fn-7-receipt-gate.1.json',
    JSON.stringify(
      {
        type: 'impl_review',
        id: 'fn-7-receipt-gate.1',
        mode: 'codex',
        base: 'main',
        verdict: 'SHIP',
        session_id: 'demo-1',
        model: 'gpt-5.5',
        effort: 'high',
        spec: 'codex:gpt-5.5:high',
        timestamp: '2026-11-02T10:30:00.000000Z',
        review: 'Parser is small and correct.\n\n<verdict>SHIP</verdict>'
      },
      null,
      2
    ) + '\n'
  )
  commit('chore(flow): complete fn-7 task 1')
  if (failing) {
    // Code after the review, never reviewed: the review of task 1 no longer covers the head.
    write(
      'src/parser.ts',
      'export function parse(text: string) {\n  return text ? JSON.parse(text) : null\n}\n'
    )
    commit('fn-7.1: accept empty input')
  }

  write(
    'src/gate.ts',
    [
      'export function gate(verdicts: string[]) {',
      "  if (verdicts.length === 0) return 'neutral'",
      "  return verdicts.every((v) => v === 'SHIP') ? 'success' : 'failure'",
      '}',
      'export function worst(a: number, b: number) {',
      '  return a > b ? a : b',
      '}',
      ''
    ].join('\n')
  )
  const task2 = commit('fn-7.2: verdict gate')

  const source = 'review-demo-fn-7-2-round-1'
  const anchor = (path, startLine, endLine) => ({
    path,
    side: 'head',
    startLine,
    endLine,
    baseSha: base,
    headSha: task2
  })
  const item = (ordinal, fields) => ({
    id: lineageId(source, ordinal),
    ordinal,
    rIds: ['R2'],
    firstSeenReceiptId: source,
    lastSeenReceiptId: source,
    ...fields
  })
  write(
    '.flow/review-receipts/impl-fn-7-receipt-gate.2.json',
    JSON.stringify(
      {
        type: 'impl_review',
        id: 'fn-7-receipt-gate.2',
        mode: 'codex',
        base: 'main',
        verdict: failing ? 'NEEDS_WORK' : 'SHIP',
        session_id: 'demo-2',
        model: 'gpt-5.5',
        effort: 'high',
        spec: 'codex:gpt-5.5:high',
        timestamp: '2026-11-02T12:30:00.000000Z',
        review: failing
          ? 'An empty verdict list must not pass a required check. Fix it and review again; one note deferred.\n\n<verdict>NEEDS_WORK</verdict>'
          : 'The gate is right for the common case. Two notes below; one deferred.\n\n<verdict>SHIP</verdict>',
        suppressed_count: { 25: 2, 50: 1 },
        introduced_count: 2,
        pre_existing_count: 1,
        unaddressed: [],
        walkthrough: {
          applied: 0,
          deferred: 1,
          skipped: 0,
          acknowledged: 0,
          lfg_rest: false
        },
        findings: {
          schemaVersion: 1,
          sourceReceiptId: source,
          reviewKind: 'implementation',
          backend: 'codex',
          round: 1,
          baseSha: base,
          headSha: task2,
          items: [
            item(1, {
              severity: failing ? 'P1' : 'P2',
              confidence: 75,
              classification: 'introduced',
              status: 'open',
              title: 'Empty verdict list is neutral, not a failure',
              body: 'A required check that sees no receipts should not pass quietly.',
              suggestion: "Return 'failure' when a receipt is required.",
              anchor: anchor('src/gate.ts', 2, 2)
            }),
            item(2, {
              severity: 'P3',
              confidence: 50,
              classification: 'introduced',
              status: 'open',
              title: 'worst() could be Math.max',
              body: 'Readability only.',
              anchor: anchor('src/gate.ts', 5, 7)
            }),
            item(3, {
              severity: 'P1',
              confidence: 100,
              classification: 'pre_existing',
              status: 'open',
              title: 'total() starts from 1',
              body: 'The reduce seed is 1, so every total is off by one.',
              anchor: anchor('src/cart.ts', 1, 1)
            })
          ]
        }
      },
      null,
      2
    ) + '\n'
  )
  write(
    '.flow/review-deferred/feature-fn-7-receipt-gate.md',
    [
      '# Deferred review findings — feature-fn-7-receipt-gate',
      '',
      '## 2026-11-02 12:30 — review session fn-7-receipt-gate.2 (demo-2)',
      '',
      '- [P1, confidence 100, pre_existing] src/cart.ts:1 — total() starts from 1',
      '  - Deferred reason: separate fix, tracked in the cart spec',
      ''
    ].join('\n')
  )
  const recorded = commit('chore(flow): record codex review of fn-7 task 2')

  const openItems = [
    '## Open items',
    '',
    '- [ ] [P1, confidence 100, pre_existing] src/cart.ts:1 — total() starts from 1 — deferred from impl-review (`.flow/review-deferred/feature-fn-7-receipt-gate.md`)',
    ''
  ]
  const body = [
    '## Summary',
    '',
    'Adds the receipt parser and the verdict gate.',
    '',
    // The failing PR's author dropped the make-pr step's open items from the body.
    ...(failing ? [] : openItems)
  ].join('\n')
  const bodyFile = join(root, '..', `${root.split('/').pop()}-pr-body.md`)
  writeFileSync(bodyFile, body)
  return { root, base, task1, task2, head: recorded, branch: DEMO_BRANCH, body, bodyFile }
}
