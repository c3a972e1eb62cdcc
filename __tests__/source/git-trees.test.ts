/**
 * The in-process git plumbing of issue 7 answers what the git commands it replaced
 * answer, on real repositories: `ls-tree -r -l -z`, `diff --name-only --no-renames -z`,
 * `rev-list --left-right --count` (through the git source's ancestry), `rev-parse`, and
 * the object reader's two protocols (git ≥ 2.36 and older).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, lstatSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { ObjectReader, isNotFound } from '../../src/source/git-objects.js'
import { TreeReader, linearDistance, reachesWithin } from '../../src/source/git-trees.js'
import { gitSource, headBranch, mergeBase, resolveCommit } from '../../src/source/git.js'
import { GitRepo, gitEnv } from '../support/git-repo.js'

// Each run builds a repository (about 0.3 s): fewer runs than the pure properties.
const RUNS = Math.min(Number(process.env.FC_RUNS ?? 20), 20)

function lsTree(repo: GitRepo, commit: string, dir: string) {
  const out = execFileSync(
    'git',
    [
      '-c',
      'core.quotepath=off',
      'ls-tree',
      '-r',
      '-l',
      '-z',
      commit,
      ...(dir ? ['--', `${dir}/`] : [])
    ],
    { cwd: repo.path, env: gitEnv() }
  ).toString('utf8')
  return out
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const tab = record.indexOf('\t')
      const [mode = '', type = '', sha = '', size = '-'] = record
        .slice(0, tab)
        .split(/ +/)
      return {
        path: record.slice(tab + 1),
        mode,
        type,
        sha,
        size: size === '-' ? null : Number(size)
      }
    })
}

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

function gitDiff(repo: GitRepo, from: string | null, to: string): string[] {
  const args = ['diff', '--name-only', '--no-renames', '-z', from ?? EMPTY_TREE, to]
  return execFileSync('git', ['-c', 'core.quotepath=off', ...args], {
    cwd: repo.path,
    env: gitEnv()
  })
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
}

describe('tree listing and tree diff against git', () => {
  let repo: GitRepo
  let objects: ObjectReader
  let trees: TreeReader
  const commits: string[] = []

  beforeAll(() => {
    repo = GitRepo.init()
    repo.write({
      'a.txt': 'a\n',
      'dir/x.ts': 'x\n',
      'dir/sub/y.ts': 'y\n',
      'dir.txt': 'sorts between dir and dir/\n',
      'dir-z/z': 'z\n',
      'space name/é 😀.json': '{}\n',
      'tab\tand\nnewline': 'odd names\n',
      '.flow/review-receipts/r1.json': '{"a":1}\n',
      '.flow/review-receipts/nested/r2.json': '{"b":2}\n',
      '.flow/review-receipts/r1.json.history/1.json': '{"c":3}\n'
    })
    repo.symlink('.flow/review-receipts/link.json', 'r1.json')
    commits.push(repo.commit('one'))
    const submoduleTarget = commits[0] as string
    repo.submodule('.flow/review-receipts/sub', submoduleTarget)
    chmodSync(join(repo.path, 'dir/x.ts'), 0o755) // mode only
    repo.write({ 'a.txt': null, 'a.txt/inside': 'blob became a tree\n', 'dir/sub': null })
    repo.write({ 'dir/sub': 'tree became a blob\n', 'new/deep/er/file': 'added\n' })
    commits.push(repo.commit('two'))
    repo.write({ 'space name': null, 'dir-z/z': 'changed\n' })
    repo.symlink('dir.txt', 'a.txt') // blob became a symlink
    commits.push(repo.commit('three'))
    objects = new ObjectReader(repo.path)
    trees = new TreeReader(objects, commits[0] as string)
  })

  afterAll(() => {
    objects.close()
    repo.cleanup()
  })

  it('listRecursive = ls-tree -r -l -z, entry for entry', async () => {
    for (const commit of commits)
      for (const dir of [
        '.flow/review-receipts',
        '.flow',
        'dir',
        '',
        'missing',
        'a.txt',
        '.flow/review-receipts/sub'
      ])
        expect(await trees.listRecursive(commit, dir)).toEqual(lsTree(repo, commit, dir))
  })

  it('changedPaths = diff --name-only --no-renames, path for path', async () => {
    const pairs: Array<[string | null, string]> = []
    for (const a of [null, ...commits]) for (const b of commits) pairs.push([a, b])
    for (const [a, b] of pairs)
      expect([a, b, await trees.changedPaths(a, b)]).toEqual([a, b, gitDiff(repo, a, b)])
  })

  it('random histories: every pair of commits diffs as git diffs them', async () => {
    const names = ['a', 'b', 'a.b', 'a-b', 'b/c', 'a/b', 'a/b/c', 'a/c', 'z']
    const step = fc.array(
      fc.tuple(
        fc.constantFrom(...names),
        fc.constantFrom('x', 'y', null, 'exec', 'link')
      ),
      { minLength: 1, maxLength: 6 }
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 4 }), async (steps) => {
        const r = GitRepo.init({ prefix: 'rg-trees-' })
        const reader = new ObjectReader(r.path)
        try {
          const shas: string[] = []
          for (const changes of steps) {
            for (const [name, what] of changes) {
              // A file and a folder of the same name cannot both exist: a file in the way
              // of the path's folders goes, then whatever is at the path.
              for (const other of names)
                if (name.startsWith(`${other}/`) && !isDirectory(join(r.path, other)))
                  rmSync(join(r.path, other), { force: true })
              rmSync(join(r.path, name), { recursive: true, force: true })
              if (what === null) continue
              if (what === 'link') r.symlink(name, 'target')
              else {
                r.write({ [name]: what === 'exec' ? 'x' : what })
                if (what === 'exec') chmodSync(join(r.path, name), 0o755)
              }
            }
            shas.push(r.commit('step', { allowEmpty: true }))
          }
          const t = new TreeReader(reader, shas[0] as string)
          for (const a of [null, ...shas])
            for (const b of shas)
              expect(await t.changedPaths(a, b)).toEqual(gitDiff(r, a, b))
        } finally {
          reader.close()
          r.cleanup()
        }
      }),
      { numRuns: RUNS }
    )
  }, 120_000)
})

it('reads SHA-256 repositories (32-byte ids in trees)', async () => {
  const repo = GitRepo.init()
  try {
    rmSync(join(repo.path, '.git'), { recursive: true, force: true })
    repo.git('init', '-q', '--object-format=sha256', '-b', 'main')
    repo.git('config', 'user.name', 'T')
    repo.git('config', 'user.email', 't@example.invalid')
    repo.write({ '.flow/review-receipts/a.json': '{}\n', 'src/x.ts': 'x\n' })
    const first = repo.commit('one')
    repo.write({ 'src/x.ts': 'y\n' })
    const second = repo.commit('two')
    expect(second).toHaveLength(64)
    const objects = new ObjectReader(repo.path)
    const trees = new TreeReader(objects, second)
    expect(await trees.listRecursive(second, '.flow/review-receipts')).toEqual(
      lsTree(repo, second, '.flow/review-receipts')
    )
    expect(await trees.changedPaths(first, second)).toEqual(['src/x.ts'])
    expect(await linearDistance(trees, second, first, 10)).toBe(1)
    objects.close()
  } finally {
    repo.cleanup()
  }
})

describe('ancestry and revisions', () => {
  let repo: GitRepo
  let objects: ObjectReader
  const c: Record<string, string> = {}

  beforeAll(() => {
    repo = GitRepo.init()
    repo.write({ 'src/a.ts': '1\n' })
    c.root = repo.commit('root')
    repo.write({ 'src/a.ts': '2\n' })
    c.reviewed = repo.commit('reviewed')
    repo.write({ '.flow/tasks/t.json': '{}\n' })
    c.book1 = repo.commit('bookkeeping 1')
    repo.write({ '.flow/tasks/u.json': '{}\n' })
    c.book2 = repo.commit('bookkeeping 2')
    repo.branch('side', c.reviewed)
    repo.write({ 'side.txt': 's\n' })
    c.side = repo.commit('side')
    repo.checkout('main')
    c.merge = repo.merge('side')
    repo.branch('other', c.root)
    repo.write({ 'src/a.ts': 'rebased\n' })
    c.rebased = repo.commit('rebased')
    repo.checkout('main')
    objects = new ObjectReader(repo.path)
  })

  afterAll(() => {
    objects.close()
    repo.cleanup()
  })

  const revList = (reviewed: string, head: string) =>
    execFileSync(
      'git',
      ['rev-list', '--left-right', '--count', `${reviewed}...${head}`],
      {
        cwd: repo.path,
        env: gitEnv()
      }
    )
      .toString('utf8')
      .trim()
      .split(/\s+/)
      .map(Number)

  it('a straight line is counted in process; merges and long lines by rev-list', async () => {
    const trees = new TreeReader(objects, c.root as string)
    expect(
      await linearDistance(trees, c.book2 as string, c.reviewed as string, 100)
    ).toBe(2)
    expect(await linearDistance(trees, c.book2 as string, c.book2 as string, 100)).toBe(0)
    expect(await linearDistance(trees, c.book2 as string, c.rebased as string, 100)).toBe(
      'not-ancestor'
    )
    expect(await linearDistance(trees, c.book2 as string, c.reviewed as string, 1)).toBe(
      'complex'
    )
    expect(
      await linearDistance(trees, c.merge as string, c.reviewed as string, 100)
    ).toBe('complex')
  })

  const gitMergeBase = (a: string, b: string): string | null => {
    try {
      return execFileSync('git', ['merge-base', a, b], { cwd: repo.path, env: gitEnv() })
        .toString('utf8')
        .trim()
    } catch {
      return null
    }
  }

  it('mergeBase answers as git merge-base for every pair: by a walk when the base is an ancestor, else by git', async () => {
    for (const head of Object.values(c)) {
      for (const base of Object.values(c)) {
        const found = await mergeBase(repo.path, objects, base, head)
        expect([base, head, found]).toEqual([base, head, gitMergeBase(base, head)])
      }
    }
  })

  it('the walk finds exactly the ancestors git finds', async () => {
    const trees = new TreeReader(objects, c.root as string)
    for (const head of Object.values(c)) {
      for (const base of Object.values(c)) {
        const isAncestor = gitMergeBase(base, head) === base
        expect([base, head, await reachesWithin(trees, head, base, 100)]).toEqual([
          base,
          head,
          isAncestor
        ])
      }
    }
  })

  it('the walk follows every parent, and stops at its cap', async () => {
    const trees = new TreeReader(objects, c.root as string)
    // side is reachable from the merge only through its second parent.
    expect(await reachesWithin(trees, c.merge as string, c.side as string, 100)).toBe(
      true
    )
    expect(await reachesWithin(trees, c.book2 as string, c.root as string, 100)).toBe(
      true
    )
    expect(await reachesWithin(trees, c.book2 as string, c.root as string, 3)).toBe(false)
    expect(await reachesWithin(trees, c.book2 as string, c.root as string, 4)).toBe(true)
    expect(await reachesWithin(trees, c.book2 as string, c.book2 as string, 1)).toBe(true)
    expect(await reachesWithin(trees, c.book2 as string, c.rebased as string, 100)).toBe(
      false
    )
  })

  it('a history the walk cannot read (a shallow clone) is left to git', async () => {
    const shallow = mkdtempSync(join(tmpdir(), 'rg-shallow-'))
    try {
      execFileSync(
        'git',
        ['clone', '-q', '--depth', '1', '--no-local', `file://${repo.path}`, shallow],
        { env: gitEnv() }
      )
      const reader = new ObjectReader(shallow)
      try {
        // The head's parent is not in the clone: the walk cannot reach the base.
        const trees = new TreeReader(reader, c.book2 as string)
        expect(
          await reachesWithin(trees, c.book2 as string, c.reviewed as string, 100)
        ).toBe(false)
        expect(
          await reachesWithin(trees, c.book2 as string, c.book2 as string, 100)
        ).toBe(true)
        // git itself cannot find a base it does not have: mergeBase rejects with its words.
        await expect(
          mergeBase(shallow, reader, c.reviewed as string, c.book2 as string)
        ).rejects.toThrow(/./)
      } finally {
        reader.close()
      }
    } finally {
      rmSync(shallow, { recursive: true, force: true })
    }
  })

  it('the git source answers as rev-list and diff do, for every pair', async () => {
    for (const head of [c.book2, c.merge, c.rebased] as string[]) {
      const source = gitSource({ repo: repo.path, objects, head, mergeBase: null })
      for (const reviewed of Object.values(c)) {
        const [left, right] = revList(reviewed, head)
        const expected =
          left !== 0
            ? { kind: 'not-ancestor' }
            : right === 0
              ? { kind: 'identical' }
              : {
                  kind: 'ahead',
                  commits: right,
                  changedPaths: gitDiff(repo, reviewed, head)
                }
        expect([reviewed, await source.ancestry(reviewed)]).toEqual([reviewed, expected])
        // An abbreviation resolves as git resolves it.
        expect(await source.ancestry(reviewed.slice(0, 12))).toEqual(expected)
      }
      for (const bad of [
        '0000000000000000000000000000000000000000',
        'HEAD',
        '-n1',
        c.root + '\n'
      ])
        expect(await source.ancestry(bad)).toEqual({ kind: 'unknown-commit' })
      // A tree's id is not a commit.
      const tree = repo.git('rev-parse', `${head}^{tree}`)
      expect(await source.ancestry(tree)).toEqual({ kind: 'unknown-commit' })
    }
  })

  it('revisions resolve as rev-parse resolves them; unknown ones are named', async () => {
    for (const rev of [
      'HEAD',
      'main',
      'side',
      'HEAD~1',
      'main^2',
      (c.root as string).slice(0, 7)
    ])
      expect(await resolveCommit(objects, rev)).toBe(repo.revParse(rev))
    await expect(resolveCommit(objects, 'nope')).rejects.toThrow(
      'unknown revision "nope"'
    )
    await expect(resolveCommit(objects, 'main\nHEAD')).rejects.toThrow('unknown revision')
  })

  it('headBranch reads HEAD as symbolic-ref does, or leaves it to git', async () => {
    expect(await headBranch(repo.path)).toBe('main')
    repo.checkout(c.root as string)
    expect(await headBranch(repo.path)).toBeNull()
    repo.checkout('main')
    // A linked work tree: .git is a file pointing at the real git dir.
    const linked = join(mkdtempSync(join(tmpdir(), 'rg-wt-')), 'wt')
    repo.git('worktree', 'add', '-q', '-b', 'wt-branch', linked)
    expect(await headBranch(linked)).toBe('wt-branch')
    expect(await headBranch(join(repo.path, 'src'))).toBeUndefined()
    expect(await headBranch(join(tmpdir(), 'rg-no-such-dir'))).toBeUndefined()
  })
})

describe('the object reader', () => {
  let repo: GitRepo
  let blob: string
  let big: Buffer

  beforeAll(() => {
    repo = GitRepo.init()
    // Larger than a pipe's buffer many times over, with every byte value.
    big = Buffer.alloc(3 * 1024 * 1024 + 7)
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff
    repo.write({ 'big.bin': big, empty: '', 'small.txt': 'hello\n' })
    repo.commit('objects')
    blob = repo.git('rev-parse', 'HEAD:small.txt')
  })

  afterAll(() => repo.cleanup())

  async function exercise(reader: ObjectReader): Promise<void> {
    const answers = await Promise.all([
      reader.read('HEAD:big.bin'),
      reader.info(blob),
      reader.read('HEAD:empty'),
      reader.read('HEAD:missing'),
      reader.info(blob.slice(0, 4)),
      reader.read(`${blob}\nHEAD`),
      reader.read('HEAD:small.txt'),
      // Read past without being held; the answers after it stay in step.
      reader.read('HEAD:big.bin', 1000),
      reader.read('HEAD:small.txt', 6)
    ])
    const [bigRead, info, empty, missing, short, newline, small, capped, atCap] = answers
    expect(!isNotFound(bigRead) && Buffer.compare(bigRead.content, big)).toBe(0)
    expect(info).toEqual({ oid: blob, type: 'blob', size: 6 })
    expect(!isNotFound(empty) && empty.content.length).toBe(0)
    expect(missing).toEqual({ missing: 'missing' })
    expect(isNotFound(short) || short.oid === blob).toBe(true)
    expect(newline).toEqual({ missing: 'missing' })
    expect(!isNotFound(small) && small.content.toString()).toBe('hello\n')
    expect(capped).toEqual({ missing: 'too large' })
    expect(!isNotFound(atCap) && atCap.content.toString()).toBe('hello\n')
  }

  it('answers in order through one --batch-command process', async () => {
    const reader = new ObjectReader(repo.path)
    await exercise(reader)
    reader.close()
  })

  it('answers the same through --batch and --batch-check (git < 2.36)', async () => {
    const reader = new ObjectReader(repo.path, false)
    await exercise(reader)
    reader.close()
  })

  it('finds out by itself that git refuses --batch-command, and asks again', async () => {
    // A git that refuses the option as git 2.35 does, and is git otherwise.
    const bin = mkdtempSync(join(tmpdir(), 'rg-oldgit-'))
    const real = execFileSync('sh', ['-c', 'command -v git']).toString().trim()
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\nfor a in "$@"; do if [ "$a" = "--batch-command" ]; then echo "error: unknown option \\\`batch-command'" >&2; exit 129; fi; done\nexec ${real} "$@"\n`
    )
    chmodSync(join(bin, 'git'), 0o755)
    const path = process.env.PATH
    process.env.PATH = `${bin}:${path}`
    try {
      const reader = new ObjectReader(repo.path)
      await exercise(reader)
      reader.close()
    } finally {
      process.env.PATH = path
      rmSync(bin, { recursive: true, force: true })
    }
  })

  it('rejects with git own words outside a repository', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-norepo-'))
    const reader = new ObjectReader(dir)
    await expect(reader.info('HEAD')).rejects.toThrow(/not a git repository/)
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps node alive while an answer is awaited, and never once idle', async () => {
    const held = () =>
      process
        .getActiveResourcesInfo()
        .filter((r) => r === 'ProcessWrap' || r === 'PipeWrap').length
    // Readers of the tests before let go of their pipes asynchronously: wait for quiet.
    let before = held()
    for (let quiet = 0; quiet < 3;) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      const now = held()
      quiet = now === before ? quiet + 1 : 0
      before = now
    }
    const reader = new ObjectReader(repo.path)
    const asked = reader.info('HEAD')
    expect(held()).toBe(before + 4) // the process and its three pipes
    expect(await asked).toMatchObject({ type: 'commit' })
    // Idle: a caller that never closes the reader cannot hang node.
    expect(held()).toBe(before)
    reader.close()
  })
})
