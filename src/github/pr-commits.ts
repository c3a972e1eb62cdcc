/**
 * Review coverage over the API (issue 25.3) at a few requests: the PR's commits with
 * their parents from one pulls/commits list (≤ 3 pages), review ranges computed over
 * that graph (no request), one compare per distinct commit outside the PR a review
 * names (its merge base with the head tells which PR commits it reaches), and one
 * commit read per commit coverage must classify as code or bookkeeping.
 */
import { reachableInPr } from '../gate/coverage.js'
import { fullObjectId } from '../gate/review-head.js'
import { limiter } from '../util/concurrency.js'
import type { PrGraphCommit, ReceiptSource } from '../gate/source.js'
import { GitHubError, type Octokit } from './client.js'

/** GitHub lists at most 250 commits of a pull request. */
export const PR_COMMITS_CAP = 250
/** A commit's files list holds at most 300 entries a page. */
const COMMIT_FILES_PAGE = 300
const CLASSIFY_CONCURRENCY = 8

/** Receipt text and API answers are hostile: only a full object id goes into a URL. */
const isFullId = (sha: string, options: PrCommitsOptions): boolean =>
  fullObjectId(sha, options.head) === sha

export interface PrCommitsOptions {
  octokit: Octokit
  owner: string
  repo: string
  head: string
  pullNumber: number
  /** The PR's base commit (pulls.get): no PR commit is reachable from it. */
  baseSha?: string | Promise<string>
}

type Graph = { commits: PrGraphCommit[] } | { commits: null; note: string }
type CoverageMethods = Required<
  Pick<ReceiptSource, 'prCommitGraph' | 'prCommits' | 'commitsBetween' | 'commitPaths'>
>

/**
 * The coverage methods of the API source. `listGraph` reads the PR's commit graph
 * (default: the REST pulls/commits list); it is read once.
 */
export function prCommitMethods(
  options: PrCommitsOptions,
  listGraph: () => Promise<Graph> = async () => listPrCommits(options)
): CoverageMethods {
  let graph: Promise<Graph> | undefined
  const readGraph = async (): Promise<Graph> => (graph ??= listGraph())
  let index: Promise<GraphIndex | null> | undefined
  const readIndex = async (): Promise<GraphIndex | null> =>
    (index ??= readGraph().then(indexOf))
  // Per commit a review names: the PR commits it reaches (null: unknown).
  const reached = new Map<string, Promise<Set<string> | null>>()
  const reach = async (sha: string): Promise<Set<string> | null> => {
    let found = reached.get(sha)
    if (found === undefined) {
      found = reachOf(options, readIndex, sha)
      reached.set(sha, found)
    }
    return found
  }
  return {
    prCommitGraph: readGraph,
    async prCommits() {
      const listed = await readGraph()
      if (listed.commits === null) return listed
      // Merges are left out as the git source leaves them out; paths are listed on demand.
      return {
        commits: listed.commits
          .filter((commit) => commit.parents.length <= 1)
          .map((commit) => ({ sha: commit.sha, paths: null }))
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
    async commitPaths(shas) {
      const limit = limiter(CLASSIFY_CONCURRENCY)
      const paths = await Promise.all(
        shas.map(async (sha) => limit(async () => commitFiles(options, sha)))
      )
      return new Map(shas.map((sha, i) => [sha, paths[i] ?? null]))
    }
  }
}

/** The PR's commits with their parents, or why not (more than GitHub lists). */
async function listPrCommits(options: PrCommitsOptions): Promise<Graph> {
  const { octokit, owner, repo, pullNumber } = options
  const listed = await octokit.paginate(octokit.rest.pulls.listCommits, {
    owner,
    repo,
    pull_number: pullNumber,
    per_page: 100
  })
  // At the cap the list may be cut short: a missing commit would break the graph.
  if (listed.length >= PR_COMMITS_CAP)
    return {
      commits: null,
      note: `the PR has ${PR_COMMITS_CAP} commits or more, more than GitHub lists`
    }
  return {
    commits: listed.map((commit) => ({
      sha: String(commit.sha).toLowerCase(),
      parents: commit.parents.map((parent) => String(parent.sha).toLowerCase())
    }))
  }
}

/** The graph by commit (sha → parents), and the parents outside it: the base side. */
type GraphIndex = { parents: Map<string, string[]>; baseSide: Set<string> }

function indexOf(graph: Graph): GraphIndex | null {
  if (graph.commits === null) return null
  const parents = new Map(graph.commits.map((c) => [c.sha, c.parents]))
  const outside = graph.commits.flatMap((c) => c.parents).filter((p) => !parents.has(p))
  return { parents, baseSide: new Set(outside) }
}

/**
 * The PR commits `sha` reaches: over the graph when it is a PR commit; none when it is on
 * the base side (the PR's base, a parent outside the PR); else those its merge base with
 * the head reaches (one compare). Null: not a commit GitHub knows.
 */
async function reachOf(
  options: PrCommitsOptions,
  readIndex: () => Promise<GraphIndex | null>,
  sha: string
): Promise<Set<string> | null> {
  const graph = await readIndex()
  if (graph === null || !isFullId(sha, options)) return null
  if (graph.parents.has(sha)) return reachableInPr(graph.parents, sha)
  const base = await Promise.resolve(options.baseSha).catch(() => undefined)
  if (graph.baseSide.has(sha) || sha === base?.toLowerCase()) return new Set()
  const mergeBase = await mergeBaseWithHead(options, sha)
  return mergeBase === null ? null : reachableInPr(graph.parents, mergeBase)
}

/**
 * `sha...head`'s merge base, or null when GitHub knows no such commit (or no common
 * history). A criss-cross history has several and GitHub names one: a PR commit a base
 * reaches only through another would count as inside that review's range (git would
 * not). Such a base — outside the PR, joined to it by two merges — is left as a known
 * limit rather than paid for with a compare per PR commit.
 */
async function mergeBaseWithHead(
  options: PrCommitsOptions,
  sha: string
): Promise<string | null> {
  const { octokit, owner, repo, head } = options
  try {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
      owner,
      repo,
      basehead: `${sha}...${head}`,
      per_page: 1
    })
    // A ref of that name would win over the commit: the comparison counts only from it.
    if (data.base_commit.sha.toLowerCase() !== sha) return null
    return data.merge_base_commit.sha.toLowerCase()
  } catch (error) {
    if (error instanceof GitHubError && (error.status === 404 || error.status === 422))
      return null
    throw error
  }
}

/** The paths a commit changed (both sides of a rename), or null when not listed whole. */
async function commitFiles(
  options: PrCommitsOptions,
  sha: string
): Promise<string[] | null> {
  const { octokit, owner, repo } = options
  if (!isFullId(sha, options)) return null
  const { data } = await octokit.rest.repos.getCommit({
    owner,
    repo,
    ref: sha,
    per_page: COMMIT_FILES_PAGE
  })
  const files = data.files ?? []
  if (files.length >= COMMIT_FILES_PAGE) return null
  return files.flatMap((file) =>
    file.previous_filename ? [file.filename, file.previous_filename] : [file.filename]
  )
}
