/**
 * `receipt-gate check`: the whole gate on a local git repository — the same core the
 * action runs, with receipts read at a commit through git plumbing — or, with `--pr`
 * or Flow-Next land's variables, on a pull request through the API.
 */
import { resolve } from 'node:path'
import { evaluate } from '../gate/evaluate.js'
import { OptionError, parseOptions, type GateOptions } from '../gate/options.js'
import type { Report } from '../gate/report.js'
import { SUMMARY_LIMITS, renderSummary } from '../render/summary.js'
import { renderText } from '../render/text.js'
import type { Debug } from '../gate/source.js'
import {
  GitError,
  gitSource,
  headBranch,
  mergeBase,
  openRepository,
  resolveCommit
} from '../source/git.js'
import { terminalLine } from '../util/safe-text.js'
import {
  CliError,
  formatFlag,
  prNumber,
  type CliIo,
  type FlagSpec,
  type ParsedArgs
} from './args.js'

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
  --base REV                    the PR base; selection, coverage and the diff start at
                                its merge base with the head, whatever --select says
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
  --verbose                     print each decision the report does not show (a
                                fallback, an unknown and its cause) on stderr

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

const value = { type: 'string' } as const
const boolean = { type: 'boolean' } as const

/** The flags, each listed in CHECK_USAGE (a test holds the two together). */
export const CHECK_FLAGS: FlagSpec = {
  repo: value,
  head: value,
  base: value,
  branch: value,
  'body-file': value,
  format: value,
  'receipts-dir': value,
  select: value,
  require: value,
  'bookkeeping-paths': value,
  'unbound-head': value,
  'needs-human-conclusion': value,
  'audit-deferred': value,
  coverage: value,
  verbose: boolean,
  pr: value,
  'repo-slug': value,
  post: boolean,
  'check-name': value
}

/** `--verbose`: each decision on stderr, one terminal-safe line; else nothing. */
function debugOf(args: ParsedArgs, io: CliIo): Debug {
  if (!args.flags.has('verbose')) return () => undefined
  return (message) => io.stderr(`receipt-gate check: ${terminalLine(message)}\n`)
}

/** Runs the command; resolves to the exit code. */
export async function checkCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.positionals.length > 0)
    throw new CliError(`unexpected argument ${JSON.stringify(args.positionals[0])}`)
  const format = formatFlag(args, ['text', 'markdown', 'json'])
  const options = gateOptions(args)
  const body = readBody(args, io)
  const repoDir = resolve(io.cwd, args.flags.get('repo') ?? '.')
  const debug = debugOf(args, io)
  const report = await gate({ args, io, repoDir, options, body, debug })
  io.stdout(
    format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : format === 'markdown'
        ? `${renderSummary(report, SUMMARY_LIMITS.jobSummary)}\n`
        : renderText(report, io.color, io.columns)
  )
  return report.conclusion === 'failure' || report.conclusion === 'action_required'
    ? 1
    : 0
}

function gateOptions(args: ParsedArgs): GateOptions {
  try {
    return parseOptions(Object.fromEntries(args.flags))
  } catch (error) {
    if (error instanceof OptionError) throw new CliError(`--${error.message}`)
    throw error
  }
}

function readBody(args: ParsedArgs, io: CliIo): string | null {
  const file = args.flags.get('body-file')
  if (file === undefined) return null
  try {
    return new TextDecoder().decode(io.readFile(resolve(io.cwd, file)))
  } catch (error) {
    // The system's reason (no such file, permission denied) says what to fix.
    const why = error instanceof Error ? `: ${terminalLine(error.message)}` : ''
    throw new CliError(`cannot read --body-file ${JSON.stringify(file)}${why}`)
  }
}

/** One run's inputs: the command line, its I/O, the repository folder, the gate's. */
interface Run {
  args: ParsedArgs
  io: CliIo
  repoDir: string
  options: GateOptions
  body: string | null
  debug: Debug
}

