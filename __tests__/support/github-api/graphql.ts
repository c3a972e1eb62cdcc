/**
 * The fake's GraphQL endpoint (issue 24): every query is parsed and validated against
 * GitHub's published schema (`@octokit/graphql-schema`) with graphql-js, then executed from
 * the git repository and the PR specs by one field resolver that dispatches on `Type.field`.
 * A field without a resolver answers an error and lands in `unexpected`, never a silent null.
 *
 * Answers follow GitHub: HTTP 200 with `{"errors":[…]}` for a query GitHub refuses (its
 * wording for the common validation errors), `{"data":…,"errors":[…]}` with a `type` such as
 * NOT_FOUND for what fails while resolving. The HTTP side (auth, faults, recording) is in
 * server.ts.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import {
  buildASTSchema,
  execute,
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLError,
  Kind,
  OperationTypeNode,
  parse,
  print,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type GraphQLTypeResolver,
  type OperationDefinitionNode
} from 'graphql'
import {
  plainRev,
  type FileChange,
  type GitBacking,
  type TreeEntry
} from './git-backing.js'
import type { PullStats, PullView } from './objects.js'

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- JSON in, JSON out */
type Json = any

/**
 * GitHub cuts `Blob.text` at exactly 512,000 bytes and sets `isTruncated` (measured byte
 * for byte in https://github.com/sveltia/sveltia-cms/issues/950; GitHub documents no limit).
 */
export const BLOB_TEXT_LIMIT = 512_000

/** git's binary heuristic (`buffer_is_binary`): a NUL in the first 8,000 bytes. */
const BINARY_PROBE = 8000

/** GitHub's most files a pull request lists (REST and GraphQL alike). */
const MAX_CONNECTION_PAGE = 100

// ---------------------------------------------------------------- the schema

let schemaCache: { schema: GraphQLSchema; loadMs: number } | undefined

/** `@octokit/graphql-schema`'s schema.graphql (its package exports only the JS entry). */
function schemaFile(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', '@octokit', 'graphql-schema', 'schema.graphql')
    if (existsSync(file)) return file
    if (dirname(dir) === dir) throw new Error('@octokit/graphql-schema is not installed')
  }
}

/**
 * GitHub's schema, built once per module registry (~0.5 s). `assumeValidSDL`: the published
 * SDL defines two EnterpriseOwnerInfo fields twice, which graphql-js refuses otherwise.
 */
export function loadGraphqlSchema(): { schema: GraphQLSchema; loadMs: number } {
  if (!schemaCache) {
    const t0 = performance.now()
    const doc = parse(readFileSync(schemaFile(), 'utf8'), { noLocation: true })
    const schema = buildASTSchema(doc, { assumeValidSDL: true })
    schemaCache = { schema, loadMs: performance.now() - t0 }
  }
  return schemaCache
}

// ---------------------------------------------------------------- the host

/** What the endpoint needs from the fake. */
export interface GraphqlHost {
  owner: string
  name: string
  defaultBranch: string
  git: GitBacking
  /** The PR as REST would show it now, or undefined if there is none. */
  pull(number: number): Promise<PullView | undefined>
  /** The PR's changed files, as `pulls/list-files` lists them (merge base..head, ≤ 3,000). */
  pullFiles(view: PullView): Promise<FileChange[]>
  /** The PR's counts as `pulls/get` gives them (all changed files, not only the listed). */
  pullStats(view: PullView): Promise<PullStats>
  /** The PR's commits, oldest first: all of them (`pulls/list-commits` stops at 250). */
  pullCommits(view: PullView): Promise<string[]>
  /** The open PRs containing a commit, as `commits/{sha}/pulls` lists them (oldest first). */
  pullsContaining(sha: string): Promise<PullView[]>
  /** GraphQL requests answered so far (for `rateLimit`). */
  graphqlRequests(): number
}

/** A resolver fault: the field at `path` (response keys) fails with this error. */
export interface FieldFault {
  path: (string | number)[]
  type?: string
  message?: string
}

export interface GraphqlAnswer {
  body: Json
  /** Client errors GitHub would refuse the query for. */
  violations: { rule: string; message: string }[]
  /** Fields the fake does not implement. */
  unexpected: string[]
  /** The fake broke the schema (e.g. null for a non-null field) or crashed. */
  bugs: string[]
}

