/**
 * The GitHub client: `@actions/github`'s Octokit with the retry and throttling plugins,
 * and the product's policy (docs/contract.md#check-run-and-report): a 20 s deadline per attempt, reads retried on 5xx
 * and network errors (writes only by `checks.ts`, once it proved the first did not land),
 * rate limits waited for up to 60 s, every wait shrunk by `RECEIPT_GATE_TIME_SCALE`;
 * no request (a list's next page included) leaves the API's origin.
 */
import { getOctokit } from '@actions/github'
import type { Octokit as Core } from '@octokit/core'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import Bottleneck from 'bottleneck/light.js'
import { malformedAnswer } from './answers.js'

export const MAX_RETRIES = 3
const REQUEST_TIMEOUT_MS = 20_000
const MAX_RATE_LIMIT_WAIT_S = 60

/**
 * The largest answer read, far above any the gate needs (a files-list page, whose large
 * patches GitHub leaves out; a folder of receipts): past it a request fails with why, as
 * the answer arrives, instead of the run running out of memory before it posts anything.
 */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024
/** The status a refused oversized answer is reported with (never retried). */
const TOO_LARGE = 413

export type Octokit = ReturnType<typeof getOctokit>

/** Thrown when a request failed for good; the message never contains the token. */
export class GitHubError extends Error {
  constructor(
    message: string,
    /** HTTP status, or undefined when no answer came (network error, timeout). */
    readonly status: number | undefined
  ) {
    super(message)
  }
}

export interface ClientOptions {
  token: string
  baseUrl?: string
  /** Multiplies every wait and timeout (tests: e.g. 0.001). */
  timeScale: number
  /** Called before each retry, for the log. */
  onRetry?: (line: string) => void
}

/**
 * The timeout of one attempt: 20 s, shrunk by the tests' time scale but never below 1 s
 * (a second is still far below any latency a test stages, and above a healthy answer).
 */
export function attemptTimeoutMs(timeScale: number): number {
  return Math.max(1000, REQUEST_TIMEOUT_MS * timeScale)
}

/** 1 s, 2 s, 4 s (before the time scale): `checks.ts` between looks at a write's effect. */
export const backoff = (attempt: number): number => 1000 * 2 ** attempt

/**
 * The requests a client was asked for whose first attempt has not reached `fetch` yet.
 * Octokit's retry and throttling plugins hold each request for about 9 timer turns
 * (Bottleneck's queues) before it leaves: work the gate starts right after asking would
 * hold it back, so that work waits for {@link requestsSent} first.
 */
class Unsent {
  private readonly asked = new Set<object>()
  private readonly waiting: (() => void)[] = []

  ask(request: object): void {
    this.asked.add(request)
  }

  left(request: object): void {
    if (this.asked.delete(request) && this.asked.size === 0)
      for (const resolve of this.waiting.splice(0)) resolve()
  }

  async sent(): Promise<void> {
    // An adapter may ask after an await or two of answers it holds already.
    await turn()
    if (this.asked.size > 0)
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    // From `fetch` to the socket takes undici one more turn of the event loop.
    await turn()
  }
}

/** One turn of the event loop. */
const turn = async (): Promise<void> =>
  new Promise((resolve) => {
    setImmediate(resolve)
  })

const unsent = new WeakMap<object, Unsent>()

/** Resolves once every request asked of `octokit` so far has left (or failed before). */
export async function requestsSent(octokit: Octokit): Promise<void> {
  await unsent.get(octokit)?.sent()
}

type Params = {
  method: string
  url: string
  request?: Record<string, unknown> & { retryCount?: number }
}

