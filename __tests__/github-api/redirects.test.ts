/**
 * Issue 29, item 1: the token never goes to another origin on a redirect, and an answer
 * reached by a redirect from https to http is refused. Two loopback servers on different
 * ports (two origins): the first answers every request with a 302 to the second.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import {
  createServer as createHttp,
  type IncomingHttpHeaders,
  type Server
} from 'node:http'
import { createServer as createHttps } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '../../src/github/client.js'
import { runAction } from '../support/runner.js'

const TOKEN = 'ghs_redirect-test-token'

interface Origin {
  url: string
  seen: IncomingHttpHeaders[]
  server: Server
}

/** A loopback server that records each request's headers; `answer` writes the response. */
async function origin(
  answer: (path: string, res: import('node:http').ServerResponse) => void,
  tls?: { key: string; cert: string }
): Promise<Origin> {
  const seen: IncomingHttpHeaders[] = []
  const handler = (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse
  ): void => {
    seen.push(req.headers)
    req.resume()
    req.on('end', () => answer(req.url ?? '/', res))
  }
  const server = tls ? createHttps(tls, handler) : createHttp(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, seen, server }
}

const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}

/** dist/index.js on a pull_request event against `apiUrl`, as the runner runs it. */
async function runAgainst(apiUrl: string, env: Record<string, string> = {}) {
  const workspace = mkdtempSync(join(tmpdir(), 'rg-redirect-'))
  try {
    const result = await runAction({
      token: TOKEN,
      workspace,
      event: {
        name: 'pull_request',
        payload: { number: 1, pull_request: { number: 1, head: { sha: 'a'.repeat(40) } } }
      },
      env: { GITHUB_API_URL: apiUrl, RECEIPT_GATE_TIME_SCALE: '0.001', ...env }
    })
    expect(result.timedOut).toBe(false)
    // The token only in the runner's mask command, never in a line it would print.
    const lines = result.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
    expect(lines.join('\n')).not.toContain(TOKEN)
    return result
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}

let second: Origin
let first: Origin
beforeAll(async () => {
  second = await origin((_path, res) => json(res, 200, { number: 1 }))
  first = await origin((path, res) => {
    res.writeHead(302, { location: `${second.url}${path}` })
    res.end()
  })
})
afterAll(async () => {
  for (const { server } of [first, second]) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

describe('a redirect to another origin', () => {
  it('is followed without the token (the client)', async () => {
    const octokit = createClient({ token: TOKEN, baseUrl: first.url, timeScale: 0.001 })
    // A route whose answer the product does not read (answers.ts checks those it reads).
    const { data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'widgets' })
    expect(data).toEqual({ number: 1 })
    // The first origin got the token (the test can fail); the second never did.
    expect(first.seen.at(-1)?.authorization).toBe(`token ${TOKEN}`)
    expect(second.seen.length).toBeGreaterThan(0)
    for (const headers of second.seen) expect(headers.authorization).toBeUndefined()
  })

  it('never carries the token, end to end through dist/index.js', async () => {
    const seenBefore = second.seen.length
    await runAgainst(first.url)
    expect(first.seen.some((h) => h.authorization === `token ${TOKEN}`)).toBe(true)
    const reached = second.seen.slice(seenBefore)
    expect(reached.length).toBeGreaterThan(0)
    for (const headers of reached) expect(headers.authorization).toBeUndefined()
  }, 30_000)
})

describe('a redirect from https to http', () => {
  let secure: Origin
  let dir: string
  beforeAll(async () => {
    // A self-signed certificate for a loopback https server; the action's process is
    // told to accept it (NODE_TLS_REJECT_UNAUTHORIZED), this process is not touched.
    dir = mkdtempSync(join(tmpdir(), 'rg-tls-'))
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert
      ],
      { stdio: 'ignore' }
    )
    secure = await origin(
      (path, res) => {
        res.writeHead(302, { location: `${second.url}${path}` })
        res.end()
      },
      { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') }
    )
  })
  afterAll(async () => {
    secure.server.closeAllConnections()
    await new Promise((resolve) => secure.server.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  it('is refused, and the http origin never sees the token (dist/index.js)', async () => {
    const seenBefore = second.seen.length
    const result = await runAgainst(secure.url, { NODE_TLS_REJECT_UNAUTHORIZED: '0' })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toMatch(
      /^::error::Receipt Gate: .*refused a redirect from https to http:/m
    )
    expect(secure.seen.some((h) => h.authorization === `token ${TOKEN}`)).toBe(true)
    for (const headers of second.seen.slice(seenBefore))
      expect(headers.authorization).toBeUndefined()
  }, 30_000)
})
