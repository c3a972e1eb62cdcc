/**
 * Adoption edges of `receipt-gate check` and `validate`, run for real (the CLI's code
 * in-process, real git repositories): every failure cause has its own next step (text and
 * Markdown), a CI checkout finds `origin/main`, a mistyped mode is refused with the word
 * meant, `check -h`, `validate FOLDER`, a bare repository, where a slug came from, and a
 * line on stderr while `--pr` waits for the API.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/gate/report.js'
import { DIR, prRepo as prRepoOf, receiptWith } from '../action/support.js'
import { runCli, type CliRun } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub } from '../support/github-api/server.js'

const cleanup: Array<() => void | Promise<void>> = []
afterAll(async () => {
  for (const fn of cleanup.splice(0)) await fn()
})

/** {@link prRepoOf}, removed after the tests. */
function prRepo(
  files: (reviewed: string, base: string) => Record<string, string>
): ReturnType<typeof prRepoOf> {
  const made = prRepoOf(files)
  cleanup.push(() => made.repo.cleanup())
  return made
}

const ship = (r: string, b: string): Record<string, string> => ({
  [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b)
})

/** The text report's last entry (the summary line), its wrapped lines joined. */
function summaryLine(run: CliRun): string {
  const lines = run.stdout.trimEnd().split('\n')
  return lines
    .slice(lines.lastIndexOf('') + 1)
    .join(' ')
    .replace(/ +/g, ' ')
}

/** The Markdown summary's next step: the line under the title. */
function markdownNext(run: CliRun): string {
  const line = run.stdout.split('\n').find((l) => l.startsWith('**Next:**'))
  if (line === undefined) throw new Error(`no next step in\n${run.stdout}`)
  return line
}

