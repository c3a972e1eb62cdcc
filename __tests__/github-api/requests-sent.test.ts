/**
 * `requestsSent`: resolves once every request asked of the client has reached `fetch`,
 * though Octokit's retry and throttling plugins hold each for a few timer turns first;
 * and requests one after another reuse the connection. A loopback server holds every
 * answer until the test lets it go.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, requestsSent, type Octokit } from '../../src/github/client.js'

let server: Server
let baseUrl: string
const held: ServerResponse[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume()
    req.on('end', () => held.push(res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

/** Answers every held request with `{}`. */
function release(): void {
  for (const res of held.splice(0)) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"sha": "x"}')
  }
}

/**
 * Runs `test` with a client of a server in another process (in this one, the server's own
 * work would give the client time). `server` is a script that defines the server as `s`.
 */
async function withServerProcess(
  server: string,
  test: (octokit: Octokit) => Promise<void>
): Promise<void> {
  const child = spawn(process.execPath, [
    '-e',
    `${server}; s.listen(0, '127.0.0.1', () => console.log(s.address().port))`
  ])
  try {
    const port = await new Promise<string>((resolve) =>
      child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()))
    )
    await test(
      createClient({
        token: 'ghs_test',
        baseUrl: `http://127.0.0.1:${port}`,
        timeScale: 0.001
      })
    )
  } finally {
    child.kill()
  }
}

describe('requestsSent', () => {
  it('resolves once every request asked has gone to fetch, before any answer', async () => {
    const octokit = createClient({ token: 'ghs_test', baseUrl, timeScale: 0.001 })
    const fetched: string[] = []
    const fetch: typeof globalThis.fetch = async (input, init) => {
      fetched.push(input instanceof Request ? input.url : input.toString())
      return globalThis.fetch(input, init)
    }
    let answered = 0
    const asks = ['a', 'b', 'c'].map(async (ref) =>
      octokit
        .request('GET /repos/{owner}/{repo}/commits/{ref}', {
          owner: 'o',
          repo: 'r',
          ref,
          request: { fetch }
        })
        .then(() => answered++)
    )
    await requestsSent(octokit)
    expect(fetched.map((url) => url.split('/').at(-1))).toEqual(['a', 'b', 'c'])
    expect(answered).toBe(0)
    // Nothing asked since: it resolves at once, the answers still held.
    await requestsSent(octokit)
    while (held.length < 3) await new Promise((resolve) => setTimeout(resolve, 1))
    release()
    await Promise.all(asks)
    expect(answered).toBe(3)
  })

  it('resolves once the request is on the wire: a server in another process has it before the event loop is free again', async () => {
    // The server answers with the time the request arrived; this process then blocks its
    // event loop, so a request still inside the client could only leave after that.
    await withServerProcess(
      `const s = require('node:http').createServer((q, r) => { const t = Date.now(); q.resume(); q.on('end', () => { r.setHeader('content-type', 'application/json'); r.end(JSON.stringify({ t })) }) })`,
      async (octokit) => {
        // A first request opens the connection the next one reuses, as the gate's do.
        await octokit.request('GET /first')
        const asked = octokit.request('GET /second')
        await requestsSent(octokit)
        const blockedUntil = Date.now() + 300
        while (Date.now() < blockedUntil);
        const { data } = await asked
        expect((data as { t: number }).t).toBeLessThan(blockedUntil)
      }
    )
  })

  it('does not wait for a request that failed before it left', async () => {
    const octokit = createClient({ token: 'ghs_test', baseUrl, timeScale: 0.001 })
    const failing = octokit
      .request('GET https://elsewhere.example/x')
      .catch((error: unknown) => (error as Error).message)
    await requestsSent(octokit)
    expect(await failing).toMatch(/not on the API's origin/)
  })
})

describe('connections', () => {
  it('requests one after another share one connection: none waits for another handshake', async () => {
    // The server answers every request at once, and GET /count with the connections it
    // accepted.
    await withServerProcess(
      `let n = 0; const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => { r.setHeader('content-type', 'application/json'); r.end(JSON.stringify(q.url === '/count' ? { n } : { id: 1 })) }) });
       s.keepAliveTimeout = 0; s.on('connection', () => n++)`,
      async (octokit) => {
        // As the check run's writes go: each sent as soon as the one before is answered.
        for (let i = 0; i < 5; i++) await octokit.request('POST /write', { i })
        const { data } = await octokit.request('GET /count')
        expect(data).toEqual({ n: 1 })
      }
    )
  })
})
