/**
 * Gate bypasses (issue 28), each built for real and run on every source: the CLI (git
 * plumbing, in process), the bundled action on a workspace that holds the head (git), and
 * the bundled action on an empty workspace (the GitHub API, the local one). Before the
 * fixes each of these passed: success, exit 0.
 */
import { afterAll, describe, expect, it, jest } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { historyFileName } from '../../src/receipts/identity.js'
import { checkJson } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub } from '../support/github-api/server.js'
import {
  buildContainer,
  buildReceipt,
  jsonText,
  type BuiltObject
} from '../support/receipt-builders.js'
import { runAction } from '../support/runner.js'

// Each case runs the CLI and two action processes against a local API.
jest.setTimeout(60_000)

const DIR = '.flow/review-receipts'
const BRANCH = 'feature/fn-7'
const cleanups: Array<() => void> = []
afterAll(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

/** main with one code file, then the feature branch with one code commit. */
function prRepo(): { repo: GitRepo; base: string; reviewed: string } {
  const repo = GitRepo.init()
  cleanups.push(() => repo.cleanup())
  repo.write({ 'src/app.ts': 'export const a = 1\n' })
  const base = repo.commit('initial')
  repo.branch(BRANCH)
  repo.write({ 'src/app.ts': 'export const a = 2\n' })
  const reviewed = repo.commit('fn-7.1: change a')
  return { repo, base, reviewed }
}

function findingsReceipt(headSha: string, base: string, extra: BuiltObject = {}): string {
  return jsonText(
    buildReceipt({
      id: 'fn-7.1',
      verdict: 'SHIP',
      findings: buildContainer({ headSha, baseSha: base, sourceReceiptId: 'review-1' }),
      ...extra
    })
  )
}

interface Verdicts {
  cli: Report
  actionGit: Report
  actionApi: Report
}

/**
 * The gate on the PR `BRANCH` → main, on the three sources; every answer the same
 * conclusion. `body` is the PR body (the CLI reads it from a file).
 */
async function gateEverywhere(repo: GitRepo, body = '## Summary\n'): Promise<Verdicts> {
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'rg-body-')), 'body.md')
  writeFileSync(bodyFile, body)
  const { report: cli } = await checkJson(
    repo.path,
    '--base',
    'main',
    '--branch',
    BRANCH,
    '--body-file',
    bodyFile
  )
  const fake = await startFakeGitHub({
    repo,
    pulls: [{ number: 1, head: { ref: BRANCH }, base: { ref: 'main' }, body }]
  })
  const empty = mkdtempSync(join(tmpdir(), 'rg-ws-'))
  try {
    const [actionGit, actionApi] = await Promise.all(
      [repo.path, empty].map(async (workspace) => {
        const run = await runAction({
          fake,
          event: { name: 'pull_request', pull: 1 },
          workspace,
          env: { RECEIPT_GATE_TIME_SCALE: '0.001' }
        })
        try {
          expect(run.stderr).toBe('')
          return JSON.parse(readFileSync(run.outputs.report as string, 'utf8')) as Report
        } finally {
          run.cleanup()
        }
      })
    )
    fake.assertNoViolations()
    return { cli, actionGit: actionGit as Report, actionApi: actionApi as Report }
  } finally {
    await fake.close()
    rmSync(empty, { recursive: true, force: true })
  }
}

function everyRow(verdicts: Verdicts, path: string) {
  return Object.entries(verdicts).map(([source, report]: [string, Report]) => ({
    source,
    conclusion: report.conclusion,
    row: report.receipts.find((r) => r.path === path)
  }))
}

/**
 * Commits the index on top of HEAD with a message whose nonce makes the commit id start
 * with `prefix` (found by hashing, as an attacker would), and moves the branch to it.
 */
function commitWithPrefix(repo: GitRepo, prefix: string): string {
  repo.git('add', '-A')
  const tree = repo.git('write-tree')
  const parent = repo.revParse('HEAD')
  const who = 'Mallory <m@example.invalid> 1704067200 +0000'
  for (let nonce = 0; ; nonce++) {
    const body = `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\n\nchore(flow): record review ${nonce}\n`
    const sha = createHash('sha1')
      .update(`commit ${Buffer.byteLength(body)}\0${body}`)
      .digest('hex')
    if (!sha.startsWith(prefix)) continue
    const file = join(repo.path, '.git', 'brute-forced')
    writeFileSync(file, body)
    expect(repo.git('hash-object', '-t', 'commit', '-w', file)).toBe(sha)
    repo.git('update-ref', `refs/heads/${BRANCH}`, sha)
    repo.git('reset', '-q', '--hard', sha)
    return sha
  }
}