export interface GraphqlOptions {
  /** Bytes of `Blob.text` before it is cut and `isTruncated` (default 512,000). */
  blobTextLimit?: number
}

/** An error GitHub answers inside `errors`, with its `type`. */
class GitHubGraphqlError extends Error {
  constructor(
    readonly type: string,
    message: string,
    /** The query was at fault: GitHub refuses it (recorded as a violation). */
    readonly violation = false
  ) {
    super(message)
  }
}

class Unimplemented extends Error {}

export const GRAPHQL_DOCS =
  'https://docs.github.com/graphql/guides/forming-calls-with-graphql'

// ---------------------------------------------------------------- the model

interface Repo {
  owner: string
  name: string
}

type ObjectKind = 'Commit' | 'Tree' | 'Blob' | 'Tag'

interface GitObj {
  kind: ObjectKind
  oid: string
  /** Repository path of a tree or blob when reached by path ('' when unknown). */
  path: string
  /** Blob size when already known. */
  size?: number
}

interface Entry {
  entry: TreeEntry
  /** Path from the repository root. */
  fullPath: string
}

interface Connection<T> {
  items: T[]
  /** Cursor of each item. */
  cursors: string[]
  /** A function when it costs a git walk of its own (asked only if selected). */
  hasNextPage: boolean | (() => Promise<boolean>)
  hasPreviousPage: boolean
  totalCount: () => Promise<number> | number
}

interface Ctx {
  host: GraphqlHost
  textLimit: number
  fault?: FieldFault
  memo: Map<string, Promise<unknown>>
}

type Resolver = (source: Json, args: Json, ctx: Ctx, info: GraphQLResolveInfo) => unknown

const KIND: Record<string, ObjectKind> = {
  commit: 'Commit',
  tree: 'Tree',
  blob: 'Blob',
  tag: 'Tag'
}

/** GitHub's `TreeEntry.mode`: the git mode as an Int (100644 → 33188). */
const treeMode = (mode: string) => parseInt(mode, 8)

const CHANGE_TYPE: Record<FileChange['status'], string> = {
  added: 'ADDED',
  removed: 'DELETED',
  modified: 'MODIFIED',
  renamed: 'RENAMED',
  copied: 'COPIED',
  changed: 'CHANGED'
}

const cursorOf = (index: number) => Buffer.from(`cursor:${index + 1}`).toString('base64')

function indexOfCursor(cursor: string): number {
  const m = /^cursor:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'))
  if (!m) {
    throw new GitHubGraphqlError(
      'INVALID_CURSOR_ARGUMENTS',
      `\`${cursor}\` does not appear to be a valid cursor.`,
      true
    )
  }
  return Number(m[1]) - 1
}

/** A page of `items` by first/after/last/before, GitHub's connection arguments. */
function window<T>(items: T[], args: Json): Connection<T> {
  let start = 0
  let end = items.length
  if (args.after != null) start = Math.max(start, indexOfCursor(args.after) + 1)
  if (args.before != null) end = Math.min(end, indexOfCursor(args.before))
  if (end < start) end = start
  if (args.first != null) end = Math.min(end, start + args.first)
  if (args.last != null) start = Math.max(start, end - args.last)
  const slice = items.slice(start, end)
  return {
    items: slice,
    cursors: slice.map((_, i) => cursorOf(start + i)),
    hasNextPage: end < items.length,
    hasPreviousPage: start > 0,
    totalCount: () => items.length
  }
}

const field =
  <T>(read: (s: T) => unknown): Resolver =>
  (s: T) =>
    read(s)

// ---------------------------------------------------------------- git answers

/** `<rev>` or `<rev>:<path>`, GitHub's `object(expression:)`; null when it names nothing. */
async function objectAt(
  git: GitBacking,
  host: GraphqlHost,
  expr: string
): Promise<GitObj | null> {
  const colon = expr.indexOf(':')
  const rawRev = colon < 0 ? expr : expr.slice(0, colon)
  // HEAD is the default branch on GitHub, whatever the fake's work tree has checked out.
  const rev = rawRev === 'HEAD' ? host.defaultBranch : rawRev
  if (!plainRev(rev)) return null
  if (colon < 0) {
    const info = await git.resolveObject(rev)
    const kind = info && KIND[info.type]
    return kind ? { kind, oid: info.sha, path: '', size: info.size } : null
  }
  const path = expr.slice(colon + 1).replace(/\/+$/, '')
  // Relative and empty segments are git's working-directory syntax, not a repository path.
  if (path !== '' && path.split('/').some((s) => s === '' || s === '.' || s === '..'))
    return null
  const commit = await git.resolveCommit(rev)
  const entry = commit === undefined ? undefined : await git.entryAt(commit, path)
  if (!entry || entry.type === 'commit') return null
  return { kind: KIND[entry.type]!, oid: entry.sha, path: entry.path, size: entry.size }
}

