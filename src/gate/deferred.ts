/**
 * The deferred-finding audit (SPEC §6). Flow-Next records deferrals as a count on the
 * receipt (`walkthrough.deferred`) and as bullets in `.flow/review-deferred/<slug>.md`;
 * its make-pr step copies each bullet into the PR body as
 * `- [ ] … — deferred from impl-review (…)`. The audit checks the body names them all.
 */

/** The PR-body breadcrumb make-pr writes after each deferred finding (em dash). */
const BODY_BULLET = /^[ \t]*[-*+] \[[ xX]\] .*— deferred from impl-review \(/
/** A sink bullet: `- [<sev>, confidence <n>, <classification>] <file>:<line> — <title>`. */
const SINK_BULLET = /^- \[[^\]]*\] (.*)$/

export interface DeferredAudit {
  /** True when the audit did not run (disabled, or no PR body); see `notes`. */
  skipped: boolean
  expected: number
  named: number
  /** Unnamed sink tails, or one line for count-only shortfalls. */
  unnamed: string[]
  notes: string[]
  failed: boolean
}

/** flowctl's `_branch_slug`: `/` → `-`, keep `[A-Za-z0-9._-]`, empty → `HEAD`. */
export function branchSlug(branch: string): string {
  return branch.replaceAll('/', '-').replace(/[^A-Za-z0-9._-]/g, '') || 'HEAD'
}

/** The sink path for a branch. */
export function deferralSinkPath(branch: string): string {
  return `.flow/review-deferred/${branchSlug(branch)}.md`
}

/** The `<file>:<line> — <title>` tails of a sink file's bullets (sub-bullets excluded). */
export function sinkTails(markdown: string): string[] {
  return markdown
    .split(/\r?\n/)
    .map((line) => line.trimStart())
    .filter((line) => line.startsWith('- ['))
    .map((line) => SINK_BULLET.exec(line)?.[1]?.trim() ?? line.slice(2).trim())
}

/** Number of deferral bullets in a PR body (ticked ones count too). */
export function countBodyBullets(body: string): number {
  return body.split(/\r?\n/).filter((line) => BODY_BULLET.test(line)).length
}

const squash = (text: string): string => text.replace(/\s+/g, '')

export interface AuditInput {
  enabled: boolean
  body: string | null
  /** Σ walkthrough.deferred over the selected readable receipts. */
  deferredCount: number
  /** The sink file for the head branch, or null when there is none (with why in `sinkNote`). */
  sink: { path: string; markdown: string } | null
  /**
   * Why the sink file is there but could not be read (over the read cap, not a file).
   * Its bullets are unknown, so the audit fails: padding the file must not skip them.
   */
  sinkUnreadable?: string | null
  sinkNote: string | null
}

/** Runs the audit. */
export function auditDeferred(input: AuditInput): DeferredAudit {
  const tails = input.sink ? sinkTails(input.sink.markdown) : []
  const expected = Math.max(input.deferredCount, tails.length)
  if (!input.enabled)
    return skipped(expected, 'deferred audit disabled (audit-deferred: false)')
  if (input.body === null)
    return skipped(expected, 'no PR body given: deferred audit skipped')
  const unreadable = input.sinkUnreadable ?? null
  // No note when the file was read, or when it is there but unreadable (that fails below).
  const notes =
    input.sink || unreadable !== null
      ? []
      : [input.sinkNote ?? 'no deferral file: only counts checked']
  const bodyBullets = countBodyBullets(input.body)
  const body = squash(input.body)
  const unnamedTails = tails.filter((tail) => !body.includes(squash(tail)))
  const namedTails = tails.length - unnamedTails.length
  // Deferrals counted on receipts but absent from the sink are named by bullets alone.
  const countOnly = expected - tails.length
  const coveredCountOnly = Math.min(Math.max(0, bodyBullets - namedTails), countOnly)
  let named = namedTails + coveredCountOnly
  // The body cannot name more deferred findings than it has deferral bullets for the count.
  if (bodyBullets < input.deferredCount) named = Math.min(named, bodyBullets)
  const unnamed = [...unnamedTails]
  const shortfall = expected - named - unnamedTails.length
  if (shortfall > 0)
    unnamed.push(
      `${shortfall} deferred finding${shortfall === 1 ? '' : 's'} not named in the PR body`
    )
  if (unreadable !== null)
    unnamed.push(`deferral file unreadable, its bullets unknown: ${unreadable}`)
  return {
    skipped: false,
    expected,
    named,
    unnamed,
    notes,
    failed: expected - named > 0 || unreadable !== null
  }
}

function skipped(expected: number, note: string): DeferredAudit {
  return { skipped: true, expected, named: 0, unnamed: [], notes: [note], failed: false }
}
