/**
 * The deferred-finding audit (SPEC §6). Flow-Next counts deferrals on the receipt
 * (`walkthrough.deferred`) and lists them in `.flow/review-deferred/<slug>.md`; make-pr
 * copies each bullet into the PR body as `- [ ] … — deferred from impl-review (…)`.
 */
import type { Problem } from './report.js'
import { plural } from '../util/plural.js'

/** A Markdown task-list checkbox opening a line, ticked or not. */
const CHECKBOX = /^[ \t]*[-*+] \[[ xX]\] /
/** A checkbox bullet carrying the breadcrumb make-pr writes after each deferred finding. */
const BODY_BULLET = /^[ \t]*[-*+] \[[ xX]\] .*— deferred from impl-review \(/
const BREADCRUMB = ' — deferred from impl-review ('
/** A sink bullet: `- [<sev>, confidence <n>, <classification>] <file>:<line> — <title>`. */
const SINK_BULLET = /^- \[[^\]]*\] (.*)$/

/** How to name one deferral the body does not name. */
export interface DeferredHint {
  /** The sink tail, or null for deferrals known only by the receipts' count. */
  item: string | null
  /** The body line that came closest, if any, and why it did not count (or that none names it). */
  nearMiss: string | null
  why: string
  /** The exact bullet to paste into the PR body. */
  paste: string
}

/** What a hint is about, in words: its deferral file bullet, or the receipts' count. */
export function hintItem(hint: DeferredHint): string {
  return hint.item ?? 'a deferred finding counted on the receipts'
}

/** The audit; the report carries it without `unreadableSink` and `failed`. */
export interface DeferredAudit {
  expected: number
  named: number
  /** The `<file>:<line> — <title>` tails of sink bullets the body does not name. */
  unnamed: string[]
  /** Deferrals counted on the receipts (walkthrough.deferred) that no bullet names. */
  uncounted: number
  hints: DeferredHint[]
  /** True when the audit did not run (disabled, or no PR body); see `notes`. */
  skipped: boolean
  notes: string[]
  /** Why the deferral file is there but could not be read (the audit then fails), or null. */
  unreadableSink: string | null
  failed: boolean
}

/** flowctl's `_branch_slug`: `/` → `-`, keep `[A-Za-z0-9._-]`, empty → `HEAD`. */
export function branchSlug(branch: string): string {
  return branch.replaceAll('/', '-').replace(/[^A-Za-z0-9._-]/g, '') || 'HEAD'
}

export function deferralSinkPath(branch: string): string {
  return `.flow/review-deferred/${branchSlug(branch)}.md`
}

type SinkBullet = { line: string; tail: string }

/** A sink file's `- [` bullet lines, trimmed, each with its `<file>:<line> — <title>` tail. */
function sinkBullets(markdown: string): SinkBullet[] {
  return markdown
    .split(/\r?\n/)
    .map((line) => line.trimStart())
    .filter((line) => line.startsWith('- ['))
    .map((line) => ({
      line: line.trim(),
      tail: (SINK_BULLET.exec(line)?.[1] ?? line.slice(2)).trim()
    }))
}

/** Whitespace-insensitive form of a tail, on both sides of every comparison. */
const squash = (text: string): string => text.replace(/\s+/g, '')

/**
 * The tails a body bullet can name, squashed: the text between the checkbox and the last
 * breadcrumb, with or without its `[<sev>, …]` prefix (or what is left of it when the
 * agent stripped its `[`). Only an equal tail names a deferral, never a substring.
 */
function bodyBulletTails(line: string): string[] {
  if (!BODY_BULLET.test(line)) return []
  const afterBox = line.replace(CHECKBOX, '')
  const content = afterBox.slice(0, afterBox.lastIndexOf(BREADCRUMB)).trim()
  const withoutPrefix = /^\[?[^\]]*\] (.*)$/.exec(content)?.[1]
  return (withoutPrefix === undefined ? [content] : [withoutPrefix, content]).map(squash)
}

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

/** The problems of an audit (`sinkPath`: the deferral file, if known), each with its code. */
export function auditProblems(
  unreadableSink: string | null,
  hints: readonly DeferredHint[],
  sinkPath: string | null
): Problem[] {
  const problems = hints.map((hint) => ({
    code: 'deferred-unnamed',
    path: sinkPath,
    message: `${hintItem(hint)} is not named in the PR body: ${hint.why}`
  }))
  if (unreadableSink !== null)
    problems.unshift({
      code: 'deferral-unreadable',
      path: sinkPath,
      message: `the deferral file cannot be read, its bullets are unknown: ${unreadableSink}`
    })
  return problems
}

