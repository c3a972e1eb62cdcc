/**
 * An honest local GitHub REST API for tests (issue 4).
 *
 *   const repo = GitRepo.init(); …commits…
 *   const fake = await startFakeGitHub({
 *     repo,                                        // GitRepo or a path
 *     pulls: [{ number: 7, head: { ref: 'feature' }, base: { ref: 'main' }, body: '…' }]
 *   })
 *   const octokit = getOctokit('t', { baseUrl: fake.url })
 *   …
 *   fake.faults.add({ kind: 'status', route: 'checks/create', status: 502 })
 *   fake.requests / fake.countByRoute() / fake.checks.runs
 *   fake.assertNoViolations()
 *   await fake.close()
 *
 * Every request is matched to an operation of GitHub's OpenAPI description; parameters and
 * bodies are validated against it plus the rules it does not encode (rules.ts); a violation is
 * answered 422 like GitHub and recorded in `violations`. Every response is validated too: a
 * response that breaks the schema is answered 500 and recorded in `fakeBugs`. Git data comes
 * from the repository through git plumbing; PR metadata comes from the test.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { CheckRunStore, type StoredCheckRun } from './check-runs.js'
import { Faults, type FaultCall, type FaultSpec } from './faults.js'
import { GitBacking, type FileChange } from './git-backing.js'
import {
  GRAPHQL_DOCS,
  GraphqlEndpoint,
  loadGraphqlSchema,
  somethingWentWrong
} from './graphql.js'
import {
  GITHUB_ACTIONS_APP_ID,
  GitHubObjects,
  WEB_URL,
  type PullView,
  type RepoRef
} from './objects.js'
import { OpenApiContract, type Issue, type Operation } from './openapi.js'
import { checkRunRules } from './rules.js'

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-return -- JSON bodies */
type Json = any

export interface PullRequestSpec {
  number: number
  /** Head branch; `sha` pins the head (default: the branch tip at each request). */
  head: { ref: string; sha?: string }
  /** Base branch; `sha` pins the base (default: the branch tip at each request). */
  base: { ref: string; sha?: string }
  title?: string
  /** PR description (Markdown) or null. */
  body?: string | null
  /** From a fork: `true` (owner `contributor`) or the fork's owner/name. */
  fork?: boolean | { owner: string; name?: string }
  state?: 'open' | 'closed'
  merged?: boolean
  draft?: boolean
  /** Author login (default `octocat`). */
  user?: string
  labels?: string[]
}

export interface FakeGitHubOptions {
  /** The backing repository: a GitRepo (anything with `path`) or a path. */
  repo: string | { path: string }
  owner?: string
  name?: string
  defaultBranch?: string
  private?: boolean
  pulls?: PullRequestSpec[]
  /** When set, requests must authenticate with this token (401 otherwise). */
  token?: string
  /** Reject body properties the schema does not declare (default true; GitHub ignores them). */
  rejectUnknownProperties?: boolean
  /**
   * Resolve a tree-ish `<rev>:<path>` in `git/trees/{tree_sha}` (default true). GitHub
   * does, though its description names only a SHA or a ref; false answers 404 for it,
   * as a GitHub that stopped doing so would.
   */
  treePaths?: boolean
  /**
   * Answer a blob asked for in the raw media type with its bytes (default true, as
   * GitHub does); false answers its JSON form whatever the `Accept`, as a server or
   * proxy that ignores the media type would.
   */
  rawBlobs?: boolean
  /**
   * Milliseconds every request (REST and GraphQL) waits before it is answered: the round
   * trip of a runner to GitHub, for the bench. Latency faults add to it.
   */
  latencyMs?: number
  /** Bytes of GraphQL `Blob.text` before it is cut with `isTruncated` (default 512,000). */
  blobTextLimit?: number
  /**
   * Bytes a GraphQL answer may have: a larger one fails as GitHub fails a query that runs
   * past its time or answer limits (no data, "Something went wrong"). Default: no limit.
   */
  graphqlAnswerLimit?: number
  /**
   * Build the GraphQL schema at start (~0.5 s) rather than on the first GraphQL request
   * (for timings that should not include it).
   */
  preloadGraphql?: boolean
}

export interface RecordedRequest {
  seq: number
  method: string
  /** Path and query as received. */
  path: string
  /** `GET /repos/{owner}/{repo}/pulls/{pull_number}`, or null for unknown routes. */
  route: string | null
  operationId: string | null
  status: number
  requestBytes: number
  responseBytes: number
  /** The request's `Accept` header (the media type asked for). */
  accept: string
  /** Parsed JSON request body, if any. */
  body?: unknown
  /** Kind of the fault applied to this request, if any. */
  fault?: FaultSpec['kind']
  /** A GraphQL answer over `graphqlAnswerLimit`, refused. */
  overLimit?: boolean
  durationMs: number
  /** `performance.now()` when the request arrived (its body read): for gaps between requests. */
  receivedMs: number
}

export interface Violation {
  rule: string
  message: string
  operationId: string | null
  method: string
  path: string
  status: number
}

export interface FakeBug {
  operationId: string
  status: number
  path: string
  issues: Issue[]
}

export interface Unexpected {
  method: string
  path: string
  reason: string
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Rule id when the error is a contract violation by the client. */
    readonly rule?: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
  }
}

interface Result {
  status: number
  body: unknown
  headers?: Record<string, string>
  /** The body's bytes when they are not its JSON (a raw blob). */
  bytes?: Buffer
}

interface Ctx {
  op: Operation
  params: Record<string, string>
  query: URLSearchParams
  body: Json
  url: URL
  call: FaultCall
}

let contractCache: { contract: OpenApiContract; loadMs: number } | undefined

/** The contract, loaded once per module registry (i.e. once per test file). */
export function loadContract(): { contract: OpenApiContract; loadMs: number } {
  if (!contractCache) {
    const t0 = performance.now()
    const contract = OpenApiContract.load()
    contractCache = { contract, loadMs: performance.now() - t0 }
  }
  return contractCache
}

const MAX_PR_FILES = 3000
const MAX_COMPARE_FILES = 300
const MAX_COMPARE_COMMITS = 250
const MAX_PR_COMMITS = 250
const MAX_TREE_ENTRIES = 100_000
const CREATED_AT = '2024-01-01T00:00:00Z'

export class FakeGitHub {
  readonly owner: string
  readonly name: string
  readonly fullName: string
  readonly defaultBranch: string
  readonly git: GitBacking
  readonly checks = new CheckRunStore()
  readonly faults = new Faults()
  readonly requests: RecordedRequest[] = []
  readonly violations: Violation[] = []
  readonly fakeBugs: FakeBug[] = []
  readonly unexpected: Unexpected[] = []
  /** TCP connections accepted (since the last resetRecords()): whether clients reuse them. */
  connections = 0
  /** Milliseconds from `startFakeGitHub()` to listening, schema loading included. */
  startupMs = 0
  /** Milliseconds spent loading the schema (0 when this test file had loaded it already). */
  schemaLoadMs = 0
  url = ''
  private objects = new GitHubObjects('http://127.0.0.1')
  private readonly pulls = new Map<number, PullRequestSpec>()
  private readonly repoRef: RepoRef
  private readonly contract: OpenApiContract
  private server: Server | undefined
  private readonly tweaks = new Map<string, (body: Json, call: FaultCall) => Json>()
  private seq = 0
  /**
   * The validated JSON bytes of each answer that the URL fixes forever (a blob, a tree or
   * a comparison named by full SHAs: see `immutable`), by URL. The bench asks the same
   * reads in every run; GitHub's own work on them is not on the runner's CPU, so the
   * fake serves them again without reading git, building, validating and serializing.
   */
  private readonly immutableAnswers = new Map<string, Result & { bytes: Buffer }>()
  private readonly graphql: GraphqlEndpoint

