/**
 * The fallback when the check run cannot be posted (403: a fork PR's read-only token, or
 * no `checks: write`): the annotations as the toolkit's workflow-command annotations.
 */
import * as core from '@actions/core'
import type { ReportAnnotation } from '../gate/report.js'

const LEVEL = { failure: 'error', warning: 'warning', notice: 'notice' } as const

/** One `::error file=…,line=…::message` (or warning, notice) per annotation; the toolkit escapes it. */
export function annotate(annotation: ReportAnnotation): void {
  core[LEVEL[annotation.annotation_level]](annotation.message, {
    title: annotation.title,
    file: annotation.path,
    startLine: annotation.start_line,
    endLine: annotation.end_line
  })
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
