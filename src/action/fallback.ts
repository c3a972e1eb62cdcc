/**
 * The fallback when the check run cannot be posted (403: a fork PR's read-only token, or
 * no `checks: write`): workflow-command annotations, escaped as the toolkit escapes them
 * (`%`, CR, LF in data; also `:` and `,` in properties).
 */
import type { ReportAnnotation } from '../gate/report.js'

const LEVEL = { failure: 'error', warning: 'warning', notice: 'notice' } as const

/** Escapes a workflow command's data as `@actions/core` does. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** One `::error file=…,line=…,endLine=…,title=…::message` line per annotation. */
export function workflowCommand(annotation: ReportAnnotation): string {
  const props = [
    `file=${escapeProperty(annotation.path)}`,
    `line=${annotation.start_line}`,
    `endLine=${annotation.end_line}`,
    `title=${escapeProperty(annotation.title)}`
  ].join(',')
  return `::${LEVEL[annotation.annotation_level]} ${props}::${escapeData(annotation.message)}`
}

/** The log's explanation of why there is no check run, and how to get one. */
export function fallbackExplanation(reason: string, fork: boolean): string[] {
  return [
    `Could not post the check run: ${reason}`,
    fork
      ? 'This is a fork PR: its GITHUB_TOKEN is read-only. Gate forks with pull_request_target (safe: Receipt Gate reads receipts through the API and runs no PR code) or the workflow_run two-workflow setup.'
      : "Give the job 'permissions: checks: write' (and contents: read, pull-requests: read).",
    'Annotations follow as workflow commands, the summary is in the job summary, and the step fails if the gate fails.'
  ]
}
