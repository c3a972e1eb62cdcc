/**
 * Check-run rules GitHub enforces (or documents) that its OpenAPI description does not encode
 * (github-contract.md §6.2). Each has a stable rule id; messages follow GitHub's 422 wording.
 */
import type { Issue } from './openapi.js'

export const LIMITS = {
  annotationsPerRequest: 50,
  annotationTitleChars: 255,
  annotationMessageBytes: 64 * 1024,
  annotationRawDetailsBytes: 64 * 1024,
  outputFieldChars: 65535,
  outputFieldBytes: 65535
} as const

interface Annotation {
  path?: unknown
  start_line?: unknown
  end_line?: unknown
  start_column?: unknown
  end_column?: unknown
  title?: unknown
  message?: unknown
  raw_details?: unknown
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const bytes = (s: string) => Buffer.byteLength(s, 'utf8')

/** Rules for the body of `checks/create` or `checks/update`. */
export function checkRunRules(operationId: string, body: unknown): Issue[] {
  if (!isObject(body)) return []
  const issues: Issue[] = []
  const conclusion = body.conclusion
  if (
    operationId === 'checks/create' &&
    (body.status === 'completed' || body.completed_at !== undefined) &&
    conclusion === undefined
  ) {
    issues.push({
      rule: 'check_run.completed.conclusion',
      message: 'conclusion is required when status is completed or completed_at is given.'
    })
  }
  if (conclusion === 'stale') {
    issues.push({
      rule: 'check_run.conclusion.stale',
      message: 'Only GitHub can set a conclusion of stale.'
    })
  }
  const output = body.output
  if (!isObject(output)) return issues
  for (const field of ['summary', 'text'] as const) {
    const v = output[field]
    // The schema caps characters; the cap is also a byte budget for the product (SPEC §5), and
    // a multi-byte text under 65535 characters but over 65535 bytes is not safe on GitHub.
    if (
      typeof v === 'string' &&
      v.length <= LIMITS.outputFieldChars &&
      bytes(v) > LIMITS.outputFieldBytes
    ) {
      issues.push({
        rule: `output.${field}.maxBytes`,
        message: `For 'output/${field}', only ${LIMITS.outputFieldBytes} bytes are allowed; ${bytes(v)} were supplied.`
      })
    }
  }
  const annotations = output.annotations
  if (!Array.isArray(annotations)) return issues
  annotations.forEach((raw: unknown, i) => {
    if (!isObject(raw)) return
    const a = raw as Annotation
    const at = `output/annotations/${i}`
    if (typeof a.title === 'string' && a.title.length > LIMITS.annotationTitleChars) {
      issues.push({
        rule: 'annotation.title.maxLength',
        message: `For '${at}/title', only ${LIMITS.annotationTitleChars} characters are allowed; ${a.title.length} were supplied.`
      })
    }
    if (
      typeof a.message === 'string' &&
      bytes(a.message) > LIMITS.annotationMessageBytes
    ) {
      issues.push({
        rule: 'annotation.message.maxBytes',
        message: `For '${at}/message', the maximum size is 64 KB; ${bytes(a.message)} bytes were supplied.`
      })
    }
    if (
      typeof a.raw_details === 'string' &&
      bytes(a.raw_details) > LIMITS.annotationRawDetailsBytes
    ) {
      issues.push({
        rule: 'annotation.raw_details.maxBytes',
        message: `For '${at}/raw_details', the maximum size is 64 KB; ${bytes(a.raw_details)} bytes were supplied.`
      })
    }
    const start = a.start_line
    const end = a.end_line
    if (typeof start === 'number' && start < 1) {
      issues.push({
        rule: 'annotation.start_line.min',
        message: `For '${at}/start_line', ${start} is less than the minimum of 1.`
      })
    }
    if (typeof start === 'number' && typeof end === 'number' && end < start) {
      issues.push({
        rule: 'annotation.end_line.order',
        message: `For '${at}/end_line', ${end} is less than start_line ${start}.`
      })
    }
    const hasColumns = a.start_column !== undefined || a.end_column !== undefined
    if (hasColumns && start !== end) {
      issues.push({
        rule: 'annotation.columns.singleLine',
        message: `For '${at}', start_column and end_column are only allowed when start_line equals end_line.`
      })
    }
    for (const col of ['start_column', 'end_column'] as const) {
      const c = a[col]
      if (typeof c === 'number' && c < 1) {
        issues.push({
          rule: `annotation.${col}.min`,
          message: `For '${at}/${col}', ${c} is less than the minimum of 1.`
        })
      }
    }
    if (
      typeof a.start_column === 'number' &&
      typeof a.end_column === 'number' &&
      a.end_column < a.start_column
    ) {
      issues.push({
        rule: 'annotation.end_column.order',
        message: `For '${at}/end_column', ${a.end_column} is less than start_column ${a.start_column}.`
      })
    }
  })
  return issues
}
