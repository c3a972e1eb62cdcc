/**
 * The API source over GraphQL (issue 24): one query reads the pull request, the receipts
 * folder at the head with every blob's text, and the deferral file, so a run's reads do
 * not grow with receipts. The REST source answers the rest: the files list (GraphQL has
 * no patches), the compares (one per reviewed SHA), and what GraphQL cannot give byte for
 * byte (binary, truncated or non-UTF-8 blobs, folders deeper than the query reaches).
 */
import { createHash } from 'node:crypto'
import {
  FILE_READ_CAP,
  notAFile,
  overFileCap,
  type PrGraphCommit,
  type ReceiptCommit,
  type ReceiptSource,
  type TreeEntry,
  type TreeListing
} from '../gate/source.js'
import { listTree as restListTree } from './api-source.js'
import type { Octokit } from './client.js'
import { PR_COMMITS_CAP, prCommitMethods } from './pr-commits.js'
import type { PullRequestInfo } from './pulls.js'

/** Levels of the receipts folder read in the query (`x.json.history/` is the second). */
export const TREE_DEPTH = 3

export interface GraphqlReadOptions {
  octokit: Octokit
  owner: string
  repo: string
  number: number
  /** The head the event names, when it does: the folder is then read in the same query. */
  head: string | null
  /** The head branch the event names: the deferral file is then read in the same query. */
  branchSinkPath: string | null
  receiptsDir: string
}

export interface GraphqlRead {
  pull: PullRequestInfo
  /**
   * The receipt source at `rest.head` over GraphQL, `rest` (the REST source at that head)
   * answering what GraphQL does not; what was read with the PR is used when it is that head.
   */
  source(rest: ReceiptSource): ReceiptSource
}

// ------------------------------------------------------------------ the answers

type Json = Record<string, unknown>

interface BlobFacts {
  byteSize: number
  isBinary: boolean | null
  isTruncated: boolean
  text: string | null
}

interface GqlEntry {
  name: string
  type: string
  mode: number
  oid: string
  blob: BlobFacts | null
  /** The entries of a tree the query reached; null for one it did not. */
  entries: GqlEntry[] | null
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null)

/** An API answer is untrusted: anything unexpected is an error, not a crash. */
class BadAnswer extends Error {
  constructor(what: string) {
    super(`GraphQL answer without ${what}`)
  }
}

function blobOf(value: unknown): BlobFacts | null {
  if (!isObject(value) || typeof value.byteSize !== 'number') return null
  return {
    byteSize: value.byteSize,
    isBinary: typeof value.isBinary === 'boolean' ? value.isBinary : null,
    isTruncated: value.isTruncated === true,
    text: str(value.text)
  }
}

function entriesOf(value: unknown): GqlEntry[] | null {
  if (!Array.isArray(value)) return null
  return value.flatMap((raw): GqlEntry[] => {
    if (!isObject(raw)) return []
    const name = str(raw.name)
    const type = str(raw.type)
    const oid = str(raw.oid)
    if (!name || !type || !oid || typeof raw.mode !== 'number') return []
    const object = isObject(raw.object) ? raw.object : null
    return [
      {
        name,
        type,
        mode: raw.mode,
        oid,
        blob: blobOf(object),
        entries: object ? entriesOf(object.entries) : null
      }
    ]
  })
}

// ------------------------------------------------------------------ the queries

const BLOB = 'byteSize isBinary isTruncated text'
/**
 * The PR's commit graph for review coverage (issue 25.3), as pulls/commits lists it: the
 * first 100 (GraphQL's page); a longer PR's is listed through REST.
 */
const COMMITS =
  'commits(first: 100) { totalCount nodes { commit { oid parents(first: 2) { totalCount nodes { oid } } } } }'

/** Tree entries with their blobs, `depth` levels deep. */
function entriesSelection(depth: number): string {
  const inner = depth > 1 ? ` ... on Tree { ${entriesSelection(depth - 1)} }` : ''
  return `entries { name type mode oid object { ... on Blob { ${BLOB} }${inner} } }`
}

