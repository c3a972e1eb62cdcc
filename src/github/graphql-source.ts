/**
 * The API source over GraphQL: one query reads the pull request, the receipts
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
import { statusOf, type Octokit } from './client.js'
import { graphOfHead, prCommitMethods, type CommitGraph } from './pr-commits.js'
import { sharingOnly, type PullRequestInfo, type SharingPull } from './pulls.js'
import { isFullId } from '../gate/review-head.js'
import { limiter } from '../util/concurrency.js'
import { bookkeepingRoots, type TreeNode } from '../gate/tree-diff.js'

/** Levels of the receipts folder read in the query (`x.json.history/` is the second). */
const TREE_DEPTH = 3
/**
 * Bytes of blob text one query asks for once the folder had to be listed first: GitHub
 * ends a query after 10 seconds and fails large answers, so texts go in bounded batches.
 */
export const TEXT_BUDGET = 1_000_000
const TEXT_QUERIES_IN_FLIGHT = 3

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
  /** The `bookkeeping-paths` globs: the commits' trees are read down to their top folders. */
  bookkeepingPaths: readonly string[]
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

/** A tree entry as GraphQL lists it (`TREE_ENTRIES`). */
const EntryFields = z.object({
  name: z.string().min(1),
  type: z.string().min(1),
  mode: z.number(),
  oid: z.string().min(1)
})

type GqlEntry = z.infer<typeof EntryFields> & {
  blob: BlobFacts | null
  /** The entries of a tree the query reached; null for one it did not. */
  entries: GqlEntry[] | null
}

const Tree = z.object({ entries: z.array(z.unknown()) })

