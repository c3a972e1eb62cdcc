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
import { terminalLine } from '../util/safe-text.js'
import {
  GitError,
  gitSource,
  headBranch,
  mergeBase,
  openRepository,
  resolveCommit
} from '../source/git.js'
import {
  CliError,
  formatFlag,
  valueFlags,
  type CliIo,
  type FlagSpec,
  type ParsedArgs
} from './args.js'

/** The flags of the gate's options, shared by check and land. */
export const GATE_FLAGS_USAGE = `  --receipts-dir DIR            default .flow/review-receipts
  --select changed|all|GLOBS    default changed
  --require TYPES               comma-separated; default impl_review; '' for none
  --bookkeeping-paths GLOBS     default .flow/**,!.flow/bin/**,!.flow/config.json
  --unbound-head history|fail|allow             default history
  --needs-human-conclusion action_required|failure|neutral   default action_required
  --audit-deferred true|false   default true
  --coverage report|require|off default report (require: every code commit reviewed)
`

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
                                (default: origin/HEAD, else main, master, origin/main,
                                origin/master)
  --branch NAME                 the PR head branch, for .flow/review-deferred/<slug>.md
                                (default: the current branch when it points at the head)
  --body-file FILE              the PR body for the deferred audit (none: audit skipped)
  --format text|markdown|json   output (default: text; markdown is the job summary)
${GATE_FLAGS_USAGE}
A pull request through the GitHub API (token: GITHUB_TOKEN, GH_TOKEN, else gh auth
token; API: GITHUB_API_URL, default https://api.github.com):
  --pr N                        the pull request to gate (not with --head, --base,
                                --branch or --body-file: the PR names them)
  --repo-slug OWNER/REPO        default: GITHUB_REPOSITORY, else the origin remote
  --post                        post the check run on the PR head, as the action does
  --check-name NAME             the check run's name with --post (default: Review receipts)
  --exempt-authors LOGINS       PR authors that need no review (e.g. dependabot[bot])
  --exempt-labels NAMES         labels whose PRs need no review
  --verbose                     print on stderr each decision the report does not show
                                (the base it fell back to, an unknown and its cause)

With FLOW_HEAD_SHA or FLOW_PR_NUMBER set (Flow-Next land's merge-verdict command) and
neither --head nor --pr, check runs as receipt-gate land (see land --help).

Examples:
  receipt-gate check
  receipt-gate check --base origin/main --body-file pr-body.md --format markdown
  receipt-gate check --select all --require impl_review,plan_review --format json
  receipt-gate check --pr 42 --repo-slug acme/widgets --format markdown
`

/** The gate's option flags, shared by check and land (GATE_FLAGS_USAGE lists them). */
export const GATE_FLAGS: FlagSpec = valueFlags([
  'receipts-dir',
  'select',
  'require',
  'bookkeeping-paths',
  'unbound-head',
  'needs-human-conclusion',
  'audit-deferred',
  'coverage'
])

/** The flags, each listed in CHECK_USAGE (a test holds the two together). */
export const CHECK_FLAGS: FlagSpec = {
  ...GATE_FLAGS,
  ...valueFlags([
    'repo',
    'head',
    'base',
    'branch',
    'body-file',
    'format',
    'pr',
    'repo-slug',
    'check-name',
    'exempt-authors',
    'exempt-labels'
  ]),
  post: { type: 'boolean' },
  verbose: { type: 'boolean' }
}

/** `--verbose`: each decision on stderr, one terminal-safe line; else nothing. */
function debugOf(args: ParsedArgs, io: CliIo): Debug {
  if (!args.flags.has('verbose')) return () => undefined
  return (message) => io.stderr(`receipt-gate check: ${terminalLine(message)}\n`)
}

const EXEMPT_FLAGS = ['exempt-authors', 'exempt-labels']
/** How long `--pr` waits for the API in silence. */
const WAIT_NOTICE_MS = 1000

/** Runs the command; resolves to the exit code. */
export async function checkCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  const { format, options } = reportFlags(args)
  const body = readBody(args, io)
  const repoDir = resolve(io.cwd, args.flags.get('repo') ?? '.')
  const pr = args.flags.get('pr')
  const debug = debugOf(args, io)
  const report =
    pr === undefined
      ? await runCheck(args, repoDir, options, body, debug)
      : await runPr(args, io, repoDir, options, pr, debug)
  printReport(report, format, io)
  return gateExitCode(report)
}

/** The forms of the report on stdout (markdown is the job summary). */
type ReportFormat = 'text' | 'markdown' | 'json'

/** The report on stdout in `format`. */
export function printReport(report: Report, format: ReportFormat, io: CliIo): void {
  io.stdout(
    format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : format === 'markdown'
        ? `${renderSummary(report, SUMMARY_LIMITS.jobSummary)}\n`
        : renderText(report, io.color, io.columns)
  )
}

/** 1 when the gate refuses (failure, action_required), else 0. */
export function gateExitCode(report: Report): number {
  return report.conclusion === 'failure' || report.conclusion === 'action_required'
    ? 1
    : 0
}

/** What check and land read alike: no argument, the report's format, the gate's options. */
export function reportFlags(args: ParsedArgs): {
  format: ReportFormat
  options: GateOptions
} {
  if (args.positionals.length > 0)
    throw new CliError(`unexpected argument ${JSON.stringify(args.positionals[0])}`)
  const format = formatFlag<ReportFormat>(args, ['text', 'markdown', 'json'])
  try {
    return { format, options: parseOptions(Object.fromEntries(args.flags)) }
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

async function runPr(
  args: ParsedArgs,
  io: CliIo,
  repoDir: string,
  options: GateOptions,
  pr: string,
  debug: Debug
): Promise<Report> {
  for (const flag of ['head', 'base', 'branch', 'body-file'])
    if (args.flags.has(flag))
      throw new CliError(
        `--${flag} does not apply to a pull request read through the API`
      )
  // Loaded when a pull request is read: the GitHub client (Octokit, undici) costs every
  // start ~130 ms to evaluate; bundled, "eager" keeps it in the one file, unevaluated.
  const { checkPullRequest, prTarget } = await import(
    /* webpackMode: "eager" */ './pr-source.js'
  )
  const log = (line: string): void =>
    io.stderr(`receipt-gate check: ${terminalLine(line)}\n`)
  const target = await prTarget(pr, args.flags.get('repo-slug'), repoDir, io.env, log)
  const checkName = args.flags.has('post')
    ? (args.flags.get('check-name') ?? 'Review receipts')
    : null
  // A network that does not answer is waited for, with retries, for many seconds: when the
  // first answer has not come within a second, say what is being waited for (a quick
  // answer keeps the run quiet).
  const waiting = setTimeout(
    () =>
      log(
        `waiting for ${target.apiUrl} (pull request #${target.number} of ${target.owner}/${target.repo})…`
      ),
    WAIT_NOTICE_MS
  )
  const answered = (): void => clearTimeout(waiting)
  target.octokit.hook.after('request', answered)
  target.octokit.hook.error('request', (error) => {
    answered()
    throw error
  })
  const { report, published } = await checkPullRequest(
    target,
    options,
    null,
    checkName,
    io.stderr,
    debug
  ).finally(answered)
  if (published)
    io.stderr(
      published.fallback
        ? 'receipt-gate check: the check run could not be posted (no checks: write)\n'
        : `receipt-gate check: posted ${published.checkRunUrl}\n`
    )
  return report
}

