/**
 * Review coverage over the API at a few requests: the PR's commits with
 * their parents from one pulls/commits list (≤ 3 pages), review ranges computed over
 * that graph (no request), one compare per distinct commit outside the PR a review
 * names (its merge base with the head tells which PR commits it reaches), and one
 * commit read per commit coverage must classify as code or bookkeeping (a merge: one
 * compare per parent).
 */
import { reachableInPr } from '../gate/coverage.js'
import { fullObjectId, isFullId } from '../gate/review-head.js'
import { shortSha } from '../util/short-sha.js'
import { limiter } from '../util/concurrency.js'
import type { PrGraphCommit, ReceiptSource } from '../gate/source.js'
import type { TreeNode } from '../gate/tree-diff.js'
import { isUnknownName, type Octokit } from './client.js'

/** GitHub lists at most 250 commits of a pull request. */
const PR_COMMITS_CAP = 250
/** A commit's files list holds at most 300 entries a page; a comparison's, 300 in all. */
const COMMIT_FILES_PAGE = 300
export const COMPARE_FILES_CAP = 300
const CLASSIFY_CONCURRENCY = 8

export type CommitGraph =
  | {
      commits: PrGraphCommit[]
      /** Commits outside the PR (the first one's parents) with their trees, where read. */
      outside?: ReadonlyArray<{ sha: string; tree: readonly TreeNode[] }>
    }
  | { commits: null; note: string }

/** The graph of a PR at the cap: the list may be cut short, and a missing commit breaks it. */
const OVER_CAP: CommitGraph = {
  commits: null,
  note: `the PR has ${PR_COMMITS_CAP} commits or more, more than GitHub lists`
}

export type Repo = { owner: string; repo: string }
type Comparison = Awaited<
  ReturnType<Octokit['rest']['repos']['compareCommitsWithBasehead']>
>['data']

export interface PrCommitsOptions extends Repo {
  octokit: Octokit
  head: string
  pullNumber: number
  /** The PR's base commit (pulls.get): no PR commit is reachable from it. */
  baseSha?: string | Promise<string>
}

/** GitHub's diff entries: a compare's, a commit's, a PR's files list. */
type DiffEntries = NonNullable<Comparison['files']>

/** The PR's changed files, or why they are unknown. */
export type FilesList = { files: DiffEntries } | { files: null; note: string }

/**
 * The compare `from...head` (`from` a full lowercase id), or null when GitHub knows no
 * such commit, or resolved a ref of that name instead (a ref wins over a commit). Its
 * commits are listed only when `commits` is set (up to 250; else one, the answer small).
 */
export async function compareFrom(
  octokit: Octokit,
  base: Repo,
  from: string,
  head: string,
  commits = false
): Promise<Comparison | null> {
  // The head rule and review coverage may ask the same compare (a reviewed commit, the
  // head's parent): one request answers both.
  const asked = compares.get(octokit) ?? new Map<string, Promise<Comparison | null>>()
  compares.set(octokit, asked)
  const key = compareKey(base, from, head, commits)
  const answer = asked.get(key) ?? requestCompare(octokit, base, from, head, commits)
  asked.set(key, answer)
  return answer
}

/** The compares asked for, by client: `from...head` once for the run. */
const compares = new WeakMap<Octokit, Map<string, Promise<Comparison | null>>>()

/** Whether the compare `from...head` was asked for already. */
function compared(octokit: Octokit, base: Repo, from: string, head: string): boolean {
  return compares.get(octokit)?.has(compareKey(base, from, head, false)) === true
}

function compareKey(base: Repo, from: string, head: string, commits: boolean): string {
  return `${base.owner}/${base.repo}/${from}...${head}${commits ? ' with commits' : ''}`
}

async function requestCompare(
  octokit: Octokit,
  base: Repo,
  from: string,
  head: string,
  commits: boolean
): Promise<Comparison | null> {
  try {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      ...base,
      basehead: `${from}...${head}`,
      ...(commits ? {} : { per_page: 1 })
    })
    return data.base_commit.sha.toLowerCase() === from ? data : null
  } catch (error) {
    if (isUnknownName(error)) return null
    throw error
  }
}

/** The paths a files list touches: a rename both (moving a receipt in or out of the folder changes it). */
export function touchedPaths(files: DiffEntries): string[] {
  return files.flatMap((file) =>
    file.previous_filename ? [file.filename, file.previous_filename] : [file.filename]
  )
}

/** The PR's changed files and commit graph at one head. */
export interface PrLists {
  files: FilesList
  graph: CommitGraph
}

/**
 * The PR's files and commits at the judged head, for a PR that moved on from it: the
 * compare of the PR's base with that head lists both, as GitHub's PR lists them while
 * it is at that head (at most 300 files and 250 commits). A list past its cap, or one
 * the answer lacks, is unknown: never empty.
 */
