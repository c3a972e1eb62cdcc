/**
 * `receipt-gate check --pr N` and `land`: a pull request through the GitHub API — the
 * action's own pieces (one GraphQL read of the PR, REST where GraphQL fails, its body for
 * the audit, the receipts at its head through the API source, the same gate), so the
 * CLI's report is the action's. A check run is posted only when asked (`--post`).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { publishReport, type PublishLog, type Published } from '../action/publish.js'
import { evaluate } from '../gate/evaluate.js'
import type { GateOptions } from '../gate/options.js'
import type { Debug } from '../gate/source.js'
import type { Report } from '../gate/report.js'
import { apiSource } from '../github/api-source.js'
import { createClient, GitHubError, type Octokit } from '../github/client.js'
import type { GraphqlRead } from '../github/graphql-source.js'
import { pullsSharingHead, type SharingPull } from '../github/pulls.js'
import { readPullRequest } from '../github/read-pull.js'
import { timeScaleFrom } from '../action/context.js'
import { git } from '../source/git.js'
import { terminalLine } from '../util/safe-text.js'
import { CliError, NEEDS_TOKEN, prNumber } from './args.js'

export interface PrTarget {
  owner: string
  repo: string
  number: number
  octokit: Octokit
  /** The web address of the repository, for the report's `file:line` links (as the action's). */
  repositoryUrl: string
  /** The API it reads from, for the progress line. */
  apiUrl: string
  timeScale: number
}

// GitHub's own rules for owner and repository names (a slug is never a path).
const SLUG = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/

/**
 * Where `--pr N` reads: the slug from `--repo-slug`, `GITHUB_REPOSITORY` or the origin
 * remote; the token from `GITHUB_TOKEN` / `GH_TOKEN`, else the gh CLI's login; the API
 * from `GITHUB_API_URL`. `log` gets the client's retries (a network that does not answer
 * is not silence).
 */
export async function prTarget(
  pr: string,
  slugFlag: string | undefined,
  repoDir: string,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void = () => undefined
): Promise<PrTarget> {
  const number = prNumber(pr, '--pr')
  const apiUrl = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '')
  // Links go to GITHUB_SERVER_URL as the action reads it, else the server of a GitHub
  // Enterprise Server API (`https://HOST/api/v3`), else github.com.
  const server = env.GITHUB_SERVER_URL
    ? env.GITHUB_SERVER_URL.replace(/\/+$/, '')
    : (/^(https?:\/\/[^/]+)\/api\/v3$/.exec(apiUrl)?.[1] ?? 'https://github.com')
  const { slug, from } =
    slugFlag !== undefined
      ? { slug: slugFlag, from: '--repo-slug' }
      : env.GITHUB_REPOSITORY
        ? { slug: env.GITHUB_REPOSITORY, from: 'GITHUB_REPOSITORY' }
        : await originSlug(repoDir, server)
  const match = SLUG.exec(slug)
  if (!match || slug.endsWith('.git') || /^\.+$/.test(match[2] ?? ''))
    throw new CliError(
      `${from} must be OWNER/REPO (got ${JSON.stringify(terminalLine(slug))}): pass --repo-slug OWNER/REPO`
    )
  const token = env.GITHUB_TOKEN || env.GH_TOKEN || (await ghToken(apiUrl))
  if (!token) throw new CliError(`reading pull request #${number} ${NEEDS_TOKEN}`)
  const timeScale = timeScaleFrom(env)
  return {
    owner: match[1] as string,
    repo: match[2] as string,
    number,
    octokit: createClient({ token, baseUrl: apiUrl, timeScale, onRetry: log }),
    repositoryUrl: `${server}/${match[1]}/${match[2]}`,
    apiUrl,
    timeScale
  }
}

/**
 * The gh CLI's token for the API's host (`gh auth token`), or null: a gh user usually has
 * no token in the environment. gh missing, logged out or slow is simply no token.
 */
async function ghToken(apiUrl: string): Promise<string | null> {
  const host = URL.canParse(apiUrl) ? new URL(apiUrl).host.replace(/^api\./, '') : ''
  const hostname = host === 'github.com' ? [] : ['--hostname', host]
  const { stdout } = await promisify(execFile)('gh', ['auth', 'token', ...hostname], {
    encoding: 'utf8',
    timeout: 10_000
  }).catch(() => ({ stdout: '' }))
  const token = stdout.trim()
  // A token is one printable word; anything else (a prompt, a message, nothing) is none.
  return /^[\x21-\x7e]{1,1000}$/.test(token) ? token : null
}

/**
 * OWNER/REPO of the `origin` remote, and where it came from; a remote that is not on the
 * GitHub server the API belongs to (GitLab, a local path, a bare clone's source) is an
 * error that names it: a slug guessed from it would read some other repository.
 */
