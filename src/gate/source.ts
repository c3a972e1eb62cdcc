/**
 * The receipt source: everything the gate needs from a repository, behind one interface:
 * local git plumbing (the CLI; the action when the workspace holds the head) or the API.
 */
import type { FileHunks } from './diff-map.js'
import type { CommitTrees, TreeNode } from './tree-diff.js'

/**
 * Where a decision the report does not show is told (a fallback, an unknown and its cause):
 * the action's debug log, the CLI's `--verbose`. The text may be hostile: the adapter that
 * prints it makes it safe.
 */
export type Debug = (message: string) => void

/** One entry of the tree under `receipts-dir` at the head commit. */
export interface TreeEntry {
  /** Repository-relative path. */
  path: string
  /** `commit` is a submodule. */
  type: 'blob' | 'tree' | 'commit'
  /** Git file mode: `100644`, `100755`, `120000` (symlink), `160000` (submodule). */
  mode: string
  sha: string
  /** Blob size in bytes (blobs only). */
  size: number | null
}

/** A listing of `receipts-dir` at the head; `truncated` when the source could not list it all. */
export interface TreeListing {
  entries: TreeEntry[]
  truncated: boolean
}

/** What a source can tell about a reviewed SHA `R` relative to the head `H`. */
export type Ancestry =
  | { kind: 'identical' }
  | { kind: 'ahead'; commits: number; changedPaths: string[] }
  | { kind: 'not-ancestor' }
  /** Not an object of the repository (`note`: why the source cannot tell, e.g. a shallow clone). */
  | { kind: 'unknown-commit'; note?: string }
  /** An object of the repository, but not a commit (a tree, a blob, a tag object). */
  | { kind: 'not-a-commit' }
  /**
   * The comparison exists but its files could not be listed whole (over 300 files, or
   * an answer without its list: `note` says which).
   */
  | {
      kind: 'too-large'
      commits: number
      note?: string
      /** The head's root tree and the reviewed commit's, where the source read both. */
      trees?: CommitTrees
    }

/** The newest commit that changed a receipt file, for the history rule of unbound receipts. */
export interface ReceiptCommit {
  sha: string
  /** First parent, or null for a root commit. */
  parent: string | null
  /**
   * Paths it changed against its first parent; null: not listed (the API: the compare of
   * the parent with the head covers that commit, so one call less, same answer).
   */
  changedPaths: string[] | null
  /** Why the commit cannot be judged (e.g. the boundary of a shallow clone). */
  note?: string
}

/** A changed file of the PR: the head path, the old one for a rename, its hunks or null when unknown. */
export interface ChangedFile {
  path: string
  previousPath?: string
  /** Where its hunks sit (from GitHub's `patch` or git's); null: not known (GitHub omits large and binary ones). */
  hunks: FileHunks | null
}

/** The changed files of a PR, or null when the source could not list them (with why). */
export type ChangedFiles = { files: ChangedFile[] } | { files: null; note: string }

/** A code-or-not commit of the PR (merge-base..head, merges included) with the paths it changed. */
export interface PrCommit {
  sha: string
  /**
   * The paths it changed against its parent; a merge's, those that differ from every
   * parent (its own edit: none for a clean merge). Null: not listed (the API lists them
   * a request each: see {@link ReceiptSource.commitPaths}). An unlisted commit is code.
   */
  paths: string[] | null
  /** Its root tree's entries and its parent's, where the source read both (the API). */
  trees?: CommitTrees
}

/** A commit of the PR's graph (merge base..head, merges included) with its parents' ids. */
export interface PrGraphCommit {
  sha: string
  /** Parent ids, first parent first; a parent outside the PR is on the base side. */
  parents: string[]
  /** Its root tree's entries (bookkeeping's top folders with theirs), where read. */
  tree?: readonly TreeNode[]
}

/** Repository access, all at one head commit. */
export interface ReceiptSource {
  /** The head commit the gate judges. */
  readonly head: string
  /** A shallow clone: answers from history may be cut (a fetch, not a review, is the fix). */
  readonly shallow?: boolean
  /** Lists `dir` at the head, recursively. An absent folder is an empty listing. */
  listTree(dir: string): Promise<TreeListing>
  /** Reads many blobs at once; a blob that cannot be read maps to an error string. */
  readBlobs(shas: readonly string[]): Promise<Map<string, Uint8Array | string>>
  /**
   * Reads one file at the head (at most {@link FILE_READ_CAP} bytes): its bytes, null when
   * there is none, or why it cannot be read (too large, not a regular file).
   */
  readFile(path: string): Promise<Uint8Array | string | null>
  /** Paths changed between the merge base and the head, or null when unknown (with why). */
  changedPaths(): Promise<{ paths: string[] } | { paths: null; note: string }>
  /** How `reviewed` relates to the head. */
  ancestry(reviewed: string): Promise<Ancestry>
  /**
   * Resolves once the requests asked so far have left (the API's client holds each for a
   * few timer turns first): work started after it runs while they are in flight. Absent
   * where asking is sending.
   */
  sent?(): Promise<void>
  /**
   * For each receipt (its path and its blob at the head), the newest commit at or before
   * the head that wrote it, or null; answered for all receipts at once.
   */
  receiptCommits(
    receipts: ReadonlyArray<{ path: string; blob: string }>
  ): Promise<Map<string, ReceiptCommit | null>>
  /** The PR's changed files with their patches (merge base..head). */
  changedFiles(): Promise<ChangedFiles>
  /** The PR's commits (merge base..head, merges included), oldest first; null: unknown. */
  prCommits(): Promise<{ commits: PrCommit[] } | { commits: null; note: string }>
  /**
   * The PR's commits with their parents (merges included), oldest first, for review
   * ranges over the parent graph (the API: at most 250); null with why when unknown.
   */
  prCommitGraph?(): Promise<
    { commits: PrGraphCommit[] } | { commits: null; note: string }
  >
  /**
   * The paths each commit changed against its parent, a merge's against every parent as
   * {@link PrCommit.paths} says (null: not listed whole).
   */
  commitPaths?(shas: readonly string[]): Promise<Map<string, string[] | null>>
  /**
   * The PR's commits reachable from `to` and not from `from` (null: the merge base), full
   * ids; null when either is not a commit the source knows.
   */
  commitsBetween(from: string | null, to: string): Promise<string[] | null>
}

/**
 * The largest file `readFile` reads (the deferral file): GitHub's contents API carries
 * no content past 1 MB, so the local source stops there too and both give one answer.
 */
export const FILE_READ_CAP = 1024 * 1024

/** Why a file past {@link FILE_READ_CAP} is not read (both sources say it alike). */
export function overFileCap(path: string): string {
  return `${path} is over the ${FILE_READ_CAP / (1024 * 1024)} MiB read cap`
}

/** What a path that is not a regular file is, by GitHub's or git's word for it. */
const NOT_A_FILE: Readonly<Record<string, string>> = {
  dir: 'a directory',
  tree: 'a directory',
  symlink: 'a symlink',
  submodule: 'a submodule',
  commit: 'a submodule'
}

/** Why a path that is not a regular file is not read (an unknown type is not echoed). */
export function notAFile(path: string, type: string): string {
  return Object.hasOwn(NOT_A_FILE, type)
    ? `${path} is ${NOT_A_FILE[type]}, not a file`
    : `${path} is not a regular file`
}
