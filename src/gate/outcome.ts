/**
 * What made a report's conclusion, in words: the causes its title names and the one next
 * step every output closes with (the text report, the Markdown summary, the log, and the
 * line `receipt-gate land` leaves for Flow-Next's land step). One reading of the report, so
 * no two outputs can name different causes, and a passing-looking line never sits above a
 * failure.
 */
import { basename } from 'node:path/posix'
import { introducedOpen, type ReceiptRow, type Report } from './report.js'
import { plural } from '../util/plural.js'
import { truncateTo } from '../util/truncate.js'
import { shortSha } from '../util/short-sha.js'

/** One reason the run did not pass, with the first thing to do about it. */
export interface Cause {
  /** The problem code (or situation) it comes from, for scripts. */
  code: string
  /** A few words for the title, e.g. `No current impl_review`. */
  title: string
  /** What to do first, e.g. `run impl-review at 0221255 and commit its receipt`. */
  next: string
}

/** Informational problems: they fail nothing, but explain why nothing was found. */
export const SITUATIONS = {
  emptyDir: 'empty-receipts-dir',
  nothingSelected: 'nothing-selected',
  headIsBase: 'head-is-base',
  shallow: 'shallow-clone'
} as const

/**
 * Every cause of a failing or action_required run, in the order to fix them: what makes
 * the gate unable to read comes first, then what the reviews say, then what the PR lacks.
 * Empty when the run passed (success or neutral).
 */