describe('every failure cause has its own next step, in the text and the Markdown', () => {
  it('--receipts-dir that does not exist: the step names the setting, not a review', async () => {
    const { repo } = prRepo(ship)
    const args = ['check', '--repo', repo.path, '--receipts-dir', '.flow/receipts']
    const text = await runCli(args)
    expect(text.code).toBe(1)
    expect(summaryLine(text)).toMatch(
      /— no receipts under \.flow\/receipts at [0-9a-f]{7}: commit the review receipts there, or set receipts-dir to the folder that holds them$/
    )
    expect(markdownNext(await runCli([...args, '--format', 'markdown']))).toContain(
      'set receipts\\-dir to the folder that holds them'
    )
  })

  it('a run on the base branch itself says so', async () => {
    const { repo } = prRepo(ship)
    repo.checkout('main')
    const run = await runCli(['check', '--repo', repo.path])
    expect(run.code).toBe(1)
    expect(summaryLine(run)).toContain('is the base branch itself')
    const report = JSON.parse(
      (await runCli(['check', '--repo', repo.path, '--format', 'json'])).stdout
    ) as Report
    expect(report.problems.map((p) => p.code)).toContain('head-is-base')
  })

  it('a selection that matched nothing: change select, not a review', async () => {
    const { repo } = prRepo(ship)
    const run = await runCli([
      'check',
      '--repo',
      repo.path,
      '--select',
      '.flow/review-receipts/plan-*.json'
    ])
    expect(summaryLine(run)).toMatch(
      /— select matched no receipt: commit this pull request's review receipt, or change select$/
    )
  })

  it('a shallow clone: a fetch is the fix', async () => {
    const { repo } = prRepo(ship)
    const dir = mkdtempSync(join(tmpdir(), 'rg-shallow-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const clone = join(dir, 'clone')
    repo.git(
      'clone',
      '-q',
      '--depth',
      '1',
      '--branch',
      'feature/fn-7',
      `file://${repo.path}`,
      clone
    )
    // The clone holds neither the base branch nor the reviewed commit: every receipt is
    // selected, and the head stands in for the base it cannot find.
    const run = await runCli([
      'check',
      '--repo',
      clone,
      '--select',
      'all',
      '--base',
      'HEAD'
    ])
    expect(run.code).toBe(1)
    expect(summaryLine(run)).toContain('— fetch the history (git fetch --unshallow')
    expect(run.stdout.split('\n')[0]).toContain('shallow clone: the history is cut')
  })

  it('coverage: require — the commits to review, under a title that names coverage', async () => {
    const { repo } = prRepo(ship)
    // A code commit after the review, then a review that ships it but records no range
    // covering the first commit: its base is the reviewed commit.
    repo.write({ 'src/app.ts': 'export const a = 3\n' })
    const later = repo.commit('fn-7.2: change again')
    repo.write({
      [`${DIR}/impl-fn-7.2.json`]: receiptWith(later, later, { id: 'fn-7.2' })
    })
    repo.commit('chore(flow): review 2')
    const args = ['check', '--repo', repo.path, '--coverage', 'require']
    const run = await runCli(args)
    expect(run.code).toBe(1)
    const first = run.stdout.split('\n')[0]
    expect(first).toContain('code commits not proven reviewed')
    expect(first).not.toContain('SHIP —')
    expect(summaryLine(run)).toMatch(
      /— review the code commits no SHIP review holds \([0-9a-f]{7}\), or set coverage to report$/
    )
    expect(summaryLine(run)).not.toContain('nothing current approves')
  })

  it('an unreadable deferral file: the file is the fix', async () => {
    const { repo } = prRepo(ship)
    repo.symlink('.flow/review-deferred/feature-fn-7.md', '../../README.md')
    repo.commit('chore(flow): deferral as a link')
    const body = join(repo.path, '..', `${repo.path.split('/').pop()}-body.md`)
    writeFileSync(body, '## Summary\n')
    cleanup.push(() => rmSync(body, { force: true }))
    const args = ['check', '--repo', repo.path, '--body-file', body]
    const run = await runCli(args)
    expect(run.code).toBe(1)
    expect(run.stdout.split('\n')[0]).toContain(
      'deferral file unreadable: .flow/review-deferred/feature-fn-7.md is a symlink, not a file'
    )
    expect(summaryLine(run)).toContain(
      'make it a regular file of at most 1 MiB, or set audit-deferred to false'
    )
    const markdown = await runCli([...args, '--format', 'markdown'])
    expect(markdown.stdout.split('\n').slice(0, 6).join('\n')).toContain('**Next:**')
    expect(markdownNext(markdown)).toContain('regular file of at most 1 MiB')
  })

  it('a passing run says so', async () => {
    const { repo } = prRepo(ship)
    const run = await runCli(['check', '--repo', repo.path])
    expect(run.code).toBe(0)
    expect(summaryLine(run)).toMatch(/— the gate passes: nothing blocks the merge$/)
  })
})

describe('base discovery', () => {
  it('a CI checkout (detached, no origin/HEAD, no local main) finds origin/main', async () => {
    const { repo, base } = prRepo(ship)
    repo.git('update-ref', 'refs/remotes/origin/main', 'main')
    repo.checkout(repo.revParse('feature/fn-7'))
    repo.git('branch', '-D', 'main')
    repo.git('branch', '-D', 'feature/fn-7')
    const run = await runCli(['check', '--repo', repo.path, '--format', 'json'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect((JSON.parse(run.stdout) as Report).base).toBe(base)
  })

  it('none at all: the message lists every name tried', async () => {
    const { repo } = prRepo(ship)
    repo.git('branch', '-m', 'main', 'trunk')
    const run = await runCli(['check', '--repo', repo.path])
    expect(run).toMatchObject({
      code: 2,
      stderr:
        'receipt-gate check: no base branch found (origin/HEAD, main, master, origin/main, origin/master): pass --base REV\n'
    })
  })
})

describe('typos are refused with the word meant', () => {
  const { repo } = prRepo(ship)
  it.each([
    ['--select', 'chnaged', 'changed'],
    ['--select', 'All', 'all'],
    ['--unbound-head', 'histroy', 'history'],
    ['--coverage', 'requre', 'require']
  ])('%s %s: did you mean %s?', async (flag, typed, meant) => {
    const run = await runCli(['check', '--repo', repo.path, flag, typed])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`did you mean ${meant}?`)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('a glob is still a glob', async () => {
    const run = await runCli(['check', '--repo', repo.path, '--select', 'impl-*.json'])
    expect(run.stderr).toBe('')
  })
})

describe('small CLI edges', () => {
  it('check -h prints the help', async () => {
    const run = await runCli(['check', '-h'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: receipt-gate check/)
  })

  it('validate FOLDER validates the receipts in it, not their history', async () => {
    const { repo } = prRepo((r, b) => ({
      ...ship(r, b),
      [`${DIR}/plan-fn-7.json`]: '{ not json',
      [`${DIR}/impl-fn-7.1.json.history/impl-fn-7.1.r1.json`]: receiptWith(r, b)
    }))
    const run = await runCli(['validate', DIR], repo.path)
    expect(run.code).toBe(1)
    const files = run.stdout.split('\n').filter((line) => /^\S/.test(line))
    expect(files).toEqual([`${DIR}/impl-fn-7.1.json`, `${DIR}/plan-fn-7.json`])
  })

  it('a bare repository is gated like any; its default branch is the base itself', async () => {
    const { repo } = prRepo(ship)
    const dir = mkdtempSync(join(tmpdir(), 'rg-bare-'))
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
    const bare = join(dir, 'bare.git')
    repo.git('clone', '-q', '--bare', repo.path, bare)
    // Its HEAD is the feature branch the source had checked out.
    const run = await runCli(['check', '--format', 'json'], bare)
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toMatchObject({ conclusion: 'success' })
    const onMain = await runCli(['check', '--head', 'main'], bare)
    expect(summaryLine(onMain)).toContain('is the base branch itself')
  })

  it.each([
    ['a GitLab origin', 'https://gitlab.com/group/sub/widgets.git'],
    ['a local path (a bare clone)', '/srv/git/widgets.git']
  ])('--pr with %s names the remote it came from', async (_name, url) => {
    const clone = GitRepo.init()
    cleanup.push(() => clone.cleanup())
    clone.git('remote', 'add', 'origin', url)
    const run = await runCli(['check', '--pr', '1'], clone.path, {
      env: { GITHUB_TOKEN: 'test-token' }
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `receipt-gate check: no repository to read the pull request from: pass --repo-slug OWNER/REPO (or set GITHUB_REPOSITORY); the origin remote (${url}) is not a repository on github.com (set GITHUB_SERVER_URL and GITHUB_API_URL for GitHub Enterprise Server)\n`
    )
  })

  it('--exempt-authors needs --pr: the author comes from the API', async () => {
    const { repo } = prRepo(ship)
    const run = await runCli([
      'check',
      '--repo',
      repo.path,
      '--exempt-authors',
      'dependabot[bot]'
    ])
    expect(run).toMatchObject({
      code: 2,
      stderr:
        "receipt-gate check: --exempt-authors applies only with --pr (the pull request's author and labels come from the API)\n"
    })
  })

  it('--pr says what it waits for when the API is slow, within a second', async () => {
    const { repo } = prRepo(ship)
    const fake = await startFakeGitHub({
      repo,
      pulls: [{ number: 1, head: { ref: 'feature/fn-7' }, base: { ref: 'main' } }]
    })
    cleanup.push(async () => fake.close())
    // The first request (the PR's GraphQL read) answers after 3 s: the notice comes well
    // before it does.
    fake.faults.add({ kind: 'latency', ms: 3000, route: 'graphql' })
    const lines: Array<{ at: number; text: string }> = []
    const t0 = Date.now()
    const { main } = await import('../../src/cli/main.js')
    const code = await main(['check', '--pr', '1', '--repo-slug', 'acme/widgets'], {
      stdout: () => undefined,
      stderr: (text) => lines.push({ at: Date.now() - t0, text }),
      readFile: () => new Uint8Array(),
      cwd: repo.path,
      color: false,
      env: {
        GITHUB_API_URL: fake.url,
        GITHUB_TOKEN: 't'
      }
    })
    expect(code).toBe(0)
    expect(lines[0]?.text).toBe(
      `receipt-gate check: waiting for ${fake.url} (pull request #1 of acme/widgets)…\n`
    )
    expect(lines[0]?.at).toBeLessThan(2500)
  })
})