  constructor(
    private readonly options: FakeGitHubOptions,
    contract: OpenApiContract
  ) {
    this.contract = contract
    this.owner = options.owner ?? 'acme'
    this.name = options.name ?? 'widgets'
    this.fullName = `${this.owner}/${this.name}`
    this.defaultBranch = options.defaultBranch ?? 'main'
    this.git = new GitBacking(
      typeof options.repo === 'string' ? options.repo : options.repo.path
    )
    this.repoRef = {
      owner: this.owner,
      name: this.name,
      fork: false,
      private: options.private ?? false,
      defaultBranch: this.defaultBranch
    }
    for (const p of options.pulls ?? []) this.addPull(p)
    this.graphql = new GraphqlEndpoint(
      {
        owner: this.owner,
        name: this.name,
        defaultBranch: this.defaultBranch,
        git: this.git,
        pull: async (n) => (this.pulls.has(n) ? this.pullView(n) : undefined),
        pullFiles: async (view) => this.pullFiles(view),
        pullStats: async (view) => this.pullStats(view),
        // GraphQL's connection has no 250 cap, REST's list has.
        pullCommits: async (view) => this.pullCommits(view, Infinity),
        pullsContaining: async (sha) => this.pullsContaining(sha),
        graphqlRequests: () => this.requestsFor('graphql').length
      },
      { blobTextLimit: options.blobTextLimit }
    )
  }

  // ---------------------------------------------------------------- lifecycle

