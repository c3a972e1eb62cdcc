/**
 * The receipt source over the GitHub API (Git Data, compare, pulls): what the action
 * uses when the workspace does not hold the PR head. It reads receipts as data and
 * never runs PR code, so it is safe under `pull_request_target`.
 */
import { limiter, mapLimit } from '../util/concurrency.js'
import {
  FILE_READ_CAP,
  notAFile,
  overFileCap,
  type ReceiptSource,
  type TreeEntry
} from '../gate/source.js'
import { parsePatch } from '../gate/diff-map.js'
import { isFullId } from '../gate/review-head.js'
import {
  GitHubError,
  isTooLarge,
  isUnknownName,
  requestsSent,
  type Octokit
} from './client.js'
import {
  COMPARE_FILES_CAP,
  compareFrom,
  graphOfHead,
  listPrCommits,
  prCommitMethods,
  prListsAt,
  touchedPaths,
  type CommitGraph,
  type FilesList,
  type PrCommitsOptions,
  type PrLists,
  type Repo
} from './pr-commits.js'

/** GitHub caps the PR files list at 3,000. */
const PR_FILES_CAP = 3000
/** Files a page of the PR's list holds at most. */
const FILES_PAGE = 100
const BLOB_CONCURRENCY = 8

export interface ApiSourceOptions extends PrCommitsOptions {
  /**
   * `changed_files` of the PR (from pulls.get): over the cap, selection falls back to
   * all. A promise lets the tree walk start while the PR is being read.
   */
  changedFiles: number | Promise<number>
  /**
   * The head GitHub's pull request had when it was read. Its lists (files, commits) are
   * of its head at the time they are read: the judged head's only while that is it.
   */
  pullHead: string | Promise<string>
}

/** Whether GitHub's PR has moved on from the judged head (its lists are then another head's). */
async function headMoved(options: ApiSourceOptions): Promise<boolean> {
  return (await options.pullHead).toLowerCase() !== options.head.toLowerCase()
}

/** A {@link ReceiptSource} over the REST API. */
export function apiSource(options: ApiSourceOptions): ReceiptSource {
  const { octokit, owner, repo, head } = options
  const base = { owner, repo }
  // One limit for every readBlobs call (the gate may ask for blobs in several calls at once).
  const limit = limiter(BLOB_CONCURRENCY)
  // The PR's lists at the head, from a compare when GitHub's PR is at another head now.
  let atHead: Promise<PrLists> | undefined
  const listsAtHead = async (): Promise<PrLists> => (atHead ??= prListsAt(options))
  // The PR's files list, read once for the selection and the diff map alike.
  let files: Promise<FilesList> | undefined
  const filesList = async (): Promise<FilesList> =>
    (files ??= readFilesList(options, listsAtHead))
  // GitHub's list of the PR's commits, when it is the head's (checked: the PR may move
  // between its read and this list's).
  const listGraph = async (): Promise<CommitGraph> =>
    ((await headMoved(options))
      ? null
      : graphOfHead(await listPrCommits(options), head)) ?? (await listsAtHead()).graph
  return {
    head,
    sent: async () => requestsSent(octokit),
    // Review coverage: the PR's commit graph, ranges over it, classification.
    ...prCommitMethods(options, listGraph),
    // One recursive tree of `dir` only (a whole-repo recursive tree truncates on
    // large repos).
    async listTree(dir) {
      const data = await folderTree(octokit, base, head, dir)
      if (!data) return { entries: [], truncated: false }
      const entries = data.tree.flatMap((entry): TreeEntry | [] =>
        entry.type === 'tree'
          ? []
          : {
              path: `${dir}/${entry.path}`,
              type: entry.type === 'commit' ? 'commit' : 'blob',
              mode: entry.mode ?? '100644',
              sha: entry.sha,
              size: entry.size ?? null
            }
      )
      return { entries, truncated: data.truncated === true }
    },
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
          hunks: file.patch === undefined ? null : parsePatch(file.patch)
        }))
      }
    },
    // One compare call per reviewed SHA: `R...H`.
    async ancestry(reviewed) {
      // Receipt text is hostile: only a full object id goes into the URL (the gate checked).
      if (!isFullId(reviewed, head)) return { kind: 'unknown-commit' }
      if (reviewed === head.toLowerCase()) return { kind: 'identical' }
      const data = await compareFrom(octokit, base, reviewed, head)
      if (data === null) return { kind: 'unknown-commit' }
      if (data.status === 'identical') return { kind: 'identical' }
      if (data.status !== 'ahead') return { kind: 'not-ancestor' }
      const files = data.files
      // An answer without its files list proves nothing changed no more than a cut one.
      if (files === undefined)
        return { kind: 'too-large', commits: data.ahead_by, note: 'no files listed' }
      if (files.length >= COMPARE_FILES_CAP)
        return { kind: 'too-large', commits: data.ahead_by }
      return { kind: 'ahead', commits: data.ahead_by, changedPaths: touchedPaths(files) }
    },
    // The newest commit that changed each path: one list-commits call a receipt (its
    // files come from the compare).
    async receiptCommits(receipts) {
      const found = await mapLimit(receipts, BLOB_CONCURRENCY, async ({ path }) => {
        const { data } = await octokit.rest.repos.listCommits({
          ...base,
          sha: head,
          path,
          per_page: 1
        })
        const [commit] = data
        if (!commit) return null
        const parent = commit.parents[0]?.sha ?? null
        return { sha: commit.sha, parent, changedPaths: null }
      })
      return new Map(receipts.map(({ path }, i) => [path, found[i] ?? null]))
    }
  }
}

