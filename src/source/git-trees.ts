/**
 * Commits and trees read through an {@link ObjectReader} instead of `ls-tree`, `diff
 * --name-only` and `rev-list` processes (issue 7). Each function gives what the git
 * command it replaces prints; `__tests__/source/git-trees.test.ts` holds them equal on
 * real repositories.
 */
import {
  GitError,
  isNotFound,
  type ObjectInfo,
  type ObjectReader
} from './git-objects.js'
import type { TreeEntry } from './types.js'

/** One entry of a tree object, with its name's bytes for git's ordering. */
export interface RawEntry {
  /** The mode as `ls-tree` prints it (canonical, six digits). */
  mode: string
  type: TreeEntry['type']
  name: string
  raw: Buffer
  oid: string
}

export interface Commit {
  tree: string
  parents: string[]
}

/** The `tree` and `parent` headers of a commit object. */
export function parseCommit(content: Buffer): Commit {
  const end = content.indexOf('\n\n')
  const headers = content.toString('utf8', 0, end < 0 ? content.length : end).split('\n')
  let tree = ''
  const parents: string[] = []
  for (const line of headers) {
    if (line.startsWith('tree ')) tree = line.slice(5)
    else if (line.startsWith('parent ')) parents.push(line.slice(7))
  }
  if (tree === '') throw new GitError('malformed commit object: no tree')
  return { tree, parents }
}

/** `<mode> <name>\0<oid bytes>` records; `oidBytes` is 20 (SHA-1) or 32 (SHA-256). */
export function parseTree(content: Buffer, oidBytes: number): RawEntry[] {
  const entries: RawEntry[] = []
  let at = 0
  while (at < content.length) {
    const space = content.indexOf(0x20, at)
    const nul = content.indexOf(0, space + 1)
    if (space < 0 || nul < 0 || nul + 1 + oidBytes > content.length)
      throw new GitError('malformed tree object')
    const mode = canonicalMode(content.toString('latin1', at, space))
    const raw = content.subarray(space + 1, nul)
    entries.push({
      mode,
      type: mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob',
      name: raw.toString('utf8'),
      raw,
      oid: content.toString('hex', nul + 1, nul + 1 + oidBytes)
    })
    at = nul + 1 + oidBytes
  }
  return entries
}

/** Modes as git reads them (`canon_mode`): old trees may hold `100664` or `40000`. */
function canonicalMode(octal: string): string {
  const mode = parseInt(octal, 8)
  const kind = mode & 0o170000
  if (kind === 0o040000) return '040000'
  if (kind === 0o120000) return '120000'
  if (kind === 0o160000) return '160000'
  return mode & 0o100 ? '100755' : '100644'
}

/** git's tree order: names by bytes, a tree's name as if it ended in `/`. */
export function compareEntries(a: RawEntry, b: RawEntry): number {
  const common = Math.min(a.raw.length, b.raw.length)
  for (let i = 0; i < common; i++) {
    const d = (a.raw[i] as number) - (b.raw[i] as number)
    if (d !== 0) return d
  }
  return nextByte(a, common) - nextByte(b, common)
}

function nextByte(entry: RawEntry, at: number): number {
  if (entry.raw.length > at) return entry.raw[at] as number
  return entry.type === 'tree' ? 0x2f : 0
}

/** Reads and parses commits and trees through one reader. */
export class TreeReader {
  /** 20 for SHA-1 repositories, 32 for SHA-256 ones (known from any full oid). */
  private readonly oidBytes: number

  constructor(
    readonly objects: ObjectReader,
    anyOid: string
  ) {
    this.oidBytes = anyOid.length / 2
  }

  async commit(oid: string): Promise<Commit> {
    const found = await this.objects.read(oid)
    if (isNotFound(found) || found.type !== 'commit')
      throw new GitError(`not a commit: ${oid}`)
    return parseCommit(found.content)
  }

  async tree(oid: string): Promise<RawEntry[]> {
    const found = await this.objects.read(oid)
    if (isNotFound(found) || found.type !== 'tree')
      throw new GitError(`not a tree: ${oid}`)
    return parseTree(found.content, this.oidBytes)
  }

  /** The tree or submodule at `dir` (slash-separated) in `commit`, or null. */
  async treeAt(commit: string, dir: string): Promise<RawEntry | null> {
    let at: RawEntry = {
      mode: '040000',
      type: 'tree',
      name: '',
      raw: Buffer.alloc(0),
      oid: (await this.commit(commit)).tree
    }
    for (const segment of segmentsOf(dir)) {
      if (at.type !== 'tree') return null
      const entry = (await this.tree(at.oid)).find((e) => e.name === segment)
      if (entry === undefined || entry.type === 'blob') return null
      at = entry
    }
    return at
  }

  /**
   * `git ls-tree -r -l -z <commit> -- <dir>/`: every blob and submodule under `dir`,
   * depth first in tree order, blobs with their sizes.
   */
  async listRecursive(commit: string, dir: string): Promise<TreeEntry[]> {
    const root = await this.treeAt(commit, dir)
    if (root === null) return []
    const prefix = segmentsOf(dir).join('/')
    // A submodule at `dir` is listed as itself, as `ls-tree` lists it for `dir/`.
    if (root.type === 'commit')
      return [
        { path: prefix, mode: root.mode, type: root.type, sha: root.oid, size: null }
      ]
    const leaves = await this.leaves(root.oid, prefix === '' ? '' : `${prefix}/`)
    const sizes = await Promise.all(
      leaves.map(async (leaf) =>
        leaf.type === 'blob' ? this.objects.info(leaf.oid) : null
      )
    )
    return leaves.map((leaf, i) => ({
      path: leaf.path,
      mode: leaf.mode,
      type: leaf.type,
      sha: leaf.oid,
      size: sizeOf(sizes[i] ?? null)
    }))
  }