async function objectById(git: GitBacking, oid: string): Promise<GitObj | null> {
  if (!/^[0-9a-f]{40}$/i.test(oid)) return null
  const info = await git.resolveObject(oid.toLowerCase())
  const kind = info && KIND[info.type]
  return kind ? { kind, oid: info.sha, path: '', size: info.size } : null
}

/** Once per request and object: several fields read the same bytes. */
async function memo<T>(ctx: Ctx, key: string, compute: () => Promise<T>): Promise<T> {
  let p = ctx.memo.get(key) as Promise<T> | undefined
  if (!p) {
    p = compute()
    ctx.memo.set(key, p)
  }
  return p
}

async function blobFacts(ctx: Ctx, o: GitObj): Promise<Json> {
  return memo(ctx, `blob:${o.oid}`, async () => readBlob(ctx, o))
}

async function readBlob(ctx: Ctx, o: GitObj): Promise<Json> {
  const bytes = (await ctx.host.git.blob(o.oid)) ?? Buffer.alloc(0)
  const isBinary = bytes.subarray(0, BINARY_PROBE).includes(0)
  const isTruncated = bytes.length > ctx.textLimit
  // Invalid UTF-8 becomes U+FFFD, as GitHub gives text, never bytes.
  const text = isBinary ? null : bytes.subarray(0, ctx.textLimit).toString('utf8')
  return { isBinary, isTruncated, text }
}

async function tagFacts(ctx: Ctx, o: GitObj): Promise<Json> {
  return memo(ctx, `tag:${o.oid}`, async () => readTag(ctx, o))
}

async function readTag(ctx: Ctx, o: GitObj): Promise<Json> {
  const obj = await ctx.host.git.object(o.oid)
  const text = obj?.data.toString('utf8') ?? ''
  const header = (k: string) => new RegExp(`^${k} (.*)$`, 'm').exec(text)?.[1] ?? ''
  const split = text.indexOf('\n\n')
  return {
    name: header('tag'),
    target: header('object'),
    message: split < 0 ? '' : text.slice(split + 2).replace(/\n+$/, '')
  }
}

async function commitConnection(
  ctx: Ctx,
  c: GitObj,
  args: Json
): Promise<Connection<GitObj>> {
  for (const k of ['author', 'since', 'until', 'before', 'last']) {
    if (args[k] != null) throw new Unimplemented(`Commit.history(${k}:)`)
  }
  const path = args.path == null ? undefined : String(args.path)
  const skip = args.after == null ? 0 : historyIndex(args.after, c.oid) + 1
  const first = args.first as number
  const git = ctx.host.git
  const items = await historyShas(git, c.oid, path, skip, first)
  return {
    items: items.map((oid) => ({ kind: 'Commit', oid, path: '' })),
    // GitHub's history cursors: "<start oid> <index>".
    cursors: items.map((_, i) => `${c.oid} ${skip + i}`),
    hasNextPage: async () =>
      (await git.log(c.oid, { path, skip, limit: first + 1 })).length > first,
    hasPreviousPage: skip > 0,
    totalCount: async () => ctx.host.git.count(c.oid, path)
  }
}

/**
 * `git log` from `start` (limited to `path`), `count` commits after `skip`: a spawn, except
 * for the newest commit that touched a plain path (the product's many
 * `history(first: 1, path:)` aliases), read from trees without spawning git.
 */
async function historyShas(
  git: GitBacking,
  start: string,
  path: string | undefined,
  skip: number,
  count: number
): Promise<string[]> {
  const plain =
    path !== undefined &&
    !/[:*?[\]\\]/.test(path) &&
    path.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
  if (plain && skip === 0 && count === 1) {
    const newest = await git.lastChange(start, path)
    return newest === undefined ? [] : [newest]
  }
  return git.log(start, { path, skip, limit: count })
}