  async listen(): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        this.fakeBugs.push({
          operationId: 'crash',
          status: 500,
          path: req.url ?? '',
          issues: [
            { rule: 'fake.crash', message: e instanceof Error ? e.message : String(e) }
          ]
        })
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ message: `fake crashed: ${String(e)}` }))
        }
      })
    })
    // Like GitHub, no `Keep-Alive: timeout=` hint: node's agent will not reuse a socket
    // whose hint is a second or less, so the 1 s idle timeout this once had made every
    // request a new connection, which GitHub's clients do not pay. Idle sockets still go:
    // close() drops them.
    server.keepAliveTimeout = 0
    server.on('connection', () => this.connections++)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => resolve())
    })
    this.server = server
    const { port } = server.address() as AddressInfo
    this.url = `http://127.0.0.1:${port}`
    this.objects = new GitHubObjects(this.url)
  }

  /** Stops the server and drops keep-alive connections (so jest can exit). */
  async close(): Promise<void> {
    this.git.close()
    const server = this.server
    if (!server) return
    this.server = undefined
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }

  // ---------------------------------------------------------------- test API

  addPull(spec: PullRequestSpec): void {
    this.pulls.set(spec.number, { ...spec })
  }

  /** Changes PR metadata (body edits, new head sha, closing…). */
  updatePull(number: number, patch: Partial<Omit<PullRequestSpec, 'number'>>): void {
    const p = this.pulls.get(number)
    if (!p) throw new Error(`no PR #${number}`)
    this.pulls.set(number, { ...p, ...patch })
  }

  /** Requests whose route (or operationId) is `route`. */
  requestsFor(route: string): RecordedRequest[] {
    return this.requests.filter((r) => r.route === route || r.operationId === route)
  }

  /** Request counts keyed by route (`GET /repos/{owner}/{repo}/pulls/{pull_number}`). */
  countByRoute(): Record<string, number> {
    const out: Record<string, number> = {}
    for (const r of this.requests) {
      const k = r.route ?? `UNKNOWN ${r.method} ${r.path}`
      out[k] = (out[k] ?? 0) + 1
    }
    return out
  }

  /** Request counts keyed by operationId (`pulls/get`). */
  countByOperation(): Record<string, number> {
    const out: Record<string, number> = {}
    for (const r of this.requests) {
      const k = r.operationId ?? `UNKNOWN ${r.method} ${r.path}`
      out[k] = (out[k] ?? 0) + 1
    }
    return out
  }

  /** Bytes received (request bodies) and sent (response bodies). */
  bytes(): { requestBytes: number; responseBytes: number } {
    return this.requests.reduce(
      (acc, r) => ({
        requestBytes: acc.requestBytes + r.requestBytes,
        responseBytes: acc.responseBytes + r.responseBytes
      }),
      { requestBytes: 0, responseBytes: 0 }
    )
  }

  /** Forgets recorded requests, violations, bugs and unexpected calls (not check runs). */
  resetRecords(): void {
    this.requests.length = 0
    this.connections = 0
    this.violations.length = 0
    this.fakeBugs.length = 0
    this.unexpected.length = 0
  }

  /** Returns and forgets the recorded violations (for tests that provoke them on purpose). */
  takeViolations(): Violation[] {
    return this.violations.splice(0)
  }

  /** Throws, naming each broken rule, if any violation, fake bug or unknown route was seen. */
  assertNoViolations(): void {
    const lines = [
      ...this.violations.map(
        (v) => `violation ${v.rule} (${v.method} ${v.path} → ${v.status}): ${v.message}`
      ),
      ...this.fakeBugs.map(
        (b) =>
          `fake bug: ${b.operationId} ${b.status} response breaks the schema: ` +
          b.issues.map((i) => i.message).join('; ')
      ),
      ...this.unexpected.map(
        (u) => `unexpected request ${u.method} ${u.path}: ${u.reason}`
      )
    ]
    if (lines.length)
      throw new Error(`fake GitHub saw contract problems:\n${lines.join('\n')}`)
  }

  /** Environment variables that point `@actions/github` at this fake. */
  env(): Record<string, string> {
    return {
      GITHUB_API_URL: this.url,
      GITHUB_GRAPHQL_URL: `${this.url}/graphql`,
      GITHUB_SERVER_URL: WEB_URL,
      GITHUB_REPOSITORY: this.fullName,
      GITHUB_REPOSITORY_OWNER: this.owner
    }
  }

  /** The `pull-request` object GitHub would return now for PR `number`. */
  async pullRequestJson(number: number): Promise<Json> {
    const view = await this.pullView(number)
    return this.objects.pullRequest(this.repoRef, view, await this.pullStats(view))
  }

  /** GitHub's test merge commit for the PR (GITHUB_SHA of `pull_request` runs), or null. */
  async mergeCommitSha(number: number): Promise<string | null> {
    return (await this.pullView(number)).merge_commit_sha
  }

  /** A `pull_request` (or `pull_request_target`) webhook payload for PR `number`. */
  async pullRequestEvent(number: number, action = 'synchronize'): Promise<Json> {
    const pr = await this.pullRequestJson(number)
    return {
      action,
      number,
      pull_request: pr,
      repository: this.objects.repository(this.repoRef),
      sender: this.objects.user(pr.user.login)
    }
  }

  /**
   * Rewrites the responses of one operation (e.g. `mergeable: null`, a missing `patch`). The
   * result is still validated against the schema: a tweak cannot make the fake lie.
   * `graphql` rewrites GraphQL answers as a hostile or faulty GitHub would send them.
   */
  tweak(
    operationId: string,
    fn: ((body: Json, call: FaultCall) => Json) | undefined
  ): void {
    // GraphQL answers are checked against the schema where they are made, before a tweak.
    if (operationId !== 'graphql') this.contract.operation(operationId)
    if (fn) this.tweaks.set(operationId, fn)
    else this.tweaks.delete(operationId)
  }

  // ---------------------------------------------------------------- request loop

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const t0 = performance.now()
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const raw = Buffer.concat(chunks)
    const method = (req.method ?? 'GET').toUpperCase()
    const url = new URL(req.url ?? '/', this.url)
    const rec: RecordedRequest = {
      seq: ++this.seq,
      method,
      path: url.pathname + url.search,
      route: null,
      operationId: null,
      status: 0,
      requestBytes: raw.length,
      accept: String(req.headers.accept ?? ''),
      responseBytes: 0,
      durationMs: 0,
      receivedMs: performance.now()
    }
    this.requests.push(rec)

    const send = (
      status: number,
      body: unknown,
      headers: Record<string, string> = {},
      buf: Buffer = serialized(body)
    ) => {
      res.writeHead(status, {
        ...this.baseHeaders(),
        ...headers,
        'content-length': String(buf.length)
      })
      res.end(buf)
      rec.status = status
      rec.responseBytes = buf.length
      rec.durationMs = performance.now() - t0
    }
    const error = (
      status: number,
      message: string,
      docs: string,
      headers?: Record<string, string>
    ) =>
      send(status, { message, documentation_url: docs, status: String(status) }, headers)
    const destroy = () => {
      rec.status = 0
      rec.durationMs = performance.now() - t0
      req.socket.destroy()
    }

    if (this.options.latencyMs) await sleep(this.options.latencyMs)
    if (url.pathname === '/graphql' && method === 'POST') {
      return this.handleGraphql(req, raw, url, rec, { send, error, destroy })
    }

    const match = this.contract.match(method, url.pathname)
    if (!match) {
      this.unexpected.push({
        method,
        path: rec.path,
        reason: 'no such route in the extracted description'
      })
      return error(404, 'Not Found', 'https://docs.github.com/rest')
    }
    const { operation: op, params } = match
    rec.route = op.route
    rec.operationId = op.operationId
    if (
      params.owner?.toLowerCase() !== this.owner.toLowerCase() ||
      params.repo?.toLowerCase() !== this.name.toLowerCase()
    ) {
      this.unexpected.push({
        method,
        path: rec.path,
        reason: `unknown repository ${params.owner}/${params.repo}`
      })
      return error(404, 'Not Found', op.docsUrl)
    }

    // Authentication: writes always need a token; a pinned token must match.
    const auth = String(req.headers.authorization ?? '')
    const token = /^(?:token|bearer)\s+(.+)$/i.exec(auth)?.[1]
    if (
      (this.options.token !== undefined && token !== this.options.token) ||
      (!token && method !== 'GET')
    ) {
      return error(
        401,
        token ? 'Bad credentials' : 'Requires authentication',
        'https://docs.github.com/rest'
      )
    }

    // Media types the fake does not serve are recorded rather than silently answered as
    // JSON. A blob's raw media type it serves: the blob's bytes as the body (GitHub's
    // "application/vnd.github.raw+json: Returns the raw blob data").
    const accept = rec.accept
    const rawBlob =
      op.operationId === 'git/get-blob' &&
      this.options.rawBlobs !== false &&
      /vnd\.github(?:\.v3)?\.raw(?:\+json)?(?![\w+])/.test(accept)
    if (
      !rawBlob &&
      /vnd\.github(?:\.v3)?\.(?:diff|patch|sha|object)|vnd\.github(?:\.v3)?\.(?:raw|html)(?![+\w])/.test(
        accept
      )
    ) {
      this.unexpected.push({
        method,
        path: rec.path,
        reason: `media type not served by the fake: ${accept}`
      })
      return error(415, `Unsupported 'Accept' header: ${accept}`, op.docsUrl)
    }

    let body: Json
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'))
      } catch {
        this.violate(rec, 'body.json', 'Problems parsing JSON', op, 400)
        return error(400, 'Problems parsing JSON', op.docsUrl)
      }
      rec.body = body
    }
    const call: FaultCall = {
      operationId: op.operationId,
      route: op.route,
      method,
      params,
      query: url.searchParams,
      body
    }

    // Faults that happen before GitHub looks at the request.
    const latency = this.faults.take(call, ['latency'])
    if (latency?.kind === 'latency') {
      await sleep(latency.ms)
      rec.fault = 'latency'
    }
    const before = this.faults.take(
      call,
      ['status', 'reset', 'forbidden', 'rate-limit'],
      false
    )
    if (before) {
      rec.fault = before.kind
      if (before.kind === 'reset') return destroy()
      if (before.kind === 'status') {
        return error(
          before.status,
          before.message ?? statusText(before.status),
          op.docsUrl
        )
      }
      if (before.kind === 'forbidden') {
        return error(403, 'Resource not accessible by integration', op.docsUrl, {
          'x-accepted-github-permissions': 'checks=write'
        })
      }
      if (before.kind === 'rate-limit') return this.rateLimited(before, error)
    }

    // The contract: parameters, body schema, unknown properties, hand-written rules.
    const issues: Issue[] = this.contract.validateParameters(op, params, url.searchParams)
    if (op.op.requestBody) {
      if (body === undefined) {
        if (op.op.requestBody.required)
          issues.push({ rule: 'body.required', message: 'Body is required.' })
      } else {
        const ctype = String(req.headers['content-type'] ?? '')
        if (!ctype.startsWith('application/json')) {
          issues.push({
            rule: 'body.content-type',
            message: `Content-Type ${ctype || '(none)'} is not JSON.`
          })
        }
        issues.push(...this.contract.validateBody(op, body))
        if (this.options.rejectUnknownProperties !== false) {
          issues.push(...this.contract.unknownProperties(op, body))
        }
        if (op.operationId.startsWith('checks/'))
          issues.push(...checkRunRules(op.operationId, body))
      }
    }
    if (issues.length) {
      for (const i of issues) this.violate(rec, i.rule, i.message, op, 422)
      return error(
        422,
        `Invalid request.\n\n${issues.map((i) => i.message).join('\n')}`,
        op.docsUrl
      )
    }

    // A valid request GitHub still rejects (a chosen PATCH batch…).
    const reject = this.faults.take(call, ['reject'])
    if (reject?.kind === 'reject') {
      rec.fault = 'reject'
      return error(
        reject.status ?? 422,
        reject.message ?? 'Invalid request.\n\nRejected by the test (fault).',
        op.docsUrl
      )
    }

    // Kept answers skip the handler: not while a tweak or a fault that acts inside it
    // (a truncated tree) could change the answer, and such an answer is not kept.
    const cacheKey =
      immutable(op.operationId, params) &&
      !this.tweaks.has(op.operationId) &&
      !this.faults.pending(call, ['truncated-tree', 'oversized'])
        ? `${rawBlob ? 'raw ' : ''}${url.pathname}${url.search}`
        : undefined
    const cached =
      cacheKey === undefined ? undefined : this.immutableAnswers.get(cacheKey)
    let result: Result
    try {
      result =
        cached ??
        (await this.dispatch({
          op,
          params,
          query: url.searchParams,
          body,
          url,
          call
        }))
    } catch (e) {
      if (!(e instanceof HttpError)) throw e
      if (e.rule?.startsWith('fake.'))
        this.unexpected.push({ method, path: rec.path, reason: e.message })
      else if (e.rule) this.violate(rec, e.rule, e.message, op, e.status)
      return error(e.status, e.message, op.docsUrl, e.headers)
    }

    // Faults after the request took effect: the answer is lost or replaced.
    const after = this.faults.take(call, ['status', 'reset'], true)
    if (after) {
      rec.fault = after.kind
      if (after.kind === 'reset') return destroy()
      if (after.kind === 'status') {
        return error(after.status, after.message ?? statusText(after.status), op.docsUrl)
      }
    }

    if (cached !== undefined)
      return send(cached.status, undefined, cached.headers, cached.bytes)

    const tweak = this.tweaks.get(op.operationId)
    if (tweak) result = { ...result, body: tweak(structuredClone(result.body), call) }

    const bad = this.contract.validateResponse(op, result.status, result.body)
    if (bad.length) {
      this.fakeBugs.push({
        operationId: op.operationId,
        status: result.status,
        path: rec.path,
        issues: bad
      })
      return error(
        500,
        `fake GitHub bug: response breaks the schema (${bad[0]!.message})`,
        op.docsUrl
      )
    }
    const oversized = this.faults.take(call, ['oversized'])
    if (oversized?.kind === 'oversized' && Array.isArray(result.body)) {
      rec.fault = 'oversized'
      const sent = await sendOversized(res, this.baseHeaders(), result.body, oversized)
      rec.status = 200
      rec.responseBytes = sent
      rec.durationMs = performance.now() - t0
      return
    }
    if (rawBlob && result.status === 200) result = rawBlobAnswer(result)
    const bytes = result.bytes ?? serialized(result.body)
    if (cacheKey !== undefined && result.status === 200)
      this.immutableAnswers.set(cacheKey, { ...result, bytes })
    send(result.status, result.body, result.headers, bytes)
  }

  private violate(
    rec: RecordedRequest,
    rule: string,
    message: string,
    op: Operation,
    status: number
  ) {
    this.violations.push({
      rule,
      message,
      operationId: op.operationId,
      method: rec.method,
      path: rec.path,
      status
    })
  }

  /**
   * `POST /graphql`: the HTTP side of GitHub's GraphQL endpoint (auth, faults, recording);
   * graphql.ts validates and answers the query.
   */
  private async handleGraphql(
    req: IncomingMessage,
    raw: Buffer,
    url: URL,
    rec: RecordedRequest,
    out: {
      send: (status: number, body: unknown, headers?: Record<string, string>) => void
      error: (s: number, m: string, d: string, h?: Record<string, string>) => void
      destroy: () => void
    }
  ): Promise<void> {
    const { send, error, destroy } = out
    rec.route = 'POST /graphql'
    rec.operationId = 'graphql'
    const headers = {
      'x-ratelimit-resource': 'graphql',
      'x-github-media-type': 'github.v4; format=json'
    }
    const auth = String(req.headers.authorization ?? '')
    const token = /^(?:token|bearer)\s+(.+)$/i.exec(auth)?.[1]
    if (!token || (this.options.token !== undefined && token !== this.options.token)) {
      return error(
        401,
        token ? 'Bad credentials' : 'This endpoint requires you to be authenticated.',
        `${GRAPHQL_DOCS}#authenticating-with-graphql`
      )
    }
    let body: Json
    try {
      body = JSON.parse(raw.toString('utf8'))
    } catch {
      this.violations.push({
        rule: 'body.json',
        message: 'Problems parsing JSON',
        operationId: 'graphql',
        method: rec.method,
        path: rec.path,
        status: 400
      })
      return error(400, 'Problems parsing JSON', GRAPHQL_DOCS)
    }
    rec.body = body
    const call: FaultCall = {
      operationId: 'graphql',
      route: 'POST /graphql',
      method: rec.method,
      params: {},
      query: url.searchParams,
      body
    }
    const latency = this.faults.take(call, ['latency'])
    if (latency?.kind === 'latency') {
      await sleep(latency.ms)
      rec.fault = 'latency'
    }
    const before = this.faults.take(call, ['status', 'reset', 'rate-limit'], false)
    if (before) {
      rec.fault = before.kind
      if (before.kind === 'reset') return destroy()
      if (before.kind === 'status') {
        return error(
          before.status,
          before.message ?? statusText(before.status),
          GRAPHQL_DOCS
        )
      }
      if (before.kind === 'rate-limit') {
        if (before.status !== undefined || before.retryAfterSeconds !== undefined)
          return this.rateLimited(before, error, 'graphql')
        return send(
          200,
          {
            errors: [
              {
                type: 'RATE_LIMITED',
                code: 'graphql_rate_limit',
                message: 'API rate limit exceeded for installation ID 1.'
              }
            ]
          },
          { ...headers, ...this.exhausted(before, 'graphql') }
        )
      }
    }
    const failing = this.faults.take(call, ['graphql-error'])
    if (failing?.kind === 'graphql-error') {
      rec.fault = 'graphql-error'
      if (!failing.path) {
        const message = failing.message ?? somethingWentWrong()
        return send(
          200,
          { errors: [{ ...(failing.type ? { type: failing.type } : {}), message }] },
          headers
        )
      }
    }
    const answer = await this.graphql.answer(
      body,
      failing?.kind === 'graphql-error' && failing.path
        ? { path: failing.path, type: failing.type, message: failing.message }
        : undefined
    )
    for (const v of answer.violations) {
      this.violations.push({
        ...v,
        operationId: 'graphql',
        method: rec.method,
        path: rec.path,
        status: 200
      })
    }
    for (const reason of answer.unexpected)
      this.unexpected.push({ method: rec.method, path: rec.path, reason })
    if (answer.bugs.length) {
      this.fakeBugs.push({
        operationId: 'graphql',
        status: 200,
        path: rec.path,
        issues: answer.bugs.map((message) => ({ rule: 'graphql.bug', message }))
      })
    }
    const after = this.faults.take(call, ['status', 'reset'], true)
    if (after) {
      rec.fault = after.kind
      if (after.kind === 'reset') return destroy()
      if (after.kind === 'status')
        return error(
          after.status,
          after.message ?? statusText(after.status),
          GRAPHQL_DOCS
        )
    }
    const tweak = this.tweaks.get('graphql')
    const answered = tweak ? tweak(structuredClone(answer.body), call) : answer.body
    const limit = this.options.graphqlAnswerLimit
    if (limit !== undefined && serialized(answered).length > limit) {
      rec.overLimit = true
      return send(200, { errors: [{ message: somethingWentWrong() }] }, headers)
    }
    send(200, answered, headers)
  }

  /** The headers of a spent primary rate limit. */
  private exhausted(
    f: Extract<FaultSpec, { kind: 'rate-limit' }>,
    resource = 'core'
  ): Record<string, string> {
    return {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-used': '1000',
      'x-ratelimit-reset': String(
        Math.floor(Date.now() / 1000) + (f.resetAfterSeconds ?? 60)
      ),
      'x-ratelimit-resource': resource
    }
  }

  private rateLimited(
    f: Extract<FaultSpec, { kind: 'rate-limit' }>,
    error: (s: number, m: string, d: string, h?: Record<string, string>) => void,
    resource = 'core'
  ): void {
    const status = f.status ?? 403
    if (f.retryAfterSeconds !== undefined) {
      return error(
        status,
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
        'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        { 'retry-after': String(f.retryAfterSeconds), 'x-ratelimit-resource': resource }
      )
    }
    error(
      status,
      'API rate limit exceeded for installation. If you reach out to GitHub Support for help, please include the request ID.',
      'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api',
      this.exhausted(f, resource)
    )
  }

  private baseHeaders(): Record<string, string> {
    const used = Math.min(this.seq, 999)
    return {
      'content-type': 'application/json; charset=utf-8',
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-request-id': `FAKE:${this.seq.toString(16).toUpperCase()}`,
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': String(1000 - used),
      'x-ratelimit-used': String(used),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core'
    }
  }

  // ---------------------------------------------------------------- handlers

  private async dispatch(ctx: Ctx): Promise<Result> {
    switch (ctx.op.operationId) {
      case 'pulls/get':
        return this.pullsGet(ctx)
      case 'pulls/list':
        return this.pullsList(ctx)
      case 'pulls/list-files':
        return this.pullsListFiles(ctx)
      case 'pulls/list-commits':
        return this.pullsListCommits(ctx)
      case 'repos/list-pull-requests-associated-with-commit':
        return this.pullsForCommit(ctx)
      case 'repos/compare-commits-with-basehead':
        return this.compare(ctx)
      case 'repos/list-commits':
        return this.listCommits(ctx)
      case 'repos/get-commit':
        return this.getCommit(ctx)
      case 'repos/get-content':
        return this.getContent(ctx)
      case 'git/get-tree':
        return this.getTree(ctx)
      case 'git/get-blob':
        return this.getBlob(ctx)
      case 'git/get-commit':
        return this.getGitCommit(ctx)
      case 'checks/create':
        return this.createCheckRun(ctx)
      case 'checks/update':
        return this.updateCheckRun(ctx)
      case 'checks/get':
        return this.getCheckRun(ctx)
      case 'checks/list-for-ref':
        return this.listCheckRunsForRef(ctx)
      case 'checks/list-annotations':
        return this.listAnnotations(ctx)
      default:
        throw new HttpError(501, `fake GitHub does not implement ${ctx.op.operationId}`)
    }
  }

  private async pullView(number: number): Promise<PullView> {
    const spec = this.pulls.get(number)
    if (!spec) throw new HttpError(404, 'Not Found')
    const headSha = spec.head.sha ?? (await this.git.resolveCommit(spec.head.ref))
    const baseSha = spec.base.sha ?? (await this.git.resolveCommit(spec.base.ref))
    if (!headSha || !baseSha) {
      throw new Error(
        `fake setup: PR #${number} head ${spec.head.ref} or base ${spec.base.ref} does not resolve`
      )
    }
    const fork = spec.fork
    const headRepo: RepoRef = fork
      ? {
          owner: typeof fork === 'object' ? fork.owner : 'contributor',
          name: typeof fork === 'object' ? (fork.name ?? this.name) : this.name,
          fork: true,
          private: false,
          defaultBranch: this.defaultBranch,
          ownerType: 'User'
        }
      : this.repoRef
    const state = spec.state ?? 'open'
    const merged = spec.merged ?? false
    const merge = state === 'open' ? await this.git.testMerge(baseSha, headSha) : null
    return {
      number,
      title: spec.title ?? `PR #${number}`,
      body: spec.body === undefined ? null : spec.body,
      state,
      draft: spec.draft ?? false,
      merged,
      user: spec.user ?? (fork ? headRepo.owner : 'octocat'),
      labels: spec.labels ?? [],
      head: { ref: spec.head.ref, sha: headSha, repo: headRepo },
      base: { ref: spec.base.ref, sha: baseSha, repo: this.repoRef },
      created_at: CREATED_AT,
      updated_at: CREATED_AT,
      closed_at: state === 'closed' ? CREATED_AT : null,
      merged_at: merged ? CREATED_AT : null,
      merge_commit_sha: merge,
      mergeable: state === 'open' ? merge !== null : null,
      mergeable_state: state === 'open' ? (merge !== null ? 'clean' : 'dirty') : 'unknown'
    }
  }

  private async prRange(
    view: PullView
  ): Promise<{ mergeBase: string | undefined; head: string }> {
    return {
      mergeBase: await this.git.mergeBase(view.base.sha, view.head.sha),
      head: view.head.sha
    }
  }

  private async pullStats(view: PullView) {
    const { mergeBase, head } = await this.prRange(view)
    const [commits, files] = await Promise.all([
      this.git.range(mergeBase, head),
      this.git.diff(mergeBase, head)
    ])
    return {
      commits: commits.length,
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
      changed_files: files.length
    }
  }

  private async pullsGet(ctx: Ctx): Promise<Result> {
    return {
      status: 200,
      body: await this.pullRequestJson(Number(ctx.params.pull_number))
    }
  }

  private async pullsList(ctx: Ctx): Promise<Result> {
    const state = ctx.query.get('state') ?? 'open'
    const head = ctx.query.get('head')
    const base = ctx.query.get('base')
    const views = await Promise.all(
      [...this.pulls.keys()].map(async (n) => this.pullView(n))
    )
    let list = views.filter((v) => state === 'all' || v.state === state)
    if (head) {
      const [who, ref] = head.includes(':') ? head.split(/:(.*)/s) : [undefined, head]
      list = list.filter(
        (v) =>
          v.head.ref === ref &&
          (who === undefined || v.head.repo.owner.toLowerCase() === who.toLowerCase())
      )
    }
    if (base) list = list.filter((v) => v.base.ref === base)
    const asc = (ctx.query.get('direction') ?? 'desc') === 'asc'
    list.sort((a, b) => (asc ? a.number - b.number : b.number - a.number))
    const page = paginate(list, ctx.url, 30, 100)
    return {
      status: 200,
      body: page.items.map((v) => this.objects.pullRequestSimple(this.repoRef, v)),
      headers: page.headers
    }
  }

  /** The files a PR lists (REST and GraphQL): merge base..head, at most 3,000. */
  private async pullFiles(view: PullView): Promise<FileChange[]> {
    const { mergeBase, head } = await this.prRange(view)
    return (await this.git.diff(mergeBase, head)).slice(0, MAX_PR_FILES)
  }

  private async pullsListFiles(ctx: Ctx): Promise<Result> {
    const view = await this.pullView(Number(ctx.params.pull_number))
    const page = paginate(await this.pullFiles(view), ctx.url, 30, 100)
    return {
      status: 200,
      body: page.items.map((f) => this.objects.diffEntry(this.repoRef, f, view.head.sha)),
      headers: page.headers
    }
  }

  private async pullCommits(view: PullView, cap = MAX_PR_COMMITS): Promise<string[]> {
    const { mergeBase, head } = await this.prRange(view)
    return (await this.git.range(mergeBase, head)).slice(0, cap)
  }

  private async pullsListCommits(ctx: Ctx): Promise<Result> {
    const view = await this.pullView(Number(ctx.params.pull_number))
    const shas = await this.pullCommits(view)
    const page = paginate(shas, ctx.url, 30, 100)
    const commits = await Promise.all(page.items.map(async (s) => this.git.commit(s)))
    return {
      status: 200,
      body: commits.map((c) => this.objects.commit(this.repoRef, c)),
      headers: page.headers
    }
  }

  /**
   * Open same-repository PRs containing the commit (REST `commits/{sha}/pulls`, GraphQL
   * `Commit.associatedPullRequests`), oldest first. Fork PRs are left out: their commits are
   * not on a branch of this repository (the `workflow_run` fork case of SPEC §2.1).
   */
  private async pullsContaining(sha: string): Promise<PullView[]> {
    const views = await Promise.all(
      [...this.pulls.keys()].sort((a, b) => a - b).map(async (n) => this.pullView(n))
    )
    const hits: PullView[] = []
    for (const v of views) {
      if (v.head.repo.fork || v.state !== 'open') continue
      if (
        v.head.sha === sha ||
        ((await this.git.isAncestor(sha, v.head.sha)) &&
          !(await this.git.isAncestor(sha, v.base.sha)))
      ) {
        hits.push(v)
      }
    }
    return hits
  }

  private async pullsForCommit(ctx: Ctx): Promise<Result> {
    const sha = await this.git.resolveCommit(ctx.params.commit_sha ?? '')
    if (!sha)
      throw new HttpError(422, `No commit found for SHA: ${ctx.params.commit_sha}`)
    const page = paginate(await this.pullsContaining(sha), ctx.url, 30, 100)
    return {
      status: 200,
      body: page.items.map((v) => this.objects.pullRequestSimple(this.repoRef, v)),
      headers: page.headers
    }
  }

  private async resolveOr404(rev: string): Promise<string> {
    const sha = await this.git.resolveCommit(rev)
    if (!sha) throw new HttpError(404, 'Not Found')
    return sha
  }

  private async compare(ctx: Ctx): Promise<Result> {
    const basehead = ctx.params.basehead ?? ''
    const sep = basehead.indexOf('...')
    if (sep < 0) throw new HttpError(404, 'Not Found')
    const strip = (s: string) => (s.includes(':') ? s.slice(s.indexOf(':') + 1) : s)
    const baseSha = await this.resolveOr404(strip(basehead.slice(0, sep)))
    const headSha = await this.resolveOr404(strip(basehead.slice(sep + 3)))
    const mb = await this.git.mergeBase(baseSha, headSha)
    if (!mb) {
      throw new HttpError(
        404,
        `No common ancestor between ${basehead.slice(0, sep)} and ${basehead.slice(sep + 3)}.`
      )
    }
    const [ahead, behind] = await Promise.all([
      this.git.range(baseSha, headSha),
      this.git.range(headSha, baseSha)
    ])
    const status =
      ahead.length === 0 && behind.length === 0
        ? 'identical'
        : behind.length === 0
          ? 'ahead'
          : ahead.length === 0
            ? 'behind'
            : 'diverged'
    const paged = ctx.query.has('per_page') || ctx.query.has('page')
    let shas = ahead.slice(0, MAX_COMPARE_COMMITS)
    let headers: Record<string, string> | undefined
    let firstPage = true
    if (paged) {
      const page = paginate(ahead, ctx.url, 250, 100)
      shas = page.items
      headers = page.headers
      firstPage = page.page === 1
    }
    const r = this.repoRef
    const [baseInfo, mbInfo, commits, files] = await Promise.all([
      this.git.commit(baseSha),
      this.git.commit(mb),
      Promise.all(shas.map(async (s) => this.git.commit(s))),
      firstPage ? this.git.diff(mb, headSha) : Promise.resolve([] as FileChange[])
    ])
    const api = `${this.objects.repoApi(r)}/compare/${encodeURIComponent(basehead)}`
    const html = `${WEB_URL}/${r.owner}/${r.name}/compare/${basehead}`
    return {
      status: 200,
      headers,
      body: {
        url: api,
        html_url: html,
        permalink_url: `${WEB_URL}/${r.owner}/${r.name}/compare/${r.owner}:${baseSha.slice(0, 7)}...${r.owner}:${headSha.slice(0, 7)}`,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        base_commit: this.objects.commit(r, baseInfo),
        merge_base_commit: this.objects.commit(r, mbInfo),
        status,
        ahead_by: ahead.length,
        behind_by: behind.length,
        total_commits: ahead.length,
        commits: commits.map((c) => this.objects.commit(r, c)),
        files: files
          .slice(0, MAX_COMPARE_FILES)
          .map((f) => this.objects.diffEntry(r, f, headSha))
      }
    }
  }

  private async listCommits(ctx: Ctx): Promise<Result> {
    for (const p of ['since', 'until', 'author', 'committer']) {
      if (ctx.query.has(p))
        throw new HttpError(
          501,
          `fake GitHub does not implement list-commits ${p}=`,
          'fake.unsupported'
        )
    }
    const start = await this.git.resolveCommit(ctx.query.get('sha') ?? this.defaultBranch)
    if (!start) throw new HttpError(404, 'Not Found')
    const perPage = clampPerPage(ctx.url, 30, 100)
    const page = pageNumber(ctx.url)
    const path = ctx.query.get('path') ?? undefined
    const shas = await this.git.log(start, {
      path,
      skip: (page - 1) * perPage,
      limit: perPage + 1
    })
    const more = shas.length > perPage
    const items = shas.slice(0, perPage)
    const commits = await Promise.all(items.map(async (s) => this.git.commit(s)))
    return {
      status: 200,
      body: commits.map((c) => this.objects.commit(this.repoRef, c)),
      headers: linkHeader(ctx.url, page, more ? page + 1 : undefined, undefined)
    }
  }

  private async getCommit(ctx: Ctx): Promise<Result> {
    const ref = ctx.params.ref ?? ''
    const sha = await this.git.resolveCommit(ref)
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`)
    const info = await this.git.commit(sha)
    const all = await this.git.diff(info.parents[0], sha)
    const page = paginate(all.slice(0, MAX_PR_FILES), ctx.url, 300, 300)
    const additions = all.reduce((n, f) => n + f.additions, 0)
    const deletions = all.reduce((n, f) => n + f.deletions, 0)
    return {
      status: 200,
      headers: page.headers,
      body: this.objects.commit(this.repoRef, info, {
        stats: { additions, deletions, total: additions + deletions },
        files: page.items.map((f) => this.objects.diffEntry(this.repoRef, f, sha))
      })
    }
  }

  private async getContent(ctx: Ctx): Promise<Result> {
    const path = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '')
    const ref = ctx.query.get('ref') ?? this.defaultBranch
    const commit = await this.git.resolveCommit(ref)
    if (!commit) throw new HttpError(404, `No commit found for the ref ${ref}`)
    const entry = await this.git.entryAt(commit, path)
    if (!entry) throw new HttpError(404, 'Not Found')
    const r = this.repoRef
    const name = path.slice(path.lastIndexOf('/') + 1)
    if (entry.type === 'tree') {
      const entries = await this.git.lsTree(entry.sha, false)
      const body = entries.map((e) => {
        const p = path ? `${path}/${e.path}` : e.path
        const kind =
          e.type === 'tree'
            ? 'dir'
            : e.type === 'commit'
              ? 'file'
              : e.mode === '120000'
                ? 'symlink'
                : 'file'
        return {
          type: kind, // submodules are listed as "file" in directory listings, like GitHub
          size: e.size ?? 0,
          name: e.path,
          path: p,
          sha: e.sha,
          ...this.objects.contentLinks(r, p, e.sha, ref, e.type)
        }
      })
      return { status: 200, body }
    }
    if (entry.type === 'commit') {
      return {
        status: 200,
        body: {
          type: 'submodule',
          submodule_git_url: await this.submoduleUrl(commit, path),
          size: 0,
          name,
          path,
          sha: entry.sha,
          ...this.objects.contentLinks(r, path, entry.sha, ref, 'commit')
        }
      }
    }
    const bytes = (await this.git.blob(entry.sha)) ?? Buffer.alloc(0)
    if (entry.mode === '120000') {
      const target = bytes.toString('utf8')
      const resolved = resolveLink(path, target)
      const targetEntry =
        resolved === undefined ? undefined : await this.git.entryAt(commit, resolved)
      if (
        resolved !== undefined &&
        targetEntry?.type === 'blob' &&
        targetEntry.mode !== '120000'
      ) {
        // "If the symlink's target is a normal file in the repository, the API responds with
        // the content of the file."
        return {
          status: 200,
          body: await this.fileContent(resolved, targetEntry.sha, ref)
        }
      }
      return {
        status: 200,
        body: {
          type: 'symlink',
          target,
          size: bytes.length,
          name,
          path,
          sha: entry.sha,
          ...this.objects.contentLinks(r, path, entry.sha, ref, 'blob')
        }
      }
    }
    return { status: 200, body: await this.fileContent(path, entry.sha, ref, bytes) }
  }

  private async fileContent(
    path: string,
    sha: string,
    ref: string,
    known?: Buffer
  ): Promise<Json> {
    const bytes = known ?? (await this.git.blob(sha)) ?? Buffer.alloc(0)
    const big = bytes.length > 1024 * 1024
    return {
      type: 'file',
      encoding: big ? 'none' : 'base64',
      size: bytes.length,
      name: path.slice(path.lastIndexOf('/') + 1),
      path,
      content: big ? '' : wrapBase64(bytes),
      sha,
      ...this.objects.contentLinks(this.repoRef, path, sha, ref, 'blob')
    }
  }

  private async submoduleUrl(commit: string, path: string): Promise<string> {
    const gm = await this.git.entryAt(commit, '.gitmodules')
    if (gm?.type === 'blob') {
      const text = ((await this.git.blob(gm.sha)) ?? Buffer.alloc(0)).toString('utf8')
      const blocks = text.split(/^\s*\[submodule\b/m)
      for (const b of blocks) {
        if (
          new RegExp(
            `^\\s*path\\s*=\\s*${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`,
            'm'
          ).test(b)
        ) {
          const url = /^\s*url\s*=\s*(\S+)\s*$/m.exec(b)?.[1]
          if (url && /^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url
        }
      }
    }
    return `${WEB_URL}/${this.owner}/${path.slice(path.lastIndexOf('/') + 1)}.git`
  }

  private async getTree(ctx: Ctx): Promise<Result> {
    const rev = ctx.params.tree_sha ?? ''
    const tree = await this.resolveTreeish(rev)
    if (!tree) throw new HttpError(404, 'Not Found')
    const recursive = ctx.query.has('recursive')
    let entries = await this.git.lsTree(tree, recursive)
    let truncated = false
    if (entries.length > MAX_TREE_ENTRIES) {
      entries = entries.slice(0, MAX_TREE_ENTRIES)
      truncated = true
    }
    const fault = this.faults.take(ctx.call, ['truncated-tree'])
    if (fault?.kind === 'truncated-tree') {
      entries = entries.slice(0, fault.keep ?? Math.floor(entries.length / 2))
      truncated = true
    }
    const api = this.objects.repoApi(this.repoRef)
    return {
      status: 200,
      body: {
        sha: tree,
        url: `${api}/git/trees/${tree}`,
        tree: entries.map((e) => {
          const out: Json = { path: e.path, mode: e.mode, type: e.type, sha: e.sha }
          if (e.size !== undefined) out.size = e.size
          if (e.type !== 'commit')
            out.url = `${api}/git/${e.type === 'tree' ? 'trees' : 'blobs'}/${e.sha}`
          return out
        }),
        truncated
      }
    }
  }

  /** A tree SHA, a commit or ref (peeled), or `<rev>:<path>` naming a folder in it. */
  private async resolveTreeish(rev: string): Promise<string | undefined> {
    const colon = rev.indexOf(':')
    if (colon < 0) return this.git.resolveTree(rev)
    if (this.options.treePaths === false) return undefined
    const commit = await this.git.resolveCommit(rev.slice(0, colon))
    if (!commit) return undefined
    const entry = await this.git.entryAt(commit, rev.slice(colon + 1))
    return entry?.type === 'tree' ? entry.sha : undefined
  }

  private async getBlob(ctx: Ctx): Promise<Result> {
    const sha = ctx.params.file_sha ?? ''
    const bytes = /^[0-9a-f]{40}$/i.test(sha) ? await this.git.blob(sha) : undefined
    if (!bytes) throw new HttpError(404, 'Not Found')
    return {
      status: 200,
      body: {
        sha: sha.toLowerCase(),
        node_id: Buffer.from(`B:${sha}`).toString('base64').replace(/=+$/, ''),
        size: bytes.length,
        url: `${this.objects.repoApi(this.repoRef)}/git/blobs/${sha}`,
        content: wrapBase64(bytes),
        encoding: 'base64'
      }
    }
  }

  private async getGitCommit(ctx: Ctx): Promise<Result> {
    const sha = ctx.params.commit_sha ?? ''
    if ((await this.git.objectType(sha)) !== 'commit')
      throw new HttpError(404, 'Not Found')
    const full = await this.git.resolveCommit(sha)
    if (!full) throw new HttpError(404, 'Not Found')
    return {
      status: 200,
      body: this.objects.gitCommit(this.repoRef, await this.git.commit(full))
    }
  }

  private async runJson(run: StoredCheckRun): Promise<Json> {
    const views = await Promise.all(
      [...this.pulls.keys()].map(async (n) => this.pullView(n))
    )
    // "Pushes to a branch in a forked repository are not detected and return an empty
    // pull_requests array."
    const pulls = views
      .filter(
        (v) => v.state === 'open' && !v.head.repo.fork && v.head.sha === run.head_sha
      )
      .map((v) => this.objects.pullRequestMinimal(this.repoRef, v))
    return this.objects.checkRun(this.repoRef, run, pulls)
  }

  private async createCheckRun(ctx: Ctx): Promise<Result> {
    const headSha = String(ctx.body.head_sha)
    const known =
      /^[0-9a-f]{40}$/.test(headSha) && (await this.git.objectType(headSha)) === 'commit'
    if (!known) {
      throw new HttpError(
        422,
        `No commit found for SHA: ${headSha}`,
        'check_run.head_sha.unknown'
      )
    }
    const run = this.checks.create(ctx.body)
    return { status: 201, body: await this.runJson(run) }
  }

  private checkRun(ctx: Ctx): StoredCheckRun {
    const run = this.checks.get(Number(ctx.params.check_run_id))
    if (!run) throw new HttpError(404, 'Not Found')
    return run
  }

  private async updateCheckRun(ctx: Ctx): Promise<Result> {
    const run = this.checkRun(ctx)
    if (run.app_id !== GITHUB_ACTIONS_APP_ID) {
      throw new HttpError(
        403,
        `Invalid app_id ${GITHUB_ACTIONS_APP_ID} - check run can only be modified by the GitHub App that created it.`,
        'check_run.app'
      )
    }
    this.checks.update(run, ctx.body)
    return { status: 200, body: await this.runJson(run) }
  }

  private async getCheckRun(ctx: Ctx): Promise<Result> {
    return { status: 200, body: await this.runJson(this.checkRun(ctx)) }
  }

  private async listCheckRunsForRef(ctx: Ctx): Promise<Result> {
    const ref = ctx.params.ref ?? ''
    const sha = await this.git.resolveCommit(ref)
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`)
    const appId = ctx.query.get('app_id')
    const runs = this.checks.forRef(sha, {
      checkName: ctx.query.get('check_name') ?? undefined,
      status: ctx.query.get('status') ?? undefined,
      filter: ctx.query.get('filter') ?? undefined,
      appId: appId === null ? undefined : Number(appId)
    })
    const page = paginate(runs, ctx.url, 30, 100)
    return {
      status: 200,
      headers: page.headers,
      body: {
        total_count: runs.length,
        check_runs: await Promise.all(page.items.map(async (r) => this.runJson(r)))
      }
    }
  }

  private async listAnnotations(ctx: Ctx): Promise<Result> {
    const run = this.checkRun(ctx)
    const page = paginate(run.annotations, ctx.url, 30, 100)
    return Promise.resolve({
      status: 200,
      headers: page.headers,
      body: page.items.map((a) => this.objects.annotation(this.repoRef, run, a))
    })
  }

  /** Seeds a check run as if created by another app (its PATCH then answers 403). */
  seedCheckRun(
    body: { name: string; head_sha: string; [k: string]: unknown },
    appId: number
  ): StoredCheckRun {
    return this.checks.create(body, appId)
  }
}

