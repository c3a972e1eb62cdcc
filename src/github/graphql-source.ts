/**
 * The API source over GraphQL (issue 24): one query reads the pull request, the receipts
 * folder at the head with every blob's text, and the deferral file, so a run's reads do
 * not grow with receipts. The REST source answers the rest: the files list (GraphQL has
 * no patches), the compares (one per reviewed SHA), and what GraphQL cannot give byte for
 * byte (binary, truncated or non-UTF-8 blobs, folders deeper than the query reaches).
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import {
  FILE_READ_CAP,
  notAFile,
  overFileCap,
  type Debug,
  type ReceiptCommit,
  type ReceiptSource,
  type TreeEntry
} from '../gate/source.js'
import { isBug } from '../util/errors.js'
import type { Octokit } from './client.js'
import {
  OVER_CAP,
  PR_COMMITS_CAP,
  graphOfHead,
  prCommitMethods,
  type CommitGraph
} from './pr-commits.js'
import { sharingOnly, type PullRequestInfo, type SharingPull } from './pulls.js'

/** Levels of the receipts folder read in the query (`x.json.history/` is the second). */
const TREE_DEPTH = 3

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
  /** Told when a later GraphQL question falls back to REST. */
  debug?: Debug
}

export interface GraphqlRead {
  pull: PullRequestInfo
  /**
   * The other open PRs whose head is the event's head, read in the same query; null when
   * not read (no head named, or more PRs hold the commit than one page lists).
   */
  sharing: SharingPull[] | null
  /**
   * The receipt source at `rest.head` over GraphQL, `rest` (the REST source at that head)
   * answering what GraphQL does not; what was read with the PR is used when it is that head.
   */
  source(rest: ReceiptSource): ReceiptSource
}

// ------------------------------------------------------------------ the answers

// An API answer is untrusted: anything unexpected is an error or a fallback, not a crash.
const Blob = z.object({
  byteSize: z.number(),
  isBinary: z.boolean().nullable().catch(null),
  isTruncated: z.boolean().catch(false),
  text: z.string().nullable().catch(null)
})
type BlobFacts = z.infer<typeof Blob>

interface GqlEntry {
  name: string
  type: string
  mode: number
  oid: string
  blob: BlobFacts | null
  /** The entries of a tree the query reached; null for one it did not. */
  entries: GqlEntry[] | null
}

const Tree = z.object({ entries: z.array(z.unknown()) })

const Entry: z.ZodType<GqlEntry> = z
  .object({
    name: z.string().min(1),
    type: z.string().min(1),
    mode: z.number(),
    oid: z.string().min(1),
    object: z.unknown().optional()
  })
  .transform(({ object, ...entry }) => ({
    ...entry,
    blob: Blob.safeParse(object).data ?? null,
    entries: entriesOf(object)
  }))

/**
 * A tree's entries, an odd one left out (it costs only itself); null: not a tree (the
 * folder at the head absent or not a folder: an empty listing).
 */
function entriesOf(tree: unknown): GqlEntry[] | null {
  const entries = Tree.safeParse(tree).data?.entries
  return entries?.flatMap((raw) => Entry.safeParse(raw).data ?? []) ?? null
}

const Oids = z.object({ nodes: z.array(z.object({ oid: z.string() })) })

/** The first 100 commits of the PR (GraphQL's page), each with its parents. */
const Commits = z.object({
  totalCount: z.number(),
  nodes: z.array(
    z.object({
      commit: z.object({
        oid: z.string().min(1),
        parents: Oids.extend({ totalCount: z.number() })
      })
    })
  )
})

const Answer = z.object({
  repository: z.object({
    pullRequest: z.object({
      headRefOid: z.string().min(1),
      baseRefOid: z.string().min(1),
      headRefName: z.string().catch(''),
      // Never caught: a body that is not there is not an empty one (the REST read answers).
      body: z.string().nullable(),
      changedFiles: z.number().catch(0),
      isCrossRepository: z.boolean().catch(false),
      commits: z.unknown().optional(),
      author: z.unknown().optional(),
      labels: z.unknown().optional()
    }),
    folder: z.unknown().optional(),
    head: z
      .object({
        sink: Entry.nullable().catch(null),
        associatedPullRequests: z.unknown().optional()
      })
      .nullable()
      .catch(null)
  })
})
type FirstRead = z.infer<typeof Answer>['repository']

