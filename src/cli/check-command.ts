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
  isShallow,
  mergeBase,
  repositoryRoot,
  resolveCommit
} from '../source/git.js'
import { choice, parseArgs, stringFlag, type ParsedArgs } from './args.js'
import { CliError, type CliIo } from './io.js'

export const CHECK_USAGE = `Usage: receipt-gate check [options]

Runs the gate on a local git repository: reads the receipts at --head (not the
working tree), decides whether each is current, applies the gate and the deferred
audit, and prints the report. Exit 0 for success/neutral, 1 for failure or
action_required, 2 for usage or environment errors.

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

Examples:
  receipt-gate check
  receipt-gate check --base origin/main --body-file pr-body.md --format markdown
  receipt-gate check --select all --require impl_review,plan_review --format json
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
  const report = await withGitErrors(async () => runCheck(args, io, options, body))
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

async function runCheck(
  args: ParsedArgs,
  io: CliIo,
  options: GateOptions,
  body: string | null
): Promise<Report> {
  // Every git question is asked of the top level: the answer must not depend on the
  // folder the CLI was pointed at or run from.
  const repo = await repositoryRoot(resolve(io.cwd, stringFlag(args, 'repo') ?? '.'))
  const headFlag = stringFlag(args, 'head')
  const head = await resolveCommit(repo, headFlag ?? 'HEAD')
  const [forkPoint, branch, shallow] = await Promise.all([
    options.select.mode === 'changed'
      ? findMergeBase(repo, head, stringFlag(args, 'base'))
      : null,
    stringFlag(args, 'branch') ?? currentBranchAt(repo, head, headFlag),
    isShallow(repo)
  ])
  const source = gitSource({ repo, head, mergeBase: forkPoint, shallow })
  return evaluate({ source, options, body, branch, base: forkPoint })
}

async function findMergeBase(
  repo: string,
  head: string,
  base: string | undefined
): Promise<string> {
  const baseSha =
    base !== undefined ? await resolveCommit(repo, base) : await defaultBase(repo)
  const sha = await mergeBase(repo, baseSha, head)
  if (sha === null)
    throw new CliError(`no merge base between ${base ?? 'the base branch'} and the head`)
  return sha
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
