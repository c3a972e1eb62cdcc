/**
 * The one line Flow-Next land shows of its merge-verdict command: land keeps only the last
 * line of stderr, cut to 200 characters (`cut -c1-200`: bytes), as the refusal's reason.
 * So the line reads `receipt-gate: <verdict> — <cause>; <next step>`, and when it is too
 * long the cause is shortened, never the verdict or the step.
 */
import { causes, nextStep, reportTitle } from '../gate/outcome.js'
import type { Report } from '../gate/report.js'
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

/**
 * The report's line, in the words every other output uses (src/gate/outcome.ts): the first
 * cause and its step, with how many more; a passing run's title and step.
 */
export function reportLine(report: Report): string {
  const [first, ...more] = causes(report)
  if (!first) return verdictLine(report.conclusion, reportTitle(report), nextStep(report))
  const others = more.length > 0 ? ` (+${more.length} more in the report)` : ''
  return verdictLine(report.conclusion, first.title, `${first.next}${others}`)
}

const bytes = (text: string): number => Buffer.byteLength(text)

/** `text` cut to `limit` bytes on a character boundary, with `…` when cut. */
const fitBytes = (text: string, limit: number): string =>
  truncateTo(text, limit, bytes, '…')
