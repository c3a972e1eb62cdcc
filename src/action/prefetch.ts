/**
 * The action's first reads, started by the light entry before `dist/main.js` loads
 * (issue 7). Loading the action proper takes tens of milliseconds of the process's one
 * thread; the reads it starts with — the PR, and without a checkout the receipts folder
 * and the PR's files list — wait that long on the network anyway. Started here, they
 * are answered while it loads.
 *
 * Each is the very request the client makes first (the same builders in
 * `src/github/routes.ts`, the same headers, the same per-attempt timeout), and the client
 * takes its answer as that request's first attempt (`EarlyReads` in `src/github/http.ts`):
 * a failed or refused early read is retried, rate limits waited for and errors reported
 * exactly as before. Only reads the run is sure to make are started: a checkout in the
 * workspace may answer the folder and the files from git, so then only the PR is read.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { EarlyReads } from '../github/http.js'
import { attemptTimeoutMs } from '../github/retry.js'
import {
  ROUTES,
  apiBase,
  endpoint,
  filesPageParams,
  folderTreeParams,
  prepare,
  proxyConfigured,
  pullParams,
  requestHeaders
} from '../github/routes.js'
import { createTransport, send, type RawAnswer } from '../github/transport.js'
import type { RunStart } from './quick.js'

/**
 * The URLs of the reads to start early, in the order the run asks for them. None behind
 * a proxy (requests then go through octokit), none without a repository or PR number.
 */
export function earlyUrls(
  { inputs, context, route }: RunStart,
  env: NodeJS.ProcessEnv,
  hasCheckout: (workspace: string) => boolean
): string[] {
  if (route.kind !== 'pull' || proxyConfigured(env)) return []
  if (context.owner === '' || context.repo === '') return []
  const base = { owner: context.owner, repo: context.repo }
  const reads: [string, Record<string, unknown>][] = [
    [ROUTES.pulls.get, pullParams(base, route.number)]
  ]
  // The API source's reads, when it is sure to be the source: no repository in the
  // workspace (`workspaceSource` needs a `.git`), and the event names the head.
  if (route.headSha !== null && !(context.workspace && hasCheckout(context.workspace))) {
    if (inputs.gate.select.mode === 'changed')
      reads.push([ROUTES.pulls.listFiles, filesPageParams(base, route.number)])
    const tree = folderTreeParams(base, route.headSha, inputs.gate.receiptsDir)
    if (tree) reads.push([ROUTES.git.getTree, tree])
  }
  const baseUrl = apiBase(context.apiUrl)
  return reads.map(([route, params]) => prepare(endpoint(route, params), baseUrl).url)
}

/** How long the light entry waits for the early reads to be sent, at most. */
const SEND_WAIT_MS = 250

/** Resolves when every promise has, or after `ms`; the timer never outlives it. */
async function allWithin(promises: Promise<void>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))
  try {
    await Promise.race([Promise.all(promises), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Starts the early reads; null when there are none. Never throws. */
export async function startEarlyReads(
  start: RunStart,
  env: NodeJS.ProcessEnv = process.env
): Promise<EarlyReads | null> {
  try {
    const urls = earlyUrls(start, env, (workspace) => existsSync(join(workspace, '.git')))
    if (urls.length === 0) return null
    const [http, https] = await Promise.all([import('node:http'), import('node:https')])
    const transport = createTransport(http, https)
    const headers = requestHeaders(start.inputs.token, false)
    const answers = new Map<string, Promise<RawAnswer>>()
    const sent = urls.map(
      async (url) =>
        new Promise<void>((onSent) => {
          const answer = send(
            transport,
            new URL(url),
            'GET',
            headers,
            undefined,
            attemptTimeoutMs(start.context.timeScale),
            onSent
          )
          // Settled by whoever takes it; one never taken must not count as unhandled.
          answer.catch(() => undefined)
          answers.set(url, answer)
        })
    )
    // Sending takes turns of the event loop (connect, TLS), and loading the action holds
    // the loop: the requests must be out before it starts, or they wait for it. Never
    // more than SEND_WAIT_MS, should the network be slow to take them.
    await allWithin(sent, SEND_WAIT_MS)
    return {
      transport,
      // Not async: the answer itself, the promise the request made, is handed over.
      // eslint-disable-next-line @typescript-eslint/promise-function-async
      take(method, url) {
        if (method !== 'GET') return undefined
        const answer = answers.get(url)
        answers.delete(url)
        return answer
      }
    }
  } catch {
    return null
  }
}
