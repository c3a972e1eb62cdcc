/**
 * One HTTP exchange over `node:http(s)` with keep-alive, its answer as bytes. The client
 * (`http.ts`) and the light entry's early reads (`src/action/prefetch.ts`) share one
 * transport, so the connections the early reads open carry the rest of the run. The
 * node modules are handed in: the light entry loads them only when it reads early.
 */
import type * as Http from 'node:http'
import type * as Https from 'node:https'

export interface Transport {
  http: typeof Http
  https: typeof Https
  agents: { 'http:': Http.Agent; 'https:': Https.Agent }
}

/** A first answer: status, headers and the body's bytes, not yet decoded. */
export interface RawAnswer {
  status: number
  headers: Http.IncomingHttpHeaders
  bytes: Buffer
}

export function createTransport(http: typeof Http, https: typeof Https): Transport {
  return {
    http,
    https,
    agents: {
      'http:': new http.Agent({ keepAlive: true }),
      'https:': new https.Agent({ keepAlive: true })
    }
  }
}

/**
 * Sends one request and collects its answer (no redirect followed, nothing parsed).
 * `timeoutMs` bounds the whole exchange, the answer's body included: past it the request
 * is destroyed and the answer fails with a `TimeoutError`. `onSent` is called once the
 * request is handed to the OS, or has failed.
 *
 * Performance (issue 7): the deadline is a plain timer. An `AbortSignal.timeout` handed
 * to `http.request` costs a signal, a timer kept in a finalization registry and Node's
 * event-target listeners for every request: 4–7 ms of a run of 39 requests on a
 * 2-core runner.
 */
export async function send(
  transport: Transport,
  target: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
  timeoutMs: number | undefined,
  onSent?: () => void
): Promise<RawAnswer> {
  const plain = target.protocol === 'http:'
  const request = plain ? transport.http.request : transport.https.request
  const agent = plain ? transport.agents['http:'] : transport.agents['https:']
  return new Promise<RawAnswer>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const fail = (error: Error): void => {
      clearTimeout(timer)
      reject(error)
    }
    const req = request(target, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', fail)
      res.on('end', () => {
        clearTimeout(timer)
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
        })
      })
    })
    req.on('error', fail)
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        // Settled first with the timeout: the errors destroying the request raises
        // (a reset, an aborted answer) come after and change nothing.
        fail(timeoutError(timeoutMs))
        req.destroy()
      }, timeoutMs)
      // As an `AbortSignal.timeout`'s: never what keeps the process alive.
      timer.unref()
    }
    if (onSent) {
      req.once('finish', onSent)
      req.once('close', onSent)
    }
    req.end(body)
  })
}

/** What a request past its deadline fails with (named as `AbortSignal.timeout`'s is). */
function timeoutError(ms: number): Error {
  const error = new Error(`request timed out after ${ms} ms`)
  error.name = 'TimeoutError'
  return error
}
