/**
 * Annotation mapping (docs/contract.md#check-run-and-report): only current findings with a head-side anchor, or a
 * base-side one mapped to the change that removed its line, become
 * annotations; an unreadable receipt gets a failure annotation on its own file.
 */
import { LINE_CONTROL_CHARS, terminalText } from '../util/safe-text.js'
import {
  isOpen,
  type ReceiptRow,
  type ReportAnnotation,
  type ReportFinding
} from './report.js'
import { truncateTo } from '../util/truncate.js'

const LEVEL_RANK = { failure: 0, warning: 1, notice: 2 } as const

/** The level of a finding, or null when it is not annotated (fixed, withdrawn). */
export function findingLevel(
  finding: ReportFinding
): ReportAnnotation['annotation_level'] | null {
  if (!isOpen(finding)) return null
  if (finding.classification !== 'introduced') return 'notice'
  if (finding.severity === 'P0' || finding.severity === 'P1') return 'failure'
  return finding.severity === 'P2' ? 'warning' : 'notice'
}

const CONTROL_RUNS = new RegExp(`${LINE_CONTROL_CHARS.source}+`, 'gu')

/**
 * A single-line title of at most 255 UTF-16 units, without controls, zero-width
 * characters or bidi marks (kept, they hid or reordered title text). GitHub may count
 * its "255 characters" in units: 240 emoji (475 units) were refused with 422.
 */
function title(text: string): string {
  return truncateTo(text.replace(CONTROL_RUNS, ' ').trim(), 255, (s) => s.length, '…')
}

/**
 * Messages and raw details keep their lines, within 64 KB; ANSI escapes, other controls,
 * bidi overrides and zero-width characters are shown as \u{…} instead of acting on GitHub's page.
 */
function details(text: string): string {
  const bytes = (s: string): number => Buffer.byteLength(s, 'utf8')
  return truncateTo(terminalText(text), 64 * 1024, bytes, '\n… (truncated)')
}

function findingAnnotation(
  row: ReceiptRow,
  finding: ReportFinding
): ReportAnnotation | null {
  const { anchor, mappedTo } = finding
  const level = findingLevel(finding)
  if (level === null || anchor === null) return null
  // A base-side anchor is annotated at the head line it was mapped to, if any.
  const at =
    anchor.side === 'head'
      ? { path: anchor.path, start: anchor.startLine, end: anchor.endLine }
      : mappedTo && { path: mappedTo.path, start: mappedTo.line, end: mappedTo.line }
  if (!at) return null
  const head = `${finding.severity} · ${finding.classification} · confidence ${finding.confidence} — `
  const text =
    finding.suggestion === null
      ? finding.body
      : `${finding.body}\n\nSuggestion:\n${finding.suggestion}`
  const raw = [
    `finding ${finding.id}`,
    `R-IDs: ${finding.rIds.length ? finding.rIds.join(', ') : 'none'}`,
    `receipt: ${row.path}`
  ]
  return {
    path: at.path,
    start_line: at.start,
    end_line: at.end,
    annotation_level: level,
    title: title(head + finding.title),
    message: details(
      anchor.side === 'head' ? text : `On the removed line ${anchor.startLine}: ${text}`
    ),
    raw_details: details(raw.join('\n'))
  }
}

/** All annotations of a run, most severe first (unreadable receipts, then failure, warning, notice). */
export function buildAnnotations(rows: readonly ReceiptRow[]): ReportAnnotation[] {
  const unreadable: ReportAnnotation[] = rows
    .filter((row) => row.currentness === 'unreadable')
    .map((row) => ({
      path: row.path,
      start_line: 1,
      end_line: 1,
      annotation_level: 'failure',
      title: 'Unreadable review receipt',
      message: details(
        `${row.reason}\n\nAn unreadable receipt is an unknown state, never a pass.`
      )
    }))
  const findings = rows
    .filter((row) => row.currentness === 'current')
    .flatMap((row) => row.findings.map((finding) => findingAnnotation(row, finding)))
    .filter((annotation): annotation is ReportAnnotation => annotation !== null)
  // A stable sort keeps each receipt's canonical finding order within a level.
  findings.sort((a, b) => LEVEL_RANK[a.annotation_level] - LEVEL_RANK[b.annotation_level])
  return [...unreadable, ...findings]
}
