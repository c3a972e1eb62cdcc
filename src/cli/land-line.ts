/**
 * The one line Flow-Next land shows of its merge-verdict command: land keeps only the last
 * line of stderr, cut to 200 characters (`cut -c1-200`: bytes), as the refusal's reason.
 * So the line reads `receipt-gate: <verdict> — <cause>; <next step>`, and when it is too
 * long the cause is shortened, never the verdict or the step.
 */
import { basename } from 'node:path/posix'
import type { Problem, ReceiptRow, Report } from '../gate/report.js'
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import { terminalLine } from '../util/safe-text.js'
import { truncateTo } from '../util/truncate.js'

/** What land keeps of the line, in bytes. */
export const LINE_LIMIT = 200

/** `receipt-gate: <verdict> — <cause>; <next>` in at most 200 bytes, newline-terminated. */
export function verdictLine(verdict: string, cause: string, next: string): string {
  const start = `receipt-gate: ${verdict} — `
  const end = next === '' ? '' : `; ${terminalLine(next)}`
  const room = LINE_LIMIT - bytes(start) - bytes(end)
  return `${fitBytes(start + fitBytes(terminalLine(cause), room) + end, LINE_LIMIT)}\n`
}

/** The report's line: the first refusal's cause and step (with how many more), or the pass. */
export function reportLine(report: Report): string {
  const at = shortSha(report.head)
  const refusals = refusalsOf(report, at)
  const [first] = refusals
  if (!first) {
    const verdict = report.verdict === '' ? 'nothing current to gate' : report.verdict
    return verdictLine(report.conclusion, `${verdict} at ${at}`, '')
  }
  const more = refusals.length > 1 ? ` (+${refusals.length - 1} more in the report)` : ''
  return verdictLine(report.conclusion, first.cause, `${first.next}${more}`)
}

/** Problems a row, a missing type or the audit already says (or that refuse nothing). */
const SAID = new Set([
  'unreadable-receipt',
  'ambiguous-receipt',
  'stale-unresolved',
  'current-not-shipping',
  'needs-human',
  'missing-required',
  'invalid-projection'
])

interface Refusal {
  cause: string
  next: string
}

/** Every reason the report refuses, the receipts' own first, each with what to do. */
function refusalsOf(report: Report, at: string): Refusal[] {
  const rows = report.receipts.filter(
    (row) => row.conclusion === 'failure' || row.conclusion === 'action_required'
  )
  return [
    ...rows.map((row) => rowRefusal(row, at)),
    ...report.missing.map((type) => missingRefusal(report, type, at)),
    ...deferredRefusal(report),
    ...report.problems
      .filter((p) => !SAID.has(p.code) && !p.code.startsWith('deferr'))
      .map((p) => problemRefusal(p, at))
  ]
}

/** The Flow-Next skill that writes a receipt of `type`. */
function reviewOf(type: string | null): string {
  if (type === 'completion_review') return 'spec-completion-review'
  return type ? type.replaceAll('_', '-') : 'the review'
}

/** A row's reason without the gate's own why (`… — stale evidence: …`). */
const ruleReason = (row: ReceiptRow): string => row.reason.split(' — ')[0] ?? row.reason

function rowRefusal(row: ReceiptRow, at: string): Refusal {
  const file = basename(row.path)
  const rerun = `re-run ${reviewOf(row.type)} at ${at}`
  if (row.currentness === 'unreadable' || row.currentness === 'ambiguous')
    return {
      cause: `${file} ${row.currentness}: ${ruleReason(row).replace(/^ambiguous: /, '')}`,
      next: `fix it (receipt-gate validate ${row.path}) or ${rerun}`
    }
  if (row.currentness === 'stale')
    return {
      cause: `${file}: ${row.verdict ?? 'a verdict'} never resolved, ${ruleReason(row)}`,
      next: rerun
    }
  if (row.verdict === 'NEEDS_HUMAN')
    return {
      cause: `${file} says NEEDS_HUMAN at ${at}: the reviewer asks a person to decide`,
      next: `decide, then ${rerun}`
    }
  const open = row.findings.filter(
    (f) =>
      f.classification === 'introduced' &&
      (f.status === 'open' || f.status === 'not_fixed')
  ).length
  const says = `${file} says ${row.verdict ?? 'nothing'} at ${at}`
  if (open === 0) return { cause: says, next: `address the review, then ${rerun}` }
  return {
    cause: `${says} (${plural(open, 'introduced finding')} open)`,
    next: `fix them, then ${rerun}`
  }
}

/** A required type with no current receipt: the nearest receipt of that type says why. */
function missingRefusal(report: Report, type: string, at: string): Refusal {
  const next = `re-run ${reviewOf(type)} at ${at} and commit its receipt`
  const nearest = report.receipts.find((row) => row.type === type)
  if (!nearest) return { cause: `no ${type} receipt at ${at}`, next }
  return { cause: `${basename(nearest.path)} ${ruleReason(nearest)}`, next }
}

function deferredRefusal(report: Report): Refusal[] {
  const { expected, named, unnamed, hints } = report.deferred
  const sink = report.problems.find((p) => p.code.startsWith('deferr'))
  if (!sink) return []
  if (sink.code === 'deferral-unreadable')
    return [{ cause: sink.message, next: 'fix the deferral file' }]
  const missing = expected - named
  const first = unnamed[0] ?? hints[0]?.item ?? null
  return [
    {
      cause: `${plural(missing, 'deferred finding')} not named in the PR body${first ? ` (${first})` : ''}`,
      next: sink.path
        ? `add the bullets of ${sink.path} to the PR body`
        : 'name each in the PR body as make-pr does (- [ ] … — deferred from impl-review (…))'
    }
  ]
}

function problemRefusal(problem: Problem, at: string): Refusal {
  const next = problem.code.startsWith('coverage')
    ? `re-run impl-review at ${at} to cover it`
    : 'see the report'
  return { cause: problem.message, next }
}

const bytes = (text: string): number => Buffer.byteLength(text)

/** `text` cut to `limit` bytes on a character boundary, with `…` when cut. */
const fitBytes = (text: string, limit: number): string =>
  truncateTo(text, limit, bytes, '…')
