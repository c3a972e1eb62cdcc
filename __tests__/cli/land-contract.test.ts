/**
 * `receipt-gate land` run as Flow-Next land runs its merge-verdict command: the bundled
 * file vendored into the host repository, `bash -c "cd $REPO && $CMD" >/dev/null 2>file`
 * from a base-branch checkout whose origin (a local bare repository) holds a PR head the
 * clone lacks; land keeps the exit code and stderr's last line cut to 200 characters.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { DIR, receiptWith } from '../action/support.js'
import { runCli } from '../support/check-cli.js'
import { GIT_EMAIL, GIT_NAME, GitRepo, gitEnv } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'
import { PROJECT_ROOT } from '../support/runner.js'

const BUNDLE = join(PROJECT_ROOT, 'dist', 'receipt-gate.mjs')
// The README's recipe, as a user copies it: where the file goes, and the command.
const README = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
const VENDORED = /^mkdir -p \S+ && cp \S+\/dist\/receipt-gate\.mjs (\S+)$/m.exec(
  README
)?.[1]
const CMD = /^flowctl config set land\.mergeVerdictCommand '(node [^']+)'$/m.exec(
  README
)?.[1]
const SINK = '.flow/review-deferred/feature-fn-7.md'
const DEFERRED = 'src/app.ts:1 — the cache is cold'
// What the gate says of the SHIP fixture (its one P1 finding explains; it revokes nothing).
const PASSED =
  'receipt-gate: success — SHIP — 1 introduced finding open (1 P1); the gate passes: nothing blocks the merge'

const cleanup: Array<() => void | Promise<void>> = []
afterAll(async () => {
  for (const fn of cleanup) await fn()
})
const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    env: gitEnv(IDENTITY)
  }).trim()
const IDENTITY = {
  GIT_AUTHOR_NAME: GIT_NAME,
  GIT_AUTHOR_EMAIL: GIT_EMAIL,
  GIT_COMMITTER_NAME: GIT_NAME,
  GIT_COMMITTER_EMAIL: GIT_EMAIL
}

interface Pr {
  /** The PR's source repository (branch feature/fn-7), backing the local GitHub API. */
  src: GitRepo
  /** The head land judges (FLOW_HEAD_SHA). */
  head: string
  /** The base-branch checkout land runs from: origin is a bare copy of `src`. */
  clone: string
  /** origin (a bare repository). */
  bare: string
}

interface PrOptions {
  files: (reviewed: string, base: string) => Record<string, string>
  /** Commits after the receipt's, moving the PR's head on (land judges `head` still). */
  later?: (src: GitRepo) => void
  /** Commits the API knows and origin never got (pushed elsewhere, or not fetchable). */
  unpushed?: (src: GitRepo) => void
  /** What the host repository's package.json says (null: it has none). */
  packageJson?: string | null
}

/** A PR on a bare origin, and a base checkout that has never seen its head. */
function pullRequest(options: PrOptions): Pr {
  const src = GitRepo.init()
  cleanup.push(() => src.cleanup())
  src.write({ 'src/app.ts': 'export const a = 1\n' })
  const base = src.commit('initial')
  src.branch('feature/fn-7')
  src.write({ 'src/app.ts': 'export const a = 2\n' })
  const reviewed = src.commit('fn-7.1: change')
  src.write(options.files(reviewed, base))
  const head = src.commit('chore(flow): record review')
  options.later?.(src)
  src.checkout('main')
  src.write({ 'README.md': 'the base moved on\n' })
  src.commit('docs: later')
  const bare = join(tempDir('rg-origin-'), 'origin.git')
  git(src.path, 'clone', '-q', '--bare', '--no-local', src.path, bare)
  git(bare, 'update-ref', 'refs/pull/7/head', src.revParse('feature/fn-7'))
  options.unpushed?.(src)
  const clone = join(tempDir('rg-base-'), 'repo')
  git(
    src.path,
    'clone',
    '-q',
    '--no-local',
    '--branch',
    'main',
    '--single-branch',
    bare,
    clone
  )
  // The command and the file it runs are the base's, committed there.
  if (VENDORED === undefined)
    throw new Error("no vendoring line in the README's land section")
  mkdirSync(dirname(join(clone, VENDORED)), { recursive: true })
  copyFileSync(BUNDLE, join(clone, VENDORED))
  const pkg =
    options.packageJson === undefined ? '{ "type": "commonjs" }' : options.packageJson
  if (pkg !== null) writeFileSync(join(clone, 'package.json'), `${pkg}\n`)
  git(clone, 'add', '-A')
  git(clone, 'commit', '-q', '-m', 'vendor receipt-gate')
  return { src, head, clone, bare }
}

