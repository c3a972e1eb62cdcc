/**
 * What a REST request is, before it is sent: the routes the action calls, how endpoint
 * options become a URL and a body, the headers, and the parameters of the reads the
 * action starts with. Shared by the client (`http.ts`) and the light entry's early
 * reads (`src/action/prefetch.ts`), which must build the very same requests; no I/O.
 */

/** The endpoints the action calls, by octokit's names. */
export const ROUTES = {
  pulls: {
    get: 'GET /repos/{owner}/{repo}/pulls/{pull_number}',
    list: 'GET /repos/{owner}/{repo}/pulls',
    listFiles: 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files'
  },
  git: {
    getTree: 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}',
    getBlob: 'GET /repos/{owner}/{repo}/git/blobs/{file_sha}'
  },
  repos: {
    getContent: 'GET /repos/{owner}/{repo}/contents/{path}',
    compareCommitsWithBasehead: 'GET /repos/{owner}/{repo}/compare/{basehead}',
    listCommits: 'GET /repos/{owner}/{repo}/commits'
  },
  checks: {
    create: 'POST /repos/{owner}/{repo}/check-runs',
    update: 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
    get: 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}',
    listForRef: 'GET /repos/{owner}/{repo}/commits/{ref}/check-runs'
  }
} as const

/** What a request hook sees: octokit's endpoint options (route split, parameters inline). */
export interface RequestParams {
  method: string
  /** The route's path template (`/repos/{owner}/{repo}/pulls`) or an absolute URL. */
  url: string
  /**
   * `timeoutMs`: the attempt's deadline (the retry hook sets it); the direct client times
   * the exchange itself, the octokit path turns it into a signal for fetch.
   */
  request?: { signal?: AbortSignal; timeoutMs?: number }
  [parameter: string]: unknown
}

const OPTION_KEYS = new Set([
  'method',
  'url',
  'baseUrl',
  'headers',
  'request',
  'mediaType'
])

/** The API's base URL without a trailing slash (api.github.com when none is given). */
export function apiBase(url: string | undefined): string {
  return (url ?? 'https://api.github.com').replace(/\/+$/, '')
}

/** With a proxy configured, requests go through octokit (see `http.ts`). */
export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some(
    (name) => (env[name] ?? '') !== ''
  )
}

/** Percent-encodes as octokit's URL templates do (RFC 6570 simple expansion). */
function encode(value: unknown): string {
  return encodeURIComponent(String(value)).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
  )
}

/** Splits endpoint options into the URL (path and query) and the JSON body. */
export function prepare(
  params: RequestParams,
  baseUrl: string
): { url: string; body: string | undefined } {
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(params))
    if (!OPTION_KEYS.has(key) && value !== undefined) rest[key] = value
  const path = params.url.replace(/\{(\w+)\}/g, (_all, name: string) => {
    const value = rest[name]
    delete rest[name]
    return encode(value)
  })
  let url = /^https?:\/\//.test(path) ? path : `${baseUrl}${path}`
  if (params.method === 'GET' || params.method === 'HEAD') {
    const query = Object.entries(rest)
      .map(([key, value]) => `${encode(key)}=${encode(value)}`)
      .join('&')
    if (query) url += `${url.includes('?') ? '&' : '?'}${query}`
    return { url, body: undefined }
  }
  return { url, body: JSON.stringify(rest) }
}

/**
 * Whether a request asks for the raw media type (octokit's `mediaType: { format: 'raw' }`):
 * a blob's bytes as the answer's body, not base64 inside JSON.
 */
export function wantsRaw(params: RequestParams): boolean {
  const mediaType = params.mediaType as { format?: unknown } | undefined
  return mediaType?.format === 'raw'
}

/** The headers of every request (`raw`: the raw media type, see {@link wantsRaw}). */
export function requestHeaders(
  token: string,
  withBody: boolean,
  raw = false
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: raw ? 'application/vnd.github.raw+json' : 'application/vnd.github+json',
    'user-agent': 'receipt-gate',
    'accept-encoding': 'gzip'
  }
  if (token) headers.authorization = `token ${token}`
  if (withBody) headers['content-type'] = 'application/json; charset=utf-8'
  return headers
}

/** Endpoint options from a route (`GET /repos/{owner}/…`) and its parameters. */
export function endpoint(
  route: string,
  parameters: Record<string, unknown>
): RequestParams {
  const space = route.indexOf(' ')
  return { ...parameters, method: route.slice(0, space), url: route.slice(space + 1) }
}

type Repo = { owner: string; repo: string }

/** `pulls.get` of the PR under review. */
export function pullParams(base: Repo, number: number): Repo & { pull_number: number } {
  return { ...base, pull_number: number }
}

/** The first page of the PR's files list. */
export function filesPageParams(
  base: Repo,
  number: number
): Repo & { pull_number: number; per_page: number } {
  return { ...base, pull_number: number, per_page: 100 }
}

/**
 * The recursive tree of `dir` at `head`, asked for by name (`<commit>:<path>`), or null
 * where the name would mean something else to git than to a walk (a `.` segment).
 */
export function folderTreeParams(
  base: Repo,
  head: string,
  dir: string
): (Repo & { tree_sha: string; recursive: string }) | null {
  if (dir.split('/').some((segment) => segment === '.')) return null
  return { ...base, tree_sha: `${head}:${dir}`, recursive: '1' }
}
