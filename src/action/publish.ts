/**
 * Publishing a report: the check run (or, on 403, the workflow-command fallback), the
 * job summary and the JSON report file. Returns what happened; `main.ts` sets outputs.
 */
import * as core from '@actions/core'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { hintItem } from '../gate/deferred.js'
import { nextStep, reportTitle } from '../gate/outcome.js'
import type { Report, ReportAnnotation } from '../gate/report.js'
import {
  ChecksForbiddenError,
  publishCheckRun,
  type CheckRunInput,
  type Dropped
} from '../github/checks.js'
import type { Octokit } from '../github/client.js'
import { mdInline } from '../render/markdown-escape.js'
import { SUMMARY_LIMITS, renderSummary } from '../render/summary.js'
import { logUntrustedLines } from './log.js'

/**
 * Where a report goes: the check run's own fields, whether the PR comes from a fork, and
 * who hears about it (the action's log unless told otherwise).
 */
export type PublishTarget = Pick<
  CheckRunInput,
  'owner' | 'repo' | 'headSha' | 'externalId' | 'timeScale'
> & { octokit: Octokit; checkName: string; fork: boolean; log?: PublishLog }

/**
 * What publishing tells along the way. The action speaks to the runner (workflow
 * commands, which it executes from stdout); the CLI in plain words on stderr, its stdout
 * being the report.
 */
export interface PublishLog {
  /** A line quoting GitHub's answer: untrusted text. */
  untrusted(line: string): void
  warning(message: string): void
  /** The check run was refused (403): why, what to change, a stand-in where there is one. */
  forbidden(reason: string, fix: string, report: Report): void
}

/** The action's: warnings and the fallback annotations as workflow commands. */
const ACTION_LOG: PublishLog = {
  untrusted: (line) => logUntrustedLines([line]),
  warning: (message) => core.warning(message),
  forbidden(reason, fix, report) {
    core.warning(`Could not post the check run: ${reason}`)
    core.warning(fix)
    core.warning(
      'Annotations follow as workflow commands, the summary is in the job summary, and the step fails if the gate fails.'
    )
    for (const annotation of report.annotations) annotate(annotation)
  }
}

export interface Published {
  checkRunId: string
  checkRunUrl: string
  /** True when the check run could not be posted and workflow commands stood in. */
  fallback: boolean
}

/**
 * Posts the check run. On 403 (a fork PR's read-only token, or no `checks: write`) the log
 * says why, and the annotations follow as workflow commands.
 */
export async function publishReport(
  report: Report,
  { octokit, checkName, fork, log = ACTION_LOG, ...checkRun }: PublishTarget
): Promise<Published> {
  try {
    const run = await publishCheckRun(octokit, {
      ...checkRun,
      name: checkName,
      conclusion: report.conclusion,
      title: reportTitle(report),
      summary: renderSummary(report, SUMMARY_LIMITS.checkRun),
      annotations: report.annotations,
      summaryWithDropped: (dropped) => withDropped(report, dropped),
      // These lines quote GitHub's error message: an API answer is untrusted text too
      // (printed raw, a `##[…]` or `::…` in it would run as a workflow command).
      log: (line) => log.untrusted(line)
    })
    if (run.dropped.length > 0)
      log.warning(
        `${run.dropped.length} annotation(s) were refused by GitHub and are named in the check run summary`
      )
    return { checkRunId: String(run.id), checkRunUrl: run.url, fallback: false }
  } catch (error) {
    if (!(error instanceof ChecksForbiddenError)) throw error
    log.forbidden(error.message, checksFix(fork, checkName), report)
    return { checkRunId: '', checkRunUrl: '', fallback: true }
  }
}

/**
 * Why no check run could be posted and what to change, for the log and the step's error:
 * without the check run, branch protection shows the required check as "Expected — Waiting
 * for status to be reported" for ever, and the step is the only place anyone reads why.
 */
export function checksFix(fork: boolean, checkName: string): string {
  const waits = `no "${checkName}" check run was posted, so branch protection waits for it as "Expected"`
  // pull_request_target is safe here: the action reads receipts as data through the API
  // and never checks out or runs the pull request's code.
  const trigger =
    'run Receipt Gate on pull_request_target (safe: it reads receipts through the API and runs no PR code) or in the workflow_run pair'
  return fork
    ? `${waits}: a fork PR's GITHUB_TOKEN is read-only under pull_request; ${trigger}.`
    : `${waits}: the token cannot write checks. Give the job 'permissions: checks: write' (with contents: read, pull-requests: read); for Dependabot PRs, whose token is read-only like a fork's, ${trigger}.`
}

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

function withDropped(report: Report, dropped: readonly Dropped[]): string {
  const lines = dropped.map(
    (d) =>
      `- ${mdInline(`${d.annotation.path}:${d.annotation.start_line} — ${d.annotation.title}`)} (${mdInline(d.reason)})`
  )
  const note = `\n\n### Annotations GitHub refused (${dropped.length})\n\n${lines.join('\n')}\n`
  return renderSummary(report, SUMMARY_LIMITS.checkRun - Buffer.byteLength(note)) + note
}

/** The job summary (same Markdown, up to 1 MiB); skipped when the runner gives no file. */
export async function writeJobSummary(report: Report): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return
  await core.summary
    .addRaw(renderSummary(report, SUMMARY_LIMITS.jobSummary), true)
    .write()
}

/** Writes the JSON report (docs/contract.md#check-run-and-report) under RUNNER_TEMP (or the OS temp dir); returns its path. */
export async function writeReportFile(report: Report, runId: string): Promise<string> {
  const dir = process.env.RUNNER_TEMP || process.env.TMPDIR || '/tmp'
  const path = join(dir, `receipt-gate-report-${runId || 'local'}.json`)
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`)
  return path
}

/** One readable line per receipt; receipt text only inside a stop-commands block. */
export function logReport(report: Report): void {
  core.info(`Receipt Gate: ${report.conclusion} on ${report.head}`)
  logUntrustedLines([
    reportTitle(report),
    `next: ${nextStep(report)}`,
    ...report.receipts.map(
      (row) =>
        `${row.conclusion.padEnd(15)} ${row.path} — ${row.type ?? '?'} ${row.mode ?? '?'} ${row.verdict ?? '?'} — ${row.reason}`
    ),
    ...report.missing.map((type) => `missing: no current ${type}`),
    ...report.deferred.hints.map(
      (hint) =>
        `deferred, not named in the PR body: ${hintItem(hint)} (${hint.why}); paste: ${hint.paste}`
    )
  ])
}
