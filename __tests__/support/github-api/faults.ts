/**
 * Faults on demand. A fault matches a route (operationId such as `checks/create`, a route
 * `POST /repos/{owner}/{repo}/check-runs`, or `*`), lets `skip` matching calls through, then
 * applies to the next `times` matching calls (default 1; `Infinity` = from now on).
 *
 *   fake.faults.add({ kind: 'status', route: 'checks/create', status: 502, times: 2 })
 *   fake.faults.add({ kind: 'status', route: 'checks/create', status: 502, applied: true })
 *   fake.faults.add({ kind: 'reset', route: 'git/get-blob' })
 *   fake.faults.add({ kind: 'latency', ms: 20, route: '*', times: Infinity })
 *   fake.faults.readOnlyToken()                 // 403 "Resource not accessible by integration"
 *   fake.faults.add({ kind: 'rate-limit', status: 403, resetAfterSeconds: 1 })
 *   fake.faults.add({ kind: 'rate-limit', status: 429, retryAfterSeconds: 1 })
 *   fake.faults.add({ kind: 'truncated-tree', keep: 10 })
 *   fake.faults.add({ kind: 'reject', route: 'checks/update', skip: 1 })   // 2nd PATCH → 422
 *   fake.faults.add({ kind: 'graphql-error', route: 'graphql' })          // 200, errors only
 *   fake.faults.add({ kind: 'graphql-error', path: ['repository', 'object'] })  // partial data
 *   fake.faults.add({ kind: 'oversized', route: 'pulls/list-files', bytes: 2 ** 30 })
 *
 * GraphQL requests are route `graphql` (or `POST /graphql`): status, reset, latency,
 * rate-limit and graphql-error faults apply to them.
 */

export interface FaultCall {
  operationId: string
  route: string
  method: string
  params: Record<string, string>
  query: URLSearchParams
  /** Parsed JSON body (undefined for GETs). */
  body: unknown
}

interface FaultBase {
  /** operationId, `METHOD /template`, or `*` (default). */
  route?: string
  /** Matching calls to let through before the fault applies (default 0). */
  skip?: number
  /** Matching calls the fault applies to (default 1; Infinity for all). */
  times?: number
  /** Extra condition on the call (e.g. a PATCH batch holding a given annotation). */
  when?: (call: FaultCall) => boolean
}

export type FaultSpec = FaultBase &
  (
    | {
        /** Answer with an error status (500, 502, 503…). */
        kind: 'status'
        status: number
        /** Perform the request first, then answer the error (a write that "succeeded behind a 502"). */
        applied?: boolean
        message?: string
      }
    | {
        /** Destroy the connection without an answer (ECONNRESET on the client). */
        kind: 'reset'
        applied?: boolean
      }
    | {
        /** Delay the answer. Keep it small in tests. */
        kind: 'latency'
        ms: number
      }
    | {
        /** Writes (non-GET) answer 403 "Resource not accessible by integration". */
        kind: 'forbidden'
      }
    | {
        /**
         * Rate limit. Without `retryAfterSeconds`: primary limit (`x-ratelimit-remaining: 0`,
         * `x-ratelimit-reset` = now + resetAfterSeconds). With it: secondary limit with
         * `retry-after`. On GraphQL, a primary limit without `status` answers as GitHub's
         * GraphQL does: HTTP 200 with a `RATE_LIMITED` error (and the same headers).
         */
        kind: 'rate-limit'
        status?: 403 | 429
        resetAfterSeconds?: number
        retryAfterSeconds?: number
      }
    | {
        /** Recursive trees come back `truncated: true` with only the first `keep` entries. */
        kind: 'truncated-tree'
        keep?: number
      }
    | {
        /**
         * A GraphQL answer with `errors` (HTTP 200). Without `path`: errors only, no data.
         * With `path` (response keys, aliases as sent, e.g. `['repository', 'pr', 'files']`):
         * that field fails and the rest of `data` is answered, as a partial answer.
         */
        kind: 'graphql-error'
        path?: (string | number)[]
        /** GitHub's error `type` (e.g. `INTERNAL`, `SERVICE_UNAVAILABLE`, `FORBIDDEN`). */
        type?: string
        message?: string
      }
    | {
        /**
         * An answer of `bytes` bytes (a proxy or an impostor; GitHub leaves large patches
         * out): the operation's own list answer with its first item's `patch` padded with
         * added lines, streamed without being held. `chunked`: no `content-length`.
         */
        kind: 'oversized'
        bytes: number
        chunked?: boolean
      }
    | {
        /** Reject a (schema-valid) request with 422 without applying it. */
        kind: 'reject'
        status?: number
        message?: string
      }
  )

export type FaultKind = FaultSpec['kind']

interface ActiveFault {
  spec: FaultSpec
  seen: number
  applied: number
}

export class Faults {
  private list: ActiveFault[] = []

  /** Adds a fault; returns a function that removes it. */
  add(spec: FaultSpec): () => void {
    const f: ActiveFault = { spec, seen: 0, applied: 0 }
    this.list.push(f)
    return () => {
      this.list = this.list.filter((x) => x !== f)
    }
  }

  /** 500/502/… for the first `n` calls of `route`. */
  failFirst(route: string, n: number, status = 502): () => void {
    return this.add({ kind: 'status', route, status, times: n })
  }

  /** Every write answers 403 "Resource not accessible by integration" (fork PR / no checks: write). */
  readOnlyToken(): () => void {
    return this.add({ kind: 'forbidden', route: '*', times: Infinity })
  }

  clear(): void {
    this.list = []
  }

  /** How often each fault has fired, in the order they were added. */
  get fired(): { kind: FaultKind; route: string; applied: number }[] {
    return this.list.map((f) => ({
      kind: f.spec.kind,
      route: f.spec.route ?? '*',
      applied: f.applied
    }))
  }

  /**
   * Whether a fault of one of `kinds` is set for this call's route and not used up (uses
   * nothing; `skip` and `when` aside, so it may say yes to a call `take` will let through).
   */
  pending(call: FaultCall, kinds: FaultKind[]): boolean {
    return this.list.some(
      (f) =>
        kinds.includes(f.spec.kind) &&
        routeMatches(f.spec.route ?? '*', call) &&
        f.applied < (f.spec.times ?? 1)
    )
  }

  /**
   * The first fault of one of `kinds` that applies to this call (consumes one use of it).
   * Faults that cannot apply to the call (e.g. `forbidden` on a GET) do not count it.
   * `applied` selects `status`/`reset` faults by their `applied` flag (undefined: any).
   */
  take(call: FaultCall, kinds: FaultKind[], applied?: boolean): FaultSpec | undefined {
    for (const f of this.list) {
      const s = f.spec
      if (!kinds.includes(s.kind)) continue
      if (applied !== undefined && (s.kind === 'status' || s.kind === 'reset')) {
        if ((s.applied ?? false) !== applied) continue
      }
      if (!routeMatches(s.route ?? '*', call)) continue
      if (s.kind === 'forbidden' && call.method === 'GET') continue
      if (
        s.kind === 'truncated-tree' &&
        (call.operationId !== 'git/get-tree' || !call.query.has('recursive'))
      ) {
        continue
      }
      if (s.when && !s.when(call)) continue
      f.seen++
      if (f.seen <= (s.skip ?? 0)) continue
      if (f.applied >= (s.times ?? 1)) continue
      f.applied++
      return s
    }
    return undefined
  }
}

function routeMatches(route: string, call: FaultCall): boolean {
  return route === '*' || route === call.operationId || route === call.route
}