const Associated = z.object({
  totalCount: z.number(),
  nodes: z.array(
    z.object({
      number: z.number(),
      state: z.string(),
      headRefOid: z.string(),
      body: z.string().nullable()
    })
  )
})

/** GraphQL's `errors`, as @octokit/graphql's error carries them. */
const GqlErrors = z.array(
  z.object({ type: z.string().nullish(), message: z.string().nullish() })
)

/** `history(first: 1)`: the newest commit, with its first parent when listed. */
const History = z.object({
  nodes: z.array(z.object({ oid: z.string(), parents: Oids.catch({ nodes: [] }) }))
})
const HistoryAnswer = z.object({
  repository: z.object({ object: z.record(z.string(), z.unknown()) })
})

/** The author: GraphQL spells a bot's login without REST's `[bot]` (`dependabot`). */
const GqlAuthor = z.object({ __typename: z.string(), login: z.string().min(1) })
/** The labels, when the first page holds them all. */
const GqlLabels = z
  .object({ totalCount: z.number(), nodes: z.array(z.object({ name: z.string() })) })
  .refine((labels) => labels.nodes.length === labels.totalCount)

/** The author's login as REST spells it, or null when the answer has none. */
function restLogin(author: unknown): string | null {
  const found = GqlAuthor.safeParse(author).data
  if (!found) return null
  return found.__typename === 'Bot' ? `${found.login}[bot]` : found.login
}

// ------------------------------------------------------------------ the queries

const BLOB = 'byteSize isBinary isTruncated text'
/** The PR's commit graph for review coverage (issue 25.3); past 100, REST lists it. */
const COMMITS =
  'commits(first: 100) { totalCount nodes { commit { oid parents(first: 2) { totalCount nodes { oid } } } } }'

/** Tree entries with their blobs, `depth` levels deep. */
function entriesSelection(depth: number): string {
  const inner = depth > 1 ? ` ... on Tree { ${entriesSelection(depth - 1)} }` : ''
  return `entries { name type mode oid object { ... on Blob { ${BLOB} }${inner} } }`
}

const FOLDER = `folder: object(expression: $folder) { ... on Tree { ${entriesSelection(TREE_DEPTH)} } }`

/** The open PRs holding the head, with their bodies: each must name the deferrals too. */
const ASSOCIATED =
  'associatedPullRequests(first: 100) { totalCount nodes { number state headRefOid body } }'

/**
 * The one read: the PR, and when the head is known, the folder, the deferral file and the
 * other PRs on that head.
 */
function mainQuery(withHead: boolean, withSink: boolean): string {
  const vars = [
    '$owner: String!',
    '$name: String!',
    '$number: Int!',
    ...(withHead ? ['$folder: String!', '$head: GitObjectID!'] : []),
    ...(withSink ? ['$sink: String!'] : [])
  ]
  const sink = `sink: file(path: $sink) { name type mode oid object { ... on Blob { ${BLOB} } } }`
  return `query receiptGate(${vars.join(', ')}) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      number body headRefOid baseRefOid headRefName isCrossRepository changedFiles
      author { __typename login } labels(first: 100) { totalCount nodes { name } }
      ${COMMITS}
    }
    ${withHead ? FOLDER : ''}
    ${withHead ? `head: object(oid: $head) { ... on Commit { ${withSink ? sink : ''} ${ASSOCIATED} } }` : ''}
  }
}`
}