/** A code commit after the review's: the PR's head moves on to code no review saw. */
const moreCode = (src: GitRepo): void => {
  src.write({ 'src/app.ts': 'export const a = 3\n' })
  src.commit('fn-7.2: more code')
}

const ship = (r: string, b: string) => ({
  [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b)
})

/** A current SHIP that deferred one finding (counted on the receipt, listed in the sink). */
const deferring = (r: string, b: string) => {
  const receipt = JSON.parse(receiptWith(r, b)) as Record<string, unknown>
  receipt.walkthrough = { deferred: 1 }
  return {
    [`${DIR}/impl-fn-7.1.json`]: JSON.stringify(receipt, null, 2),
    [SINK]: `- [P2, confidence 75, introduced] ${DEFERRED}\n`
  }
}
const NAMED = `## Open items\n\n- [ ] [P2, confidence 75, introduced] ${DEFERRED} — deferred from impl-review (\`${SINK}\`)\n`

async function api(pr: Pr, body: string, token?: string): Promise<FakeGitHub> {
  const fake = await startFakeGitHub({
    repo: pr.src,
    preloadGraphql: true,
    pulls: [{ number: 7, head: { ref: 'feature/fn-7' }, base: { ref: 'main' }, body }],
    ...(token ? { token } : {})
  })
  cleanup.push(async () => fake.close())
  return fake
}

interface Landed {
  code: number
  /** What land shows: the last line of stderr, cut to 200 characters. */
  line: string
  stderr: string
}

/** The command as land runs it, with only `env` (and node, git, bash on PATH). */
async function land(
  pr: Pr,
  env: Record<string, string>,
  extraPath = ''
): Promise<Landed> {
  const err = join(tempDir('rg-err-'), 'stderr')
  const script = `bash -c "cd \\"$REPO\\" && $CMD" >/dev/null 2>"$ERR"; echo $?; tail -n 1 "$ERR" | cut -c1-200`
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'bash',
      ['-c', script],
      {
        encoding: 'utf8',
        env: {
          ...gitEnv(),
          PATH: [
            extraPath,
            dirname(process.execPath),
            '/usr/local/bin',
            '/usr/bin',
            '/bin'
          ]
            .filter(Boolean)
            .join(':'),
          HOME: tempDir('rg-home-'),
          NODE_OPTIONS: '',
          REPO: pr.clone,
          CMD: CMD ?? 'no land command in the README',
          ERR: err,
          FLOW_HEAD_SHA: pr.head,
          FLOW_BASE_REF: 'main',
          FLOW_PR_NUMBER: '7',
          FLOW_SPEC_ID: 'fn-7-receipt-gate',
          GITHUB_REPOSITORY: 'acme/widgets',
          RECEIPT_GATE_TIME_SCALE: '0.001',
          ...env
        }
      },
      (error, stdout) => (error ? reject(new Error(error.message)) : resolve(stdout))
    )
  )
  const [code, line = ''] = out.split('\n')
  return { code: Number(code), line, stderr: readFileSync(err, 'utf8') }
}

const apiEnv = (fake: FakeGitHub, token = 'test-token'): Record<string, string> => ({
  GITHUB_API_URL: fake.url,
  GITHUB_TOKEN: token
})

