/**
 * `requestsSent`: resolves once every request asked of the client has reached `fetch`,
 * though Octokit's retry and throttling plugins hold each for a few timer turns first.
 * A loopback server holds every answer until the test lets it go.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, requestsSent } from '../../src/github/client.js'

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

  it('does not wait for a request that failed before it left', async () => {
    const octokit = createClient({ token: 'ghs_test', baseUrl, timeScale: 0.001 })
    const failing = octokit
      .request('GET https://elsewhere.example/x')
      .catch((error: unknown) => (error as Error).message)
    await requestsSent(octokit)
    expect(await failing).toMatch(/not on the API's origin/)
  })
})