describe('a reviewed SHA counts only as a full commit id', () => {
  it('an abbreviation of the head brute-forced into its own receipt (committed with code) is stale', async () => {
    const { repo, base } = prRepo()
    repo.write({
      'src/app.ts': 'export const a = 3 // unreviewed\n',
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt('abcd', base)
    })
    const head = commitWithPrefix(repo, 'abcd')
    expect(head.startsWith('abcd')).toBe(true)
    const verdicts = await gateEverywhere(repo)
    for (const { conclusion, row } of everyRow(verdicts, `${DIR}/impl-fn-7.1.json`)) {
      expect(conclusion).toBe('failure')
      expect(row).toMatchObject({ currentness: 'stale', headSource: 'findings' })
      expect(row?.reason).toContain('"abcd" is abbreviated, not a full commit id')
    }
  })

  it.each([
    ['findings.headSha', (name: string, base: string) => findingsReceipt(name, base)],
    [
      'the envelope head',
      (name: string) =>
        jsonText({
          type: 'impl_review',
          id: 'fn-7.1',
          mode: 'rp',
          verdict: 'SHIP',
          head: name
        })
    ],
    [
      'the envelope head_sha',
      (name: string) =>
        jsonText({
          type: 'impl_review',
          id: 'fn-7.1',
          mode: 'rp',
          verdict: 'SHIP',
          head_sha: name
        })
    ]
  ])(
    'a branch named like a SHA, pushed at the head, in %s is stale',
    async (_, receipt) => {
      const { repo, base } = prRepo()
      repo.write({
        'src/app.ts': 'export const a = 3 // unreviewed\n',
        [`${DIR}/impl-fn-7.1.json`]: receipt('cafe0123', base)
      })
      const head = repo.commit('code and receipt together')
      repo.git('branch', 'cafe0123', head)
      const verdicts = await gateEverywhere(repo)
      for (const { conclusion, row } of everyRow(verdicts, `${DIR}/impl-fn-7.1.json`)) {
        expect(conclusion).toBe('failure')
        expect(row?.currentness).toBe('stale')
        expect(row?.reviewedHead).toBe('cafe0123')
        expect(row?.reason).toContain('is abbreviated, not a full commit id')
      }
    }
  )

  it('a full id in capitals is the same commit: current', async () => {
    const { repo, base, reviewed } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed.toUpperCase(), base)
    })
    repo.commit('chore(flow): record review')
    const verdicts = await gateEverywhere(repo)
    for (const { conclusion, row } of everyRow(verdicts, `${DIR}/impl-fn-7.1.json`)) {
      expect(conclusion).toBe('success')
      expect(row?.currentness).toBe('current')
    }
  })

  it('a full id of a tree (not a commit) is stale', async () => {
    const { repo, base, reviewed } = prRepo()
    const tree = repo.git('rev-parse', `${reviewed}^{tree}`)
    repo.write({ [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(tree, base) })
    repo.commit('chore(flow): record review')
    const verdicts = await gateEverywhere(repo)
    for (const { conclusion, row } of everyRow(verdicts, `${DIR}/impl-fn-7.1.json`)) {
      expect(conclusion).toBe('failure')
      expect(row?.currentness).toBe('stale')
    }
  })
})

describe('paths changed after a review are listed from the trees', () => {
  it('a submodule bump hidden by .gitmodules ignore = all, in a merged history, makes the review stale', async () => {
    const { repo, base, reviewed } = prRepo()
    const pointer = (n: number) => createHash('sha1').update(`sub ${n}`).digest('hex')
    repo.checkout('main')
    repo.write({
      '.gitmodules':
        '[submodule "vendor/lib"]\n\tpath = vendor/lib\n\turl = ../lib\n\tignore = all\n'
    })
    repo.submodule('vendor/lib', pointer(1))
    repo.commit('vendor the library')
    repo.checkout(BRANCH)
    repo.merge('main')
    const reviewedAfterMerge = repo.revParse('HEAD')
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewedAfterMerge, base)
    })
    repo.commit('chore(flow): record review')
    repo.submodule('vendor/lib', pointer(2))
    repo.commit('chore: bump vendor/lib')
    // A merge after the bump: the history is no longer a straight line.
    repo.checkout('main')
    repo.write({ '.flow/specs/fn-7.json': '{}\n' })
    repo.commit('chore(flow): spec')
    repo.checkout(BRANCH)
    repo.merge('main')
    expect(reviewed).not.toBe(reviewedAfterMerge)
    const verdicts = await gateEverywhere(repo)
    for (const { conclusion, row } of everyRow(verdicts, `${DIR}/impl-fn-7.1.json`)) {
      expect(conclusion).toBe('failure')
      expect(row?.currentness).toBe('stale')
      expect(row?.reason).toContain('vendor/lib')
    }
  })
})