describe('land, as Flow-Next land runs it', () => {
  it("the README's recipe is found", () => {
    expect([VENDORED, CMD]).toEqual([
      'tools/receipt-gate.mjs',
      'node tools/receipt-gate.mjs land'
    ])
  })

  it('a head only origin has, a current SHIP: fetched into objects only, exit 0, one API request', async () => {
    const pr = pullRequest({ files: ship })
    const before = {
      refs: git(pr.clone, 'for-each-ref'),
      head: git(pr.clone, 'rev-parse', 'HEAD'),
      status: git(pr.clone, 'status', '--porcelain')
    }
    expect(() => git(pr.clone, 'cat-file', '-e', pr.head)).toThrow()
    const fake = await api(pr, '## Summary\n')
    const landed = await land(pr, apiEnv(fake))
    expect(landed).toMatchObject({ code: 0 })
    expect(landed.line).toBe(PASSED)
    // The PR body, read once (GraphQL), and nothing else.
    expect(fake.requests.map((r) => r.route)).toEqual(['POST /graphql'])
    // Objects only: no ref, no FETCH_HEAD, no checkout, nothing in the working tree.
    expect(git(pr.clone, 'cat-file', '-t', pr.head)).toBe('commit')
    expect({
      refs: git(pr.clone, 'for-each-ref'),
      head: git(pr.clone, 'rev-parse', 'HEAD'),
      status: git(pr.clone, 'status', '--porcelain')
    }).toEqual(before)
    expect(() => readFileSync(join(pr.clone, '.git', 'FETCH_HEAD'))).toThrow()
    fake.assertNoViolations()
  })

  it('without FLOW_PR_NUMBER: no API request at all', async () => {
    const pr = pullRequest({ files: ship })
    const fake = await api(pr, '## Summary\n')
    const landed = await land(pr, { ...apiEnv(fake), FLOW_PR_NUMBER: '' })
    expect(landed.code).toBe(0)
    expect(fake.requests).toEqual([])
  })

  it('a stale review: exit 1, the line names the receipt, why it is stale and the step', async () => {
    const pr = pullRequest({
      files: ship,
      later: moreCode
    })
    pr.head = pr.src.revParse('feature/fn-7')
    const landed = await land(pr, {})
    expect(landed.code).toBe(1)
    // 201 bytes in full: the cause is shortened, never the step.
    expect(landed.line).toMatch(
      new RegExp(
        `^receipt-gate: failure — No current impl_review \\(impl-fn-7\\.1\\.json stale: 1 non-bookkeeping path changed since the reviewed head [0-9a-f]{7} \\(src/app\\.…; run impl-review at ${pr.head.slice(0, 7)} and commit its receipt$`
      )
    )
    expect(Buffer.byteLength(landed.line)).toBe(200)
  })

  it('NEEDS_WORK: exit 1, the verdict and its open findings', async () => {
    const pr = pullRequest({
      files: (r, b) => ({
        [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b, {
          verdict: 'NEEDS_WORK',
          count: 2
        })
      })
    })
    const landed = await land(pr, {})
    expect(landed.code).toBe(1)
    expect(landed.line).toBe(
      `receipt-gate: failure — NEEDS_WORK — 2 introduced findings open (2 P1); address the findings of impl-fn-7.1.json, then re-run impl-review at ${pr.head.slice(0, 7)}`
    )
  })

  it('a deferral the PR body (from the API) does not name: exit 1; named: exit 0', async () => {
    const pr = pullRequest({ files: deferring })
    const unnamed = await land(pr, apiEnv(await api(pr, '## Summary\n')))
    expect(unnamed.code).toBe(1)
    expect(unnamed.line).toBe(
      `receipt-gate: failure — deferred findings not named in the PR body; name each deferred finding of ${SINK} in the PR body (the report lists the lines to paste)`
    )
    const named = await land(pr, apiEnv(await api(pr, NAMED)))
    expect(named).toMatchObject({ code: 0 })
  })

  it('another open PR on the same head whose body does not name the deferral: exit 1', async () => {
    // The action's check run is the commit's: land must not pass what it would fail.
    const pr = pullRequest({ files: deferring })
    const fake = await startFakeGitHub({
      repo: pr.src,
      preloadGraphql: true,
      pulls: [7, 8].map((number) => ({
        number,
        head: { ref: 'feature/fn-7' },
        base: { ref: 'main' },
        body: number === 7 ? NAMED : '## Summary\n'
      }))
    })
    cleanup.push(async () => fake.close())
    const landed = await land(pr, apiEnv(fake))
    expect(landed.code).toBe(1)
    expect(landed.line).toMatch(/^receipt-gate: failure — deferred findings not named/)
    expect(fake.requests.map((r) => r.route)).toEqual(['POST /graphql'])
  })

  it('deferrals and no token to read the body: cannot decide (2), never a pass', async () => {
    const pr = pullRequest({ files: deferring })
    const fake = await api(pr, NAMED)
    const landed = await land(pr, { GITHUB_API_URL: fake.url })
    expect(landed.code).toBe(2)
    expect(landed.line).toMatch(
      /^receipt-gate: cannot decide — 1 deferred finding must be named in the PR body, which cannot be read: .*; set GITHUB_TOKEN or GH_TOKEN, or log in with gh auth login$/
    )
  })

  it('a token from gh alone (gh auth token): the body is read', async () => {
    const pr = pullRequest({ files: deferring })
    const fake = await api(pr, NAMED, 'gho_from-gh')
    const bin = tempDir('rg-gh-')
    writeFileSync(
      join(bin, 'gh'),
      '#!/bin/sh\n[ "$1 $2" = "auth token" ] && echo gho_from-gh\n'
    )
    chmodSync(join(bin, 'gh'), 0o755)
    const landed = await land(pr, { GITHUB_API_URL: fake.url }, bin)
    expect(landed).toMatchObject({ code: 0 })
    expect(landed.line).toMatch(/^receipt-gate: success — /)
  })

  it('a head origin cannot give and no token for the API: 2, with the reason', async () => {
    const pr = pullRequest({ files: ship })
    pr.head = 'ab'.repeat(20)
    const landed = await land(pr, {})
    expect(landed.code).toBe(2)
    expect(landed.line).toMatch(
      /^receipt-gate: cannot decide — cannot fetch FLOW_HEAD_SHA abababa from origin: .*; set GITHUB_TOKEN or GH_TOKEN, or log in with gh auth login$/
    )
  })

  it('a head origin cannot give, a token: read through the API (GraphQL first), judged there', async () => {
    const pr = pullRequest({
      files: ship,
      unpushed: (src) => {
        src.checkout('feature/fn-7')
        src.write({ '.flow/notes.md': 'bookkeeping only\n' })
        src.commit('chore(flow): notes')
        src.checkout('main')
      }
    })
    pr.head = pr.src.revParse('feature/fn-7')
    const fake = await api(pr, '## Summary\n')
    const landed = await land(pr, apiEnv(fake))
    expect(landed.line).toBe(PASSED)
    expect(landed.code).toBe(0)
    expect(fake.requests[0]?.route).toBe('POST /graphql')
    expect(() => git(pr.clone, 'cat-file', '-e', pr.head)).toThrow()
  })

  it("judges against origin's base as it is now, not the clone's stale origin/main", async () => {
    const pr = pullRequest({ files: ship })
    // After the clone, the PR's first commit reached main on origin (merged elsewhere).
    const reviewed = pr.src.revParse('feature/fn-7~1')
    git(pr.bare, 'update-ref', 'refs/heads/main', reviewed)
    expect(git(pr.clone, 'rev-parse', 'origin/main')).not.toBe(reviewed)
    const run = await runCli(['land', '--format', 'json'], pr.clone, {
      env: { FLOW_HEAD_SHA: pr.head, FLOW_BASE_REF: 'main' }
    })
    expect(run.code).toBe(0)
    expect((JSON.parse(run.stdout) as Report).base).toBe(reviewed)
  })

  it.each([
    ['"type": "commonjs"', '{ "type": "commonjs" }'],
    ['no "type"', '{ "name": "host" }'],
    ['no package.json', null]
  ])('a host repository with %s runs the one file', async (_name, packageJson) => {
    const pr = pullRequest({ files: ship, packageJson })
    const landed = await land(pr, { FLOW_PR_NUMBER: '' })
    expect(landed.code).toBe(0)
    expect(landed.stderr).toBe(`${PASSED}\n`)
  })

  it('FLOW_HEAD_SHA older than the PR head: that head is judged, exactly', async () => {
    // The PR moved on to code no review saw; land asked about the reviewed head.
    const pr = pullRequest({
      files: ship,
      later: moreCode
    })
    const landed = await land(pr, {})
    expect(landed.code).toBe(0)
    expect(landed.line).toBe(PASSED)
  })
})
