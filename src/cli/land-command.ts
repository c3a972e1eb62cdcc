/**
 * `receipt-gate land`: Flow-Next land's merge-verdict command (`land.mergeVerdictCommand`).
 * Land runs it from the base branch's checkout, names the pull request only in FLOW_*
 * variables, never checks the PR out, discards stdout, and shows the last stderr line of
 * a refusal. So land judges exactly FLOW_HEAD_SHA (fetched when the clone lacks it), ends
 * stderr with the verdict line, and exits 2 — never 0 — when a fact it needs is out of reach.
 */
import { resolve } from 'node:path'
import type { GateOptions } from '../gate/options.js'
import type { SharingPull } from '../github/pulls.js'
import type { Report } from '../gate/report.js'
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import { git, headBranch, openRepository } from '../source/git.js'
import { terminalLine } from '../util/safe-text.js'
import {
  CliError,
  NEEDS_TOKEN,
  prNumber,
  valueFlags,
  type CliIo,
  type FlagSpec,
  type ParsedArgs
} from './args.js'
import {
  GATE_FLAGS,
  GATE_FLAGS_USAGE,
  checkCommand,
  gateExitCode,
  localReport,
  printReport,
  reportFlags
} from './check-command.js'
import { reportLine, verdictLine } from './land-line.js'

export const LAND_USAGE = `Usage: receipt-gate land [options]

Flow-Next land's merge-verdict command (land.mergeVerdictCommand), run by land from the
base branch's checkout. It judges the PR head FLOW_HEAD_SHA exactly: fetched from origin
into the object store when the clone lacks it (no checkout, no ref written), against
origin's FLOW_BASE_REF as it is now. With FLOW_PR_NUMBER it reads the PR body through
the API for the deferred audit (token: GITHUB_TOKEN, GH_TOKEN, else gh auth token); a
head origin cannot give is read through the API instead. The report goes to stdout; the
last stderr line is the verdict, its cause and the next step (the line land shows).
Exit 0 pass, 1 refused (failure or action_required), 2 cannot decide.

Options (each overrides its variable):
  --head SHA                    the PR head (FLOW_HEAD_SHA)
  --base BRANCH                 the base branch (FLOW_BASE_REF; default: the current branch)
  --pr N                        the pull request (FLOW_PR_NUMBER)
  --spec ID                     the Flow-Next spec, shown in the report (FLOW_SPEC_ID)
  --repo DIR                    repository (default: the current directory)
  --repo-slug OWNER/REPO        for the API (default: GITHUB_REPOSITORY, else origin's)
  --format text|markdown|json   the report on stdout (default: text)
${GATE_FLAGS_USAGE}
Examples:
  flowctl config set land.mergeVerdictCommand 'node tools/receipt-gate.mjs land'
  FLOW_HEAD_SHA=$(git rev-parse origin/feature) FLOW_BASE_REF=main receipt-gate land
`

/** The flags, each listed in LAND_USAGE (a test holds the two together). */
export const LAND_FLAGS: FlagSpec = {
  ...GATE_FLAGS,
  ...valueFlags(['head', 'base', 'pr', 'spec', 'repo', 'repo-slug', 'format'])
}

/** A fact land needs and cannot have: exit 2, with the step that would give it. */
class Undecided extends CliError {
  constructor(
    message: string,
    readonly next: string
  ) {
    super(message)
  }
}

/**
 * `check`, which answers as land does when land's variables are set and no flag names the
 * head: gating the checkout's HEAD (the base) instead would pass what was never reviewed.
 */
export async function checkOrLand(args: ParsedArgs, io: CliIo): Promise<number> {
  const landVariables = Boolean(io.env.FLOW_HEAD_SHA || io.env.FLOW_PR_NUMBER)
  if (args.flags.has('head') || args.flags.has('pr') || !landVariables)
    return checkCommand(args, io)
  for (const flag of args.flags.keys())
    if (!Object.hasOwn(LAND_FLAGS, flag) || flag === 'base')
      throw new CliError(
        `--${flag} does not apply while FLOW_HEAD_SHA or FLOW_PR_NUMBER is set: use receipt-gate land`
      )
  return landCommand(args, io)
}

/** Runs the command; resolves to the exit code, stderr's last line the verdict. */
export async function landCommand(args: ParsedArgs, io: CliIo): Promise<number> {
  try {
    const { format, options } = reportFlags(args)
    const request = landRequest(args, io)
    const { report, undecided } = await judge(request, options, io)
    printReport(report, format, io)
    if (undecided) {
      io.stderr(verdictLine('cannot decide', undecided.message, undecided.next))
      return 2
    }
    io.stderr(reportLine(report))
    return gateExitCode(report)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    io.stderr(
      verdictLine('cannot decide', message, error instanceof Undecided ? error.next : '')
    )
    return 2
  }
}

