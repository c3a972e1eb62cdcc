/**
 * The deferred-finding audit (docs/contract.md#deferred-audit). Flow-Next counts deferrals on the receipt
 * (`walkthrough.deferred`) and lists them in `.flow/review-deferred/<slug>.md`; make-pr
 * copies each bullet into the PR body as `- [ ] … — deferred from impl-review (…)`.
 */
import type { Problem } from './report.js'
import { plural } from '../util/plural.js'
import { visibleTaskBullets } from './visible-bullets.js'

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
  /** Another open PR on the same head commit whose body lacks it; absent: the judged PR's. */
  pull?: number
}

const COUNTED = 'a deferred finding counted on the receipts'

/**
 * What a hint is about, in words: its deferral file bullet, or the receipts' count, and
 * whose body lacks it when that is another PR's.
 */
export function hintItem(hint: DeferredHint): string {
  const item = hint.item ?? COUNTED
  return hint.pull === undefined ? item : `${item}, in ${bodyName(hint.pull)}`
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

/** A PR body the audit reads: the judged PR's (`pull` null) or another open PR's on its head. */
interface AuditedBody {
  pull: number | null
  body: string
}

export interface AuditInput {
  enabled: boolean
  body: string | null
  /**
   * The bodies of the other open PRs whose head is the judged commit: a check run is per
   * commit, so each of them shows this run's conclusion and must name the deferrals too.
   */
  sharing?: readonly { number: number; body: string }[]
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
    message: `${hint.item ?? COUNTED} is not named in ${bodyName(hint.pull)}: ${hint.why}`
  }))
  if (unreadableSink !== null)
    problems.unshift({
      code: 'deferral-unreadable',
      path: sinkPath,
      message: `deferral file unreadable: ${unreadableSink}`
    })
  return problems
}

/** Whose body a hint is about: the judged PR's, or another open PR's on the same head. */
function bodyName(pull: number | undefined): string {
  return pull === undefined
    ? 'the PR body'
    : `the body of #${pull} (an open PR on the same head commit)`
}

/** One body's audit: what it names of the sink bullets and of the receipts' count. */
interface BodyAudit {
  named: number
  /** Indices of the sink bullets it does not name. */
  unnamed: number[]
  uncounted: number
  hints: DeferredHint[]
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
  const bodies: AuditedBody[] = [
    { pull: null, body: input.body },
    ...(input.sharing ?? []).map(({ number, body }) => ({ pull: number, body }))
  ]
  const audits = bodies.map((body) =>
    auditBody(body, bullets, expected, input, sink?.path)
  )
  // Every body must hold: the figures are the worst body's, the hints every body's.
  const unnamedAnywhere = new Set(audits.flatMap((audit) => audit.unnamed))
  const named = Math.min(...audits.map((audit) => audit.named))
  const sharing = bodies.slice(1).map(({ pull }) => `#${pull}`)
  return {
    expected,
    named,
    unnamed: bullets.filter((_, i) => unnamedAnywhere.has(i)).map(({ tail }) => tail),
    uncounted: Math.max(...audits.map((audit) => audit.uncounted)),
    hints: audits.flatMap((audit) => audit.hints),
    skipped: false,
    notes: [
      ...(unreadable !== null
        ? [`deferral file unreadable, its bullets unknown: ${unreadable}`]
        : sink
          ? []
          : [input.sinkNote ?? 'no deferral file: only counts checked']),
      ...(sharing.length > 0
        ? [
            `also audited: the body of ${sharing.join(', ')} (open on the same head commit, so the check run is theirs too)`
          ]
        : [])
    ],
    unreadableSink: unreadable,
    failed: expected - named > 0 || unreadable !== null
  }
}

/** The audit of one body against the sink bullets and the receipts' count. */
function auditBody(
  { pull, body }: AuditedBody,
  bullets: readonly SinkBullet[],
  expected: number,
  input: AuditInput,
  sinkPath: string | undefined
): BodyAudit {
  const lines = body.split(/\r?\n/)
  const bodyTails = visibleTaskBullets(body)
    .map(bodyBulletTails)
    .filter((tails) => tails.length > 0)
  const unnamed = matchBullets(bullets, bodyTails)
  // Deferrals counted on receipts but absent from the sink are named by bullets alone.
  const unused = bodyTails.length - (bullets.length - unnamed.length)
  const countOnly = expected - bullets.length
  let named = bullets.length - unnamed.length + Math.min(unused, countOnly)
  // The body cannot name more deferred findings than it has deferral bullets for the count.
  if (bodyTails.length < input.deferredCount) named = Math.min(named, bodyTails.length)
  const uncounted = Math.max(0, expected - named - unnamed.length)
  const near = nearMisses(lines)
  const hints = [
    ...(sinkPath === undefined
      ? []
      : unnamed.map((i) => hintFor(bullets[i] as SinkBullet, near, sinkPath))),
    ...(uncounted > 0 ? [countHint(uncounted, lines)] : [])
  ]
  return {
    named,
    unnamed,
    uncounted,
    hints: pull === null ? hints : hints.map((hint) => ({ ...hint, pull }))
  }
}

/**
 * The sink bullets (by index) no body bullet names. Each body bullet names at most one
 * deferral, the first in body order that has the tail: two equal deferrals need two
 * bullets. One pass over each side (a queue of body bullets per tail).
 */
function matchBullets(
  bullets: readonly SinkBullet[],
  bodyTails: readonly string[][]
): number[] {
  const byTail = new Map<string, number[]>()
  bodyTails.forEach((tails, at) => {
    for (const tail of tails) {
      const queue = byTail.get(tail)
      if (queue) queue.push(at)
      else byTail.set(tail, [at])
    }
  })
  const used = new Set<number>()
  const cursor = new Map<string, number>()
  const unnamed: number[] = []
  bullets.forEach(({ tail }, i) => {
    const key = squash(tail)
    const queue = byTail.get(key) ?? []
    let next = cursor.get(key) ?? 0
    while (next < queue.length && used.has(queue[next] as number)) next++
    cursor.set(key, next + 1)
    if (next < queue.length) used.add(queue[next] as number)
    else unnamed.push(i)
  })
  return unnamed
}

/** `<file>:<line>` of a sink tail, the part a near miss still carries. */
const whereOf = (tail: string): string => squash(tail.split(' — ')[0] ?? tail)

/** Every `<file>:<line>`-like word of the body → its first line: near misses by look-up. */
function nearMisses(lines: readonly string[]): Map<string, string> {
  const near = new Map<string, string>()
  for (const line of lines)
    for (const [word] of line.matchAll(/[^\s`'"()[\]<>]+:\d+/g))
      if (!near.has(word)) near.set(word, line)
  return near
}

/** What to do about one unnamed sink bullet: the line that came closest, and the bullet to paste. */
function hintFor(
  { line, tail }: SinkBullet,
  near: ReadonlyMap<string, string>,
  sinkPath: string
): DeferredHint {
  const close = near.get(whereOf(tail))
  return {
    item: tail,
    nearMiss: close ?? null,
    why: close ? nearMissWhy(close, tail) : 'no line of the PR body names it',
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
  if (tail !== null && bodyBulletTails(line).includes(squash(tail)))
    return 'a reader does not see it: it is inside an HTML comment or a code block'
  return "its <file>:<line> — <title> differs from the deferral file's"
}