function historyIndex(cursor: string, oid: string): number {
  const m = /^([0-9a-f]{40}) (\d+)$/.exec(cursor)
  if (!m || m[1] !== oid) {
    throw new GitHubGraphqlError(
      'INVALID_CURSOR_ARGUMENTS',
      `\`${cursor}\` does not appear to be a valid cursor.`,
      true
    )
  }
  return Number(m[2])
}

// ---------------------------------------------------------------- resolvers

const gitObjectFields = (kind: ObjectKind): Record<string, Resolver> => ({
  [`${kind}.oid`]: field<GitObj>((o) => o.oid),
  [`${kind}.abbreviatedOid`]: field<GitObj>((o) => o.oid.slice(0, 7))
})

const connectionFields = (type: string, edge: string): Record<string, Resolver> => ({
  [`${type}.nodes`]: field<Connection<unknown>>((c) => c.items),
  [`${type}.edges`]: field<Connection<unknown>>((c) =>
    c.items.map((node, i) => ({ node, cursor: c.cursors[i] }))
  ),
  [`${type}.pageInfo`]: field<Connection<unknown>>((c) => c),
  [`${type}.totalCount`]: async (c: Connection<unknown>) => c.totalCount(),
  [`${edge}.node`]: field<{ node: unknown }>((e) => e.node),
  [`${edge}.cursor`]: field<{ cursor: string }>((e) => e.cursor)
})