/** The pull request (`--pr`, or land's when its head is not here) or the local repository. */
async function gate(run: Run): Promise<Report> {
  const land = landContext(run.args, run.io.env)
  if (land === null) {
    const pr = run.args.flags.get('pr')
    return pr === undefined ? runCheck(run, null) : runPr(run, pr, null)
  }
  const local = land.head !== null && (await hasCommit(run.repoDir, land.head, run.debug))
  if (!local && land.pr === null)
    throw new CliError(
      `FLOW_HEAD_SHA ${land.head} is not in the local repository: fetch it (git fetch origin ${land.head}) or set FLOW_PR_NUMBER and a token to read it through the API`
    )
  const report = local
    ? await runCheck(run, land)
    : await runPr(run, String(land.pr), land.head)
  return { ...report, notes: [...report.notes, landNote(land)] }
}

async function runPr(run: Run, pr: string, expectHead: string | null): Promise<Report> {
  const { args, io } = run
  for (const flag of ['head', 'base', 'branch', 'body-file'])
    if (args.flags.has(flag))
      throw new CliError(
        `--${flag} does not apply to a pull request read through the API`
      )
  // The GitHub client (Octokit, undici: ~130 ms of every start) is loaded for the API
  // only (issue 23); bundled, it is the chunk files beside dist/cli.js.
  const { checkPullRequest, prTarget } = await import('./pr-source.js')
  const target = await prTarget(pr, args.flags.get('repo-slug'), run.repoDir, io.env)
  const checkName = args.flags.has('post')
    ? (args.flags.get('check-name') ?? 'Review receipts')
    : null
  const { report, published } = await checkPullRequest(
    target,
    run.options,
    expectHead,
    checkName,
    io.stderr,
    run.debug
  )
  if (published)
    io.stderr(
      published.fallback
        ? 'receipt-gate check: the check run could not be posted (no checks: write)\n'
        : `receipt-gate check: posted ${published.checkRunUrl}\n`
    )
  return report
}

/** Whether the repository has the commit (git refusing is no error: the API may have it). */
async function hasCommit(repoDir: string, sha: string, debug: Debug): Promise<boolean> {
  try {
    await resolveCommit((await openRepository(repoDir)).root, sha)
    debug(`FLOW_HEAD_SHA ${sha} read from the local repository`)
    return true
  } catch (error) {
    if (!(error instanceof GitError)) throw error
    debug(`FLOW_HEAD_SHA ${sha} not read locally (git: ${error.message})`)
    return false
  }
}

async function runCheck(run: Run, land: LandContext | null): Promise<Report> {
  const { args, options } = run
  if (land === null)
    for (const flag of ['repo-slug', 'post', 'check-name'])
      if (args.flags.has(flag)) throw new CliError(`--${flag} applies only with --pr`)
  // Every git question is asked of the top level: the answer must not depend on the
  // folder the CLI was pointed at or run from.
  const { root: repo, shallow } = await openRepository(run.repoDir)
  const headFlag = args.flags.get('head') ?? land?.head ?? undefined
  // The base is resolved while the head is; the head's error still comes first. Coverage
  // and the diff need the merge base whatever selects the receipts: without it every
  // commit's coverage and every finding's place in the diff would be unknown.
  const resolving = resolveCommit(repo, headFlag ?? 'HEAD')
  const forking = findMergeBase(
    repo,
    resolving,
    args.flags.get('base'),
    land?.baseRef ?? null,
    run.debug
  )
  void forking.catch(() => undefined)
  const head = await resolving
  const [forkPoint, branch] = await Promise.all([
    forking,
    args.flags.get('branch') ?? currentBranchAt(repo, head, headFlag)
  ])
  const source = gitSource({ repo, head, mergeBase: forkPoint, shallow })
  // The report names the merge base only where it chose the receipts.
  const base = options.select.mode === 'changed' ? forkPoint : null
  return evaluate({ source, options, body: run.body, branch, base, debug: run.debug })
}

