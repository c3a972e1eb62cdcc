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
 * `onSent` is called once the request is handed to the OS, or has failed.
 */
export async function send(
  transport: Transport,
  target: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal | undefined,
  onSent?: () => void
): Promise<RawAnswer> {
  const plain = target.protocol === 'http:'
  const request = plain ? transport.http.request : transport.https.request
  const agent = plain ? transport.agents['http:'] : transport.agents['https:']
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = request(target, { method, headers, agent, signal }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
        })
      )
    })
    req.on('error', reject)
    if (onSent) {
      req.once('finish', onSent)
      req.once('close', onSent)
    }
    req.end(body)
  })
}
