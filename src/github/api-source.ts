/**
 * The receipt source over the GitHub API (Git Data, compare, pulls): what the action
 * uses when the workspace does not hold the PR head. It reads receipts as data and
 * never runs PR code, so it is safe under `pull_request_target`.
 */
import { limiter } from '../util/concurrency.js'
import {
  FILE_READ_CAP,
  notAFile,
  overFileCap,
  type Ancestry,
  type ReceiptCommit,
  type ReceiptSource,
  type TreeEntry,
  type TreeListing
} from '../gate/source.js'
import { fullObjectId } from '../gate/review-head.js'
import { GitHubError, type Octokit } from './client.js'
import { prCommitMethods } from './pr-commits.js'
import { filesPageParams, folderTreeParams } from './routes.js'

/** GitHub caps the PR files list at 3,000 and a comparison's files at 300. */
export const PR_FILES_CAP = 3000
export const COMPARE_FILES_CAP = 300
const BLOB_CONCURRENCY = 8

export interface ApiSourceOptions {
  octokit: Octokit
  owner: string
  repo: string
  head: string
  pullNumber: number
  /**
   * `changed_files` of the PR (from pulls.get): over the cap, selection falls back to
   * all. A promise lets the tree walk start while the PR is being read.
   */
  changedFiles: number | Promise<number>
  /** The PR's base commit (pulls.get), for review coverage: no PR commit is reachable from it. */
  baseSha?: string | Promise<string>
}

type RawTreeEntry = {
  path?: string
  mode?: string
  type?: string
  sha?: string
  size?: number
}

/** A {@link ReceiptSource} over the REST API. */
export function apiSource(options: ApiSourceOptions): ReceiptSource {
  const { octokit, owner, repo, head } = options
  const base = { owner, repo }
  // One limit for every readBlobs call (the gate asks receipt by receipt, issue 7).
  const limit = limiter(BLOB_CONCURRENCY)
  // The PR's files list, read once for the selection and the diff map alike.
  let files: Promise<FilesList> | undefined
  const filesList = async (): Promise<FilesList> => (files ??= readFilesList(options))
  return {
    head,
    // Review coverage (issue 25.3): the PR's commit graph, ranges over it, classification.
    ...prCommitMethods(options),
    listTree: async (dir) => listTree(octokit, base, head, dir),
    readBlobs: async (shas) => {
      const blobs = await Promise.all(
        shas.map(async (sha) => limit(async () => readBlob(octokit, base, sha)))
      )
      return new Map(shas.map((sha, index) => [sha, blobs[index] as Uint8Array | string]))
    },
    async readFile(path) {
      try {
        const { data } = await octokit.rest.repos.getContent({ ...base, path, ref: head })
        if (Array.isArray(data)) return notAFile(path, 'dir')
        if (data.type !== 'file') return notAFile(path, data.type)
        // Past 1 MB GitHub sends no content (`encoding: none`): not an empty file.
        if (
          !('content' in data) ||
          data.encoding !== 'base64' ||
          data.size > FILE_READ_CAP
        )
          return overFileCap(path)
        return Buffer.from(data.content, 'base64')
      } catch (error) {
        if (error instanceof GitHubError && error.status === 404) return null
        throw error
      }
    },
    async changedPaths() {
      const listed = await filesList()
      return listed.files === null
        ? { paths: null, note: listed.note }
        : { paths: touchedPaths(listed.files) }
    },
    async changedFiles() {
      const listed = await filesList()
      if (listed.files === null) return listed
      // GitHub leaves `patch` out of a large or binary file's entry: unknown, not empty.
      return {
        files: listed.files.map((file) => ({
          path: file.filename,
          ...(file.status === 'renamed' && file.previous_filename
            ? { previousPath: file.previous_filename }
            : {}),
          patch: typeof file.patch === 'string' ? file.patch : null
        }))
      }
    },
    ancestry: async (reviewed) => ancestry(octokit, base, reviewed, head),
    async receiptCommits(receipts) {
      const limit = limiter(BLOB_CONCURRENCY)
      const found = await Promise.all(
        receipts.map(async ({ path }) =>
          limit(async () => receiptCommit(octokit, base, head, path))
        )
      )
      return new Map(receipts.map(({ path }, i) => [path, found[i] ?? null]))
    }
  }
}

type ListedFile = {
  filename: string
  previous_filename?: string
  status?: string
  patch?: string | null
}
type FilesList = { files: ListedFile[] } | { files: null; note: string }

async function readFilesList(options: ApiSourceOptions): Promise<FilesList> {
  const { octokit, owner, repo } = options
  // The first page is asked for beside the PR read, whose file count decides whether
  // the list is used at all (one page is the cost of that guess on a PR over the cap).
  const firstPage = octokit.rest.pulls.listFiles(
    filesPageParams({ owner, repo }, options.pullNumber)
  )
  firstPage.catch(() => undefined) // awaited below, unless the count says otherwise
  const changedFiles = await options.changedFiles
  if (changedFiles > PR_FILES_CAP) {
    return {
      files: null,
      note: `the PR changes ${changedFiles} files, more than GitHub lists (${PR_FILES_CAP})`
    }
  }
  return { files: await octokit.pagesFrom(await firstPage) }
}

type RawTree = { tree: unknown; truncated?: unknown }

/**
 * Lists `dir` at the head from one recursive tree of that folder only (SPEC §2: a
 * whole-repo recursive tree truncates on large repos).
 */
