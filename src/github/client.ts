/**
 * The GitHub client: a small octokit-shaped REST client (`http.ts`; `@actions/github`'s
 * octokit behind a proxy) with one request hook that applies the retry policy, a 20 s
 * timeout per attempt, and a time scale for tests (`RECEIPT_GATE_TIME_SCALE`, so tests
 * never sleep for real).
 */
import { createRestClient, type EarlyReads, type RestClient } from './http.js'
import { attemptTimeoutMs, decide, sleep, type Failure } from './retry.js'

export { attemptTimeoutMs } from './retry.js'

export type Octokit = RestClient

/** Thrown when a request failed for good; the message never contains the token. */
export class GitHubError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly route: string
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
  onRetry?: (what: string) => void
  /** Reads started before the client existed, taken as their requests' first attempts. */
  early?: EarlyReads
}

/** Builds the client. */
export function createClient(options: ClientOptions): Octokit {
  // Performance (issue 7): not `getOctokit` — see http.ts.
  const octokit = createRestClient({
    token: options.token,
    baseUrl: options.baseUrl,
    early: options.early
  })
  octokit.hook.wrap('request', async (request, params) => {
    const route = `${params.method} ${params.url}`
    const idempotent = params.method === 'GET' || params.method === 'HEAD'
    for (let attempt = 0; ; attempt++) {
      try {
        // `request` is the next hook (octokit's auth) already bound to `params`: options
        // handed to it are ignored. A copy carrying the deadline was dropped, so no
        // request ever timed out (a hung answer held the step until the job's own
        // timeout); the deadline must go on the object the chain holds.
        params.request = {
          ...params.request,
          timeoutMs: attemptTimeoutMs(options.timeScale)
        }
        return await request(params)
      } catch (error) {
        const failure = toFailure(error)
        const decision = decide(failure, attempt, { idempotent, nowMs: Date.now() })
        if (decision.action === 'fail')
          throw new GitHubError(
            `${route}: ${redact(decision.message, options.token)}`,
            failure.status,
            route
          )
        options.onRetry?.(
          `${route}: ${decision.why}; retrying in ${Math.round(decision.waitMs / 1000)} s`
        )
        await sleep(decision.waitMs * options.timeScale)
      }
    }
  })
  return octokit
}

/**
 * An error message is GitHub's (or a proxy's) text: should it ever echo the token, it
 * would reach the log, the check run summary (a refused annotation's reason) and the
 * report, and only the log is masked by the runner.
 */
function redact(message: string, token: string): string {
  return token.length >= 4 ? message.split(token).join('***') : message
}

/** Normalises an octokit error; never copies request headers (they hold the token). */
export function toFailure(error: unknown): Failure {
  const e = error as {
    status?: unknown
    response?: { headers?: Record<string, string | number | undefined>; data?: unknown }
    message?: unknown
    name?: unknown
  }
  const status =
    typeof e.status === 'number' && e.status >= 100 && e.status !== 500
      ? e.status
      : statusOf500(e)
  const apiMessage = (e.response?.data as { message?: unknown } | undefined)?.message
  const message =
    typeof apiMessage === 'string'
      ? `${status ?? 'network'} ${apiMessage}`
      : networkMessage(e)
  return { status, headers: e.response?.headers ?? {}, message }
}

// @octokit/request reports fetch failures (resets, timeouts) as status 500 without a
// response; a real 500 has one.
function statusOf500(e: { status?: unknown; response?: unknown }): number | undefined {
  return e.status === 500 && e.response !== undefined ? 500 : undefined
}

function networkMessage(e: { message?: unknown; name?: unknown }): string {
  const text = typeof e.message === 'string' ? e.message : 'request failed'
  return e.name === 'TimeoutError' || /abort|timeout/i.test(text)
    ? 'request timed out'
    : `network error: ${text.split('\n')[0]}`
}

/** Is this the 403 GitHub gives a token without `checks: write` (fork PRs)? */
export function isPermissionDenied(error: unknown): boolean {
  return (
    error instanceof GitHubError &&
    error.status === 403 &&
    !/rate limit/i.test(error.message)
  )
}
