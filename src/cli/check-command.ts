/**
 * `receipt-gate check`: the whole gate on a local git repository — the same core the
 * action runs, with receipts read at a commit through git plumbing.
 */
import { resolve } from 'node:path'
import { evaluate } from '../gate/evaluate.js'
import { OptionError, parseOptions, type GateOptions } from '../gate/options.js'
import type { Report } from '../gate/report.js'
import { SUMMARY_LIMITS, renderSummary } from '../render/summary.js'
import { renderText } from '../render/text.js'
import {
  GitError,
  gitSource,
  headBranch,
  mergeBase,
  openRepository,
  resolveCommit
} from '../source/git.js'
import { choice, parseArgs, stringFlag, type ParsedArgs } from './args.js'
import { CliError, type CliIo } from './io.js'
import { landContext, landNote, type LandContext } from './land.js'

export const CHECK_USAGE = `Usage: receipt-gate check [options]

Runs the gate on a local git repository: reads the receipts at --head (not the
working tree), decides whether each is current, applies the gate and the deferred
audit, and prints the report. With --pr N it gates a pull request through the GitHub
API instead, as the action does (the PR body for the audit, the receipts at the PR
head). Exit 0 for success/neutral, 1 for failure or action_required, 2 for usage or
environment errors (and whenever the gate cannot decide).

Options:
  --repo DIR                    repository (default: the current directory)
  --head REV                    the PR head (default: HEAD)
  --base REV                    the PR base; selection uses its merge base with the head
                                (default: origin/HEAD, else main, else master)
  --branch NAME                 the PR head branch, for .flow/review-deferred/<slug>.md
                                (default: the current branch when it points at the head)
  --body-file FILE              the PR body for the deferred audit (none: audit skipped)
  --format text|markdown|json   output (default: text; markdown is the job summary)
  --receipts-dir DIR            default .flow/review-receipts
  --select changed|all|GLOBS    default changed
  --require TYPES               comma-separated; default impl_review; '' for none
  --bookkeeping-paths GLOBS     default .flow/**,!.flow/bin/**,!.flow/config.json
  --unbound-head history|fail|allow             default history
  --needs-human-conclusion action_required|failure|neutral   default action_required
  --audit-deferred true|false   default true
  --coverage report|require|off default report (require: every code commit reviewed)

A pull request through the GitHub API (token: GITHUB_TOKEN or GH_TOKEN; API:
GITHUB_API_URL, default https://api.github.com):
  --pr N                        the pull request to gate (not with --head, --base,
                                --branch or --body-file: the PR names them)
  --repo-slug OWNER/REPO        default: GITHUB_REPOSITORY, else the origin remote
  --post                        post the check run on the PR head, as the action does
  --check-name NAME             the check run's name with --post (default: Review receipts)

Flow-Next land (land.mergeVerdictCommand): without --head and --pr, the land step's
FLOW_HEAD_SHA (read from the local git when it has the commit, else through the API
with FLOW_PR_NUMBER), FLOW_BASE_REF (the base when --base is not given) and
FLOW_PR_NUMBER name the pull request; FLOW_SPEC_ID is shown in the report's notes.

Examples:
  receipt-gate check
  receipt-gate check --base origin/main --body-file pr-body.md --format markdown
  receipt-gate check --select all --require impl_review,plan_review --format json
  receipt-gate check --pr 42 --repo-slug acme/widgets --format markdown
`

const FLAGS = {
  repo: 'value',
  head: 'value',
  base: 'value',
  branch: 'value',
  'body-file': 'value',
  format: 'value',
  'receipts-dir': 'value',
  select: 'value',
  require: 'value',
  'bookkeeping-paths': 'value',
  'unbound-head': 'value',
  'needs-human-conclusion': 'value',
  'audit-deferred': 'value',
  coverage: 'value',
  pr: 'value',
  'repo-slug': 'value',
  post: 'boolean',
  'check-name': 'value',
  help: 'boolean'
} as const