/** The one read: the PR, and when the head is known, the folder and the deferral file. */
function mainQuery(withFolder: boolean, withSink: boolean): string {
  const vars = [
    '$owner: String!',
    '$name: String!',
    '$number: Int!',
    ...(withFolder ? ['$folder: String!'] : []),
    ...(withSink ? ['$head: GitObjectID!', '$sink: String!'] : [])
  ]
  return `query receiptGate(${vars.join(', ')}) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      number body headRefOid baseRefOid headRefName isCrossRepository changedFiles
      ${COMMITS}
    }
    ${withFolder ? `folder: object(expression: $folder) { ... on Tree { ${entriesSelection(TREE_DEPTH)} } }` : ''}
    ${withSink ? `head: object(oid: $head) { ... on Commit { sink: file(path: $sink) { name type mode oid object { ... on Blob { ${BLOB} } } } } }` : ''}
  }
}`
}

const FOLDER_QUERY = `query receiptGateFolder($owner: String!, $name: String!, $folder: String!) {
  repository(owner: $owner, name: $name) {
    folder: object(expression: $folder) { ... on Tree { ${entriesSelection(TREE_DEPTH)} } }
  }
}`

/** `history(first: 1, path:)` per receipt, aliased, all in one query. */
function historyQuery(count: number): string {
  const vars = Array.from({ length: count }, (_, i) => `$p${i}: String!`)
  const aliases = Array.from(
    { length: count },
    (_, i) =>
      `h${i}: history(first: 1, path: $p${i}) { nodes { oid parents(first: 1) { nodes { oid } } } }`
  )
  return `query receiptGateHistory($owner: String!, $name: String!, $head: GitObjectID!, ${vars.join(', ')}) {
  repository(owner: $owner, name: $name) {
    object(oid: $head) { ... on Commit { ${aliases.join('\n')} } }
  }
}`
}

// ------------------------------------------------------------------ the read

type Graph = { commits: PrGraphCommit[] } | { commits: null; note: string }

/**
 * The PR's commits with their parents, oldest first; undefined (the REST list answers)
 * where the answer is not whole: over 100 commits, a commit with more parents than asked
 * for, or odd.
 */
function graphOf(pull: Json): Graph | undefined {
  const listed = isObject(pull.commits) ? pull.commits : {}
  const nodes = Array.isArray(listed.nodes) ? listed.nodes : []
  if (typeof listed.totalCount === 'number' && listed.totalCount >= PR_COMMITS_CAP)
    return {
      commits: null,
      note: `the PR has ${PR_COMMITS_CAP} commits or more, more than GitHub lists`
    }
  const commits = nodes.map((node): PrGraphCommit | null => {
    const commit = isObject(node) && isObject(node.commit) ? node.commit : {}
    const parents = isObject(commit.parents) ? commit.parents : {}
    const oids = (Array.isArray(parents.nodes) ? parents.nodes : []).map((p) =>
      isObject(p) ? str(p.oid) : null
    )
    const sha = str(commit.oid)
    if (!sha || parents.totalCount !== oids.length || oids.includes(null)) return null
    return {
      sha: sha.toLowerCase(),
      parents: oids.map((oid) => String(oid).toLowerCase())
    }
  })
  return commits.length === listed.totalCount && !commits.includes(null)
    ? { commits: commits as PrGraphCommit[] }
    : undefined
}

/** The folder at the head: null when absent or not a folder (an empty listing). */
const folderEntries = (repository: Json): GqlEntry[] | null =>
  isObject(repository.folder) ? entriesOf(repository.folder.entries) : null

function sinkEntry(repository: Json): GqlEntry | null {
  const head = repository.head
  if (!isObject(head)) return null
  return (
    entriesOf(head.sink === null || head.sink === undefined ? [] : [head.sink])?.[0] ??
    null
  )
}