// ---------------------------------------------------------------- helpers

/** Starts a fake on 127.0.0.1 (ephemeral port). Close it in afterAll. */
export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const t0 = performance.now()
  const loaded = contractCache === undefined
  const { contract, loadMs } = loadContract()
  const fake = new FakeGitHub(options, contract)
  if (options.preloadGraphql) loadGraphqlSchema()
  await fake.listen()
  fake.startupMs = performance.now() - t0
  fake.schemaLoadMs = loaded ? loadMs : 0
  return fake
}

const sleep = async (ms: number) => new Promise((r) => setTimeout(r, ms))

function statusText(status: number): string {
  if (status === 502) return 'Server Error'
  if (status === 503) return 'Service Unavailable'
  if (status === 504)
    return 'We couldn\u2019t respond to your request in time. Sorry about that.'
  return 'Server Error'
}

/** An answer's body as sent: its JSON in UTF-8, nothing for none. */
/**
 * Streams a list answer of `bytes` bytes (at least the answer itself): its first item's
 * `patch` padded with added lines, written a MiB at a time as the socket drains.
 */
async function sendOversized(
  res: ServerResponse,
  headers: Record<string, string>,
  items: Json[],
  fault: { bytes: number; chunked?: boolean }
): Promise<number> {
  const [first = {}, ...rest] = items as Record<string, Json>[]
  const fields = { ...first }
  delete fields.patch
  const open = `[${JSON.stringify({ ...fields, patch: '@@ -0,0 +1 @@' }).slice(0, -2)}`
  const close = `"}${rest.map((item) => `,${JSON.stringify(item)}`).join('')}]`
  const line = `\\n+${'x'.repeat(1021)}`
  const padding = Math.max(0, fault.bytes - open.length - close.length)
  res.writeHead(200, {
    ...headers,
    ...(fault.chunked
      ? {}
      : { 'content-length': String(open.length + padding + close.length) })
  })
  const mib = Buffer.from(line.repeat(1024))
  const write = async (chunk: Buffer | string): Promise<void> => {
    if (!res.write(chunk) && !res.destroyed)
      await new Promise((resolve) => res.once('drain', resolve).once('close', resolve))
  }
  await write(open)
  for (let n = Math.floor(padding / mib.length); n > 0 && !res.destroyed; n--)
    await write(mib)
  // Whole lines, then plain characters: a cut `\\n` would escape the closing quote.
  if (!res.destroyed) await write(Buffer.alloc(padding % mib.length, 'x'))
  res.end(close)
  return open.length + padding + close.length
}

