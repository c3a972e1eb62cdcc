/**
 * Code or bookkeeping from a commit's trees: which paths a commit changed is the
 * difference between its tree and its parent's. Where the source read both trees (the
 * root's entries, and those of the folders bookkeeping globs start in), that difference
 * settles most commits without listing their files: a changed entry outside bookkeeping
 * makes a code commit; a commit whose every changed entry is wholly bookkeeping is not
 * one. What the trees cannot settle (a changed folder some glob reaches only in part) is
 * left to the source's file lists.
 */
import picomatch from 'picomatch'
import { splitGlobs, type BookkeepingMatcher } from './glob-matcher.js'

/** A tree entry as far as the source read it: a folder's entries where it read them. */
export interface TreeNode {
  name: string
  /** `blob`, `tree` or `commit` (a submodule). */
  type: string
  /** Git's file mode (`100644`, `40000` …): a mode change changes the path. */
  mode: string
  oid: string
  /** A folder's entries, when read: then whole (the source checked them against `oid`). */
  entries?: readonly TreeNode[]
}

/** A commit's root tree and its parent's, where the source read both. */
export interface CommitTrees {
  own: readonly TreeNode[]
  parent: readonly TreeNode[]
}

/** Whether a commit changed a code path (true), only bookkeeping (false), or unknown (null). */
export type TreeVerdict = (
  own: readonly TreeNode[],
  parent: readonly TreeNode[]
) => boolean | null

/** At most this many top folders are read per commit (each costs the answer a listing). */
const MAX_ROOTS = 3

/**
 * The top folders whose entries settle bookkeeping commits: the first segment of each
 * inclusion's literal part (`.flow` of `.flow/**`). None for a glob that may match anywhere.
 */
export function bookkeepingRoots(globs: readonly string[]): string[] {
  const roots = splitGlobs(globs)
    .include.map((glob) => literalBase(glob).split('/')[0] ?? '')
    .filter((root) => root !== '')
  return [...new Set(roots)].slice(0, MAX_ROOTS)
}

/** The verdict over two commits' trees, with the `bookkeeping-paths` globs and their matcher. */
export function treeVerdict(
  globs: readonly string[],
  isBookkeeping: BookkeepingMatcher
): TreeVerdict {
  const folder = folderVerdict(globs)
  const compare = (
    own: readonly TreeNode[],
    parent: readonly TreeNode[],
    dir: string
  ): boolean | null => {
    const before = new Map(parent.map((entry) => [entry.name, entry]))
    const after = new Map(own.map((entry) => [entry.name, entry]))
    let unsure = false
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const [a, b] = [after.get(name), before.get(name)]
      if (a && b && a.oid === b.oid && a.mode === b.mode && a.type === b.type) continue
      const path = dir === '' ? name : `${dir}/${name}`
      const verdict = changedEntry(a, b, path)
      if (verdict === true) return true
      if (verdict === null) unsure = true
    }
    return unsure ? null : false
  }
  // A changed entry: a file is its path; a folder read on both sides is compared
  // entry by entry; one not read is settled only when every path under it is alike.
  const changedEntry = (
    a: TreeNode | undefined,
    b: TreeNode | undefined,
    path: string
  ): boolean | null => {
    const sides = [a, b].filter((side): side is TreeNode => side !== undefined)
    const verdicts = sides.map((side) =>
      side.type === 'tree' ? null : !isBookkeeping(path)
    )
    if (verdicts.includes(true)) return true
    const folders = sides.filter((side) => side.type === 'tree')
    if (folders.length === 0) return false
    if (folders.every((side) => side.entries !== undefined)) {
      const entries = (side: TreeNode | undefined): readonly TreeNode[] =>
        side?.type === 'tree' ? (side.entries ?? []) : []
      return compare(entries(a), entries(b), path)
    }
    return folder(path)
  }
  return (own, parent) => compare(own, parent, '')
}

/**
 * Whether every path under `dir` is code (true) or bookkeeping (false), from the globs'
 * literal parts; null when some glob may match under it in part.
 */
function folderVerdict(globs: readonly string[]): (dir: string) => boolean | null {
  const { include, exclude } = splitGlobs(globs)
  const reaches = include.map(literalBase)
  // The folders an inclusion takes whole (`.flow` of `.flow/**`).
  const wholes = include.flatMap((glob) => {
    const { base, glob: rest } = picomatch.scan(glob)
    const root = base.replace(/\/+$/, '')
    return rest === '**' && isLiteral(root) ? [root] : []
  })
  // Inclusions match as written; exclusions whatever the letter case (as the matcher).
  const excluded = exclude.map((glob) => literalBase(glob).toLowerCase())
  return (dir) => {
    if (!reaches.some((base) => mayReach(base, dir))) return true
    const whole = wholes.some((root) => dir === root || dir.startsWith(`${root}/`))
    const lower = dir.toLowerCase()
    return whole && !excluded.some((base) => mayReach(base, lower)) ? false : null
  }
}

/** Whether a glob whose literal part is `base` may match a path under `dir`. */
function mayReach(base: string, dir: string): boolean {
  return (
    base === '' ||
    base === dir ||
    base.startsWith(`${dir}/`) ||
    dir.startsWith(`${base}/`)
  )
}

/** A glob's literal leading folders; empty (may match anywhere) when they hold a special character. */
function literalBase(glob: string): string {
  const base = picomatch.scan(glob).base.replace(/\/+$/, '')
  return isLiteral(base) ? base : ''
}

// picomatch's base keeps escapes (`a\*b`): such a base is not a plain folder name.
const isLiteral = (base: string): boolean => !/[\\*?[\]{}()!+@]/.test(base)