/** Reads the PR (and, with a head, the receipts) in one query. */
export async function readWithGraphql(options: GraphqlReadOptions): Promise<GraphqlRead> {
  const { octokit, owner, repo, number, head, receiptsDir } = options
  const sinkPath = head ? options.branchSinkPath : null
  const data = await octokit.graphql<Json>(mainQuery(head !== null, sinkPath !== null), {
    owner,
    name: repo,
    number,
    ...(head ? { folder: `${head}:${receiptsDir}` } : {}),
    ...(sinkPath && head ? { head, sink: sinkPath } : {})
  })
  const repository = isObject(data.repository) ? data.repository : null
  const raw =
    repository && isObject(repository.pullRequest) ? repository.pullRequest : null
  if (!repository || !raw) throw new BadAnswer('the pull request')
  const headSha = str(raw.headRefOid)
  const baseSha = str(raw.baseRefOid)
  if (!headSha || !baseSha) throw new BadAnswer("the pull request's commits")
  const pull: PullRequestInfo = {
    number,
    headSha,
    headRef: str(raw.headRefName) ?? '',
    baseSha,
    // GitHub's `body` is String!: an empty description reads "" where REST gives null.
    body: str(raw.body) || null,
    changedFiles: typeof raw.changedFiles === 'number' ? raw.changedFiles : 0,
    fork: raw.isCrossRepository === true
  }
  const prefetched = {
    folder: head ? folderEntries(repository) : undefined,
    sink: sinkPath ? { path: sinkPath, entry: sinkEntry(repository) } : undefined
  }
  const graph = graphOf(raw)
  return {
    pull,
    source: (rest) =>
      graphqlSource({
        octokit,
        owner,
        repo,
        pull,
        rest,
        receiptsDir,
        graph,
        prefetched: head === rest.head ? prefetched : {}
      })
  }
}

interface SourceOptions {
  octokit: Octokit
  owner: string
  repo: string
  pull: PullRequestInfo
  rest: ReceiptSource
  receiptsDir: string
  /** The PR's commit graph read with it; undefined: the REST source lists it. */
  graph: Graph | undefined
  prefetched: {
    folder?: GqlEntry[] | null
    sink?: { path: string; entry: GqlEntry | null }
  }
}

/** A {@link ReceiptSource} over GraphQL, with REST where GraphQL cannot answer exactly. */
function graphqlSource(options: SourceOptions): ReceiptSource {
  const { octokit, owner, repo, rest, prefetched } = options
  const { head } = rest
  const base = { owner, repo }
  // Blob texts checked against their ids, by id.
  const exact = new Map<string, Uint8Array>()
  const folder = async (dir: string): Promise<GqlEntry[] | null> => {
    if (dir === options.receiptsDir && prefetched.folder !== undefined)
      return prefetched.folder
    const data = await octokit.graphql<Json>(FOLDER_QUERY, {
      owner,
      name: repo,
      folder: `${head}:${dir}`
    })
    return isObject(data.repository) ? folderEntries(data.repository) : null
  }
  const { graph, pull } = options
  return {
    ...rest,
    // Review coverage over the graph read with the PR: no request of its own.
    ...prCommitMethods(
      { octokit, owner, repo, head, pullNumber: pull.number, baseSha: pull.baseSha },
      async () =>
        graph ?? rest.prCommitGraph?.() ?? { commits: null, note: 'no commit list' }
    ),
    async listTree(dir) {
      const entries = await folder(dir)
      if (!entries) return { entries: [], truncated: false }
      return flatten(entries, dir, exact, async (deeper) =>
        restListTree(octokit, base, head, deeper)
      )
    },
    async readBlobs(shas) {
      const read = await rest.readBlobs(shas.filter((sha) => !exact.has(sha)))
      return new Map(
        shas.map((sha) => [sha, exact.get(sha) ?? read.get(sha) ?? `${sha}: not read`])
      )
    },
    async readFile(path) {
      // Read with the PR, or (the head unknown then) through REST's contents API.
      if (prefetched.sink?.path !== path) return rest.readFile(path)
      const sink = prefetched.sink.entry
      if (!sink) return null
      const type =
        sink.type === 'tree' ? 'dir' : sink.type === 'commit' ? 'submodule' : null
      if (type) return notAFile(path, type)
      if (sink.mode === 0o120000) return notAFile(path, 'symlink')
      if (!sink.blob) return notAFile(path, sink.type)
      if (sink.blob.byteSize > FILE_READ_CAP) return overFileCap(path)
      return (
        exactBytes(sink.oid, sink.blob) ??
        (await rest.readBlobs([sink.oid])).get(sink.oid) ??
        null
      )
    },
    async receiptCommits(receipts) {
      try {
        return await receiptCommits(receipts.map(({ path }) => path))
      } catch {
        // GraphQL failing after the first read: REST answers the same question.
        return rest.receiptCommits(receipts)
      }
    }
  }

  async function receiptCommits(
    paths: readonly string[]
  ): Promise<Map<string, ReceiptCommit | null>> {
    const found = new Map<string, ReceiptCommit | null>()
    if (paths.length === 0) return found
    const data = await octokit.graphql<Json>(historyQuery(paths.length), {
      owner,
      name: repo,
      head,
      ...Object.fromEntries(paths.map((path, i) => [`p${i}`, path]))
    })
    const commit =
      isObject(data.repository) && isObject(data.repository.object)
        ? data.repository.object
        : null
    if (!commit) throw new BadAnswer('the head commit')
    paths.forEach((path, i) => found.set(path, newestOf(commit[`h${i}`])))
    return found
  }
}

