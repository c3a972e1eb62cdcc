/**
 * A small REST client for the dozen GitHub endpoints the action calls, shaped like the
 * part of octokit it replaces (`rest.<area>.<method>`, `paginate`, `hook.wrap`), so the
 * code around it — the retry hook in `client.ts` included — is unchanged.
 *
 * Performance (issue 7): `@actions/github` loads octokit and undici at import, about
 * 140 ms and 20 MB of a run on a 2-core runner, and octokit parses every JSON answer
 * through a big-integer-safe reader several times slower than `JSON.parse` (the PR files
 * list and the comparison are a megabyte or more with their patches). This client is
 * `node:http(s)` with keep-alive and `JSON.parse` (GitHub's ids are below 2^53).
 *
 * With a proxy configured (`HTTPS_PROXY`, `HTTP_PROXY`), requests go through
 * `@actions/github`'s octokit instead, which honours it and `NO_PROXY`; it is a bundle of
 * its own (dist/octokit.js), loaded only then.
 */
import type { getOctokit } from '@actions/github'
import * as http from 'node:http'
import * as https from 'node:https'
import {
  ROUTES,
  apiBase,
  endpoint,
  prepare,
  proxyConfigured,
  requestHeaders,
  wantsRaw,
  type RequestParams
} from './routes.js'
import { decodeWithoutPatches } from './skim.js'
import { createTransport, send, type RawAnswer, type Transport } from './transport.js'

type Full = ReturnType<typeof getOctokit>
type Rest = Full['rest']
type Method<F> = F extends (params?: infer P) => Promise<infer R>
  ? (params: P) => Promise<R>
  : never

type Routes = typeof ROUTES

export interface RestResponse {
  status: number
  url: string
  headers: Record<string, string>
  data: unknown
}

export type RequestFn = (params: RequestParams) => Promise<RestResponse>

export interface RestClient {
  rest: {
    [A in keyof Routes]: {
      [M in keyof Routes[A]]: A extends keyof Rest
        ? M extends keyof Rest[A]
          ? Method<Rest[A][M]>
          : never
        : never
    }
  }
  /** Every page of a list endpoint, following the `link` header as octokit does. */
  paginate<P, T>(method: (params: P) => Promise<{ data: T[] }>, params: P): Promise<T[]>
  /** The same from a first page already asked for (to ask it beside other work). */
  pagesFrom<T>(firstPage: { data: T[] }): Promise<T[]>
  /** `hook.wrap('request', wrapper)`: the wrapper sees every request, retries included. */
  hook: {
    wrap(
      name: 'request',
      wrapper: (request: RequestFn, params: RequestParams) => Promise<RestResponse>
    ): void
  }
  /** A request by route (`GET /repos/{owner}/{repo}`) or absolute URL (`GET https://…`). */
  request(route: string, parameters?: Record<string, unknown>): Promise<RestResponse>
}

/** An error answer (status ≥ 400), shaped like octokit's `RequestError`. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    message: string,
    readonly status: number,
    readonly response: RestResponse
  ) {
    super(message)
  }
}

/**
 * Reads the light entry started before this client existed (`src/action/prefetch.ts`):
 * its transport, and each early answer, taken once by the request that asks for it.
 */
export interface EarlyReads {
  transport: Transport
  /** The answer to the first attempt at `GET <url>`, if it was started early. */
  take(method: string, url: string): Promise<RawAnswer> | undefined
}

export interface RestClientOptions {
  token: string
  baseUrl?: string
  env?: NodeJS.ProcessEnv
  early?: EarlyReads
}

/** Builds the client (no request is made, nothing is loaded). */
export function createRestClient(options: RestClientOptions): RestClient {
  const baseUrl = apiBase(options.baseUrl)
  const sendFn: RequestFn = proxyConfigured(options.env ?? process.env)
    ? viaOctokit(options.token, baseUrl)
    : direct(options.token, baseUrl, options.early)
  let hooked: RequestFn = sendFn
  const request = async (
    route: string,
    parameters: Record<string, unknown> = {}
  ): Promise<RestResponse> => hooked(endpoint(route, parameters))
  const rest = Object.fromEntries(
    Object.entries(ROUTES).map(([area, methods]) => [
      area,
      Object.fromEntries(
        Object.entries(methods).map(([name, route]) => [
          name,
          async (params: Record<string, unknown> = {}) => request(route, params)
        ])
      )
    ])
  ) as unknown as RestClient['rest']
  return {
    rest,
    request,
    hook: {
      wrap(_name, wrapper) {
        const inner = hooked
        hooked = async (params) => wrapper(inner, params)
      }
    },
    async paginate<P, T>(
      method: (params: P) => Promise<{ data: T[] }>,
      params: P
    ): Promise<T[]> {
      return pagesFrom(await method(params))
    },
    pagesFrom
  }

  async function pagesFrom<T>(firstPage: { data: T[] }): Promise<T[]> {
    const first = firstPage as unknown as RestResponse
    const items = [...(first.data as T[])]
    for (let next = nextLink(first.headers); next;) {
      const page = await request(`GET ${next}`)
      items.push(...(page.data as T[]))
      next = nextLink(page.headers)
    }
    return items
  }
}

function nextLink(headers: Record<string, string>): string | null {
  return /<([^>]+)>;\s*rel="next"/.exec(headers.link ?? '')?.[1] ?? null
}