export async function prListsAt(options: PrCommitsOptions): Promise<PrLists> {
  const { octokit, owner, repo, head } = options
  const at = shortSha(head)
  const unknown = (note: string): PrLists => ({
    files: { files: null, note },
    graph: { commits: null, note }
  })
  const base = await Promise.resolve(options.baseSha).catch(() => undefined)
  // The PR's base comes from an API answer: only a full object id goes into a URL.
  const from = base === undefined ? null : fullObjectId(base, head)
  if (from === null)
    return unknown(`the PR moved on from ${at} and its base is not known`)
  const data = await compareFrom(octokit, { owner, repo }, from, head, true)
  if (data === null)
    return unknown(
      `the PR moved on from ${at}, which GitHub cannot compare with its base`
    )
  const files: FilesList =
    data.files === undefined
      ? { files: null, note: `GitHub's compare of the PR at ${at} lists no files` }
      : data.files.length >= COMPARE_FILES_CAP
        ? {
            files: null,
            note: `the PR at ${at} changes ${COMPARE_FILES_CAP} files or more, more than a compare lists`
          }
        : { files: data.files }
  const { commits, total_commits: total } = data
  const graph: CommitGraph =
    commits === undefined || total === undefined
      ? { commits: null, note: `GitHub's compare of the PR at ${at} lists no commits` }
      : total >= PR_COMMITS_CAP || commits.length !== total
        ? OVER_CAP
        : { commits: commits.map(graphCommit) }
  return { files, graph }
}

/**
 * The graph when it is the head's: the head and exactly the commits it reaches (a list
 * read after the PR moved on is another head's). Null when it is not; an unknown graph
 * is returned as it is.
 */
export function graphOfHead(graph: CommitGraph, head: string): CommitGraph | null {
  if (graph.commits === null) return graph
  const parents = new Map(graph.commits.map((c) => [c.sha, c.parents]))
  const reached = reachableInPr(parents, head.toLowerCase())
  return reached.size > 0 && reached.size === parents.size ? graph : null
}

type CoverageMethods = Required<
  Pick<ReceiptSource, 'prCommitGraph' | 'prCommits' | 'commitsBetween' | 'commitPaths'>
>

/**
 * The coverage methods of the API source. `listGraph` reads the PR's commit graph at the
 * judged head (default: the REST pulls/commits list); it is read once.
 */
export function prCommitMethods(
  options: PrCommitsOptions,
  listGraph: () => Promise<CommitGraph> = async () => listPrCommits(options)
): CoverageMethods {
  const { octokit, owner, repo, head } = options
  let graph: Promise<CommitGraph> | undefined
  const readGraph = async (): Promise<CommitGraph> => (graph ??= listGraph())
  let indexed: Promise<GraphIndex | null> | undefined
  const readIndex = async (): Promise<GraphIndex | null> =>
    (indexed ??= readGraph().then(indexOf))
  // Per commit a review names: the PR commits it reaches (null: unknown).
  const reached = new Map<string, Promise<Set<string> | null>>()
  const reach = async (sha: string): Promise<Set<string> | null> => {
    if (!reached.has(sha)) reached.set(sha, reachOf(sha))
    return reached.get(sha) ?? null
  }
  /**
   * The PR commits `sha` reaches: over the graph when it is a PR commit; none when it is on
   * the base side (the PR's base, a parent outside the PR); else those its merge base with
   * the head reaches (one compare). Null: not a commit GitHub knows. A known limit: of a
   * criss-cross history's merge bases GitHub names one (git would take them all).
   */
  const reachOf = async (sha: string): Promise<Set<string> | null> => {
    const index = await readIndex()
    // Receipt text and API answers are hostile: only a full object id goes into a URL.
    if (index === null || !isFullId(sha, head)) return null
    if (index.parents.has(sha)) return reachableInPr(index.parents, sha)
    const base = await Promise.resolve(options.baseSha).catch(() => undefined)
    if (index.baseSide.has(sha) || sha === base?.toLowerCase()) return new Set()
    const compared = await compareFrom(octokit, { owner, repo }, sha, head)
    if (compared === null) return null
    return reachableInPr(index.parents, compared.merge_base_commit.sha.toLowerCase())
  }
  const classified = new Map<string, Promise<string[] | null>>()
  const limit = limiter(CLASSIFY_CONCURRENCY)
  const pathsOf = async (sha: string, parents: string[]): Promise<string[] | null> => {
    if (!isFullId(sha, head)) return null
    if (parents.length > 1)
      return mergePaths({ octokit, owner, repo, head }, sha, parents)
    // The head's diff is the compare of its parent with it, which the head rule has
    // asked for when the parent is the reviewed commit: no read of its own then.
    const [parent] = parents
    const repoOf = { owner, repo }
    if (parent && sha === head.toLowerCase() && compared(octokit, repoOf, parent, head)) {
      const data = await compareFrom(octokit, repoOf, parent, head)
      return data?.status === 'ahead' && data.ahead_by === 1
        ? listedPaths(data.files)
        : null
    }
    const { data } = await octokit.rest.repos.getCommit({
      owner,
      repo,
      ref: sha,
      per_page: COMMIT_FILES_PAGE
    })
    return listedPaths(data.files)
  }
  return {
    prCommitGraph: readGraph,
    async prCommits() {
      const listed = await readGraph()
      if (listed.commits === null) return listed
      // Merges too (one can carry its own code); paths are listed on demand, where the
      // trees read with the graph (a commit and its one parent's) do not tell.
      const trees = new Map(
        [...(listed.outside ?? []), ...listed.commits].map((c) => [c.sha, c.tree])
      )
      return {
        commits: listed.commits.map(({ sha, parents, tree }) => {
          const parent = parents.length === 1 ? trees.get(parents[0] ?? '') : undefined
          return tree && parent
            ? { sha, paths: null, trees: { own: tree, parent } }
            : { sha, paths: null }
        })
      }
    },
    async commitsBetween(from, to) {
      const [ahead, behind] = await Promise.all([
        reach(to.toLowerCase()),
        from === null ? new Set<string>() : reach(from.toLowerCase())
      ])
      if (ahead === null || behind === null) return null
      return [...ahead].filter((sha) => !behind.has(sha))
    },
    // The paths each commit changed (both sides of a rename); null: not listed whole.
    // Each commit is read once, however often it is asked for (coverage asks early).
    async commitPaths(shas) {
      const index = await readIndex()
      const paths = await Promise.all(
        shas.map(async (sha) => {
          const known = classified.get(sha)
          if (known) return known
          const read = limit(async () => pathsOf(sha, index?.parents.get(sha) ?? []))
          classified.set(sha, read)
          return read
        })
      )
      return new Map(shas.map((sha, i) => [sha, paths[i] ?? null]))
    }
  }
}