const FOLDER_QUERY = `query receiptGateFolder($owner: String!, $name: String!, $folder: String!) {
  repository(owner: $owner, name: $name) { ${FOLDER} }
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

/**
 * The PR's commits with their parents, oldest first; undefined (the REST list answers)
 * where the answer is not whole: over 100 commits, a commit with more parents than asked
 * for, or odd.
 */
function graphOf(commits: unknown): CommitGraph | undefined {
  const listed = Commits.safeParse(commits).data
  if (!listed) return undefined
  if (listed.totalCount >= PR_COMMITS_CAP) return OVER_CAP
  const whole =
    listed.nodes.length === listed.totalCount &&
    listed.nodes.every(
      ({ commit }) => commit.parents.totalCount === commit.parents.nodes.length
    )
  if (!whole) return undefined
  return {
    commits: listed.nodes.map(({ commit }) => ({
      sha: commit.oid.toLowerCase(),
      parents: commit.parents.nodes.map(({ oid }) => oid.toLowerCase())
    }))
  }
}

/** Reads the PR (and, with a head, the receipts) in one query. */
export async function readWithGraphql(options: GraphqlReadOptions): Promise<GraphqlRead> {
  const { octokit, owner, repo, number, head, receiptsDir } = options
  const sinkPath = head ? options.branchSinkPath : null
  const data = await octokit.graphql(mainQuery(head !== null, sinkPath !== null), {
    owner,
    name: repo,
    number,
    ...(head ? { folder: `${head}:${receiptsDir}`, head } : {}),
    ...(sinkPath && head ? { sink: sinkPath } : {})
  })
  const repository = Answer.safeParse(data).data?.repository
  if (!repository) throw new Error('GraphQL answer without the pull request')
  const raw = repository.pullRequest
  const pull: PullRequestInfo = {
    number,
    headSha: raw.headRefOid,
    headRef: raw.headRefName,
    baseSha: raw.baseRefOid,
    // An empty description ("" here, null through REST) is an empty body, audited.
    body: raw.body ?? '',
    changedFiles: raw.changedFiles,
    fork: raw.isCrossRepository,
    author: restLogin(raw.author),
    labels: GqlLabels.safeParse(raw.labels).data?.nodes.map((label) => label.name) ?? null
  }
  const graph = graphOf(raw.commits)
  return {
    pull,
    sharing: head
      ? sharingOf(repository.head?.associatedPullRequests, head, number)
      : null,
    source: (rest) =>
      graphqlSource(options, pull, graph, head === rest.head ? repository : null, rest)
  }
}

/** The other open PRs on `head` from the query's answer; null where it is not whole. */
function sharingOf(
  associated: unknown,
  head: string,
  number: number
): SharingPull[] | null {
  const listed = Associated.safeParse(associated).data
  if (!listed || listed.nodes.length !== listed.totalCount) return null
  return sharingOnly(
    listed.nodes.map((pull) => ({
      number: pull.number,
      open: pull.state === 'OPEN',
      head: pull.headRefOid,
      body: pull.body
    })),
    head,
    number
  )
}

/**
 * A {@link ReceiptSource} over GraphQL, with REST where GraphQL cannot answer exactly;
 * `graph` is the PR's commit graph read with it (undefined: the REST source lists it),
 * `read` the first read when it was at this head (it holds the folder, the deferral file).
 */
function graphqlSource(
  options: GraphqlReadOptions,
  pull: PullRequestInfo,
  graph: CommitGraph | undefined,
  read: FirstRead | null,
  rest: ReceiptSource
): ReceiptSource {
  const { octokit, owner, repo } = options
  const { head } = rest
  // Blob texts checked against their ids, by id.
  const exact = new Map<string, Uint8Array>()
  const readFolder = read ? entriesOf(read.folder) : undefined
  const folder = async (dir: string): Promise<GqlEntry[] | null> => {
    if (dir === options.receiptsDir && readFolder !== undefined) return readFolder
    const data = await octokit.graphql<{ repository?: { folder?: unknown } }>(
      FOLDER_QUERY,
      { owner, name: repo, folder: `${head}:${dir}` }
    )
    return entriesOf(data.repository?.folder)
  }
  return {
    ...rest,
    // Review coverage over the graph read with the PR: no request of its own.
    ...prCommitMethods(
      { octokit, owner, repo, head, pullNumber: pull.number, baseSha: pull.baseSha },
      // Read with the PR, it is the PR's head's: used only when that is the judged head.
      async () =>
        (graph && graphOfHead(graph, head)) ??
        rest.prCommitGraph?.() ?? { commits: null, note: 'no commit list' }
    ),
    // The entries as the REST listing gives them (blobs and submodules, recursive); texts
    // whose bytes hash to their ids go to `exact`; a tree the query did not reach, to REST.
    async listTree(dir) {
      const out: TreeEntry[] = []
      let truncated = false
      const walk = async (level: GqlEntry[], at: string): Promise<void> => {
        for (const entry of level) {
          const path = `${at}/${entry.name}`
          if (entry.type === 'tree' && entry.entries) await walk(entry.entries, path)
          else if (entry.type === 'tree') {
            const listing = await rest.listTree(path)
            out.push(...listing.entries)
            truncated ||= listing.truncated
          } else {
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
      }
      await walk((await folder(dir)) ?? [], dir)
      return { entries: out, truncated }
    },
    async readBlobs(shas) {
      const blobs = await rest.readBlobs(shas.filter((sha) => !exact.has(sha)))
      return new Map(
        shas.map((sha) => [sha, exact.get(sha) ?? blobs.get(sha) ?? `${sha}: not read`])
      )
    },
    async readFile(path) {
      // Read with the PR, or (the head unknown then) through REST's contents API.
      if (!read || options.branchSinkPath !== path) return rest.readFile(path)
      const sink = read.head?.sink ?? null
      if (!sink) return null
      // As the git source: `notAFile` names a tree, a submodule (`commit`) and a symlink.
      if (sink.type !== 'blob') return notAFile(path, sink.type)
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
      if (receipts.length === 0) return new Map()
      const paths = receipts.map(({ path }) => path)
      try {
        const data = await octokit.graphql(historyQuery(paths.length), {
          owner,
          name: repo,
          head,
          ...Object.fromEntries(paths.map((path, i) => [`p${i}`, path]))
        })
        const commit = HistoryAnswer.parse(data).repository.object
        return new Map(paths.map((path, i) => [path, newestOf(commit[`h${i}`])]))
      } catch (error) {
        if (isBug(error)) throw error
        // GraphQL failing after the first read: REST answers the same question.
        options.debug?.(
          `the receipts' commits through REST, not GraphQL: ${graphqlFailure(error)}`
        )
        return rest.receiptCommits(receipts)
      }
    }
  }
}