export function causes(report: Report): Cause[] {
  if (report.conclusion === 'success' || report.conclusion === 'neutral') return []
  const codes = new Set(report.problems.map((p) => p.code))
  const problem = (code: string): Report['problems'][number] | undefined =>
    report.problems.find((p) => p.code === code)
  const head = shortSha(report.head)
  const out: Cause[] = []
  const add = (code: string, title: string, next: string): void => {
    // A step names receipt files and types, which a receipt may make any length.
    out.push({ code, title, next: cut(next, NEXT_LIMIT) })
  }
  const rerun = (rows: readonly ReceiptRow[]): string => {
    const types = rows.map((row) => row.type)
    return `re-run ${reviewsAt(types, head)}`
  }
  if (codes.has('pull-request-not-found'))
    add(
      'pull-request-not-found',
      report.title ?? 'No pull request found',
      'set the pull-number input, or run the gate on the pull_request event'
    )
  if (codes.has('truncated-tree'))
    add(
      'truncated-tree',
      'receipts folder listed incompletely',
      'the receipts folder could not be listed whole: run again, or select fewer receipts'
    )
  const unknown = report.receipts.filter(
    (r) => r.currentness === 'unreadable' || r.currentness === 'ambiguous'
  )
  if (unknown.length > 0)
    add(
      'unreadable-receipt',
      `${unknown.length} unreadable or ambiguous`,
      `fix the unreadable or ambiguous receipts (receipt-gate validate ${unknown[0]?.path ?? 'FILE'} says why)`
    )
  // From the rows, not only their problem codes: a report built elsewhere (land) may omit them.
  const failing = report.receipts.filter(
    (row) =>
      row.currentness === 'current' &&
      (row.conclusion === 'failure' || row.conclusion === 'action_required')
  )
  const humans = failing.filter((row) => row.verdict === 'NEEDS_HUMAN')
  const asked = failing.filter((row) => row.verdict !== 'NEEDS_HUMAN')
  if (asked.length > 0)
    add(
      'current-not-shipping',
      verdictLead(report),
      `address the findings of ${fileNames(asked)}, then ${rerun(asked)}`
    )
  const sink = problem('deferral-unreadable')
  if (sink)
    add(
      'deferral-unreadable',
      sink.message,
      'make it a regular file of at most 1 MiB, or set audit-deferred to false'
    )
  // A cut history makes a review look stale or a type missing: a fetch is the fix, not a review.
  const staleOrMissing =
    report.missing.length > 0 ||
    report.receipts.some((r) => r.currentness !== 'current') ||
    (report.coverage?.unknown.length ?? 0) > 0
  if (codes.has(SITUATIONS.shallow) && staleOrMissing)
    add(
      SITUATIONS.shallow,
      'shallow clone: the history is cut',
      'fetch the history (git fetch --unshallow; in a workflow, actions/checkout with fetch-depth: 0), then run again'
    )
  const stale = report.receipts.filter(
    (row) => row.currentness === 'stale' && row.conclusion === 'failure'
  )
  if (stale.length > 0) {
    const verdicts = [...new Set(stale.map((row) => row.verdict ?? 'no verdict'))]
    add(
      'stale-unresolved',
      `${plural(stale.length, 'stale receipt')} ended unresolved (${verdicts.join(', ')})`,
      `${rerun(stale)} for each stale receipt that asked for changes (${fileNames(stale)})`
    )
  }
  if (report.missing.length > 0) {
    const types = report.missing.join(', ')
    // The nearest receipt of a missing type says why it is not current (what changed since).
    const nearest = report.receipts.find((row) => report.missing.includes(row.type ?? ''))
    const why = nearest ? ` (${basename(nearest.path)} ${ruleReason(nearest)})` : ''
    add('missing-required', `No current ${types}${why}`, missingStep(report))
  }
  if (humans.length > 0)
    add(
      'needs-human',
      verdictLead(report),
      `a human must review (the reviewer of ${fileNames(humans)} asks for one), then ${rerun(humans)}`
    )
  const coverage = report.coverage
  if (codes.has('coverage-unreviewed') || codes.has('coverage-unknown'))
    add(
      codes.has('coverage-unreviewed') ? 'coverage-unreviewed' : 'coverage-unknown',
      'code commits not proven reviewed',
      coverage === null || coverage === undefined
        ? 'the review coverage could not be computed (the notes say why): fix that, or set coverage to report'
        : coverage.unreviewed.length > 0
          ? `review the code commits no SHIP review holds (${coverage.unreviewed.map(shortSha).join(', ')}), or set coverage to report`
          : `review again so the receipt records its base (a full SHA), or set coverage to report: the base of the review holding ${coverage.unknown.map(shortSha).join(', ')} is unknown`
    )
  const sinkPath = problem('deferred-unnamed')?.path
  if (report.deferred.hints.length > 0 || report.deferred.unnamed.length > 0)
    add(
      'deferred-unnamed',
      'deferred findings not named in the PR body',
      `name each deferred finding${sinkPath ? ` of ${sinkPath}` : ''} in the PR body (the report lists the lines to paste)`
    )
  return out
}

/** Why a required type has no current receipt, when the report can tell, and what to do. */
function missingStep(report: Report): string {
  const head = shortSha(report.head)
  const has = (code: string): Report['problems'][number] | undefined =>
    report.problems.find((p) => p.code === code)
  const run = `run ${reviewsAt(report.missing, head)} and commit ${report.missing.length > 1 ? 'their receipts' : 'its receipt'}`
  if (report.receipts.length > 0) return run
  if (has(SITUATIONS.headIsBase))
    return `the head ${head} is the base branch itself (nothing changed since the merge base): run on the pull request's branch, or pass --head and --base`
  const empty = has(SITUATIONS.emptyDir)
  if (empty)
    return `no receipts under ${empty.path ?? 'the receipts folder'} at ${head}: commit the review receipts there, or set receipts-dir to the folder that holds them`
  const none = has(SITUATIONS.nothingSelected)
  if (none)
    return `${none.message}: commit this pull request's review receipt, or change select`
  return run
}

/** The Flow-Next reviews that write these types of receipt: `impl-review at 0221255`. */
function reviewsAt(types: readonly (string | null)[], head: string): string {
  const skills = types.map((type) => {
    if (type === 'completion_review') return 'spec-completion-review'
    return type ? type.replaceAll('_', '-') : 'the review'
  })
  return `${[...new Set(skills)].join(', ')} at ${head}`
}