function serialized(body: unknown): Buffer {
  return Buffer.from(body === undefined ? '' : JSON.stringify(body), 'utf8')
}

const FULL_SHA = /^[0-9a-f]{40}$/i

/**
 * Whether the answer of a read depends only on its URL, forever: git objects named by
 * full SHAs (a tree-ish `<sha>:<path>` too) and a comparison of two full SHAs.
 */
function immutable(operationId: string, params: Record<string, string>): boolean {
  switch (operationId) {
    case 'git/get-blob':
      return FULL_SHA.test(params.file_sha ?? '')
    case 'git/get-tree':
      return FULL_SHA.test((params.tree_sha ?? '').split(':')[0] ?? '')
    case 'repos/compare-commits-with-basehead': {
      const sides = (params.basehead ?? '').split('...')
      return sides.length === 2 && sides.every((side) => FULL_SHA.test(side))
    }
    default:
      return false
  }
}

/** Base64 in 60-character lines, each ending in a newline (GitHub's format). */
/** A validated blob answer in the raw media type: the blob's bytes, typed as GitHub does. */
function rawBlobAnswer(result: Result): Result {
  const { content } = result.body as { content: string }
  return {
    ...result,
    headers: {
      ...result.headers,
      'content-type': 'application/vnd.github.raw',
      'x-github-media-type': 'github.v3; param=raw'
    },
    bytes: Buffer.from(content, 'base64')
  }
}