export async function listTree(
  octokit: Octokit,
  base: { owner: string; repo: string },
  head: string,
  dir: string
): Promise<TreeListing> {
  const data =
    (await folderByName(octokit, base, head, dir)) ??
    (await walkTo(octokit, base, head, dir))
  if (!data) return { entries: [], truncated: false }
  const entries: TreeEntry[] = (data.tree as RawTreeEntry[])
    .filter(
      (entry) =>
        entry.type !== 'tree' &&
        typeof entry.path === 'string' &&
        typeof entry.sha === 'string'
    )
    .map((entry) => ({
      path: `${dir}/${entry.path}`,
      type: entry.type === 'commit' ? 'commit' : 'blob',
      mode: entry.mode ?? '100644',
      sha: entry.sha as string,
      size: typeof entry.size === 'number' ? entry.size : null
    }))
  return { entries, truncated: data.truncated === true }
}

/**
 * The folder's recursive tree in one request (issue 7, SPEC §9's "1 tree"): GitHub
 * resolves a tree-ish `<commit>:<path>` as `tree_sha`, where walking there costs one
 * request per segment, each waiting for the last. Its description names only SHAs and
 * refs, so a refusal (404, 422: also what a missing folder gets) is not an answer:
 * undefined sends the caller down the walk, which tells the two apart.
 */
async function folderByName(
  octokit: Octokit,
  base: { owner: string; repo: string },
  head: string,
  dir: string
): Promise<RawTree | undefined> {
  // Only plain segments (null otherwise): `.` would mean something else to git than to
  // the walk.
  const params = folderTreeParams(base, head, dir)
  if (!params) return undefined
  try {
    const { data } = await octokit.rest.git.getTree(params)
    return data
  } catch (error) {
    if (isUnknownName(error)) return undefined
    throw error
  }
}

/** Walks to `dir` through non-recursive trees, then takes one recursive tree of it. */
async function walkTo(
  octokit: Octokit,
  base: { owner: string; repo: string },
  head: string,
  dir: string
): Promise<RawTree | null> {
  let sha = head
  for (const segment of dir.split('/')) {
    const { data } = await octokit.rest.git.getTree({ ...base, tree_sha: sha })
    const next = (data.tree as RawTreeEntry[]).find(
      (entry) => entry.path === segment && entry.type === 'tree'
    )
    if (!next?.sha) return null
    sha = next.sha
  }
  const { data } = await octokit.rest.git.getTree({
    ...base,
    tree_sha: sha,
    recursive: '1'
  })
  return data
}

async function readBlob(
  octokit: Octokit,
  base: { owner: string; repo: string },
  sha: string
): Promise<Uint8Array | string> {
  try {
    // The JSON form (base64): fetch would decode a raw answer typed as text, replacing
    // bytes that are not UTF-8, where the gate must see a receipt's bytes as they are.
    const { data } = await octokit.rest.git.getBlob({ ...base, file_sha: sha })
    if (typeof data.content !== 'string')
      return `${sha}: the blob's answer holds no content`
    return data.encoding === 'base64'
      ? Buffer.from(data.content, 'base64')
      : Buffer.from(data.content, 'utf8')
  } catch (error) {
    if (error instanceof GitHubError) return error.message
    throw error
  }
}

/** The paths a files list touches: a rename both (moving a receipt in or out of the folder changes it). */
function touchedPaths(
  files: ReadonlyArray<{ filename: string; previous_filename?: string }>
): string[] {
  return files.flatMap((file) =>
    file.previous_filename ? [file.filename, file.previous_filename] : [file.filename]
  )
}

/** GitHub's answer to a name it cannot resolve (a commit, `<commit>:<path>`): 404 or 422. */
function isUnknownName(error: unknown): boolean {
  return error instanceof GitHubError && (error.status === 404 || error.status === 422)
}

/** One compare call per reviewed SHA: `R...H`. */
export async function ancestry(
  octokit: Octokit,
  base: { owner: string; repo: string },
  reviewed: string,
  head: string
): Promise<Ancestry> {
  // Receipt text is hostile: only a full object id goes into the URL (the gate checked).
  if (fullObjectId(reviewed, head) !== reviewed) return { kind: 'unknown-commit' }
  if (reviewed === head.toLowerCase()) return { kind: 'identical' }
  try {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...base,
      basehead: `${reviewed}...${head}`,
      per_page: 1
    })
    // GitHub resolves a basehead as a ref first where one has that name: the comparison
    // counts only when its base is the reviewed commit itself.
    if (data.base_commit.sha.toLowerCase() !== reviewed) return { kind: 'unknown-commit' }
    if (data.status === 'identical') return { kind: 'identical' }
    if (data.status !== 'ahead') return { kind: 'not-ancestor' }
    const files = data.files ?? []
    if (files.length >= COMPARE_FILES_CAP)
      return { kind: 'too-large', commits: data.ahead_by }
    return { kind: 'ahead', commits: data.ahead_by, changedPaths: touchedPaths(files) }
  } catch (error) {
    if (isUnknownName(error)) return { kind: 'unknown-commit' }
    throw error
  }
}

/** The newest commit that changed `path`: one list-commits call (its files come from the compare). */
async function receiptCommit(
  octokit: Octokit,
  base: { owner: string; repo: string },
  head: string,
  path: string
): Promise<ReceiptCommit | null> {
  const { data } = await octokit.rest.repos.listCommits({
    ...base,
    sha: head,
    path,
    per_page: 1
  })
  const commit = data[0]
  if (!commit) return null
  return { sha: commit.sha, parent: commit.parents[0]?.sha ?? null, changedPaths: null }
}