async function originSlug(
  repoDir: string,
  server: string
): Promise<{ slug: string; from: string }> {
  const url = await git(repoDir, ['config', '--get', 'remote.origin.url']).then(
    (out) => out.stdout.trim(),
    () => ''
  )
  const none =
    'no repository to read the pull request from: pass --repo-slug OWNER/REPO (or set GITHUB_REPOSITORY)'
  if (url === '') throw new CliError(`${none}; the folder has no origin remote`)
  const from = `the origin remote (${terminalLine(url)})`
  // https://HOST/OWNER/REPO(.git), git@HOST:OWNER/REPO(.git), ssh://git@HOST(:port)/OWNER/REPO.
  const match =
    /^(?:https?:\/\/(?:[^@/]+@)?|ssh:\/\/(?:[^@/]+@)?|[^@/:]+@)([^/:]+)(?::\d+)?[/:]([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(
      url
    )
  const host = new URL(server).hostname.toLowerCase()
  const hosts = host === 'github.com' ? ['github.com', 'ssh.github.com'] : [host]
  if (!match || !hosts.includes((match[1] ?? '').toLowerCase()))
    throw new CliError(
      `${none}; ${from} is not a repository on ${host} (set GITHUB_SERVER_URL and GITHUB_API_URL for GitHub Enterprise Server)`
    )
  return { slug: `${match[2]}/${match[3]}`, from }
}

/**
 * The PR as the action reads it (one GraphQL query, REST where GraphQL fails: `say` is
 * told why); `head`, when known, is read with it.
 */
export async function readPull(
  target: PrTarget,
  {
    receiptsDir,
    bookkeepingPaths
  }: Pick<GateOptions, 'receiptsDir' | 'bookkeepingPaths'>,
  head: string | null,
  say: (line: string) => void
): ReturnType<typeof readPullRequest> {
  const { owner, repo, number, octokit } = target
  let fallback: string | null = null
  const read = await api(target, 'read', async () =>
    readPullRequest(
      {
        octokit,
        owner,
        repo,
        number,
        head,
        branchSinkPath: null,
        receiptsDir,
        bookkeepingPaths
      },
      (why) => (fallback = why)
    )
  )
  // Said once REST answered: when it fails too, its error is the one line that matters.
  if (fallback !== null)
    say(
      `receipt-gate: the GraphQL read failed (${terminalLine(fallback)}); read through REST\n`
    )
  return read
}

/**
 * Reads the PR and runs the gate on it as the action does (`expectHead`: land's SHA),
 * then posts the check run named `checkName` on its head, when one is named, telling
 * how it went on `stderr`.
 */
export async function checkPullRequest(
  target: PrTarget,
  options: GateOptions,
  expectHead: string | null,
  checkName: string | null,
  stderr: (text: string) => void,
  debug?: Debug
): Promise<{ report: Report; published: Published | null }> {
  const { owner, repo, number, octokit } = target
  const { pull, graphql } = await readPull(target, options, expectHead, stderr)
  // The PR's files and commits lists are its current head's: a PR that moved since the
  // head land judged cannot be judged at that head through the API.
  if (expectHead !== null && pull.headSha.toLowerCase() !== expectHead.toLowerCase())
    throw new CliError(
      `pull request #${number} moved: its head is ${pull.headSha}, FLOW_HEAD_SHA is ${expectHead}`
    )
  // The check run is the commit's: every other open PR on that head must hold too.
  const sharing = await sharingOn(target, graphql, pull.headSha)
  const rest = apiSource({
    octokit,
    owner,
    repo,
    head: pull.headSha,
    pullNumber: number,
    changedFiles: pull.changedFiles,
    baseSha: pull.baseSha,
    pullHead: pull.headSha
  })
  const report = await api(target, 'gate', async () =>
    evaluate({
      // GraphQL for the receipts, the REST source for the rest, as the action does.
      source: graphql ? graphql.source(rest) : rest,
      options,
      body: pull.body,
      sharing,
      branch: pull.headRef,
      pull,
      repositoryUrl: target.repositoryUrl,
      debug
    })
  )
  if (checkName === null) return { report, published: null }
  const published = await api(target, 'post a check run on', async () =>
    publishReport(report, {
      octokit,
      owner,
      repo,
      checkName,
      headSha: pull.headSha,
      externalId: `cli-${pull.headSha}`,
      fork: pull.fork,
      timeScale: target.timeScale,
      log: plainLog(stderr)
    })
  )
  return { report, published }
}

/**
 * The other open PRs whose head is `head`: read with the PR when GraphQL read that head,
 * else one REST request.
 */
export async function sharingOn(
  target: PrTarget,
  graphql: GraphqlRead | null,
  head: string
): Promise<SharingPull[]> {
  const { owner, repo, number, octokit } = target
  return (
    graphql?.sharing ??
    (await api(target, 'read', async () =>
      pullsSharingHead(octokit, owner, repo, head, number)
    ))
  )
}

/**
 * Publishing's words as plain lines: the action's are workflow commands for the runner,
 * which on a terminal would only be noise ahead of the report on stdout.
 */
function plainLog(stderr: (text: string) => void): PublishLog {
  const say = (line: string): void =>
    stderr(`receipt-gate check: ${terminalLine(line)}\n`)
  return {
    untrusted: say,
    warning: say,
    // The annotations are in the report; the command says that nothing was posted.
    forbidden: (reason) => say(`GitHub refused the check run: ${reason}`)
  }
}

const HINTS: Record<number, string> = {
  401: ' (the token was refused: check GITHUB_TOKEN / GH_TOKEN)',
  403: ' (the token may lack access to this repository)',
  404: ' (no such pull request or repository, or the token cannot see it)'
}

/** An API failure as one clear line (exit 2): what was asked, and GitHub's answer. */
async function api<T>(target: PrTarget, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (!(error instanceof GitHubError)) throw error
    const where = `pull request #${target.number} of ${target.owner}/${target.repo}`
    const hint = HINTS[error.status ?? 0] ?? ''
    // GitHub's answer is untrusted text: one line, controls made visible.
    throw new CliError(
      `cannot ${what} ${where}: ${terminalLine(error.message.replace(/^[A-Z]+ \S+: /, ''))}${hint}`
    )
  }
}
