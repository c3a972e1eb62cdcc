/**
 * Code or bookkeeping from two commits' trees: every verdict the trees give must be the
 * one the commit's changed paths give under the same globs (what git's file lists say),
 * and what the trees cannot tell is left unknown, never guessed.
 */
import { describe, expect, it } from '@jest/globals'
import { globMatcher } from '../../src/gate/glob-matcher.js'
import { bookkeepingRoots, treeVerdict, type TreeNode } from '../../src/gate/tree-diff.js'

const DEFAULT = ['.flow/**', '!.flow/bin/**', '!.flow/config.json']

/** path → content id (mode `100644`, or `100755` with a trailing `+x`). */
type Files = Record<string, string>

const byKey = (a: [string, string], b: [string, string]): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0

/**
 * The trees of `files`: the root's entries, and the entries of the folders in `read`
 * (root folders whose listing the source read); deeper folders are ids only.
 */
function treeOf(files: Files, read: readonly string[], dir = ''): TreeNode[] {
  const names = new Map<string, Files>()
  const nodes: TreeNode[] = []
  for (const [path, content] of Object.entries(files)) {
    const [name = '', ...rest] = path.split('/')
    if (rest.length === 0) {
      const mode = content.endsWith('+x') ? '100755' : '100644'
      nodes.push({ name, type: 'blob', mode, oid: content.replace('+x', '') })
    } else {
      const inner = names.get(name) ?? {}
      inner[rest.join('/')] = content
      names.set(name, inner)
    }
  }
  for (const [name, inner] of names) {
    const path = dir === '' ? name : `${dir}/${name}`
    const node: TreeNode = {
      name,
      type: 'tree',
      mode: '40000',
      oid: JSON.stringify(Object.entries(inner).sort(byKey))
    }
    nodes.push(read.includes(path) ? { ...node, entries: treeOf(inner, [], path) } : node)
  }
  return nodes
}

/** What git's file lists say: whether some changed path is code. */
function byPaths(before: Files, after: Files, globs: readonly string[]): boolean {
  const isBookkeeping = globMatcher(globs)
  const paths = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...paths].some((path) => before[path] !== after[path] && !isBookkeeping(path))
}

function verdict(before: Files, after: Files, globs = DEFAULT): boolean | null {
  const read = bookkeepingRoots(globs)
  const judge = treeVerdict(globs, globMatcher(globs))
  return judge(treeOf(after, read), treeOf(before, read))
}

const base: Files = {
  'src/a.ts': '1',
  'README.md': '2',
  '.flow/config.json': '3',
  '.flow/bin/flowctl': '4',
  '.flow/review-receipts/x.json': '5',
  '.flow/review-receipts/x.json.history/1.json': '6'
}
const edit = (changes: Files, drop: string[] = []): Files => {
  const next = { ...base, ...changes }
  for (const path of drop) delete next[path]
  return next
}

describe('bookkeepingRoots', () => {
  it('reads the top folder of each inclusion, none for a glob that may match anywhere', () => {
    expect(bookkeepingRoots(DEFAULT)).toEqual(['.flow'])
    expect(bookkeepingRoots(['**/*.md', 'docs/*.md', '{a,b}/**'])).toEqual(['docs'])
  })
})

describe('treeVerdict', () => {
  it('settles the commits a PR is made of', () => {
    expect(verdict(base, base)).toBe(false) // an empty commit changes nothing
    expect(verdict(base, edit({ 'src/a.ts': '9' }))).toBe(true)
    expect(verdict(base, edit({ 'README.md': '9' }))).toBe(true)
    expect(verdict(base, edit({ '.flow/review-receipts/x.json': '9' }))).toBe(false)
    expect(verdict(base, edit({ '.flow/tasks/t.md': '9' }))).toBe(false)
    expect(verdict(base, edit({ '.flow/config.json': '9' }))).toBe(true)
    expect(verdict(base, edit({}, ['.flow/config.json']))).toBe(true)
    // An exclusion matches whatever the letter case.
    expect(verdict(base, edit({ '.flow/Config.JSON': '9' }))).toBe(true)
    // A mode change is a change (git lists the path).
    expect(verdict(base, edit({ 'README.md': '2+x' }))).toBe(true)
    expect(verdict(base, edit({ '.flow/config.json': '3+x' }))).toBe(true)
  })

  it('leaves unknown what only a deeper listing could tell', () => {
    // Every path under .flow/bin is excluded, but the trees do not say which changed.
    expect(verdict(base, edit({ '.flow/bin/flowctl': '9' }))).toBeNull()
    // A glob that may match anywhere: a changed folder could hold either kind.
    expect(verdict(base, edit({ 'src/a.md': '9' }), ['**/*.md'])).toBeNull()
    expect(verdict(base, edit({ 'README.md': '9' }), ['**/*.md'])).toBe(false)
  })

  it('never tells a folder it did not read by a guess', () => {
    const judge = treeVerdict(DEFAULT, globMatcher(DEFAULT))
    const flow = (oid: string): TreeNode[] => [
      { name: '.flow', type: 'tree', mode: '40000', oid }
    ]
    expect(judge(flow('a'), flow('b'))).toBeNull()
  })

  it('agrees with the changed paths on every commit it settles', () => {
    let seed = 7
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const pool = [
      'src/a.ts',
      'src/b/c.ts',
      'README.md',
      'docs/x.md',
      'docs/y/z.md',
      '.flow/config.json',
      '.flow/CONFIG.json',
      '.flow/bin/flowctl',
      '.flow/bin/x/y',
      '.flow/review-receipts/r.json',
      '.flow/review-receipts/r.json.history/1.json',
      '.flow/tasks/t.md',
      '.flow/epic.json'
    ]
    const globSets = [
      DEFAULT,
      ['docs/**', '.flow/**'],
      ['**/*.md'],
      ['.flow/review-receipts/**'],
      ['.flow/**', '!.flow/**/*.md']
    ]
    let settled = 0
    for (let round = 0; round < 3000; round++) {
      const globs = globSets[random(globSets.length)] ?? DEFAULT
      const before: Files = {}
      for (const path of pool) if (random(3) > 0) before[path] = String(random(3))
      const after = { ...before }
      for (let n = random(3) + 1; n > 0; n--) {
        const path = pool[random(pool.length)] ?? 'x'
        if (random(4) === 0) delete after[path]
        else after[path] = String(random(3)) + (random(5) === 0 ? '+x' : '')
      }
      const told = verdict(before, after, globs)
      if (told === null) continue
      settled++
      expect({ globs, before, after, told }).toEqual({
        globs,
        before,
        after,
        told: byPaths(before, after, globs)
      })
    }
    // Most commits are settled: the trees are worth reading.
    expect(settled).toBeGreaterThan(1500)
  })
})