/** What land asks about: the variables, each overridden by its flag. */
interface LandRequest {
  repoDir: string
  head: string
  baseRef: string | null
  pr: number | null
  spec: string | null
  slug: string | undefined
}

// A branch name as git allows it, and nothing a revision expression could add.
const REF = /^(?!-)(?!.*(?:\.\.|@\{|\/\/|\.lock$|\/$|\.$))[^\s~^:?*[\\\x00-\x1f\x7f]+$/

function landRequest(args: ParsedArgs, io: CliIo): LandRequest {
  const read = (flag: string, variable: string): { value?: string; name: string } => {
    const value = args.flags.get(flag) ?? (io.env[variable] || undefined)
    return { value, name: args.flags.has(flag) ? `--${flag}` : variable }
  }
  const pr = read('pr', 'FLOW_PR_NUMBER')
  const number = pr.value === undefined ? null : prNumber(pr.value, pr.name)
  const head = read('head', 'FLOW_HEAD_SHA')
  if (head.value === undefined)
    throw new Undecided(
      'FLOW_HEAD_SHA is not set: no pull request head to judge',
      'run it as land.mergeVerdictCommand, or pass --head SHA'
    )
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(head.value))
    throw new CliError(
      `${head.name} must be a full commit SHA (got ${JSON.stringify(terminalLine(head.value))})`
    )
  const base = read('base', 'FLOW_BASE_REF')
  if (base.value !== undefined && !REF.test(base.value))
    throw new CliError(
      `${base.name} must be a branch name (got ${JSON.stringify(terminalLine(base.value))})`
    )
  return {
    repoDir: resolve(io.cwd, args.flags.get('repo') ?? '.'),
    head: head.value.toLowerCase(),
    baseRef: base.value ?? null,
    pr: number,
    spec: read('spec', 'FLOW_SPEC_ID').value?.slice(0, 200) ?? null,
    slug: args.flags.get('repo-slug')
  }
}

/** The report, and what keeps it from deciding (exit 2) when something does. */
async function judge(
  request: LandRequest,
  options: GateOptions,
  io: CliIo
): Promise<{ report: Report; undecided: Undecided | null }> {
  const { root } = await openRepository(request.repoDir)
  const baseRef = request.baseRef ?? (await headBranch(root))
  if (baseRef === null)
    throw new Undecided(
      'no base branch: FLOW_BASE_REF is not set and HEAD is detached',
      'pass --base BRANCH'
    )
  const seen = await fetchFromOrigin(root, request.head, baseRef)
  const judged =
    seen.why === null
      ? await judgeLocally(root, request, options, seen.baseSha, io)
      : { report: await judgeThroughApi(root, request, options, seen.why, io), why: null }
  const note = `Flow-Next land merge-verdict check: ${landNote(request, baseRef)}.`
  return {
    report: { ...judged.report, notes: [...judged.report.notes, note] },
    undecided: judged.why
  }
}

/** The land context, as the report's note says it (FLOW_SPEC_ID is shown as hostile text). */
function landNote(request: LandRequest, baseRef: string): string {
  return [
    request.pr !== null ? `pull request #${request.pr}` : null,
    request.spec !== null ? `spec ${request.spec}` : null,
    `head ${request.head.slice(0, 12)}`,
    `base ${baseRef}`
  ]
    .filter((part) => part !== null)
    .join(', ')
}

/**
 * origin's base branch now, and the head and base in the object store: fetched by id when
 * missing, into no ref (`--refmap=`, no FETCH_HEAD), no checkout. `why`: what could not be had.
 */
async function fetchFromOrigin(
  root: string,
  head: string,
  baseRef: string
): Promise<{ baseSha: string; why: null } | { baseSha: null; why: string }> {
  const failure = (what: string) => (error: unknown) => ({
    baseSha: null,
    why: `${what}: ${error instanceof Error ? error.message : String(error)}`
  })
  const listed = await git(root, [
    'ls-remote',
    '--heads',
    'origin',
    `refs/heads/${baseRef}`
  ])
    .then(({ stdout }) => listedSha(stdout, `refs/heads/${baseRef}`))
    .catch(failure(`cannot read origin's ${baseRef}`))
  // origin answered without it: no other source knows the base land named.
  if (listed === null)
    throw new Undecided(`origin has no branch ${baseRef}`, 'check FLOW_BASE_REF')
  if (typeof listed !== 'string') return listed
  for (const [sha, what] of [
    [listed, `origin's ${baseRef} (${shortSha(listed)})`],
    [head, `FLOW_HEAD_SHA ${shortSha(head)}`]
  ] as const) {
    if (await hasCommit(root, sha)) continue
    const fetched = await git(root, ['fetch', ...FETCH_QUIETLY, 'origin', sha]).catch(
      failure(`cannot fetch ${what} from origin`)
    )
    if ('why' in fetched) return fetched
    if (!(await hasCommit(root, sha)))
      return { baseSha: null, why: `origin gave no commit ${what}` }
  }
  return { baseSha: listed, why: null }
}

/** Objects only: no tags, no FETCH_HEAD, no ref, no submodules, no maintenance after. */
const FETCH_QUIETLY = [
  '--quiet',
  '--no-tags',
  '--no-write-fetch-head',
  '--refmap=',
  '--no-recurse-submodules',
  '--no-auto-maintenance'
]

/** The id `ls-remote` lists for exactly `ref` (it matches patterns by their tail). */
function listedSha(stdout: string, ref: string): string | null {
  for (const line of stdout.split('\n')) {
    const [sha, name] = line.split('\t')
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha
  }
  return null
}

async function hasCommit(root: string, sha: string): Promise<boolean> {
  const found = await git(root, ['cat-file', '-e', `${sha}^{commit}`], [0, 1, 128])
  return found.code === 0
}

/**
 * The gate at the fetched head against origin's base, the PR body read through the API:
 * one GraphQL read (REST if it fails), none without a PR number. A body that cannot be
 * read decides nothing while deferrals must be named in it.
 */
async function judgeLocally(
  root: string,
  request: LandRequest,
  options: GateOptions,
  baseSha: string,
  io: CliIo
): Promise<{ report: Report; why: Undecided | null }> {
  const pull = options.auditDeferred
    ? await readBody(root, request, options, io)
    : { body: null, branch: null, sharing: [], unread: null }
  // An unread body is judged as an empty one: the audit then says whether any must be named.
  const report = await localReport({
    repoDir: root,
    options,
    body: pull.unread === null ? pull.body : '',
    head: request.head,
    base: baseSha,
    branch: pull.branch,
    sharing: pull.sharing
  })
  if (pull.unread === null) return { report, why: null }
  const notes = [...report.notes, `PR body not read (${pull.unread.message})`]
  const expected = report.deferred.expected
  const why =
    expected === 0
      ? null
      : new Undecided(
          `${plural(expected, 'deferred finding')} must be named in the PR body, which cannot be read: ${pull.unread.message}`,
          pull.unread.next
        )
  return { report: { ...report, notes }, why }
}

/** The PR body and head branch, or why they cannot be read. */
interface PullBody {
  body: string | null
  branch: string | null
  /** The other open PRs on the judged head: the check run is the commit's, theirs too. */
  sharing: SharingPull[]
  unread: Undecided | null
}

/** Reads the PR's body and head branch: one GraphQL request, REST's if that fails. */
async function readBody(
  root: string,
  request: LandRequest,
  options: GateOptions,
  io: CliIo
): Promise<PullBody> {
  const none = (unread: Undecided): PullBody => ({
    body: null,
    branch: null,
    sharing: [],
    unread
  })
  if (request.pr === null)
    return none(new Undecided('FLOW_PR_NUMBER is not set', 'pass --pr N'))
  try {
    const { prTarget, readPull, sharingOn } = await import(
      /* webpackMode: "eager" */ './pr-source.js'
    )
    const target = await prTarget(String(request.pr), request.slug, root, io.env)
    // With the head, the one query also lists the other open PRs on it.
    const read = await readPull(target, options, request.head, io.stderr)
    return {
      // A PR read whole with no description has an empty body, audited as such.
      body: read.pull.body ?? '',
      branch: read.pull.headRef || null,
      sharing: await sharingOn(target, read.graphql, request.head),
      unread: null
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    return none(new Undecided(error.message, nextForApi(error.message)))
  }
}

/** What to do about an API failure. */
const nextForApi = (message: string): string =>
  message.includes(NEEDS_TOKEN) ? NEEDS_TOKEN.replace(/^needs a token: /, '') : 'retry'

/** A head origin cannot give, read through the API when a PR number says which PR. */
async function judgeThroughApi(
  root: string,
  request: LandRequest,
  options: GateOptions,
  why: string,
  io: CliIo
): Promise<Report> {
  if (request.pr === null)
    throw new Undecided(why, 'set FLOW_PR_NUMBER and a token to read it through the API')
  const { checkPullRequest, prTarget } = await import(
    /* webpackMode: "eager" */ './pr-source.js'
  )
  try {
    const target = await prTarget(String(request.pr), request.slug, root, io.env)
    return (await checkPullRequest(target, options, request.head, null, io.stderr)).report
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    throw new Undecided(
      `${why}; through the API: ${error.message}`,
      nextForApi(error.message)
    )
  }
}