async function runCheck(
  args: ParsedArgs,
  repoDir: string,
  options: GateOptions,
  body: string | null,
  debug: Debug
): Promise<Report> {
  for (const flag of ['repo-slug', 'post', 'check-name'])
    if (args.flags.has(flag)) throw new CliError(`--${flag} applies only with --pr`)
  // An exemption rests on the PR's author and labels, which only the API knows.
  for (const flag of EXEMPT_FLAGS)
    if (args.flags.has(flag))
      throw new CliError(
        `--${flag} applies only with --pr (the pull request's author and labels come from the API)`
      )
  return localReport({
    repoDir,
    options,
    body,
    head: args.flags.get('head'),
    base: args.flags.get('base'),
    branch: args.flags.get('branch'),
    debug
  })
}

/** A run on a local repository: revisions as typed (undefined: the defaults). */
export interface LocalRun {
  repoDir: string
  options: GateOptions
  body: string | null
  head: string | undefined
  base: string | undefined
  /** The PR's head branch (null: none known; undefined: the checked-out one at the head). */
  branch: string | null | undefined
  /** The other open PRs on the head, whose bodies the deferred audit holds too. */
  sharing?: readonly { number: number; body: string }[]
  /** Told each decision the report does not show (`--verbose`). */
  debug?: Debug
}

/** The gate on a local repository, receipts read at the head through git plumbing. */
export async function localReport(run: LocalRun): Promise<Report> {
  const { options } = run
  const debug = run.debug ?? (() => undefined)
  // Every git question is asked of the top level: the answer must not depend on the
  // folder the CLI was pointed at or run from.
  const { root: repo, shallow } = await openRepository(run.repoDir)
  // The base is resolved while the head is; the head's error still comes first. Coverage
  // and the diff need the merge base whatever selects the receipts: without it every
  // commit's coverage and every finding's place in the diff would be unknown.
  const resolving = resolveCommit(repo, run.head ?? 'HEAD')
  const forking = findMergeBase(repo, resolving, run.base, debug)
  void forking.catch(() => undefined)
  const head = await resolving
  const [forkPoint, branch] = await Promise.all([
    forking,
    run.branch !== undefined ? run.branch : currentBranchAt(repo, head, run.head)
  ])
  const source = gitSource({ repo, head, mergeBase: forkPoint, shallow })
  // The report names the merge base only where it chose the receipts.
  const base = options.select.mode === 'changed' ? forkPoint : null
  const { sharing } = run
  return evaluate({ source, options, body: run.body, branch, base, sharing, debug })
}

/**
 * The base when none is named: the remote's default branch, then the usual local names,
 * then their remote-tracking branches — a CI checkout (detached, no `origin/HEAD`, no
 * local branch) has only `origin/main`.
 */
const DEFAULT_BASES = ['origin/HEAD', 'main', 'master', 'origin/main', 'origin/master']

/** The merge base of the head and `--base`, else of the default base branch. */
async function findMergeBase(
  repo: string,
  head: Promise<string>,
  baseFlag: string | undefined,
  debug: Debug
): Promise<string> {
  const baseSha =
    baseFlag !== undefined
      ? await resolveCommit(repo, baseFlag)
      : await defaultBase(repo, debug)
  const sha = await mergeBase(repo, baseSha, await head)
  if (sha === null)
    throw new CliError(
      `no merge base between ${baseFlag ?? 'the base branch'} and the head`
    )
  return sha
}

/** The first of {@link DEFAULT_BASES} the repository has. */
async function defaultBase(repo: string, debug: Debug): Promise<string> {
  for (const rev of DEFAULT_BASES) {
    const sha = await resolveCommit(repo, rev).catch(gitSaysNo)
    debug(sha === null ? `base: no ${rev}` : `base: ${rev} (${sha})`)
    if (sha !== null) return sha
  }
  throw new CliError(
    `no base branch found (${DEFAULT_BASES.join(', ')}): pass --base REV`
  )
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
