/**
 * `scripts/release.mjs`, what the release workflow runs before it publishes: the release
 * notes (CHANGELOG.md's section for the tag, which must be package.json's version) and
 * the major tag to move. Run for real, on this repository and on throwaway ones.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GitRepo } from '../support/git-repo.js'
import { PROJECT_ROOT } from '../support/runner.js'

const SCRIPT = join(PROJECT_ROOT, 'scripts', 'release.mjs')

function release(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8' })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

const repos: GitRepo[] = []
afterEach(() => repos.splice(0).forEach((repo) => repo.cleanup()))

/** A repository at `version` with `changelog`, its commit tagged with `tags`. */
function project(version: string, changelog: string, tags: string[] = []): GitRepo {
  const repo = GitRepo.init({ prefix: 'rg-release-' })
  repos.push(repo)
  repo.write({
    'package.json': JSON.stringify({ name: 'x', version }),
    'CHANGELOG.md': changelog
  })
  repo.commit('release')
  for (const tag of tags) repo.tag(tag)
  return repo
}

const CHANGELOG = [
  '# Changelog',
  '',
  'Intro.',
  '',
  '## v1.2.0 — 2027-01-05',
  '',
  '- Two.',
  '',
  '## v1.1.0',
  '',
  '- One.',
  ''
].join('\n')

describe('release notes', () => {
  const { version } = JSON.parse(
    readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')
  ) as { version: string }

  it("are this repository's CHANGELOG section for package.json's version, for users", () => {
    const run = release(PROJECT_ROOT, 'notes', `v${version}`)
    expect(run).toMatchObject({ code: 0, stderr: '' })
    const changelog = readFileSync(join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8')
    expect(changelog).toContain(`## v${version}\n\n${run.stdout}`)
    expect(run.stdout).not.toMatch(/^## /m)
    // Release notes speak to users: no tracker numbers, no counts of the code's lines.
    expect(changelog).not.toMatch(
      /\bissues? #?\d+|\(#\d+\)|\blines? of code|\d[\d,]* lines\b/i
    )
  })

  it('are the one section of the tag, heading and the next section left out', () => {
    const repo = project('1.2.0', CHANGELOG)
    expect(release(repo.path, 'notes', 'v1.2.0')).toEqual({
      code: 0,
      stdout: '- Two.\n',
      stderr: ''
    })
  })

  it.each([
    ['1.2.0', 'v1.1.0', "the tag v1.1.0 is not package.json's version (1.2.0)"],
    ['1.3.0', 'v1.3.0', 'CHANGELOG.md has no "## v1.3.0" section'],
    ['1.2.0', 'v1.2.0', 'CHANGELOG.md\'s "## v1.2.0" section is empty']
  ])('package.json %s, tag %s: refused (%s)', (version, tag, why) => {
    const changelog = why.includes('empty')
      ? '## v1.2.0\n\n## v1.1.0\n- One.\n'
      : CHANGELOG
    const run = release(project(version, changelog).path, 'notes', tag)
    expect(run).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining(why) })
  })

  it.each([
    { args: ['notes', '1.0.0'] },
    { args: ['notes', 'v1.0'] },
    { args: ['publish', 'v1.0.0'] },
    { args: ['notes'] }
  ])('$args is a usage error', ({ args }) => {
    expect(release(PROJECT_ROOT, ...args)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'usage: node scripts/release.mjs notes|major vX.Y.Z\n'
    })
  })
})

describe('the major tag', () => {
  const tags = ['v1.0.0', 'v1.9.0', 'v1.10.0', 'v2.0.0']

  it.each([
    ['v1.10.1', 'v1\n'],
    ['v1.10.0', 'v1\n'],
    ['v2.0.1', 'v2\n'],
    ['v3.0.0', 'v3\n']
  ])('%s moves %s (no newer tag of its major)', (tag, major) => {
    expect(release(project('0.0.0', '', tags).path, 'major', tag)).toEqual({
      code: 0,
      stdout: major,
      stderr: ''
    })
  })

  it('a fix for an older minor moves nothing (versions compared as numbers)', () => {
    expect(release(project('0.0.0', '', tags).path, 'major', 'v1.9.1')).toEqual({
      code: 0,
      stdout: '',
      stderr: 'a newer v1.*.* tag exists: no major tag moves\n'
    })
  })
})