/** Runs the command; resolves to the exit code. */
export async function checkCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, FLAGS)
  if (args.flags.has('help')) {
    io.stdout(CHECK_USAGE)
    return 0
  }
  if (args.positionals.length > 0)
    throw new CliError(`unexpected argument ${JSON.stringify(args.positionals[0])}`)
  const format = choice(args, 'format', ['text', 'markdown', 'json'] as const, 'text')
  const options = gateOptions(args)
  const body = readBody(args, io)
  const report = await withGitErrors(async () => gate(args, io, options, body))
  io.stdout(render(report, format, io))
  return report.conclusion === 'failure' || report.conclusion === 'action_required'
    ? 1
    : 0
}

function gateOptions(args: ParsedArgs): GateOptions {
  try {
    return parseOptions({
      receiptsDir: stringFlag(args, 'receipts-dir'),
      select: stringFlag(args, 'select'),
      require: stringFlag(args, 'require'),
      bookkeepingPaths: stringFlag(args, 'bookkeeping-paths'),
      unboundHead: stringFlag(args, 'unbound-head'),
      needsHumanConclusion: stringFlag(args, 'needs-human-conclusion'),
      auditDeferred: stringFlag(args, 'audit-deferred'),
      coverage: stringFlag(args, 'coverage')
    })
  } catch (error) {
    if (error instanceof OptionError) throw new CliError(`--${error.message}`)
    throw error
  }
}

function readBody(args: ParsedArgs, io: CliIo): string | null {
  const file = stringFlag(args, 'body-file')
  if (file === undefined) return null
  try {
    return new TextDecoder().decode(io.readFile(resolve(io.cwd, file)))
  } catch {
    throw new CliError(`cannot read --body-file ${JSON.stringify(file)}`)
  }
}

async function withGitErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof GitError) throw new CliError(error.message)
    throw error
  }
}

/** The pull request (`--pr`, or land's when its head is not here) or the local repository. */
async function gate(
  args: ParsedArgs,
  io: CliIo,
  options: GateOptions,
  body: string | null
): Promise<Report> {
  const repoDir = resolve(io.cwd, stringFlag(args, 'repo') ?? '.')
  const land = landContext(args, io.env)
  if (land !== null) {
    const local = land.head === null ? null : await localCommit(repoDir, land.head)
    if (local !== null)
      return withNote(await runCheck(args, io, options, body, land), land)
    if (land.pr === null)
      throw new CliError(
        `FLOW_HEAD_SHA ${land.head ?? ''} is not in the local repository: fetch it (git fetch origin ${land.head ?? ''}) or set FLOW_PR_NUMBER and a token to read it through the API`
      )
    return withNote(await runPr(args, io, options, String(land.pr), land.head), land)
  }
  const pr = stringFlag(args, 'pr')
  if (pr !== undefined) return runPr(args, io, options, pr, null)
  return runCheck(args, io, options, body, null)
}

async function runPr(
  args: ParsedArgs,
  io: CliIo,
  options: GateOptions,
  pr: string,
  expectHead: string | null
): Promise<Report> {
  for (const flag of ['head', 'base', 'branch', 'body-file'])
    if (args.flags.has(flag))
      throw new CliError(
        `--${flag} does not apply to a pull request read through the API`
      )
  const repoDir = resolve(io.cwd, stringFlag(args, 'repo') ?? '.')
  // The GitHub client (Octokit, undici: ~130 ms of every start) is loaded for the API
  // only (issue 23); bundled, it is the chunk files beside dist/cli.js.
  const { checkPullRequest, postReport, prTarget } = await import('./pr-source.js')
  const target = await prTarget(pr, stringFlag(args, 'repo-slug'), repoDir, io.env)
  const run = await checkPullRequest(target, options, expectHead ?? undefined)
  if (args.flags.has('post')) {
    const published = await postReport(run, target, stringFlag(args, 'check-name'))
    io.stderr(
      published.fallback
        ? 'receipt-gate check: the check run could not be posted (no checks: write)\n'
        : `receipt-gate check: posted ${published.checkRunUrl}\n`
    )
  }
  return run.report
}