/** The receipts by file name: `impl-fn-7.1.json`, or `impl-fn-7.1.json and 2 more`. */
function fileNames(rows: readonly ReceiptRow[]): string {
  const more = rows.length > 1 ? ` and ${rows.length - 1} more` : ''
  return `${basename(rows[0]?.path ?? 'the receipts')}${more}`
}

/** A row's reason without the gate's own why (`… — stale evidence: …`). */
const ruleReason = (row: ReceiptRow): string => row.reason.split(' — ')[0] ?? row.reason

/** The open introduced findings: `2 introduced findings open (1 P1)`, or null when none is. */
function openFindings(report: Report): string | null {
  const open = introducedOpen(report)
  if (open.length === 0) return null
  const severe = ['P0', 'P1'].flatMap((severity) => {
    const n = open.filter((f) => f.severity === severity).length
    return n > 0 ? [`${n} ${severity}`] : []
  })
  return `${plural(open.length, 'introduced finding')} open${severe.length ? ` (${severe.join(', ')})` : ''}`
}

/** The verdict with the open introduced findings: `NEEDS_WORK — 2 introduced findings open (1 P1)`. */
function verdictLead(report: Report): string {
  const findings = openFindings(report) ?? 'no introduced findings open'
  return `${report.verdict || 'No current receipt'} — ${findings}`
}

/** What exempted the PR, in words: `Exempt: author dependabot[bot]`. */
function exemptTitle(report: Report): string | null {
  const exempt = report.exempt
  return exempt ? `Exempt: ${exempt.by} ${exempt.name}` : null
}

/**
 * One line: the causes of a failing run (`10 stale receipts ended unresolved (NEEDS_WORK)`),
 * else what the passing run rests on (`SHIP — no introduced findings open`). At most 250
 * characters (the check run's title).
 */
export function reportTitle(report: Report): string {
  if (report.title !== undefined) return report.title
  const found = causes(report).map((cause) => cause.title)
  const exempt = exemptTitle(report)
  const nothing = report.receipts.length === 0 && report.missing.length === 0
  const passing = nothing
    ? exempt
      ? 'no review required'
      : 'No review receipts selected'
    : verdictLead(report)
  const line = [...(exempt ? [exempt] : []), ...(found.length > 0 ? found : [passing])]
  const title = cut(line.join(' — '), TITLE_LIMIT)
  // Open findings are said after the causes (never as one, when the verdict ships), and
  // however long the causes run: the cut falls on them.
  const open = openFindings(report)
  if (open === null || found.length === 0 || title.includes(open)) return title
  const tail = ` — ${open}`
  return `${cut(line.join(' — '), TITLE_LIMIT - tail.length)}${tail}`
}

/** A check run's title holds 255 characters; the report keeps to 250. */
const TITLE_LIMIT = 250
/** A next step names a few files and commits: past this, a hostile name is cut. */
const NEXT_LIMIT = 500
const cut = (text: string, max: number): string =>
  truncateTo(text, max, (part) => part.length, '…')

/** The first thing to do, by what made the conclusion (a passing run says so too). */
export function nextStep(report: Report): string {
  const first = causes(report)[0]
  if (first) return first.next
  const exempt = report.exempt
  if (exempt)
    return `exempt by ${exempt.input} (${exempt.by} ${exempt.name}): no review is required; the receipts it brings are still gated`
  if (report.conclusion === 'success') return 'the gate passes: nothing blocks the merge'
  if (report.conclusion !== 'neutral') return 'see the report'
  const current = report.receipts.filter((r) => r.currentness === 'current')
  if (current.some((r) => r.verdict === 'NEEDS_HUMAN'))
    return 'a human must review: the reviewer asks for one (needs-human-conclusion lets it pass)'
  if (report.receipts.length === 0)
    return report.required.length === 0
      ? 'nothing to gate: no receipt selected and nothing required'
      : 'nothing to gate'
  if (current.length === 0)
    return `only stale approvals: review the head ${shortSha(report.head)} to approve it`
  return 'nothing failed, but nothing current approves the head'
}