const RESOLVERS: Record<string, Resolver> = {
  'Query.repository': (_s, args: { owner: string; name: string }, ctx) => {
    const { host } = ctx
    if (
      args.owner.toLowerCase() !== host.owner.toLowerCase() ||
      args.name.toLowerCase() !== host.name.toLowerCase()
    ) {
      throw new GitHubGraphqlError(
        'NOT_FOUND',
        `Could not resolve to a Repository with the name '${args.owner}/${args.name}'.`
      )
    }
    return { owner: host.owner, name: host.name } satisfies Repo
  },
  'Query.rateLimit': (_s, _a, ctx) => {
    const used = Math.min(ctx.host.graphqlRequests(), 1000)
    return {
      cost: 1,
      limit: 1000,
      nodeCount: 0,
      remaining: 1000 - used,
      used,
      resetAt: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    }
  },
  ...Object.fromEntries(
    ['cost', 'limit', 'nodeCount', 'remaining', 'used', 'resetAt'].map((k) => [
      `RateLimit.${k}`,
      field<Json>((r) => r[k])
    ])
  ),

  'Repository.name': field<Repo>((r) => r.name),
  'Repository.nameWithOwner': field<Repo>((r) => `${r.owner}/${r.name}`),
  'Repository.pullRequest': async (r: Repo, args: { number: number }, ctx) => {
    const view =
      r.owner === ctx.host.owner && r.name === ctx.host.name
        ? await ctx.host.pull(args.number)
        : undefined
    if (!view) {
      throw new GitHubGraphqlError(
        'NOT_FOUND',
        `Could not resolve to a PullRequest with the number of ${args.number}.`
      )
    }
    return view
  },
  'Repository.object': async (
    _r: Repo,
    args: { expression?: string; oid?: string },
    ctx
  ) => {
    if (args.oid != null) return objectById(ctx.host.git, args.oid)
    if (args.expression != null) return objectAt(ctx.host.git, ctx.host, args.expression)
    return null
  },

  'PullRequest.number': field<PullView>((p) => p.number),
  'PullRequest.title': field<PullView>((p) => p.title),
  // `body` is String! on GitHub: an empty description reads "".
  'PullRequest.body': field<PullView>((p) => p.body ?? ''),
  'PullRequest.state': field<PullView>((p) =>
    p.merged ? 'MERGED' : p.state === 'open' ? 'OPEN' : 'CLOSED'
  ),
  'PullRequest.isDraft': field<PullView>((p) => p.draft),
  'PullRequest.merged': field<PullView>((p) => p.merged),
  'PullRequest.headRefOid': field<PullView>((p) => p.head.sha),
  'PullRequest.baseRefOid': field<PullView>((p) => p.base.sha),
  'PullRequest.headRefName': field<PullView>((p) => p.head.ref),
  'PullRequest.baseRefName': field<PullView>((p) => p.base.ref),
  'PullRequest.isCrossRepository': field<PullView>((p) => p.head.repo.fork),
  'PullRequest.headRepository': field<PullView>((p): Repo => ({
    owner: p.head.repo.owner,
    name: p.head.repo.name
  })),
  'PullRequest.baseRepository': field<PullView>((p): Repo => ({
    owner: p.base.repo.owner,
    name: p.base.repo.name
  })),
  // GitHub's GraphQL spells a bot's login without REST's `[bot]` suffix, typed Bot.
  'PullRequest.author': field<PullView>((p) =>
    p.user.endsWith('[bot]')
      ? { kind: 'Bot', login: p.user.slice(0, -'[bot]'.length) }
      : { kind: 'User', login: p.user }
  ),
  'User.login': field<{ login: string }>((a) => a.login),
  'Bot.login': field<{ login: string }>((a) => a.login),
  'PullRequest.labels': (p: PullView, args: Json) =>
    window(
      p.labels.map((name) => ({ name })),
      args
    ),
  ...connectionFields('LabelConnection', 'LabelEdge'),
  'Label.name': field<{ name: string }>((l) => l.name),
  'PullRequest.changedFiles': async (p: PullView, _a, ctx) =>
    (await ctx.host.pullStats(p)).changed_files,
  'PullRequest.additions': async (p: PullView, _a, ctx) =>
    (await ctx.host.pullStats(p)).additions,
  'PullRequest.deletions': async (p: PullView, _a, ctx) =>
    (await ctx.host.pullStats(p)).deletions,
  'PullRequest.files': async (p: PullView, args, ctx) =>
    window(await ctx.host.pullFiles(p), args),
  ...connectionFields('PullRequestChangedFileConnection', 'PullRequestChangedFileEdge'),
  'PullRequest.commits': async (p: PullView, args, ctx) =>
    window(
      (await ctx.host.pullCommits(p)).map((oid): GitObj => ({
        kind: 'Commit',
        oid,
        path: ''
      })),
      args
    ),
  ...connectionFields('PullRequestCommitConnection', 'PullRequestCommitEdge'),
  'PullRequestCommit.commit': field<GitObj>((c) => c),
  'PullRequestChangedFile.path': field<FileChange>((f) => f.filename),
  'PullRequestChangedFile.changeType': field<FileChange>((f) => CHANGE_TYPE[f.status]),
  'PullRequestChangedFile.additions': field<FileChange>((f) => f.additions),
  'PullRequestChangedFile.deletions': field<FileChange>((f) => f.deletions),

  'PageInfo.hasNextPage': async (c: Connection<unknown>) =>
    typeof c.hasNextPage === 'function' ? c.hasNextPage() : c.hasNextPage,
  'PageInfo.hasPreviousPage': field<Connection<unknown>>((c) => c.hasPreviousPage),
  'PageInfo.startCursor': field<Connection<unknown>>((c) => c.cursors[0] ?? null),
  'PageInfo.endCursor': field<Connection<unknown>>((c) => c.cursors.at(-1) ?? null),

  ...gitObjectFields('Commit'),
  'Commit.message': async (c: GitObj, _a, ctx) =>
    (await ctx.host.git.commit(c.oid)).message,
  'Commit.messageHeadline': async (c: GitObj, _a, ctx) =>
    (await ctx.host.git.commit(c.oid)).message.split('\n')[0],
  'Commit.committedDate': async (c: GitObj, _a, ctx) =>
    (await ctx.host.git.commit(c.oid)).committer.date,
  'Commit.authoredDate': async (c: GitObj, _a, ctx) =>
    (await ctx.host.git.commit(c.oid)).author.date,
  'Commit.tree': async (c: GitObj, _a, ctx): Promise<GitObj> => ({
    kind: 'Tree',
    oid: (await ctx.host.git.commit(c.oid)).tree,
    path: ''
  }),
  'Commit.parents': async (c: GitObj, args, ctx) =>
    window(
      (await ctx.host.git.commit(c.oid)).parents.map((oid): GitObj => ({
        kind: 'Commit',
        oid,
        path: ''
      })),
      args
    ),
  ...connectionFields('CommitConnection', 'CommitEdge'),
  'Commit.history': async (c: GitObj, args, ctx) => commitConnection(ctx, c, args),
  ...connectionFields('CommitHistoryConnection', 'CommitEdge'),
  // The default order, CREATED_AT ASC, is the PRs' numbers' in the fake.
  'Commit.associatedPullRequests': async (c: GitObj, args, ctx) =>
    window(await ctx.host.pullsContaining(c.oid), args),
  ...connectionFields('PullRequestConnection', 'PullRequestEdge'),
  'Commit.file': async (
    c: GitObj,
    args: { path: string },
    ctx
  ): Promise<Entry | null> => {
    const path = args.path.replace(/^\/+|\/+$/g, '')
    const entry = path === '' ? undefined : await ctx.host.git.entryAt(c.oid, path)
    if (!entry) return null
    const name = entry.path.slice(entry.path.lastIndexOf('/') + 1)
    return { entry: { ...entry, path: name }, fullPath: entry.path }
  },

  ...gitObjectFields('Tree'),
  'Tree.entries': async (t: GitObj, _a, ctx): Promise<Entry[]> =>
    (await ctx.host.git.lsTree(t.oid, false)).map((entry) => ({
      entry,
      fullPath: t.path ? `${t.path}/${entry.path}` : entry.path
    })),
  'TreeEntry.name': field<Entry>((e) => e.entry.path),
  'TreeEntry.path': field<Entry>((e) => e.fullPath),
  'TreeEntry.type': field<Entry>((e) => e.entry.type),
  'TreeEntry.mode': field<Entry>((e) => treeMode(e.entry.mode)),
  'TreeEntry.oid': field<Entry>((e) => e.entry.sha),
  'TreeEntry.size': field<Entry>((e) => e.entry.size ?? 0),
  'TreeEntry.extension': field<Entry>((e) => {
    const dot = e.entry.path.lastIndexOf('.')
    return e.entry.type === 'blob' && dot > 0 ? e.entry.path.slice(dot) : null
  }),
  // A submodule's commit is not in this repository: GitHub gives no object for it.
  'TreeEntry.object': field<Entry>((e): GitObj | null =>
    e.entry.type === 'commit'
      ? null
      : {
          kind: KIND[e.entry.type]!,
          oid: e.entry.sha,
          path: e.fullPath,
          size: e.entry.size
        }
  ),

  ...gitObjectFields('Blob'),
  'Blob.byteSize': async (b: GitObj, _a, ctx) =>
    b.size ?? (await ctx.host.git.resolveObject(b.oid))?.size ?? 0,
  'Blob.isBinary': async (b: GitObj, _a, ctx) => (await blobFacts(ctx, b)).isBinary,
  'Blob.isTruncated': async (b: GitObj, _a, ctx) => (await blobFacts(ctx, b)).isTruncated,
  'Blob.text': async (b: GitObj, _a, ctx) => (await blobFacts(ctx, b)).text,

  ...gitObjectFields('Tag'),
  'Tag.name': async (t: GitObj, _a, ctx) => (await tagFacts(ctx, t)).name,
  'Tag.message': async (t: GitObj, _a, ctx) => (await tagFacts(ctx, t)).message,
  'Tag.target': async (t: GitObj, _a, ctx) =>
    objectById(ctx.host.git, (await tagFacts(ctx, t)).target)
}

