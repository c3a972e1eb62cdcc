/**
 * Where findings sit in the PR's diff (issue 25), from real `git diff` output: head-side
 * lines in or outside the hunks, base-side lines mapped to the change that removed them,
 * renames, omitted patches, and the git source's changed files, PR commits and ranges.
 */
import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from '@jest/globals'
import { diffMap, inDiff, mapBaseLine, parsePatch } from '../../src/gate/diff-map.js'
import { gitSource } from '../../src/source/git.js'
import type { ChangedFile } from '../../src/gate/source.js'
import { GitRepo } from '../support/git-repo.js'

const cleanups: Array<() => void> = []
afterAll(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

const numbered = (from: number, to: number, tag = 'line'): string =>
  Array.from({ length: to - from + 1 }, (_, i) => `${tag} ${from + i}\n`).join('')

/** A base commit and a head commit on a branch, and the git source's changed files. */
async function changed(
  base: Record<string, string | null>,
  head: Record<string, string | null>
): Promise<{ files: ChangedFile[]; repo: GitRepo; baseSha: string; headSha: string }> {
  const repo = GitRepo.init()
  cleanups.push(() => repo.cleanup())
  const baseSha = repo.write(base).commit('base')
  repo.branch('feature')
  const headSha = repo.write(head).commit('head')
  const source = gitSource({ repo: repo.path, head: headSha, mergeBase: baseSha })
  const answer = await source.changedFiles?.()
  if (!answer?.files) throw new Error('no changed files')
  return { files: answer.files, repo, baseSha, headSha }
}

describe('head-side lines', () => {
  it('is in the diff on a hunk line (context included), outside it elsewhere', async () => {
    const text = numbered(1, 40)
    const { files } = await changed(
      { 'a.ts': text, 'same.ts': 'x\n' },
      { 'a.ts': text.replace('line 20\n', 'line twenty\n') }
    )
    const map = diffMap({ files })
    // The hunk shows 17..23 (three lines of context each side of line 20).
    expect(inDiff(map, 'a.ts', 20, 20)).toBe(true)
    expect(inDiff(map, 'a.ts', 17, 17)).toBe(true)
    expect(inDiff(map, 'a.ts', 23, 23)).toBe(true)
    expect(inDiff(map, 'a.ts', 16, 16)).toBe(false)
    expect(inDiff(map, 'a.ts', 24, 30)).toBe(false)
    expect(inDiff(map, 'a.ts', 10, 17)).toBe(true) // a range that reaches into the hunk
    expect(inDiff(map, 'same.ts', 1, 1)).toBe(false) // an unchanged file
  })

  it('is unknown when the patch is unknown, or the changed files are', () => {
    const map = diffMap({ files: [{ path: 'big.bin', hunks: null }] })
    expect(inDiff(map, 'big.bin', 3, 3)).toBeNull()
    expect(inDiff(diffMap({ files: null, note: 'too many' }), 'a.ts', 1, 1)).toBeNull()
  })

  it('knows a rename by its new path', async () => {
    const text = numbered(1, 30)
    const { files } = await changed(
      { 'old/name.ts': text },
      { 'old/name.ts': null, 'new/name.ts': text.replace('line 5\n', 'line five\n') }
    )
    expect(files).toEqual([
      expect.objectContaining({ path: 'new/name.ts', previousPath: 'old/name.ts' })
    ])
    const map = diffMap({ files })
    expect(inDiff(map, 'new/name.ts', 5, 5)).toBe(true)
    expect(inDiff(map, 'new/name.ts', 25, 25)).toBe(false)
    expect(inDiff(map, 'old/name.ts', 5, 5)).toBe(false)
    // A base-side anchor names the old path; it is annotated at the new one.
    expect(mapBaseLine(map, 'old/name.ts', 5)).toEqual({ path: 'new/name.ts', line: 5 })
  })
})

describe('base-side lines', () => {
  it('maps a changed line to the first added line of its change', async () => {
    const text = numbered(1, 40)
    const { files } = await changed(
      { 'a.ts': text },
      {
        'a.ts': text
          .replace('line 10\nline 11\n', 'new A\nnew B\nnew C\n')
          .replace('line 30\n', '')
      }
    )
    const map = diffMap({ files })
    expect(mapBaseLine(map, 'a.ts', 10)).toEqual({ path: 'a.ts', line: 10 })
    expect(mapBaseLine(map, 'a.ts', 11)).toEqual({ path: 'a.ts', line: 10 })
    // A pure deletion: the line after it (base 31, head 31: one line more above, one less here).
    expect(mapBaseLine(map, 'a.ts', 30)).toEqual({ path: 'a.ts', line: 31 })
    expect(inDiff(map, 'a.ts', 31, 31)).toBe(true)
    // Context and untouched lines were not removed: not mapped.
    expect(mapBaseLine(map, 'a.ts', 12)).toBeNull()
    expect(mapBaseLine(map, 'a.ts', 2)).toBeNull()
  })

  it('maps a deletion at the end of the file to its last line, and not a deleted file', async () => {
    const { files } = await changed(
      { 'a.ts': numbered(1, 10), 'gone.ts': numbered(1, 3) },
      { 'a.ts': numbered(1, 8), 'gone.ts': null }
    )
    const map = diffMap({ files })
    expect(mapBaseLine(map, 'a.ts', 9)).toEqual({ path: 'a.ts', line: 8 })
    expect(mapBaseLine(map, 'a.ts', 10)).toEqual({ path: 'a.ts', line: 8 })
    expect(mapBaseLine(map, 'gone.ts', 2)).toBeNull()
  })

  it('does not map when the patch is unknown or the file unchanged', () => {
    const map = diffMap({ files: [{ path: 'big.ts', hunks: null }] })
    expect(mapBaseLine(map, 'big.ts', 1)).toBeNull()
    expect(mapBaseLine(map, 'other.ts', 1)).toBeNull()
    expect(mapBaseLine(null, 'big.ts', 1)).toBeNull()
  })
})

describe('parsePatch', () => {
  it('reads a GitHub-style patch (no file header) and "no newline" marks', () => {
    const parsed = parsePatch(
      '@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file'
    )
    expect(parsed.shown).toEqual([[1, 2]])
    expect(parsed.changes).toEqual([{ removedFrom: 2, removedTo: 2, headLine: 2 }])
  })

  it('survives hostile text (no hunk, junk headers)', () => {
    expect(parsePatch('not a patch\n@@ junk @@\n-x').shown).toEqual([])
    expect(parsePatch('').changes).toEqual([])
  })
})

describe('git source: binary files, PR commits and ranges', () => {
  it('has unknown hunks for a binary file (git writes none), as GitHub omits its patch', async () => {
    const { files } = await changed(
      { 'a.ts': 'a\n' },
      { 'img.bin': '\u0000\u0001binary\u0000' }
    )
    expect(files).toEqual([{ path: 'img.bin', hunks: null }])
    expect(inDiff(diffMap({ files }), 'img.bin', 1, 1)).toBeNull()
  })

  it('lists the PR commits with their paths, and the commits of a range', async () => {
    const repo = GitRepo.init()
    cleanups.push(() => repo.cleanup())
    const base = repo.write({ 'a.ts': 'a\n' }).commit('base')
    repo.branch('feature')
    const c1 = repo
      .write({ 'src/x.ts': '1\n', 'odd name\twith tab': 'y\n' })
      .commit('one')
    const c2 = repo.write({ '.flow/r.json': '{}\n' }).commit('two')
    const source = gitSource({ repo: repo.path, head: c2, mergeBase: base })
    expect(await source.prCommits?.()).toEqual({
      commits: [
        { sha: c1, paths: ['odd name\twith tab', 'src/x.ts'] },
        { sha: c2, paths: ['.flow/r.json'] }
      ]
    })
    expect(await source.commitsBetween?.(base, c2)).toEqual([c2, c1])
    expect(await source.commitsBetween?.(c1, c2)).toEqual([c2])
    expect(await source.commitsBetween?.('f'.repeat(40), c2)).toBeNull()
    expect(await source.commitsBetween?.('HEAD', c2)).toBeNull()
  })
})

describe('git source: each patch section goes to the file its header names', () => {
  const text = numbered(1, 60)
  /** A file edited at line 20 and line 49 removed, after files git writes oddly. */
  const edited = text.replace('line 20\n', 'line twenty\n').replace('line 49\n', '')

  /** The git source's changed files of `base..head`. */
  async function filesOf(
    repo: GitRepo,
    base: string,
    head: string
  ): Promise<ChangedFile[]> {
    const answer = await gitSource({
      repo: repo.path,
      head,
      mergeBase: base
    }).changedFiles()
    return answer.files ?? []
  }

  /** Asserts the later file `path` (`basePath` before) got its own hunks, whatever came before it. */
  function ownHunks(files: ChangedFile[], path: string, basePath = path): void {
    const map = diffMap({ files })
    expect(inDiff(map, path, 20, 20)).toBe(true)
    expect(inDiff(map, path, 30, 30)).toBe(false)
    expect(mapBaseLine(map, basePath, 20)).toEqual({ path, line: 20 })
    expect(mapBaseLine(map, basePath, 49)).toEqual({ path, line: 49 })
    expect(mapBaseLine(map, basePath, 40)).toBeNull()
  }

  it('reads a file replaced by a symlink (two sections) as one change, and the next file alike', async () => {
    const repo = GitRepo.init()
    cleanups.push(() => repo.cleanup())
    const base = repo
      .write({ 'a.ts': numbered(1, 3), 'b.ts': text, 't.ts': 'x\n' })
      .commit('base')
    repo.branch('feature')
    const head = repo
      .write({ 'a.ts': null })
      .symlink('a.ts', 't.ts')
      .write({ 'b.ts': edited })
      .commit('head')
    const got = await filesOf(repo, base, head)
    expect(got.map((f) => f.path)).toEqual(['a.ts', 'b.ts'])
    ownHunks(got, 'b.ts')
    // The symlink's one line is shown; the file's removed lines sit at it.
    const map = diffMap({ files: got })
    expect(inDiff(map, 'a.ts', 1, 1)).toBe(true)
    expect(inDiff(map, 'a.ts', 2, 2)).toBe(false)
    expect(mapBaseLine(map, 'a.ts', 3)).toEqual({ path: 'a.ts', line: 1 })
  })

  it('pairs type changes, renames, binary and mode-only changes and quoted paths by header', async () => {
    const repo = GitRepo.init()
    cleanups.push(() => repo.cleanup())
    const other = repo.write({ 'x.ts': 'x\n' }).commit('other')
    const base = repo
      .write({
        'a-link': numbered(1, 3),
        'b-sub': numbered(1, 3),
        'c-bin': '\u0000one\u0000',
        'd-mode.sh': 'echo\n',
        'e-old.ts': text,
        'f\tquoted "name".ts': text,
        'z.ts': text
      })
      .symlink('g-link', 'x.ts')
      .submodule('h-sub', other)
      .commit('base')
    repo.branch('feature')
    repo.git('rm', '-q', '--cached', 'b-sub', 'h-sub')
    repo
      .write({ 'a-link': null, 'b-sub': null, 'g-link': null, 'h-sub': null })
      .symlink('a-link', 'x.ts')
      .submodule('b-sub', other)
      .write({
        'c-bin': '\u0000two\u0000',
        'e-old.ts': null,
        'e-new.ts': edited,
        'f\tquoted "name".ts': edited,
        'g-link': numbered(1, 2),
        'h-sub': numbered(1, 2),
        'z.ts': edited
      })
    chmodSync(join(repo.path, 'd-mode.sh'), 0o755)
    const head = repo.commit('head')
    const got = await filesOf(repo, base, head)
    expect(got.map(({ path, previousPath }) => [path, previousPath])).toEqual([
      ['a-link', undefined],
      ['b-sub', undefined],
      ['c-bin', undefined],
      ['d-mode.sh', undefined],
      ['e-new.ts', 'e-old.ts'],
      ['f\tquoted "name".ts', undefined],
      ['g-link', undefined],
      ['h-sub', undefined],
      ['z.ts', undefined]
    ])
    ownHunks(got, 'e-new.ts', 'e-old.ts')
    ownHunks(got, 'f\tquoted "name".ts')
    ownHunks(got, 'z.ts')
    const map = diffMap({ files: got })
    expect(inDiff(map, 'b-sub', 1, 1)).toBe(true) // "Subproject commit …"
    expect(inDiff(map, 'h-sub', 2, 2)).toBe(true)
    expect(inDiff(map, 'g-link', 2, 2)).toBe(true)
    expect(inDiff(map, 'c-bin', 1, 1)).toBeNull()
    expect(inDiff(map, 'd-mode.sh', 1, 1)).toBe(false)
  })

  it('reads headers as git writes them whatever diff.noprefix or diff.suppressBlankEmpty say', async () => {
    const repo = GitRepo.init()
    cleanups.push(() => repo.cleanup())
    const spaced = text.replace('line 18\n', '\n')
    const base = repo.write({ 'a.ts': numbered(1, 3), 'z.ts': spaced }).commit('base')
    repo.branch('feature')
    repo.git('config', 'diff.noprefix', 'true')
    repo.git('config', 'diff.suppressBlankEmpty', 'true')
    const head = repo
      .write({ 'a.ts': null, 'z.ts': edited.replace('line 18\n', '\n') })
      .symlink('a.ts', 'z.ts')
      .commit('head')
    ownHunks(await filesOf(repo, base, head), 'z.ts')
  })
})