  /**
   * `git diff --name-only --no-renames -z <from> <to>`: the paths whose blob, mode or
   * kind differ between two commits; `from` null compares with the empty tree.
   */
  async changedPaths(from: string | null, to: string): Promise<string[]> {
    // From null: what a root commit adds (`diff-tree --root`).
    const [a, b] = await Promise.all([
      from === null ? null : this.commit(from),
      this.commit(to)
    ])
    return this.diffTrees(a?.tree ?? null, b.tree, '')
  }

  /** Blobs and submodules under a tree, in tree order, subtrees read side by side. */
  private async leaves(
    tree: string,
    prefix: string
  ): Promise<
    Array<{ path: string; mode: string; type: TreeEntry['type']; oid: string }>
  > {
    const entries = await this.tree(tree)
    const parts = await Promise.all(
      entries.map(async (entry) =>
        entry.type === 'tree'
          ? this.leaves(entry.oid, `${prefix}${entry.name}/`)
          : [
              {
                path: `${prefix}${entry.name}`,
                mode: entry.mode,
                type: entry.type,
                oid: entry.oid
              }
            ]
      )
    )
    return parts.flat()
  }

  private async diffTrees(
    a: string | null,
    b: string | null,
    prefix: string
  ): Promise<string[]> {
    if (a === b) return []
    const [left, right] = await Promise.all([
      a === null ? [] : this.tree(a),
      b === null ? [] : this.tree(b)
    ])
    const parts: Array<Promise<string[]>> = []
    let i = 0
    let j = 0
    while (i < left.length || j < right.length) {
      const l = left[i]
      const r = right[j]
      const order = l === undefined ? 1 : r === undefined ? -1 : compareEntries(l, r)
      if (order < 0) parts.push(this.sidePaths(l as RawEntry, prefix))
      else if (order > 0) parts.push(this.sidePaths(r as RawEntry, prefix))
      else parts.push(this.pairPaths(l as RawEntry, r as RawEntry, prefix))
      if (order <= 0) i++
      if (order >= 0) j++
    }
    return (await Promise.all(parts)).flat()
  }

  /** An entry on one side only: itself, or every leaf under it. */
  private async sidePaths(entry: RawEntry, prefix: string): Promise<string[]> {
    if (entry.type !== 'tree') return [`${prefix}${entry.name}`]
    return (await this.leaves(entry.oid, `${prefix}${entry.name}/`)).map(
      (leaf) => leaf.path
    )
  }

  /** The same name on both sides (both trees, or both not trees). */
  private async pairPaths(l: RawEntry, r: RawEntry, prefix: string): Promise<string[]> {
    if (l.oid === r.oid && l.mode === r.mode) return []
    if (l.type === 'tree') return this.diffTrees(l.oid, r.oid, `${prefix}${l.name}/`)
    return [`${prefix}${l.name}`]
  }
}

/** The names along a slash-separated folder path (empty and `.` segments name nothing). */
function segmentsOf(dir: string): string[] {
  return dir.split('/').filter((segment) => segment !== '' && segment !== '.')
}

function sizeOf(info: ObjectInfo | { missing: string } | null): number | null {
  return info === null || isNotFound(info) ? null : info.size
}

/**
 * How far `head` is ahead of `target` when the history between them is one line of
 * single-parent commits: the count, `not-ancestor` when that line ends at a root
 * without meeting `target`, or `complex` (a merge, or more than `cap` commits) — then
 * only `git rev-list` can answer exactly.
 */
export async function linearDistance(
  trees: TreeReader,
  head: string,
  target: string,
  cap: number
): Promise<number | 'not-ancestor' | 'complex'> {
  let current = head
  for (let steps = 0; steps <= cap; steps++) {
    if (current === target) return steps
    const { parents } = await trees.commit(current)
    if (parents.length === 0) return 'not-ancestor'
    if (parents.length > 1) return 'complex'
    current = parents[0] as string
  }
  return 'complex'
}

/**
 * True when `ancestor` is `head` or reachable from it through at most `cap` commits
 * (every parent followed, a level of the walk read at once); false when the walk ends
 * or passes the cap without it, or a commit cannot be read (a shallow history). When
 * true, `git merge-base ancestor head` prints `ancestor`: a pull request whose base has
 * not moved needs no `merge-base` process (issue 7: a process costs ~10 ms here).
 */
export async function reachesWithin(
  trees: TreeReader,
  head: string,
  ancestor: string,
  cap: number
): Promise<boolean> {
  const seen = new Set([head])
  let level = [head]
  try {
    while (level.length > 0) {
      if (level.includes(ancestor)) return true
      const commits = await Promise.all(level.map(async (oid) => trees.commit(oid)))
      const next: string[] = []
      for (const { parents } of commits) {
        for (const parent of parents) {
          if (seen.has(parent)) continue
          if (seen.size >= cap) return false
          seen.add(parent)
          next.push(parent)
        }
      }
      level = next
    }
  } catch (error) {
    if (error instanceof GitError) return false
    throw error
  }
  return false
}