const fieldResolver: GraphQLFieldResolver<unknown, Ctx> = (source, args, ctx, info) => {
  const key = `${info.parentType.name}.${info.fieldName}`
  const fault = ctx.fault
  if (fault && responsePath(info).join('.') === fault.path.join('.')) {
    ctx.fault = undefined
    throw new GitHubGraphqlError(
      fault.type ?? 'INTERNAL',
      fault.message ?? somethingWentWrong()
    )
  }
  const resolve = RESOLVERS[key]
  if (!resolve) throw new Unimplemented(key)
  return resolve(source, args, ctx, info)
}

const typeResolver: GraphQLTypeResolver<GitObj, Ctx> = (o) => o.kind

function responsePath(info: GraphQLResolveInfo): (string | number)[] {
  const out: (string | number)[] = []
  for (let p: GraphQLResolveInfo['path'] | undefined = info.path; p; p = p.prev)
    out.unshift(p.key)
  return out
}

/** GitHub's answer to a query that failed inside (its wording, a request id). */
export function somethingWentWrong(): string {
  const id = `FAKE:${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .toUpperCase()}`
  return `Something went wrong while executing your query. Please include \`${id}\` when reporting this issue.`
}

// ---------------------------------------------------------------- GitHub's refusals

/** graphql-js validation wording → GitHub's (graphql-ruby) wording and code. */
const VALIDATION_WORDING: [
  RegExp,
  (m: RegExpExecArray, types: Map<string, string>) => { message: string; code: string }
][] = [
  [
    /^Cannot query field "([^"]+)" on type "([^"]+)"/,
    (m) => ({
      message: `Field '${m[1]}' doesn't exist on type '${m[2]}'`,
      code: 'undefinedField'
    })
  ],
  [
    /^Field "([^"]+)" argument "([^"]+)" of type "[^"]+" is required, but it was not provided\./,
    (m) => ({
      message: `Field '${m[1]}' is missing required arguments: ${m[2]}`,
      code: 'missingRequiredArguments'
    })
  ],
  [
    /^Unknown argument "([^"]+)" on field "[^".]+\.([^"]+)"/,
    (m) => ({
      message: `Field '${m[2]}' doesn't accept argument '${m[1]}'`,
      code: 'argumentNotAccepted'
    })
  ],
  [
    /^Variable "\$([^"]+)" is never used(?: in operation "([^"]+)")?\./,
    (m) => ({
      message: `Variable $${m[1]} is declared by ${m[2] ?? 'anonymous query'} but not used`,
      code: 'variableNotUsed'
    })
  ],
  [
    /^Variable "\$([^"]+)" is not defined(?: by operation "([^"]+)")?\./,
    (m) => ({
      message: `Variable $${m[1]} is used by ${m[2] ?? 'anonymous query'} but not declared`,
      code: 'variableNotDefined'
    })
  ],
  [
    /^Field "([^"]+)" of type "([^"]+)" must have a selection of subfields/,
    (m) => ({
      message: `Field must have selections (field '${m[1]}' returns ${(m[2] ?? '').replace(/[[\]!]/g, '')} but has no selections. Did you mean '${m[1]} { ... }'?)`,
      code: 'selectionMismatch'
    })
  ],
  [
    /^Variable "\$([^"]+)" (?:of required type "[^"]+" was not provided|got invalid value)/,
    (m, types) => ({
      message: `Variable $${m[1]} of type ${types.get(m[1] ?? '')} was provided invalid value`,
      code: 'variableMismatch'
    })
  ]
]

