/**
 * The token goes to the configured API's origin only. A `link: <http://elsewhere/…>;
 * rel="next"` header on the PR's commits list is refused, with an error that names it,
 * and nothing reaches the other origin; the files list is read by page number and never
 * follows one. The bundled action and `check --pr`, each against the local GitHub
 * API behind a raw server that adds the header.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { readFileSync } from 'node:fs'
import { DIR, receiptWith, trackedPrs } from '../action/support.js'
import { runCli } from '../support/check-cli.js'
import { localServer } from '../support/local-server.js'

const { fixture, run: runOnPr } = trackedPrs(afterAll)
const TOKEN = 'ghs_foreign-link-token'

/** The other origin: records what reaches it, answers an empty page. */
const reached: Array<{ url: string; authorization: string | undefined }> = []
const elsewhere = localServer((req, res) => {
  reached.push({ url: req.url ?? '', authorization: req.headers.authorization })
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end('[]')
})

/**
 * In front of the local API: every request passed through as it is; the answer to the
 * list named by `linked` gets a `link` header whose next page is on the other origin.
 */
let api = ''
let linked = ''
const proxy = localServer((req, res) => {
  const headers: IncomingHttpHeaders = { ...req.headers, host: new URL(api).host }
  const forward = request(
    `${api}${req.url ?? '/'}`,
    { method: req.method, headers },
    (answer: IncomingMessage) => {
      const path = new URL(req.url ?? '/', api).pathname
      const link =
        req.method === 'GET' && path === linked
          ? { link: `<${elsewhere.url()}${path}?page=2>; rel="next"` }
          : {}
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...link })
      answer.pipe(res)
    }
  )
  req.pipe(forward)
})

/** A PR with one current SHIP receipt: without the foreign link, it passes. */
async function passingPr() {
  const f = await fixture((r, b) => ({ [`${DIR}/impl-fn-7.1.json`]: receiptWith(r, b) }))
  api = f.fake.url
  reached.length = 0
  return f
}

const refusal = (path: string): RegExp =>
  new RegExp(
    `refused GET ${elsewhere.url()}${path}: not on the API's origin \\(${proxy.url()}\\)`
  )

/** `check --pr 1` through the proxy, coverage required (an unread commits list fails it). */
const checkPr = async (cwd: string) =>
  runCli(['check', '--pr', '1', '--coverage', 'require', '--format', 'json'], cwd, {
    env: {
      GITHUB_API_URL: proxy.url(),
      GITHUB_TOKEN: TOKEN,
      GITHUB_REPOSITORY: 'acme/widgets',
      RECEIPT_GATE_TIME_SCALE: '0.001'
    }
  })

// A refused commits list leaves coverage unknown, which `coverage: require` fails. The
// action and `check --pr` read the PR's commits through GraphQL, and through REST only
// where GraphQL fails (as here).
const refuseGraphql = (f: Awaited<ReturnType<typeof passingPr>>): void => {
  f.fake.faults.add({ kind: 'status', route: 'graphql', status: 502, times: Infinity })
}

describe('a next page on another origin is never asked for', () => {
  it('the action: the commits list', async () => {
    const f = await passingPr()
    linked = '/repos/acme/widgets/pulls/1/commits'
    refuseGraphql(f)
    const run = await runOnPr(f, {
      token: TOKEN,
      inputs: { coverage: 'require' },
      env: { GITHUB_API_URL: proxy.url(), GITHUB_GRAPHQL_URL: `${proxy.url()}/graphql` }
    })
    expect(reached).toEqual([])
    expect(run.exitCode).toBe(1)
    const report = run.outputs.report ? readFileSync(run.outputs.report, 'utf8') : ''
    expect(`${run.stdout}\n${report}`).toMatch(refusal(linked))
  })

  it('check --pr: the commits list', async () => {
    const f = await passingPr()
    linked = '/repos/acme/widgets/pulls/1/commits'
    refuseGraphql(f)
    const run = await checkPr(f.emptyWorkspace)
    expect(reached).toEqual([])
    expect(run.code).not.toBe(0)
    expect(`${run.stdout}\n${run.stderr}`).toMatch(refusal(linked))
  })

  // The files list is asked for by page number on the API's origin (the PR's file count
  // says how many pages): a link header is never followed, so the PR passes.
  it.each(['the action', 'check --pr'])('%s: the files list', async (via) => {
    const f = await passingPr()
    linked = '/repos/acme/widgets/pulls/1/files'
    const code =
      via === 'check --pr'
        ? (await checkPr(f.emptyWorkspace)).code
        : (
            await runOnPr(f, {
              token: TOKEN,
              inputs: { coverage: 'require' },
              env: {
                GITHUB_API_URL: proxy.url(),
                GITHUB_GRAPHQL_URL: `${proxy.url()}/graphql`
              }
            })
          ).exitCode
    expect(reached).toEqual([])
    expect(code).toBe(0)
  })

  it('passes the same PR when no link leaves the API', async () => {
    const f = await passingPr()
    linked = ''
    const run = await checkPr(f.emptyWorkspace)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  })
})