/**
 * The PR's files list (GitHub's, or the compare's when the PR is at another head than
 * the judged one: its list is of that head).
 */
async function readFilesList(
  options: ApiSourceOptions,
  listsAtHead: () => Promise<PrLists>
): Promise<FilesList> {
  const { octokit, owner, repo } = options
  const page = async (n: number): Promise<PrFiles> =>
    (
      await octokit.rest.pulls.listFiles({
        owner,
        repo,
        pull_number: options.pullNumber,
        per_page: FILES_PAGE,
        page: n
      })
    ).data
  // The first page is asked for beside the PR read, whose file count decides whether
  // the list is used at all (one page is the cost of that guess on a PR over the cap).
  const first = page(1)
  first.catch(() => undefined) // awaited below, unless the count says otherwise
  const changedFiles = await options.changedFiles
  if (await headMoved(options)) return (await listsAtHead()).files
  if (changedFiles > PR_FILES_CAP) {
    return {
      files: null,
      note: `the PR changes ${changedFiles} files, more than GitHub lists (${PR_FILES_CAP})`
    }
  }
  const files: PrFiles = []
  try {
    // The count tells how many pages there are: they are asked for at once (a page after
    // another would be a round trip each), and a full last page reads on, so a count that
    // is short of the list cannot cut it.
    const counted = Math.max(1, Math.ceil(changedFiles / FILES_PAGE))
    const rest = Array.from({ length: counted - 1 }, async (_, i) => page(i + 2))
    const lists = await Promise.all([first, ...rest])
    for (const listed of lists) files.push(...listed)
    let last = lists.at(-1)?.length ?? 0
    for (let n = counted + 1; last >= FILES_PAGE && n <= PR_FILES_CAP / FILES_PAGE; n++) {
      const listed = await page(n)
      files.push(...listed)
      last = listed.length
    }
  } catch (error) {
    // Too large to read is too large to list, as past GitHub's cap: unknown, with why.
    if (!isTooLarge(error)) throw error
    return { files: null, note: `the PR's files list cannot be read: ${error.message}` }
  }
  // The PR may have moved after its read (and even back before the re-read a check would
  // make): a list that is not provably the head's is replaced by the compare at the head.
  return listedAt(files, options.head) ? { files } : (await listsAtHead()).files
}

type PrFiles = NonNullable<FilesList['files']>

/**
 * Whether every entry of GitHub's files list is of `head`. The answer names no head of
 * its own, but each entry links its file at the commit the list was computed at
 * (`contents_url`: `…/contents/<path>?ref=<commit>`): an entry naming another commit is
 * another head's, and an entry (or an empty list) that names none proves nothing.
 */
function listedAt(files: PrFiles, head: string): boolean {
  const at = head.toLowerCase()
  return files.length > 0 && files.every((file) => refOf(file.contents_url) === at)
}

/** The `ref` a contents URL names (lowercase), or null when it names none. */
function refOf(url: string | undefined): string | null {
  if (typeof url !== 'string' || !URL.canParse(url)) return null
  return new URL(url).searchParams.get('ref')?.toLowerCase() ?? null
}

type GitTree = Awaited<ReturnType<Octokit['rest']['git']['getTree']>>['data']

/**
 * The folder's recursive tree (null: no such folder). In one request first:
 * GitHub resolves `<commit>:<path>` as `tree_sha`, though documented for SHAs and refs
 * only; a refusal (404, 422: also a missing folder's answer) sends it down a walk through
 * non-recursive trees, which tells the two apart.
 */
async function folderTree(
  octokit: Octokit,
  base: Repo,
  head: string,
  dir: string
): Promise<GitTree | null> {
  const getTree = async (tree_sha: string, recursive?: '1'): Promise<GitTree> =>
    (await octokit.rest.git.getTree({ ...base, tree_sha, recursive })).data
  // A `.` segment would mean something else to git than to the walk.
  if (!dir.split('/').includes('.')) {
    try {
      return await getTree(`${head}:${dir}`, '1')
    } catch (error) {
      if (!isUnknownName(error)) throw error
    }
  }
  let sha = head
  for (const segment of dir.split('/')) {
    const { tree } = await getTree(sha)
    const next = tree.find((entry) => entry.path === segment && entry.type === 'tree')
    if (!next?.sha) return null
    sha = next.sha
  }
  return getTree(sha, '1')
}

async function readBlob(
  octokit: Octokit,
  base: Repo,
  sha: string
): Promise<Uint8Array | string> {
  try {
    // The JSON form (base64): fetch would decode a raw answer typed as text, replacing
    // bytes that are not UTF-8, where the gate must see a receipt's bytes as they are.
    const { data } = await octokit.rest.git.getBlob({ ...base, file_sha: sha })
    return Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8')
  } catch (error) {
    if (error instanceof GitHubError) return error.message
    throw error
  }
}