function wrapBase64(bytes: Buffer): string {
  const b64 = bytes.toString('base64')
  let out = ''
  for (let i = 0; i < b64.length; i += 60) out += b64.slice(i, i + 60) + '\n'
  return out
}

/** Repository path a relative symlink target points at, or undefined if it leaves the repo. */
function resolveLink(linkPath: string, target: string): string | undefined {
  if (target.startsWith('/')) return undefined
  const parts = linkPath.split('/').slice(0, -1)
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue
    if (seg === '..') {
      if (!parts.length) return undefined
      parts.pop()
    } else parts.push(seg)
  }
  return parts.join('/')
}

function clampPerPage(url: URL, def: number, max: number): number {
  const n = Number(url.searchParams.get('per_page') ?? def)
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : def
}

function pageNumber(url: URL): number {
  const n = Number(url.searchParams.get('page') ?? 1)
  return Number.isInteger(n) && n > 0 ? n : 1
}

function linkHeader(
  url: URL,
  page: number,
  next: number | undefined,
  last: number | undefined
): Record<string, string> | undefined {
  const at = (p: number) => {
    const u = new URL(url)
    u.searchParams.set('page', String(p))
    return `<${u.toString()}>`
  }
  const parts: string[] = []
  if (page > 1) parts.push(`${at(page - 1)}; rel="prev"`)
  if (next !== undefined) parts.push(`${at(next)}; rel="next"`)
  if (last !== undefined && last > page) parts.push(`${at(last)}; rel="last"`)
  if (page > 1) parts.push(`${at(1)}; rel="first"`)
  return parts.length ? { link: parts.join(', ') } : undefined
}

/** GitHub pagination: per_page (clamped to max), page, and a Link header. */
function paginate<T>(items: T[], url: URL, def: number, max: number) {
  const perPage = clampPerPage(url, def, max)
  const page = pageNumber(url)
  const last = Math.max(1, Math.ceil(items.length / perPage))
  return {
    page,
    items: items.slice((page - 1) * perPage, page * perPage),
    headers: linkHeader(url, page, page < last ? page + 1 : undefined, last)
  }
}