/** The merge base of the head and `--base`, else land's base branch, else the default. */
async function findMergeBase(
  repo: string,
  head: Promise<string>,
  baseFlag: string | undefined,
  baseRef: string | null,
  debug: Debug
): Promise<string> {
  const refs = [`refs/remotes/origin/${baseRef}`, `refs/heads/${baseRef}`]
  const baseSha =
    baseFlag !== undefined
      ? await resolveCommit(repo, baseFlag)
      : baseRef !== null
        ? await firstCommit(
            repo,
            refs,
            `unknown base ${JSON.stringify(baseRef)} (${refs.join(', ')})`,
            debug
          )
        : await firstCommit(
            repo,
            ['origin/HEAD', 'main', 'master'],
            'no base branch found (origin/HEAD, main, master): pass --base REV',
            debug
          )
  const sha = await mergeBase(repo, baseSha, await head)
  if (sha === null)
    throw new CliError(
      `no merge base between ${baseFlag ?? baseRef ?? 'the base branch'} and the head`
    )
  return sha
}

/** The first of `revs` the repository has; `missing` is the error when it has none. */
async function firstCommit(
  repo: string,
  revs: readonly string[],
  missing: string,
  debug: Debug
): Promise<string> {
  for (const rev of revs) {
    const sha = await resolveCommit(repo, rev).catch(gitSaysNo)
    debug(sha === null ? `base: no ${rev}` : `base: ${rev} (${sha})`)
    if (sha !== null) return sha
  }
  throw new CliError(missing)
}

/** Null where git refused (an unknown revision); any other error is no answer. */
function gitSaysNo(error: unknown): null {
  if (error instanceof GitError) return null
  throw error
}

/** The checked-out branch when it points at `head` (`headFlag`: how head was named). */
async function currentBranchAt(
  repo: string,
  head: string,
  headFlag: string | undefined
): Promise<string | null> {
  const [branch, at] = await Promise.all([
    headBranch(repo),
    headFlag === undefined ? head : resolveCommit(repo, 'HEAD').catch(gitSaysNo)
  ])
  return at === head ? branch : null
}

/*
 * Flow-Next's land step names the pull request only in FLOW_* variables (CHECK_USAGE).
 * Any non-zero exit blocks the merge, so a variable that cannot be used is an error
 * (exit 2), never a guess.
 */
interface LandContext {
  head: string | null
  pr: number | null
  baseRef: string | null
  spec: string | null
}

// A branch name as git allows it, and nothing a revision expression could add.
const REF = /^(?!-)(?!.*(?:\.\.|@\{|\/\/|\.lock$|\/$|\.$))[^\s~^:?*[\\\x00-\x1f\x7f]+$/

/** The land step's context, when its variables are set and no flag names the head. */
function landContext(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>
): LandContext | null {
  if (args.flags.has('head') || args.flags.has('pr')) return null
  const head = env.FLOW_HEAD_SHA || null
  const pr = env.FLOW_PR_NUMBER || null
  if (head === null && pr === null) return null
  if (head !== null && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(head))
    throw new CliError(
      `FLOW_HEAD_SHA must be a full commit SHA (got ${JSON.stringify(terminalLine(head))})`
    )
  const baseRef = env.FLOW_BASE_REF || null
  if (baseRef !== null && !REF.test(baseRef))
    throw new CliError(
      `FLOW_BASE_REF must be a branch name (got ${JSON.stringify(terminalLine(baseRef))})`
    )
  return {
    head: head?.toLowerCase() ?? null,
    pr: pr === null ? null : prNumber(pr, 'FLOW_PR_NUMBER'),
    baseRef,
    spec: env.FLOW_SPEC_ID?.slice(0, 200) || null
  }
}

/** The report's note naming what the land step asked about (rendered as hostile text). */
function landNote(land: LandContext): string {
  const parts = [
    land.pr !== null ? `pull request #${land.pr}` : null,
    land.spec !== null ? `spec ${land.spec}` : null,
    land.head !== null ? `head ${land.head.slice(0, 12)}` : null,
    land.baseRef !== null ? `base ${land.baseRef}` : null
  ].filter((part): part is string => part !== null)
  return `Flow-Next land merge-verdict check: ${parts.join(', ')}.`
}