/** Builds the client. */
export function createClient(options: ClientOptions): Octokit {
  const { token, timeScale } = options
  const log = options.onRetry ?? (() => undefined)
  const queue = new Unsent()
  const onLimit = (
    after: number,
    params: Params,
    _octokit: unknown,
    retryCount: number
  ): boolean => {
    if (after > MAX_RATE_LIMIT_WAIT_S || retryCount >= MAX_RETRIES) return false
    log(`${params.method} ${params.url}: rate limited; retrying in ${after} s`)
    return true
  }
  const octokit = getOctokit(
    token,
    {
      ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
      retry: {
        retryAfterBaseValue: 1000 * timeScale,
        // 429 and 403 are rate limits, the throttling plugin's to wait for.
        doNotRetry: [400, 401, 403, 404, 410, TOO_LARGE, 422, 429, 451]
      },
      throttle: {
        retryAfterBaseValue: 1000 * timeScale,
        onRateLimit: onLimit,
        onSecondaryRateLimit: onLimit,
        // GitHub's one-second spacing is advice for bulk writes; a run makes a few.
        write: new Bottleneck.Group({ maxConcurrent: 1 })
      }
    },
    // Innermost first: each attempt (retries included) gets its own deadline.
    perAttempt(timeScale, log, queue),
    retry,
    throttling
  )
  // Outermost: the token sent to the API only, answers checked (answers.ts); one error
  // type, named by route, without the token.
  const origin = new URL(octokit.request.endpoint.DEFAULTS.baseUrl).origin
  unsent.set(octokit, queue)
  octokit.hook.wrap('request', async (request, params) => {
    const route = `${params.method} ${params.url}`
    // A list's next page is where its `link` header says: a header naming another
    // origin would otherwise get the token (joined as @octokit/endpoint joins them).
    const target = /^http/.test(params.url) ? params.url : params.baseUrl + params.url
    if (!URL.canParse(target) || new URL(target).origin !== origin)
      throw new GitHubError(
        `refused ${params.method} ${target.split('?')[0]}: not on the API's origin (${origin}), which alone gets the token`,
        undefined
      )
    queue.ask(params)
    try {
      const response = await request(params)
      const malformed = malformedAnswer(params.method, params.url, response.data)
      if (malformed) throw new GitHubError(malformed, response.status)
      return response
    } catch (error) {
      const { message, status } = describe(error)
      throw new GitHubError(`${route}: ${redact(message, token)}`, status)
    } finally {
      queue.left(params)
    }
  })
  return octokit
}

/**
 * A plugin that bounds each attempt (an AbortSignal on the object the hook chain
 * holds: options handed to the next hook are ignored), keeps plugin-retry off writes,
 * refuses answers that an https request got over http, and logs the retries to come.
 */
function perAttempt(timeScale: number, log: (line: string) => void, queue: Unsent) {
  return (octokit: Core): void => {
    octokit.hook.wrap('request', async (request, options) => {
      // The plugins' queues are behind: the request leaves now.
      queue.left(options)
      const params = options as unknown as Params
      // The product's GraphQL requests are all queries: reads, retried like REST reads.
      const read =
        params.method === 'GET' ||
        params.method === 'HEAD' ||
        /\/graphql$/.test(params.url)
      const signal = AbortSignal.timeout(attemptTimeoutMs(timeScale))
      const fetch = cappedFetch(
        (params.request?.fetch as typeof globalThis.fetch | undefined) ?? globalThis.fetch
      )
      params.request = {
        ...params.request,
        signal,
        fetch,
        ...(read ? {} : { retries: 0 })
      }
      const retrying = (status: number | undefined): void => {
        const why = status === undefined ? 'network error' : `HTTP ${status}`
        if (read && transient(status) && (params.request?.retryCount ?? 0) < MAX_RETRIES)
          log(`${params.method} ${params.url}: ${why}; retrying`)
      }
      try {
        const response = await request(options)
        // A body cut by the deadline reads as "" in @octokit/request: not an answer (thrown
        // as @octokit/request reports a failed attempt, which plugin-retry retries).
        if (signal.aborted)
          throw Object.assign(new Error('request timed out'), {
            name: 'TimeoutError',
            status: 500,
            request: options
          })
        // An answer reached over http after an https request (a redirect) is not GitHub's.
        if (options.baseUrl?.startsWith('https:') && response.url?.startsWith('http:'))
          throw new GitHubError(`refused a redirect from https to ${response.url}`, 400)
        // GraphQL's "Something went wrong" comes as a 200, which plugin-retry retries as a
        // 500 after this hook: said here like any other 5xx.
        if (somethingWentWrong(response.data)) retrying(500)
        return response
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause
        if (cause instanceof AnswerTooLarge)
          throw new GitHubError(cause.message, TOO_LARGE)
        retrying(describe(error).status)
        throw error
      }
    })
  }
}

/** GraphQL's answer to a query that failed inside it (plugin-retry's test). */
const somethingWentWrong = (data: unknown): boolean => {
  const errors = (data as { errors?: unknown } | null | undefined)?.errors
  return (
    Array.isArray(errors) &&
    /Something went wrong while executing your query/.test(
      String((errors[0] as { message?: unknown } | undefined)?.message)
    )
  )
}

class AnswerTooLarge extends Error {}