/** The first node of a `history(first: 1)` answer, with its first parent. */
function newestOf(history: unknown): ReceiptCommit | null {
  const nodes: unknown = isObject(history) ? history.nodes : null
  const node: unknown = Array.isArray(nodes) ? nodes[0] : null
  if (!isObject(node) || typeof node.oid !== 'string') return null
  const parents: unknown = isObject(node.parents) ? node.parents.nodes : null
  const parent =
    Array.isArray(parents) && isObject(parents[0]) ? str(parents[0].oid) : null
  // changedPaths null: the compare of the parent with the head covers this commit.
  return { sha: node.oid, parent, changedPaths: null }
}

/**
 * The folder's entries as the REST listing gives them (blobs and submodules, recursive);
 * texts whose bytes hash to their ids go to `exact`. A tree the query did not reach is
 * listed through REST.
 */
async function flatten(
  entries: GqlEntry[],
  dir: string,
  exact: Map<string, Uint8Array>,
  deeper: (dir: string) => Promise<TreeListing>
): Promise<TreeListing> {
  const out: TreeEntry[] = []
  let truncated = false
  const walk = async (level: GqlEntry[], at: string): Promise<void> => {
    for (const entry of level) {
      const path = `${at}/${entry.name}`
      if (entry.type === 'tree') {
        if (entry.entries) await walk(entry.entries, path)
        else {
          const listing = await deeper(path)
          out.push(...listing.entries)
          truncated ||= listing.truncated
        }
        continue
      }
      out.push({
        path,
        type: entry.type === 'commit' ? 'commit' : 'blob',
        mode: entry.mode.toString(8).padStart(6, '0'),
        sha: entry.oid,
        size: entry.blob?.byteSize ?? null
      })
      const bytes = entry.blob ? exactBytes(entry.oid, entry.blob) : null
      if (bytes) exact.set(entry.oid, bytes)
    }
  }
  await walk(entries, dir)
  return { entries: out, truncated }
}

/**
 * A blob's bytes from its text, only when they are exactly the blob: GitHub gives text
 * (invalid UTF-8 replaced), so the text's UTF-8 bytes must hash to the blob's id.
 */
function exactBytes(oid: string, blob: BlobFacts): Uint8Array | null {
  if (blob.isBinary !== false || blob.isTruncated || blob.text === null) return null
  const bytes = Buffer.from(blob.text, 'utf8')
  return gitBlobId(bytes, oid.length === 64 ? 'sha256' : 'sha1') === oid.toLowerCase()
    ? bytes
    : null
}

/** git's object id of a blob: the hash of `blob <length>\0<bytes>`. */
export function gitBlobId(bytes: Uint8Array, algorithm: 'sha1' | 'sha256'): string {
  return createHash(algorithm)
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex')
}

/**
 * Why the GraphQL read failed, for the log line of the REST fallback (every failure falls
 * back: a token refused GraphQL, an outage, GraphQL's own rate limit — a separate budget —
 * or an answer this source cannot use; REST answers the same questions).
 */
export function graphqlFailure(error: unknown): string {
  const e = error as { errors?: unknown; message?: unknown }
  const errors = Array.isArray(e.errors) ? e.errors.filter(isObject).slice(0, 3) : []
  if (errors.length > 0)
    return errors
      .map((x) => [str(x.type), str(x.message)].filter(Boolean).join(': '))
      .join('; ')
  return typeof e.message === 'string' ? (e.message.split('\n')[0] ?? '') : 'failed'
}
