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
  ObjectReader,
  assertRepository,
  git,
  gitSource,
  headBranch,
  mergeBase,
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
      auditDeferred: stringFlag(args, 'audit-deferred')
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
  const repo = resolve(io.cwd, stringFlag(args, 'repo') ?? '.')
  const headFlag = stringFlag(args, 'head')
  // Performance (issue 7): starting a process costs ~10 ms here, so every object question
  // goes through one `cat-file` process. `merge-base` is the only other git process of
  // the happy path, and runs only when the base is not an ancestor of the head. A
  // repository check runs only when the head does not resolve.
  const objects = new ObjectReader(repo)
  try {
    const head = await resolveCommit(objects, headFlag ?? 'HEAD').catch(async (error) => {
      await assertRepository(repo)
      // git says `unknown revision "HEAD"`, which reads like a typo of the user's.
      if (await hasNoCommits(repo)) throw new CliError('the repository has no commits')
      throw error
    })
    const [mergeBase, branch] = await Promise.all([
      options.select.mode === 'changed'
        ? findMergeBase(repo, objects, head, stringFlag(args, 'base'))
        : null,
      stringFlag(args, 'branch') ?? currentBranchAt(repo, objects, head, headFlag)
    ])
    const source = gitSource({ repo, objects, head, mergeBase })
    return await evaluate({ source, options, body, branch, base: mergeBase })
  } finally {
    objects.close()
  }
}

async function hasNoCommits(repo: string): Promise<boolean> {
  const found = await git(repo, ['rev-list', '-n', '1', '--all'], [0, 128])
  return found.code === 0 && found.stdout.length === 0
}

async function findMergeBase(
  repo: string,
  objects: ObjectReader,
  head: string,
  base: string | undefined
): Promise<string> {
  const baseSha =
    base !== undefined ? await resolveCommit(objects, base) : await defaultBase(objects)
  const sha = await mergeBase(repo, objects, baseSha, head)
  if (sha === null)
    throw new CliError(`no merge base between ${base ?? 'the base branch'} and the head`)
  return sha
}

async function defaultBase(objects: ObjectReader): Promise<string> {
  // Asked together: the reader answers all three through its one process.
  const candidates = await Promise.all(
    ['origin/HEAD', 'main', 'master'].map(async (rev) =>
      resolveCommit(objects, rev).catch(() => null)
    )
  )
  const found = candidates.find((sha) => sha !== null)
  if (found == null)
    throw new CliError(
      'no base branch found (origin/HEAD, main, master): pass --base REV'
    )
  return found
}

/** The checked-out branch when it points at `head` (`headFlag`: how head was named). */
async function currentBranchAt(
  repo: string,
  objects: ObjectReader,
  head: string,
  headFlag: string | undefined
): Promise<string | null> {
  const [branch, at] = await Promise.all([
    checkedOutBranch(repo),
    headFlag === undefined ? head : resolveCommit(objects, 'HEAD').catch(() => null)
  ])
  return at === head ? branch : null
}

async function checkedOutBranch(repo: string): Promise<string | null> {
  const read = await headBranch(repo)
  if (read !== undefined) return read
  const branch = await git(
    repo,
    ['symbolic-ref', '--quiet', '--short', 'HEAD'],
    [0, 1, 128]
  )
  return branch.code === 0 ? branch.stdout.toString('utf8').trim() || null : null
}

function render(report: Report, format: 'text' | 'markdown' | 'json', io: CliIo): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`
  if (format === 'markdown')
    return `${renderSummary(report, SUMMARY_LIMITS.jobSummary)}\n`
  return renderText(report, io.color, io.columns)
}
