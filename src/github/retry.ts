/**
 * Retry policy for GitHub requests (SPEC §5), as pure decisions: 5xx and network errors
 * back off (at most 3 retries); 403/429 rate limits wait for `retry-after` or
 * `x-ratelimit-reset` when that is at most 60 s, and fail with a clear message beyond.
 * Writes are retried only where the caller can prove the first attempt did not land
 * (see `checks.ts`); rate-limited requests never ran, so they are always safe to repeat.
 */

export const MAX_RETRIES = 3
export const REQUEST_TIMEOUT_MS = 20_000
export const MAX_RATE_LIMIT_WAIT_MS = 60_000

/** What a failed attempt looked like. */
export interface Failure {
  /** HTTP status, or undefined for a network error or timeout. */
  status: number | undefined
  headers: Readonly<Record<string, string | number | undefined>>
  message: string
}

export type Decision =
  { action: 'retry'; waitMs: number; why: string } | { action: 'fail'; message: string }

/** True for a rate-limit answer (primary or secondary). */
export function isRateLimit(failure: Failure): boolean {
  if (failure.status === 429) return true
  if (failure.status !== 403) return false
  return (
    String(failure.headers['x-ratelimit-remaining'] ?? '') === '0' ||
    failure.headers['retry-after'] !== undefined ||
    /rate limit/i.test(failure.message)
  )
}

/** Decides what to do after attempt number `attempt` (0-based) failed. */
export function decide(
  failure: Failure,
  attempt: number,
  options: { idempotent: boolean; nowMs: number }
): Decision {
  if (isRateLimit(failure)) {
    const wait = rateLimitWait(failure, options.nowMs)
    if (wait > MAX_RATE_LIMIT_WAIT_MS) {
      return {
        action: 'fail',
        message: `GitHub rate limit: retry possible in ${Math.ceil(wait / 1000)} s, more than the ${MAX_RATE_LIMIT_WAIT_MS / 1000} s this step waits`
      }
    }
    if (attempt >= MAX_RETRIES)
      return {
        action: 'fail',
        message: `GitHub rate limit persisted after ${MAX_RETRIES} waits`
      }
    return { action: 'retry', waitMs: wait, why: `rate limited (${failure.status})` }
  }
  const transient = failure.status === undefined || failure.status >= 500
  if (!transient || !options.idempotent)
    return { action: 'fail', message: failure.message }
  if (attempt >= MAX_RETRIES)
    return {
      action: 'fail',
      message: `${failure.message} (after ${MAX_RETRIES} retries)`
    }
  return {
    action: 'retry',
    waitMs: backoff(attempt),
    why: failure.status === undefined ? 'network error' : `HTTP ${failure.status}`
  }
}

/**
 * The timeout of one attempt: 20 s, shrunk by the tests' time scale but never below 1 s.
 * Once the timeout really applied, 20 s × 0.001 = 20 ms timed out healthy answers of
 * the local test API; a second is still far below any latency a test stages.
 */
export function attemptTimeoutMs(timeScale: number): number {
  return Math.max(1000, REQUEST_TIMEOUT_MS * timeScale)
}

/** Reads `RECEIPT_GATE_TIME_SCALE` (default 1). */
export function timeScaleFrom(env: Readonly<Record<string, string | undefined>>): number {
  const scale = Number(env.RECEIPT_GATE_TIME_SCALE)
  return Number.isFinite(scale) && scale > 0 ? scale : 1
}

/** Waits `ms` (already scaled by the caller). */
export const sleep = async (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms))

/** 1 s, 2 s, 4 s (before the time scale). */
export function backoff(attempt: number): number {
  return 1000 * 2 ** attempt
}

/** How long a rate-limit answer asks to wait. */
export function rateLimitWait(failure: Failure, nowMs: number): number {
  const after = Number(failure.headers['retry-after'])
  if (Number.isFinite(after) && after >= 0) return after * 1000
  const reset = Number(failure.headers['x-ratelimit-reset'])
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - nowMs)
  return 60_000 // secondary limit without a hint: GitHub asks for at least a minute
}