/** A files list's paths; null when it is absent or may be cut at GitHub's 300. */
function listedPaths(files: DiffEntries | undefined): string[] | null {
  return files === undefined || files.length >= COMMIT_FILES_PAGE
    ? null
    : touchedPaths(files)
}

/**
 * The paths a merge changed on its own: those that differ from every parent, as `git log
 * -c` lists them (none for a clean merge). A commit's `files` are against its first parent
 * only, so each parent is compared with the merge: one compare a parent. Null when some
 * parent's diff cannot be listed whole.
 */
async function mergePaths(
  { octokit, owner, repo, head }: Repo & { octokit: Octokit; head: string },
  merge: string,
  parents: readonly string[]
): Promise<string[] | null> {
  const lists = await Promise.all(
    parents.map(async (parent) => {
      // Parent ids come from an answer: only a full object id goes into a URL.
      if (!isFullId(parent, head)) return null
      const compared = await compareFrom(octokit, { owner, repo }, parent, merge)
      // `parent...merge` lists the diff from their merge base: the parent only when ahead.
      return compared?.status === 'ahead' ? listedPaths(compared.files) : null
    })
  )
  const known = lists.filter((list): list is string[] => list !== null)
  if (known.length < parents.length) return null
  const [first = [], ...rest] = known
  return first.filter((path) => rest.every((list) => list.includes(path)))
}

/** The PR's commits with their parents, or why not (more than GitHub lists). */
export async function listPrCommits(options: PrCommitsOptions): Promise<CommitGraph> {
  const { octokit, owner, repo, pullNumber } = options
  const listed = await octokit.paginate(octokit.rest.pulls.listCommits, {
    owner,
    repo,
    pull_number: pullNumber,
    per_page: 100
  })
  if (listed.length >= PR_COMMITS_CAP) return OVER_CAP
  return { commits: listed.map(graphCommit) }
}

function graphCommit(commit: Comparison['commits'][number]): PrGraphCommit {
  return {
    sha: commit.sha.toLowerCase(),
    parents: commit.parents.map((parent) => parent.sha.toLowerCase())
  }
}

/** The graph by commit (sha → parents), and the parents outside it: the base side. */
type GraphIndex = { parents: Map<string, string[]>; baseSide: Set<string> }

function indexOf(graph: CommitGraph): GraphIndex | null {
  if (graph.commits === null) return null
  const parents = new Map(graph.commits.map((c) => [c.sha, c.parents]))
  const outside = graph.commits.flatMap((c) => c.parents).filter((p) => !parents.has(p))
  return { parents, baseSide: new Set(outside) }
}
