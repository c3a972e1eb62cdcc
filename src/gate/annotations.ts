/**
 * Annotation mapping (SPEC §5): only current findings with a head-side anchor, or a
 * base-side one mapped to the change that removed its line (issue 25), become
 * annotations; an unreadable receipt gets a failure annotation on its own file.
 * Titles ≤ 255 characters, messages and raw details ≤ 64 KB.
 */
import { LINE_CONTROL_CHARS, terminalText } from '../util/safe-text.js'
import {
  isOpen,
  type ReceiptRow,
  type ReportAnnotation,
  type ReportFinding
} from './report.js'

export const ANNOTATION_LIMITS = {
  title: 255,
  message: 64 * 1024,
  rawDetails: 64 * 1024
} as const

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

const CONTROL_RUNS = new RegExp(`${LINE_CONTROL_CHARS.source}+`, 'g')

/**
 * Single-line, control-free text for an annotation title. Zero-width characters and the
 * bidi marks (LRM, RLM, ALM) are dropped too: kept, they hid or reordered title text.
 */
function plain(text: string): string {
  return text.replace(CONTROL_RUNS, ' ').trim()
}

/**
 * Truncates to `max` UTF-16 code units on a code point boundary, with a mark. GitHub's
 * "255 characters" may be counted in code units: a title of 240 emoji (255 code points
 * but 475 units) was refused with 422 and its annotation dropped.
 */
export function clipUnits(text: string, max: number): string {
  if (text.length <= max) return text
  let out = ''
  for (const ch of text) {
    if (out.length + ch.length > max - 1) break
    out += ch
  }
  return `${out}…`
}

/** Truncates to a byte budget on a code point boundary, with a visible mark. */
export function clipBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text
  const mark = '\n… (truncated)'
  let out = ''
  let bytes = Buffer.byteLength(mark, 'utf8')
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8')
    if (bytes + size > maxBytes) break
    out += ch
    bytes += size
  }
  return out + mark
}

function findingAnnotation(
  row: ReceiptRow,
  finding: ReportFinding
): ReportAnnotation | null {
  const level = findingLevel(finding)
  const at = annotationLines(finding)
  if (level === null || at === null) return null
  const head = `${finding.severity} · ${finding.classification} · confidence ${finding.confidence} — `
  const text =
    finding.suggestion === null
      ? finding.body
      : `${finding.body}\n\nSuggestion:\n${finding.suggestion}`
  const message =
    at.removed === null ? text : `On the removed line ${at.removed}: ${text}`
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
    title: clipUnits(plain(head + finding.title), ANNOTATION_LIMITS.title),
    // Messages keep their lines; ANSI escapes, other controls, bidi overrides and
    // zero-width characters are shown as \u{…} instead of acting on GitHub's page.
    message: clipBytes(terminalText(message), ANNOTATION_LIMITS.message),
    raw_details: clipBytes(terminalText(raw.join('\n')), ANNOTATION_LIMITS.rawDetails)
  }
}

/**
 * Where a finding is annotated: its head-side anchor, or the head line a base-side
 * anchor was mapped to (`removed`: the base line it names); null when nowhere.
 */
function annotationLines(
  finding: ReportFinding
): { path: string; start: number; end: number; removed: number | null } | null {
  const anchor = finding.anchor
  if (anchor === null) return null
  if (anchor.side === 'head')
    return {
      path: anchor.path,
      start: anchor.startLine,
      end: anchor.endLine,
      removed: null
    }
  const to = finding.mappedTo
  return to
    ? { path: to.path, start: to.line, end: to.line, removed: anchor.startLine }
    : null
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
      message: clipBytes(
        terminalText(
          `${row.reason}\n\nAn unreadable receipt is an unknown state, never a pass.`
        ),
        ANNOTATION_LIMITS.message
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