describe('the verdict that gates is the current generation’s own', () => {
  it('a history generation at the head that said NEEDS_WORK is not approved by a latest SHIP at an older head', async () => {
    const { repo, base, reviewed } = prRepo()
    const older = repo.git('rev-parse', `${reviewed}~1`)
    const generation = (source: string, head: string, verdict: string) =>
      buildReceipt({
        id: 'fn-7.1',
        verdict,
        findings: buildContainer({
          sourceReceiptId: source,
          headSha: head,
          baseSha: base
        })
      })
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: jsonText(generation('review-old', older, 'SHIP')),
      [`${DIR}/impl-fn-7.1.json.history/${historyFileName('review-now')}`]: jsonText(
        generation('review-now', reviewed, 'NEEDS_WORK')
      )
    })
    repo.commit('chore(flow): record reviews')
    const verdicts = await gateEverywhere(repo)
    for (const { conclusion, row } of everyRow(verdicts, `${DIR}/impl-fn-7.1.json`)) {
      expect(conclusion).toBe('failure')
      expect(row).toMatchObject({
        currentness: 'current',
        reviewedHead: reviewed,
        verdict: 'NEEDS_WORK',
        conclusion: 'failure'
      })
    }
    expect(verdicts.actionApi.verdict).toBe('NEEDS_WORK')
  })
})

describe('a deferral is named only by a bullet whose tail equals it', () => {
  const slug = BRANCH.replace('/', '-')
  const sinkBullet = '- [P1, confidence 75, introduced] src/gate/load.ts:2 — null'
  const bodyBullet = (tail: string) =>
    `- [ ] [P1, confidence 75, introduced] ${tail} — deferred from impl-review (\`.flow/review-deferred/${slug}.md\`)`

  function deferredRepo(): GitRepo {
    const { repo, base, reviewed } = prRepo()
    repo.write({
      [`${DIR}/impl-fn-7.1.json`]: findingsReceipt(reviewed, base, {
        extra: { walkthrough: { deferred: 1 } }
      }),
      [`.flow/review-deferred/${slug}.md`]: `# Deferred review findings — ${slug}\n\n${sinkBullet}\n`
    })
    repo.commit('chore(flow): record review')
    return repo
  }

  it('a longer path and title containing the deferral do not name it', async () => {
    const verdicts = await gateEverywhere(
      deferredRepo(),
      `## Open items\n\n${bodyBullet('lib/src/gate/load.ts:2 — nullable config')}\n`
    )
    for (const report of Object.values(verdicts)) {
      expect(report.conclusion).toBe('failure')
      expect(report.deferred).toMatchObject({
        expected: 1,
        named: 0,
        unnamed: ['src/gate/load.ts:2 — null']
      })
      expect(report.deferred.hints[0]).toMatchObject({
        item: 'src/gate/load.ts:2 — null',
        paste: bodyBullet('src/gate/load.ts:2 — null')
      })
    }
  })

  it('the equal tail names it, whitespace aside', async () => {
    const verdicts = await gateEverywhere(
      deferredRepo(),
      `## Open items\n\n${bodyBullet('src/gate/load.ts:2  —  null')}\n`
    )
    for (const report of Object.values(verdicts)) {
      expect(report.conclusion).toBe('success')
      expect(report.deferred).toMatchObject({ expected: 1, named: 1, unnamed: [] })
    }
  })

  it('ASCII dashes are a near miss, named as such', async () => {
    const verdicts = await gateEverywhere(
      deferredRepo(),
      `${bodyBullet('src/gate/load.ts:2 — null').replaceAll('—', '-')}\n`
    )
    expect(verdicts.cli.conclusion).toBe('failure')
    expect(verdicts.cli.deferred.hints[0]?.why).toContain('em dashes')
  })
})