/**
 * `fetch` that reads an answer whole, up to {@link MAX_ANSWER_BYTES}: past it (by its
 * declared length, or as it streams in) it stops reading and fails.
 */
function cappedFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  const tooLarge = (): AnswerTooLarge =>
    new AnswerTooLarge(`answer over ${MAX_ANSWER_BYTES / 2 ** 20} MiB, not read`)
  return async (input, init) => {
    const response = await fetch(input, init)
    if (response.body === null || [204, 205, 304].includes(response.status))
      return response
    if (Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) {
      await response.body.cancel()
      throw tooLarge()
    }
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength
      // Leaving the loop cancels the stream: the rest of the answer is never read.
      if (size > MAX_ANSWER_BYTES) throw tooLarge()
      chunks.push(chunk)
    }
    const { status, statusText, headers } = response
    // The answer's own class (undici's, under @actions/github's fetch): node's global
    // Response would load node's own copy of undici first, ~30 ms after the first answer.
    const Answer = response.constructor as typeof Response
    const read = new Answer(Buffer.concat(chunks), { status, statusText, headers })
    // The redirect check reads where the answer came from.
    return Object.defineProperty(read, 'url', { value: response.url })
  }
}

/**
 * An error message is GitHub's (or a proxy's) text: should it ever echo the token, it
 * would reach the log, the check run summary and the report, and only the log is masked.
 */
function redact(message: string, token: string): string {
  return token.length >= 4 ? message.split(token).join('***') : message
}

/** Status and message of an Octokit error; never its request headers. */
function describe(error: unknown): { status: number | undefined; message: string } {
  if (error instanceof GitHubError) return error
  const e = error as {
    status?: unknown
    message?: unknown
    name?: unknown
    cause?: { name?: unknown }
    response?: { headers?: Record<string, string | undefined>; data?: unknown }
  }
  // @octokit/request reports fetch failures (resets, timeouts) as 500 without an answer.
  const status =
    typeof e.status === 'number' && e.response !== undefined ? e.status : undefined
  if (status === undefined) {
    const text = typeof e.message === 'string' ? e.message : 'request failed'
    // The deadline's error, or (from another realm, as in jest) the cause of Octokit's.
    const timedOut =
      [e.name, e.cause?.name].includes('TimeoutError') || /abort|timeout/i.test(text)
    const message = timedOut
      ? 'request timed out'
      : `network error: ${text.split('\n')[0]}`
    return { status, message }
  }
  const apiMessage = (e.response?.data as { message?: unknown } | undefined)?.message
  const text = typeof apiMessage === 'string' ? apiMessage : `HTTP ${status}`
  const message = `${status} ${text}`
  if (status !== 403 && status !== 429) return { status, message }
  // A rate limit not waited for: the wait asked for, past the 60 s this step waits.
  const headers = e.response?.headers ?? {}
  const after = Number(headers['retry-after'])
  const reset = Number(headers['x-ratelimit-reset'])
  const wait =
    Number.isFinite(after) && after >= 0
      ? after
      : headers['x-ratelimit-remaining'] === '0' && reset > 0
        ? Math.ceil(reset - Date.now() / 1000)
        : /rate limit/i.test(text)
          ? MAX_RATE_LIMIT_WAIT_S
          : null
  if (wait === null) return { status, message }
  const note =
    wait > MAX_RATE_LIMIT_WAIT_S
      ? ` (GitHub rate limit: retry possible in ${wait} s, more than the ${MAX_RATE_LIMIT_WAIT_S} s this step waits)`
      : ` (GitHub rate limit persisted after ${MAX_RETRIES} waits)`
  return { status, message: message + note }
}

/** The HTTP status of a failed request; undefined when no answer came; null: not one. */
export const statusOf = (error: unknown): number | undefined | null =>
  error instanceof GitHubError ? error.status : null

/** No answer (network error, timeout) or a 5xx: the same request may yet succeed. */
export const transient = (status: number | undefined): boolean =>
  status === undefined || status >= 500

/** An answer refused for its size ({@link MAX_ANSWER_BYTES}). */
export const isTooLarge = (error: unknown): error is GitHubError =>
  error instanceof GitHubError && error.status === TOO_LARGE

/** GitHub's answer to a name it cannot resolve (a commit, `<commit>:<path>`): 404 or 422. */
export const isUnknownName = (error: unknown): boolean =>
  error instanceof GitHubError && (error.status === 404 || error.status === 422)