export function auditDeferred(input: AuditInput): DeferredAudit {
  const sink = input.sink
  const bullets = sink ? sinkBullets(sink.markdown) : []
  const expected = Math.max(input.deferredCount, bullets.length)
  if (!input.enabled || input.body === null) {
    const why = input.enabled ? 'no PR body given' : 'audit-deferred is false'
    return {
      expected,
      named: 0,
      unnamed: [],
      uncounted: 0,
      hints: [],
      skipped: true,
      notes: [why],
      unreadableSink: null,
      failed: false
    }
  }
  const unreadable = input.sinkUnreadable ?? null
  const lines = input.body.split(/\r?\n/)
  const bodyTails = lines.map(bodyBulletTails).filter((tails) => tails.length > 0)
  // Each body bullet names at most one deferral: two equal deferrals need two bullets.
  const unused = [...bodyTails]
  const unnamed = bullets.filter(({ tail }) => {
    const at = unused.findIndex((candidates) => candidates.includes(squash(tail)))
    if (at < 0) return true
    unused.splice(at, 1)
    return false
  })
  // Deferrals counted on receipts but absent from the sink are named by bullets alone.
  const countOnly = expected - bullets.length
  let named = bullets.length - unnamed.length + Math.min(unused.length, countOnly)
  // The body cannot name more deferred findings than it has deferral bullets for the count.
  if (bodyTails.length < input.deferredCount) named = Math.min(named, bodyTails.length)
  const uncounted = Math.max(0, expected - named - unnamed.length)
  const hints = [
    ...(sink ? unnamed.map((bullet) => hintFor(bullet, lines, sink.path)) : []),
    ...(uncounted > 0 ? [countHint(uncounted, lines)] : [])
  ]
  return {
    expected,
    named,
    unnamed: unnamed.map(({ tail }) => tail),
    uncounted,
    hints,
    skipped: false,
    notes:
      unreadable !== null
        ? [`deferral file unreadable, its bullets unknown: ${unreadable}`]
        : sink
          ? []
          : [input.sinkNote ?? 'no deferral file: only counts checked'],
    unreadableSink: unreadable,
    failed: expected - named > 0 || unreadable !== null
  }
}

/** What to do about one unnamed sink bullet: the line that came closest, and the bullet to paste. */
function hintFor(
  { line, tail }: SinkBullet,
  lines: readonly string[],
  sinkPath: string
): DeferredHint {
  const where = tail.split(' — ')[0] ?? tail
  const near = lines.find((body) => squash(body).includes(squash(where)))
  return {
    item: tail,
    nearMiss: near ?? null,
    why: near ? nearMissWhy(near, tail) : 'no line of the PR body names it',
    paste: `- [ ] ${line.slice(2)}${BREADCRUMB}\`${sinkPath}\`)`
  }
}

function countHint(missing: number, lines: readonly string[]): DeferredHint {
  const near = lines.find(
    (line) => /deferred from impl-review/i.test(line) && !BODY_BULLET.test(line)
  )
  return {
    item: null,
    nearMiss: near ?? null,
    why: near
      ? nearMissWhy(near, null)
      : `${plural(missing, 'deferred finding')} counted on the receipts (walkthrough.deferred) but not named by a deferral bullet`,
    paste: `- [ ] [<severity>, confidence <n>, <classification>] <file>:<line> — <title>${BREADCRUMB}\`.flow/review-deferred/<branch>.md\`)`
  }
}

/** Why a line that mentions a deferral does not name it. */
function nearMissWhy(line: string, tail: string | null): string {
  if (!CHECKBOX.test(line)) return 'it is not a checkbox bullet (- [ ] …)'
  if (!line.includes(BREADCRUMB)) {
    return / - deferred from impl-review \(/i.test(line) ||
      (tail !== null && line.includes(tail.replaceAll('—', '-')))
      ? 'it uses ASCII "-" where the bullet needs em dashes (—)'
      : 'it lacks the " — deferred from impl-review (" marker'
  }
  return "its <file>:<line> — <title> differs from the deferral file's"
}