/** A refused query's error, in GitHub's words; `types`: the operation's variable types. */
function refusal(e: GraphQLError, types = new Map<string, string>()): Json {
  for (const [re, word] of VALIDATION_WORDING) {
    const m = re.exec(e.message)
    if (m) {
      const { message, code } = word(m, types)
      return { extensions: { code }, locations: e.locations, message }
    }
  }
  return { locations: e.locations, message: e.message }
}

/**
 * GitHub's node limits, checked before execution: every connection needs `first` or `last`,
 * at most 100 (https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api).
 */
function paginationRefusals(
  schema: GraphQLSchema,
  doc: DocumentNode,
  variables: Record<string, unknown>
): Json[] {
  const out: Json[] = []
  const typeInfo = new TypeInfo(schema)
  visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const def = typeInfo.getFieldDef()
        const type = typeInfo.getType()
        if (!def || !type || !getNamedType(type).name.endsWith('Connection')) return
        if (!def.args.some((a) => a.name === 'first')) return
        const args = getArgumentValues(def, node, variables)
        const name = node.name.value
        const loc = node.loc
          ? [{ line: node.loc.startToken.line, column: node.loc.startToken.column }]
          : undefined
        if (args.first == null && args.last == null) {
          out.push({
            type: 'MISSING_PAGINATION_BOUNDARIES',
            locations: loc,
            message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`
          })
        }
        for (const k of ['first', 'last']) {
          const n = args[k] as number | null | undefined
          if (n != null && n > MAX_CONNECTION_PAGE) {
            out.push({
              type: 'EXCESSIVE_PAGINATION',
              locations: loc,
              message: `Requesting ${n} records on the \`${name}\` connection exceeds the \`${k}\` limit of ${MAX_CONNECTION_PAGE} records.`
            })
          }
        }
      }
    })
  )
  return out
}

// ---------------------------------------------------------------- the endpoint

export class GraphqlEndpoint {
  private readonly textLimit: number