/**
 * The request's URL and its JSON body as bytes.
 *
 * Performance (issue 7): sent as its bytes, encoded once. As a string, node measures it
 * for Content-Length, joins it to the header text and measures that again to encode it:
 * a check-run write's 90 KB body (two bytes a character once its summary holds an icon)
 * was flattened twice and encoded through a 270 KB scratch buffer, about 200 pages of
 * fresh memory a write on a 2-core runner. And the text is not kept while the request is
 * out (a local of the async caller would be): it dies young instead of being promoted.
 */
function encodeRequest(
  params: RequestParams,
  baseUrl: string
): { url: string; body: Buffer | undefined } {
  const { url, body } = prepare(params, baseUrl)
  return { url, body: body === undefined ? undefined : Buffer.from(body, 'utf8') }
}

function direct(token: string, baseUrl: string, early?: EarlyReads): RequestFn {
  const transport = early?.transport ?? createTransport(http, https)
  return async (params) => {
    const { url, body } = encodeRequest(params, baseUrl)
    const raw = wantsRaw(params)
    const headers = requestHeaders(token, body !== undefined, raw)
    // An early read stands in for this request's first attempt only: a retry (the hook
    // calls again) finds it taken and sends.
    const first = early?.take(params.method, url)
    const response = await exchange(
      url,
      params.method,
      headers,
      body,
      transport,
      params.request?.timeoutMs,
      first,
      raw
    )
    if (response.status >= 400) {
      const data = response.data as { message?: unknown } | string
      const message =
        typeof data === 'object' && data !== null && typeof data.message === 'string'
          ? data.message
          : `HTTP ${response.status}`
      throw new HttpError(message, response.status, response)
    }
    return response
  }
}

/**
 * The answer that carries file patches nobody reads: a comparison. Its `patch` members
 * come back `null` from this client. A PR's files list keeps them: they say which lines
 * the PR's diff shows (issue 25).
 */
const PATCHED_ANSWER = /\/repos\/[^/]+\/[^/]+\/compare\/[^/]+$/

/**
 * One HTTP exchange (following a redirect of a read, as fetch does); the body parsed, or,
 * for a `raw` request answered with success in anything but plain JSON, its bytes.
 */
async function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
  transport: Transport,
  timeoutMs: number | undefined,
  first?: Promise<RawAnswer>,
  raw = false,
  redirects = 0
): Promise<RestResponse> {
  const target = new URL(url)
  const begun = performance.now()
  const {
    status,
    headers: responseHeaders,
    bytes
  } = await (first ?? send(transport, target, method, headers, body, timeoutMs))
  const location = responseHeaders.location
  if (
    [301, 302, 303, 307, 308].includes(status) &&
    location &&
    (method === 'GET' || method === 'HEAD') &&
    redirects < 3
  ) {
    return exchange(
      new URL(location, target).href,
      method,
      headers,
      undefined,
      transport,
      // One deadline for the attempt, redirects included.
      timeoutMs === undefined
        ? undefined
        : Math.max(0, timeoutMs - (performance.now() - begun)),
      undefined,
      raw,
      redirects + 1
    )
  }
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(responseHeaders))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  let decoded = bytes
  if (flat['content-encoding'] === 'gzip' && decoded.length > 0) {
    const { gunzipSync } = await import('node:zlib')
    decoded = gunzipSync(decoded)
  }
  const contentType = flat['content-type'] ?? ''
  // A raw answer is the bytes themselves, whatever its type says (a receipt is JSON
  // too); a server that ignored the media type answers in plain JSON, read as usual.
  if (raw && status < 300 && !/^application\/json\b/i.test(contentType))
    return { status, url: target.href, headers: flat, data: decoded }
  const json = /\bjson\b/.test(contentType)
  // The action reads names from a comparison, never its patches (issue 7).
  const text =
    json && status < 300 && PATCHED_ANSWER.test(target.pathname)
      ? decodeWithoutPatches(decoded)
      : decoded.toString('utf8')
  let data: unknown = text
  if (json && text !== '') {
    try {
      data = JSON.parse(text)
    } catch {
      data = text
    }
  }
  return { status, url: target.href, headers: flat, data }
}

/** Requests through `@actions/github`'s octokit (proxy support), loaded on first use. */
function viaOctokit(token: string, baseUrl: string): RequestFn {
  let octokit: Promise<Full> | undefined
  return async (params) => {
    octokit ??= import(/* webpackIgnore: true */ './octokit.js').then(
      (module: { getOctokit: typeof getOctokit }) => module.getOctokit(token, { baseUrl })
    )
    // Not the raw media type: fetch would decode a raw answer as text, replacing what
    // is not UTF-8, where the gate must see a receipt's bytes as they are. The blob's
    // JSON form (base64) is asked for instead; its reader takes either form.
    const { method, url, request, ...rest } = params
    delete rest.mediaType
    // fetch takes its deadline as a signal.
    const { timeoutMs, ...options } = request ?? {}
    const signal =
      timeoutMs === undefined ? options.signal : AbortSignal.timeout(timeoutMs)
    const response = await (
      await octokit
    ).request(`${method} ${url}`, {
      ...rest,
      request: { ...options, signal }
    })
    return response as unknown as RestResponse
  }
}