const Entry: z.ZodType<GqlEntry> = EntryFields.extend({
  object: z.unknown().optional()
}).transform(({ object, ...entry }) => ({
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

/** A page of the PR's commits (GraphQL's 100), each with its parents. */
const Commits = z.object({
  totalCount: z.number(),
  pageInfo: z
    .object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() })
    .catch({ hasNextPage: false, endCursor: null }),
  nodes: z.array(
    z.object({
      commit: z
        .object({
          oid: z.string().min(1),
          parents: Oids.extend({ totalCount: z.number() }),
          tree: z.unknown().optional()
        })
        // `root0`, `root1` …: bookkeeping's top folders, aliased.
        .catchall(z.unknown())
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
      start: z.unknown().optional(),
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

/** The author as REST spells it: a bot's login with the `[bot]` GraphQL leaves out. */
const GqlAuthor = z
  .object({ __typename: z.string(), login: z.string().min(1) })
  .transform(({ __typename, login }) => (__typename === 'Bot' ? `${login}[bot]` : login))
/** The labels, when the first page holds them all. */
const GqlLabels = z
  .object({ totalCount: z.number(), nodes: z.array(z.object({ name: z.string() })) })
  .refine((labels) => labels.nodes.length === labels.totalCount)

// ------------------------------------------------------------------ the queries

const BLOB = 'byteSize isBinary isTruncated text'
/** A listing's blobs: their sizes, no text. */
const BLOB_SIZE = 'byteSize'
const TREE_ENTRIES = 'entries { name type mode oid }'

/** A query of `repository`, its variables after `$owner` and `$name`. */
const query = (name: string, vars: readonly string[], repository: string): string =>
  `query ${name}(${['$owner: String!', '$name: String!', ...vars].join(', ')}) {
  repository(owner: $owner, name: $name) { ${repository} }
}`

/**
 * The PR's commit graph for review coverage, a page of 100 at a time, each commit with its
 * root tree and its `roots` top folders' entries (`$root0` …): two trees tell code from
 * bookkeeping without reading the commit's files.
 */
function commitsSelection(after: string, roots: number | null): string {
  const trees = roots === null ? '' : treesSelection(roots)
  const commit = `oid parents(first: 2) { totalCount nodes { oid } } ${trees}`
  return `commits(first: 100${after}) { totalCount pageInfo { hasNextPage endCursor } nodes { commit { ${commit} } } }`
}
/** A commit's root tree and its `roots` top folders (`$root0` …), each with its entries. */
function treesSelection(roots: number): string {
  const folders = Array.from(
    { length: roots },
    (_, i) =>
      `root${i}: file(path: $root${i}) { object { ... on Tree { ${TREE_ENTRIES} } } }`
  )
  return `tree { oid ${TREE_ENTRIES} } ${folders.join(' ')}`
}

/**
 * The first commit's parents with their trees: outside the PR, the one commit coverage
 * could not tell from its parent otherwise.
 */
const startSelection = (roots: number): string =>
  `start: commits(first: 1) { nodes { commit { parents(first: 2) { nodes { oid ${treesSelection(roots)} } } } } }`

const rootVariables = (roots: number | null): string[] =>
  Array.from({ length: roots ?? 0 }, (_, i) => `$root${i}: String!`)
const commitsPageQuery = (roots: number | null): string =>
  query(
    'receiptGateCommits',
    ['$number: Int!', '$after: String!', ...rootVariables(roots)],
    `pullRequest(number: $number) { ${commitsSelection(', after: $after', roots)} }`
  )
/**
 * Pages of the PR's commits read at most (3,000 commits, one request a page after the
 * first): past them the REST list answers, which says the PR has more than GitHub lists.
 */
const COMMIT_PAGES_CAP = 30

/** Tree entries with their blobs (`blob`: the fields asked), `depth` levels deep. */
function entriesSelection(depth: number, blob: string): string {
  const inner = depth > 1 ? ` ... on Tree { ${entriesSelection(depth - 1, blob)} }` : ''
  return `entries { name type mode oid object { ... on Blob { ${blob} }${inner} } }`
}

const folderSelection = (blob: string): string =>
  `folder: object(expression: $folder) { ... on Tree { ${entriesSelection(TREE_DEPTH, blob)} } }`
const FOLDER = folderSelection(BLOB)
const FOLDER_LISTING = folderSelection(BLOB_SIZE)

/** The open PRs holding the head, with their bodies: each must name the deferrals too. */
const ASSOCIATED =
  'associatedPullRequests(first: 100) { totalCount nodes { number state headRefOid body } }'

/**
 * The one read: the PR, and when the head is known, the folder, the deferral file and the
 * other PRs on that head; `listing`: the folder's entries and sizes only (its texts would
 * make too large an answer).
 */
function mainQuery(
  roots: number | null,
  withHead: boolean,
  withSink: boolean,
  listing = false
): string {
  const vars = [
    '$number: Int!',
    ...rootVariables(roots),
    ...(withHead ? ['$folder: String!', '$head: GitObjectID!'] : []),
    ...(withSink ? ['$sink: String!'] : [])
  ]
  const sink = `sink: file(path: $sink) { name type mode oid object { ... on Blob { ${BLOB} } } }`
  return query(
    'receiptGate',
    vars,
    `
    pullRequest(number: $number) {
      number body headRefOid baseRefOid headRefName isCrossRepository changedFiles
      author { __typename login } labels(first: 100) { totalCount nodes { name } }
      ${commitsSelection('', roots)} ${roots === null ? '' : startSelection(roots)}
    }
    ${withHead ? (listing ? FOLDER_LISTING : FOLDER) : ''}
    ${withHead ? `head: object(oid: $head) { ... on Commit { ${withSink ? sink : ''} ${ASSOCIATED} } }` : ''}`
  )
}

const FOLDER_QUERY = query('receiptGateFolder', ['$folder: String!'], FOLDER)

/** `history(first: 1, path:)` per receipt, aliased, all in one query. */
function historyQuery(count: number): string {
  const vars = Array.from({ length: count }, (_, i) => `$p${i}: String!`)
  const aliases = Array.from(
    { length: count },
    (_, i) =>
      `h${i}: history(first: 1, path: $p${i}) { nodes { oid parents(first: 1) { nodes { oid } } } }`
  )
  return query(
    'receiptGateHistory',
    ['$head: GitObjectID!', ...vars],
    `object(oid: $head) { ... on Commit { ${aliases.join('\n')} } }`
  )
}

/** Blob texts by id, aliased, in one query. */
function textsQuery(count: number): string {
  const vars = Array.from({ length: count }, (_, i) => `$o${i}: GitObjectID!`)
  const aliases = Array.from(
    { length: count },
    (_, i) => `b${i}: object(oid: $o${i}) { ... on Blob { ${BLOB} } }`
  )
  return query('receiptGateTexts', vars, aliases.join('\n'))
}

/** Ids in batches of at most `budget` bytes each (a larger blob alone). */
function byBudget(
  shas: readonly string[],
  size: (sha: string) => number,
  budget: number
): string[][] {
  const batches: string[][] = []
  let batch: string[] = []
  let bytes = 0
  for (const sha of shas) {
    const next = Math.max(0, size(sha))
    if (batch.length > 0 && bytes + next > budget) {
      batches.push(batch)
      batch = []
      bytes = 0
    }
    batch.push(sha)
    bytes += next
  }
  if (batch.length > 0) batches.push(batch)
  return batches
}

/**
 * Whether a failed read may have failed for its size: GitHub ends a query past 10 seconds
 * and fails large answers, "Something went wrong while executing your query" (which
 * plugin-retry reports as a 500), or a gateway's 502/504. A refusal (FORBIDDEN, a rate
 * limit, a 401) is not.
 */
function mayBeTooLarge(error: unknown): boolean {
  const { errors, message } = error as { errors?: unknown; message?: unknown }
  const status = statusOf(error)
  if (status === 500 || status === 502 || status === 504) return true
  const listed = GqlErrors.safeParse(errors).data ?? []
  const texts = [
    ...listed.map((e) => e.message ?? ''),
    typeof message === 'string' ? message : ''
  ]
  return (
    listed.every((e) => !e.type) &&
    texts.some((text) => /something went wrong|timeout/i.test(text))
  )
}

// ------------------------------------------------------------------ the read

/**
 * The PR's commits with their parents, oldest first, the first page read with the PR and
 * the next ones after it (GraphQL lists past REST's 250); undefined (the REST list
 * answers) where the pages are not whole and consistent: a count that changes, a cursor
 * that does not move on, a commit twice, one with more parents than asked for, or odd.
 */
async function graphOf(
  { commits: first, start }: { commits?: unknown; start?: unknown },
  roots: readonly string[],
  nextPage: (after: string) => Promise<unknown>
): Promise<CommitGraph | undefined> {
  let page = Commits.safeParse(first).data
  if (!page) return undefined
  const total = page.totalCount
  const nodes = [...page.nodes]
  for (let pages = 1; page.pageInfo.hasNextPage; pages++) {
    const after: string | null = page.pageInfo.endCursor
    if (after === null || pages >= COMMIT_PAGES_CAP) return undefined
    page = Commits.safeParse(await nextPage(after)).data
    if (!page || page.totalCount !== total || page.pageInfo.endCursor === after)
      return undefined
    nodes.push(...page.nodes)
  }
  const shas = new Set(nodes.map(({ commit }) => commit.oid.toLowerCase()))
  const whole =
    nodes.length === total &&
    shas.size === total &&
    nodes.every(({ commit }) => commit.parents.totalCount === commit.parents.nodes.length)
  if (!whole) return undefined
  const outside = Start.safeParse(start).data?.nodes[0]?.commit.parents.nodes ?? []
  return {
    commits: nodes.map(({ commit }) => ({
      sha: commit.oid.toLowerCase(),
      parents: commit.parents.nodes.map(({ oid }) => oid.toLowerCase()),
      tree: commitTree(commit, roots)
    })),
    outside: outside.flatMap((parent) => {
      const tree = commitTree(parent, roots)
      return tree ? [{ sha: parent.oid.toLowerCase(), tree }] : []
    })
  }
}

const Start = z.object({
  nodes: z.array(
    z.object({
      commit: z.object({
        parents: z.object({
          nodes: z.array(z.object({ oid: z.string().min(1) }).catchall(z.unknown()))
        })
      })
    })
  )
})

const TreeEntries = z.object({
  oid: z.string().optional(),
  entries: z.array(EntryFields.extend({ mode: z.number().int().nonnegative() }))
})
type TreeEntries = z.infer<typeof TreeEntries>
const Folder = z.object({ object: TreeEntries })

/**
 * A commit's root entries with its `roots` folders' entries, each list kept only when it
 * hashes to its tree's id (a list cut short or altered settles nothing); undefined: none.
 */
function commitTree(
  commit: Record<string, unknown>,
  roots: readonly string[]
): TreeNode[] | undefined {
  const root = TreeEntries.safeParse(commit.tree).data
  if (!root?.oid || !isTreeOf(root.entries, root.oid)) return undefined
  return root.entries.map((entry) => {
    const node = treeNode(entry)
    const at = roots.indexOf(entry.name)
    const folder = at === -1 ? undefined : Folder.safeParse(commit[`root${at}`]).data
    if (entry.type !== 'tree' || !folder || !isTreeOf(folder.object.entries, entry.oid))
      return node
    return { ...node, entries: folder.object.entries.map(treeNode) }
  })
}

const treeNode = (entry: TreeEntries['entries'][number]): TreeNode => ({
  name: entry.name,
  type: entry.type,
  mode: entry.mode.toString(8),
  oid: entry.oid.toLowerCase()
})

/** Whether `entries` are exactly the tree `oid`: git's tree object built from them hashes to it. */
function isTreeOf(entries: TreeEntries['entries'], oid: string): boolean {
  // Git orders a tree by name bytes, a folder's name as if it ended in `/`.
  const key = (e: TreeEntries['entries'][number]): Buffer =>
    Buffer.from(e.type === 'tree' ? `${e.name}/` : e.name)
  const sorted = [...entries].sort((a, b) => Buffer.compare(key(a), key(b)))
  const body = Buffer.concat(
    sorted.map((e) =>
      Buffer.concat([
        Buffer.from(`${e.mode.toString(8)} ${e.name}\0`),
        Buffer.from(e.oid.length === oid.length ? e.oid : '', 'hex')
      ])
    )
  )
  return isObject(oid, 'tree', body)
}

/** Reads the PR (and, with a head, the receipts) in one query. */
export async function readWithGraphql(options: GraphqlReadOptions): Promise<GraphqlRead> {
  const { octokit, owner, repo, number, head, receiptsDir } = options
  const sinkPath = head ? options.branchSinkPath : null
  // The commits' trees are read with them, unless even the listing was too large with
  // them (coverage reads those commits then). Null: no trees.
  const roots = bookkeepingRoots(options.bookkeepingPaths)
  const pullVariables = (rootCount: number | null): Record<string, string | number> => ({
    owner,
    name: repo,
    number,
    ...Object.fromEntries(
      roots.slice(0, rootCount ?? 0).map((root, i) => [`root${i}`, root])
    )
  })
  const read = async (
    { listing, trees }: { listing: boolean; trees: boolean },
    retried: boolean
  ): Promise<{ data: unknown; rootCount: number | null }> => {
    const rootCount = trees ? roots.length : null
    const data = await octokit.graphql(
      mainQuery(rootCount, head !== null, sinkPath !== null, listing),
      {
        ...pullVariables(rootCount),
        ...(head ? { folder: `${head}:${receiptsDir}`, head } : {}),
        ...(sinkPath && head ? { sink: sinkPath } : {}),
        ...(retried ? {} : { request: { retries: 0 } })
      }
    )
    return { data, rootCount }
  }
  // Every text in one answer while the folder is small; past GitHub's limits the folder
  // is listed with its sizes (readBlobs reads its texts in bounded batches), and then
  // without the commits' trees. Each but the last attempt is not retried by the client:
  // an answer too large fails again, and the next is asked instead; one that never came
  // is asked again.
  const full = { listing: false, trees: true }
  const attempt = async (
    asked: { listing: boolean; trees: boolean },
    tooLarge: () => Promise<{ data: unknown; rootCount: number | null }>
  ): Promise<{ data: unknown; rootCount: number | null }> =>
    read(asked, false).catch(async (error: unknown) => {
      if (mayBeTooLarge(error)) return tooLarge()
      if (statusOf(error) === undefined) return read(asked, true)
      throw error
    })
  const { data, rootCount } =
    head === null
      ? await read(full, true)
      : await attempt(full, async () =>
          attempt({ listing: true, trees: true }, async () =>
            read({ listing: true, trees: false }, true)
          )
        )
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
    author: GqlAuthor.safeParse(raw.author).data ?? null,
    labels: GqlLabels.safeParse(raw.labels).data?.nodes.map((label) => label.name) ?? null
  }
  // Read when coverage asks for it (`coverage: off` asks nothing), its later pages then.
  let graph: Promise<CommitGraph | undefined> | undefined
  const readGraph = async (): Promise<CommitGraph | undefined> =>
    (graph ??= graphOf(raw, roots, async (after) => {
      const page = await octokit.graphql<{
        repository?: { pullRequest?: { commits?: unknown } }
      }>(commitsPageQuery(rootCount), { ...pullVariables(rootCount), after })
      return page.repository?.pullRequest?.commits
    }).catch((error: unknown) => {
      if (isBug(error)) throw error
      options.debug?.(
        `the PR's commits through REST, not GraphQL: ${graphqlFailure(error)}`
      )
      return undefined
    }))
  return {
    pull,
    sharing: head
      ? sharingOf(repository.head?.associatedPullRequests, head, number)
      : null,
    source: (rest) =>
      graphqlSource(
        options,
        pull,
        readGraph,
        head === rest.head ? repository : null,
        rest
      )
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
  graph: () => Promise<CommitGraph | undefined>,
  read: FirstRead | null,
  rest: ReceiptSource
): ReceiptSource {
  const { octokit, owner, repo } = options
  const { head } = rest
  // Blob texts checked against their ids, by id; the listed sizes of the blobs not read.
  const exact = new Map<string, Uint8Array>()
  const sizes = new Map<string, number>()
  const limit = limiter(TEXT_QUERIES_IN_FLIGHT)
  /** Texts of blobs the folder's read listed without them: bounded queries, a few at once. */
  const readTexts = async (shas: readonly string[]): Promise<void> => {
    const listed = shas.filter((sha) => sizes.has(sha) && isFullId(sha, head))
    const batches = byBudget(listed, (sha) => sizes.get(sha) ?? 0, TEXT_BUDGET)
    await Promise.all(
      batches.map(async (batch) =>
        limit(async () => {
          const data = await octokit
            .graphql<{ repository?: Record<string, unknown> }>(textsQuery(batch.length), {
              owner,
              name: repo,
              ...Object.fromEntries(batch.map((sha, i) => [`o${i}`, sha]))
            })
            // A batch that fails is read through REST, blob by blob.
            .catch((error: unknown) => {
              if (isBug(error)) throw error
              options.debug?.(
                `${batch.length} blob texts through REST, not GraphQL: ${graphqlFailure(error)}`
              )
              return null
            })
          batch.forEach((sha, i) => {
            const blob = Blob.safeParse(data?.repository?.[`b${i}`]).data
            const bytes = blob ? exactBytes(sha, blob) : null
            if (bytes) exact.set(sha, bytes)
          })
        })
      )
    )
  }
  const readFolder = read ? entriesOf(read.folder) : undefined
  const folder = async (dir: string): Promise<GqlEntry[] | null> => {
    if (dir === options.receiptsDir && readFolder !== undefined) return readFolder
    const data = await octokit.graphql<{ repository?: { folder?: unknown } }>(
      FOLDER_QUERY,
      { owner, name: repo, folder: `${head}:${dir}` }
    )
    return entriesOf(data.repository?.folder)
  }
  // Read with the PR, it is the PR's head's: used only when that is the judged head.
  const headGraph = async (): Promise<CommitGraph | null | undefined> =>
    graph().then((read) => read && graphOfHead(read, head))
  return {
    ...rest,
    // Review coverage over the graph read with the PR: no request of its own.
    ...prCommitMethods(
      { octokit, owner, repo, head, pullNumber: pull.number, baseSha: pull.baseSha },
      async () =>
        (await headGraph()) ??
        rest.prCommitGraph?.() ?? { commits: null, note: 'no commit list' }
    ),
    // Past the files a compare lists, the head's tree and the reviewed commit's (both
    // read with the PR's commits) can still show that only bookkeeping changed.
    async ancestry(reviewed) {
      const found = await rest.ancestry(reviewed)
      if (found.kind !== 'too-large') return found
      const commits = (await headGraph())?.commits ?? []
      const tree = (sha: string): readonly TreeNode[] | undefined =>
        commits.find((commit) => commit.sha === sha.toLowerCase())?.tree
      const [own, parent] = [tree(head), tree(reviewed)]
      return own && parent ? { ...found, trees: { own, parent } } : found
    },
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
            else if (entry.blob?.text === null && entry.blob.isBinary === null)
              sizes.set(entry.oid, entry.blob.byteSize)
          }
        }
      }
      await walk((await folder(dir)) ?? [], dir)
      return { entries: out, truncated }
    },
    async readBlobs(shas) {
      await readTexts(shas.filter((sha) => !exact.has(sha)))
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
 * (invalid UTF-8 replaced), so the text's UTF-8 bytes must hash to the blob's id.
 */
function exactBytes(oid: string, blob: BlobFacts): Uint8Array | null {
  if (blob.isBinary !== false || blob.isTruncated || blob.text === null) return null
  const bytes = Buffer.from(blob.text, 'utf8')
  return isObject(oid, 'blob', bytes) ? bytes : null
}

/** Whether `body` is object `oid`: git's id hashes `<type> <length>\0<body>`. */
function isObject(oid: string, type: 'blob' | 'tree', body: Buffer): boolean {
  const id = createHash(oid.length === 64 ? 'sha256' : 'sha1')
    .update(`${type} ${body.length}\0`)
    .update(body)
    .digest('hex')
  return id === oid.toLowerCase()
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
