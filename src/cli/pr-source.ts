/**
 * `receipt-gate check --pr N`: the gate on a pull request through the GitHub API — the
 * action's own pieces (the PR read fresh, its body for the audit, the receipts at its
 * head through the API source, the same gate), so the CLI's report is the action's.
 * A check run is posted only when asked (`--post`), as the action posts it.
 */
import { publishReport, type PublishLog, type Published } from '../action/publish.js'
import { evaluate } from '../gate/evaluate.js'
import type { GateOptions } from '../gate/options.js'
import type { Debug } from '../gate/source.js'
import type { Report } from '../gate/report.js'
import { apiSource } from '../github/api-source.js'
import { createClient, GitHubError, type Octokit } from '../github/client.js'
import { getPullRequest, pullsSharingHead } from '../github/pulls.js'
import { timeScaleFrom } from '../action/context.js'
import { git } from '../source/git.js'
import { terminalLine } from '../util/safe-text.js'
import { CliError, prNumber } from './args.js'

export interface PrTarget {
  owner: string
  repo: string
  number: number
  octokit: Octokit
  /** The web address of the repository, for the report's `file:line` links (as the action's). */
  repositoryUrl: string
  timeScale: number
}

// GitHub's own rules for owner and repository names (a slug is never a path).
const SLUG = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/

/**
 * Where `--pr N` reads: the slug from `--repo-slug`, `GITHUB_REPOSITORY` or the origin
 * remote; the token from `GITHUB_TOKEN` / `GH_TOKEN`; the API from `GITHUB_API_URL`.
 */
export async function prTarget(
  pr: string,
  slugFlag: string | undefined,
  repoDir: string,
  env: Readonly<Record<string, string | undefined>>
): Promise<PrTarget> {
  const number = prNumber(pr, '--pr')
  const slug = slugFlag ?? (env.GITHUB_REPOSITORY || (await originSlug(repoDir)))
  if (slug === null)
    throw new CliError(
      'no repository to read the pull request from: pass --repo-slug OWNER/REPO (or set GITHUB_REPOSITORY)'
    )
  const match = SLUG.exec(slug)
  if (!match || slug.endsWith('.git') || /^\.+$/.test(match[2] ?? ''))
    throw new CliError(
      `${slugFlag !== undefined ? '--repo-slug' : 'the repository'} must be OWNER/REPO (got ${JSON.stringify(terminalLine(slug))})`
    )
  const token = env.GITHUB_TOKEN || env.GH_TOKEN
  if (!token)
    throw new CliError(
      `reading pull request #${number} needs a token: set GITHUB_TOKEN or GH_TOKEN`
    )
  const apiUrl = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '')
  const timeScale = timeScaleFrom(env)
  // Links go to GITHUB_SERVER_URL as the action reads it, else the server of a GitHub
  // Enterprise Server API (`https://HOST/api/v3`), else github.com.
  const server = env.GITHUB_SERVER_URL
    ? env.GITHUB_SERVER_URL.replace(/\/+$/, '')
    : (/^(https?:\/\/[^/]+)\/api\/v3$/.exec(apiUrl)?.[1] ?? 'https://github.com')
  return {
    owner: match[1] as string,
    repo: match[2] as string,
    number,
    octokit: createClient({ token, baseUrl: apiUrl, timeScale }),
    repositoryUrl: `${server}/${match[1]}/${match[2]}`,
    timeScale
  }
}

/** OWNER/REPO of the `origin` remote when it is a GitHub-style URL, else null. */
async function originSlug(repoDir: string): Promise<string | null> {
  const url = await git(repoDir, ['config', '--get', 'remote.origin.url']).then(
    (out) => out.stdout.trim(),
    () => ''
  )
  // https://host/OWNER/REPO(.git), git@host:OWNER/REPO(.git), ssh://git@host/OWNER/REPO.
  const match = /[/:]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url)
  return match ? `${match[1]}/${match[2]}` : null
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
  debug: Debug
): Promise<{ report: Report; published: Published | null }> {
  const { owner, repo, number, octokit } = target
  const pull = await api(target, 'read', async () =>
    getPullRequest(octokit, owner, repo, number)
  )
  // The land step judged one head: a PR that moved since is a different question.
  if (expectHead !== null && pull.headSha.toLowerCase() !== expectHead.toLowerCase())
    throw new CliError(
      `pull request #${number} moved: its head is ${pull.headSha}, FLOW_HEAD_SHA is ${expectHead}`
    )
  // The check run is the commit's: every other open PR on that head must hold too.
  const sharing = await api(target, 'read', async () =>
    pullsSharingHead(octokit, owner, repo, pull.headSha, number)
  )
  const source = apiSource({
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
      source,
      options,
      body: pull.body,
      sharing,
      branch: pull.headRef,
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
