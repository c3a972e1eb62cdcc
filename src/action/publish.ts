/**
 * Publishing a report: the check run (or, on 403, the workflow-command fallback), the
 * job summary and the JSON report file. Returns what happened; `main.ts` sets outputs.
 */
import * as core from '@actions/core'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { hintItem } from '../gate/deferred.js'
import type { Report } from '../gate/report.js'
import { ChecksForbiddenError, publishCheckRun, type Dropped } from '../github/checks.js'
import type { Octokit } from '../github/client.js'
import { mdInline } from '../render/markdown-escape.js'
import { SUMMARY_LIMITS, renderSummary, renderTitle } from '../render/summary.js'
import { annotate, fallbackExplanation } from './fallback.js'
import { logUntrustedLines } from './log.js'

export interface PublishTarget {
  octokit: Octokit
  owner: string
  repo: string
  checkName: string
  headSha: string
  externalId: string
  fork: boolean
  timeScale: number
}

export interface Published {
  checkRunId: string
  checkRunUrl: string
  /** True when the check run could not be posted and workflow commands stood in. */
  fallback: boolean
}

/** Posts the check run, falling back to workflow commands on 403. */
export async function publishReport(
  report: Report,
  target: PublishTarget
): Promise<Published> {
  const summary = renderSummary(report, SUMMARY_LIMITS.checkRun)
  try {
    const run = await publishCheckRun(target.octokit, {
      owner: target.owner,
      repo: target.repo,
      name: target.checkName,
      headSha: target.headSha,
      externalId: target.externalId,
      conclusion: report.conclusion,
      title: renderTitle(report),
      summary,
      annotations: report.annotations,
      summaryWithDropped: (dropped) => withDropped(report, dropped),
      timeScale: target.timeScale,
      // These lines quote GitHub's error message: an API answer is untrusted text too
      // (printed raw, a `##[…]` or `::…` in it would run as a workflow command).
      log: (line) => logUntrustedLines([line])
    })
    if (run.dropped.length > 0)
      core.warning(
        `${run.dropped.length} annotation(s) were refused by GitHub and are named in the check run summary`
      )
    return { checkRunId: String(run.id), checkRunUrl: run.url, fallback: false }
  } catch (error) {
    if (!(error instanceof ChecksForbiddenError)) throw error
    for (const line of fallbackExplanation(error.message, target.fork)) core.warning(line)
    for (const annotation of report.annotations) annotate(annotation)
    return { checkRunId: '', checkRunUrl: '', fallback: true }
  }
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

/** Writes the JSON report (SPEC §8) under RUNNER_TEMP (or the OS temp dir); returns its path. */
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
    renderTitle(report),
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