/** The commit when the repository has it, else null (never an error: the API may). */
async function localCommit(repoDir: string, sha: string): Promise<string | null> {
  try {
    return await resolveCommit((await openRepository(repoDir)).root, sha)
  } catch {
    return null
  }
}

function withNote(report: Report, land: LandContext): Report {
  return { ...report, notes: [...report.notes, landNote(land)] }
}

async function runCheck(
  args: ParsedArgs,
  io: CliIo,
  options: GateOptions,
  body: string | null,
  land: LandContext | null
): Promise<Report> {
  if (land === null)
    for (const flag of ['repo-slug', 'post', 'check-name'])
      if (args.flags.has(flag)) throw new CliError(`--${flag} applies only with --pr`)
  // Every git question is asked of the top level: the answer must not depend on the
  // folder the CLI was pointed at or run from.
  const { root: repo, shallow } = await openRepository(
    resolve(io.cwd, stringFlag(args, 'repo') ?? '.')
  )
  const headFlag = stringFlag(args, 'head') ?? land?.head ?? undefined
  const baseFlag = stringFlag(args, 'base')
  const bases =
    baseFlag !== undefined
      ? [baseFlag]
      : land?.baseRef
        ? [`refs/remotes/origin/${land.baseRef}`, `refs/heads/${land.baseRef}`]
        : undefined
  // The base is resolved while the head is; the head's error still comes first.
  const resolving = resolveCommit(repo, headFlag ?? 'HEAD')
  const forking =
    options.select.mode === 'changed'
      ? findMergeBase(repo, resolving, bases, baseFlag ?? land?.baseRef ?? undefined)
      : null
  void forking?.catch(() => undefined)
  const head = await resolving
  const [forkPoint, branch] = await Promise.all([
    forking,
    stringFlag(args, 'branch') ?? currentBranchAt(repo, head, headFlag)
  ])
  const source = gitSource({ repo, head, mergeBase: forkPoint, shallow })
  return evaluate({ source, options, body, branch, base: forkPoint })
}

/** `bases`: the revisions to try in order (none: the default branch); `name` for errors. */
async function findMergeBase(
  repo: string,
  head: Promise<string>,
  bases: string[] | undefined,
  name: string | undefined
): Promise<string> {
  const baseSha =
    bases === undefined ? await defaultBase(repo) : await firstCommit(repo, bases, name)
  const sha = await mergeBase(repo, baseSha, await head)
  if (sha === null)
    throw new CliError(`no merge base between ${name ?? 'the base branch'} and the head`)
  return sha
}

async function firstCommit(
  repo: string,
  revs: string[],
  name: string | undefined
): Promise<string> {
  for (const rev of revs.slice(0, -1)) {
    const sha = await resolveCommit(repo, rev).catch(() => null)
    if (sha !== null) return sha
  }
  try {
    return await resolveCommit(repo, revs[revs.length - 1] as string)
  } catch (error) {
    if (revs.length > 1 && error instanceof GitError)
      throw new CliError(`unknown base ${JSON.stringify(name)} (${revs.join(', ')})`)
    throw error
  }
}

async function defaultBase(repo: string): Promise<string> {
  for (const rev of ['origin/HEAD', 'main', 'master']) {
    const sha = await resolveCommit(repo, rev).catch(() => null)
    if (sha !== null) return sha
  }
  throw new CliError('no base branch found (origin/HEAD, main, master): pass --base REV')
}

/** The checked-out branch when it points at `head` (`headFlag`: how head was named). */
async function currentBranchAt(
  repo: string,
  head: string,
  headFlag: string | undefined
): Promise<string | null> {
  const [branch, at] = await Promise.all([
    headBranch(repo),
    headFlag === undefined ? head : resolveCommit(repo, 'HEAD').catch(() => null)
  ])
  return at === head ? branch : null
}

function render(report: Report, format: 'text' | 'markdown' | 'json', io: CliIo): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`
  if (format === 'markdown')
    return `${renderSummary(report, SUMMARY_LIMITS.jobSummary)}\n`
  return renderText(report, io.color, io.columns)
}