/** The newest commit of a `history(first: 1)` answer, with its first parent. */
function newestOf(history: unknown): ReceiptCommit | null {
  const node = History.safeParse(history).data?.nodes[0]
  if (!node) return null
  // changedPaths null: the compare of the parent with the head covers this commit.
  return { sha: node.oid, parent: node.parents.nodes[0]?.oid ?? null, changedPaths: null }
}

/**
 * A blob's bytes from its text, only when they are exactly the blob: GitHub gives text
 * (invalid UTF-8 replaced), so the text's UTF-8 bytes must hash to the blob's id (git's
 * object id of a blob: the hash of `blob <length>\0<bytes>`).
 */
function exactBytes(oid: string, blob: BlobFacts): Uint8Array | null {
  if (blob.isBinary !== false || blob.isTruncated || blob.text === null) return null
  const bytes = Buffer.from(blob.text, 'utf8')
  const id = createHash(oid.length === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex')
  return id === oid.toLowerCase() ? bytes : null
}

/**
 * Why the GraphQL read failed, for the log line of the REST fallback (every failure falls
 * back: a token refused GraphQL, an outage, GraphQL's own rate limit — a separate budget —
 * or an answer this source cannot use; REST answers the same questions).
 */
export function graphqlFailure(error: unknown): string {
  const { errors, message } = error as { errors?: unknown; message?: unknown }
  const listed = GqlErrors.safeParse(errors).data?.slice(0, 3) ?? []
  if (listed.length > 0)
    return listed.map((x) => [x.type, x.message].filter(Boolean).join(': ')).join('; ')
  return typeof message === 'string' ? (message.split('\n')[0] ?? '') : 'failed'
}