  constructor(
    private readonly host: GraphqlHost,
    options: GraphqlOptions = {}
  ) {
    this.textLimit = options.blobTextLimit ?? BLOB_TEXT_LIMIT
  }

  /** Answers one request body `{query, variables, operationName}` (HTTP 200 always). */
  async answer(body: Json, fault?: FieldFault): Promise<GraphqlAnswer> {
    const answer: GraphqlAnswer = { body: {}, violations: [], unexpected: [], bugs: [] }
    const refuse = (rule: string, errors: Json[]): GraphqlAnswer => {
      for (const e of errors) answer.violations.push({ rule, message: e.message })
      answer.body = { errors }
      return answer
    }
    const query: unknown = body?.query
    if (typeof query !== 'string') {
      return refuse('graphql.query', [
        { message: 'A query attribute must be specified and must be a string.' }
      ])
    }
    const variables: unknown = body.variables ?? {}
    if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
      return refuse('graphql.variables', [{ message: 'Variables are invalid JSON.' }])
    }
    const { schema } = loadGraphqlSchema()
    let doc: DocumentNode
    try {
      doc = parse(query)
    } catch (e) {
      const err = e as GraphQLError
      const at = err.locations?.[0]
      return refuse('graphql.parse', [
        {
          locations: err.locations,
          message: `Parse error on ${JSON.stringify(err.message)}${at ? ` at [${at.line}, ${at.column}]` : ''}`
        }
      ])
    }
    const invalid = validate(schema, doc)
    if (invalid.length)
      return refuse(
        'graphql.validation',
        invalid.map((e) => refusal(e))
      )

    const operationName = (body.operationName as string | null | undefined) ?? undefined
    const ops = doc.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION
    )
    const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops[0]
    if (!op || (!operationName && ops.length > 1)) {
      return refuse('graphql.operation', [
        {
          message: operationName
            ? `No operation named "${operationName}"`
            : 'An operation name is required'
        }
      ])
    }
    const coerced = getVariableValues(
      schema,
      op.variableDefinitions ?? [],
      variables as Record<string, unknown>
    )
    if (coerced.errors) {
      const types = new Map(
        (op.variableDefinitions ?? []).map((d) => [d.variable.name.value, print(d.type)])
      )
      return refuse(
        'graphql.variables',
        coerced.errors.map((e) => refusal(e, types))
      )
    }
    const limits = paginationRefusals(schema, doc, coerced.coerced)
    if (limits.length) return refuse('graphql.pagination', limits)
    if (op.operation !== OperationTypeNode.QUERY) {
      answer.unexpected.push(`GraphQL ${op.operation}`)
      answer.body = {
        errors: [
          {
            type: 'FAKE_UNIMPLEMENTED',
            message: `fake GitHub answers queries only, not a ${op.operation}`
          }
        ]
      }
      return answer
    }

    const ctx: Ctx = {
      host: this.host,
      textLimit: this.textLimit,
      fault,
      memo: new Map()
    }
    const result = await execute({
      schema,
      document: doc,
      variableValues: variables as Record<string, unknown>,
      operationName,
      contextValue: ctx,
      fieldResolver,
      typeResolver: typeResolver as GraphQLTypeResolver<unknown, Ctx>
    })
    const out: Json = { data: result.data ?? null }
    if (result.errors?.length)
      out.errors = result.errors.map((e) => this.githubError(e, answer))
    answer.body = out
    return answer
  }

  /** A resolver error as GitHub words it; the fake's own failures are recorded. */
  private githubError(e: GraphQLError, answer: GraphqlAnswer): Json {
    const orig = e.originalError
    const where = { path: e.path, locations: e.locations }
    if (orig instanceof GitHubGraphqlError) {
      if (orig.violation)
        answer.violations.push({ rule: 'graphql.argument', message: orig.message })
      return { type: orig.type, ...where, message: orig.message }
    }
    if (orig instanceof Unimplemented) {
      answer.unexpected.push(`fake GitHub does not implement ${orig.message}`)
      return {
        type: 'FAKE_UNIMPLEMENTED',
        ...where,
        message: `fake GitHub does not implement ${orig.message}`
      }
    }
    answer.bugs.push(`${(e.path ?? []).join('.')}: ${e.message}`)
    return { ...where, message: somethingWentWrong() }
  }
}
