/**
 * The action: inputs → event → pull request → receipts → gate → check run, summary,
 * outputs. The only place that sets outputs or fails the step; every decision is made
 * in the pure core, every call to the outside world in an adapter.
 */
// The toolkit's commands, without the toolkit (issue 7: it loads undici at import).
import * as core from './action/commands.js'
import { maskToken, type ActionInputs } from './action/inputs.js'
import type { RunContext } from './action/context.js'
import { emptyOutputs, reportOutputs, type Outputs } from './action/outputs.js'
import {
  logReport,
  publishReport,
  writeJobSummary,
  writeReportFile,
  type PublishTarget
} from './action/publish.js'
import { readStart, type RunStart } from './action/quick.js'
import { mergeGroupReport, pullNotFoundReport } from './action/special-reports.js'
import { workspaceSource } from './action/workspace.js'
import { evaluate } from './gate/evaluate.js'
import type { Report } from './gate/report.js'
import { apiSource } from './github/api-source.js'
import { createClient, type Octokit } from './github/client.js'
import type { EarlyReads } from './github/http.js'
import { findPullRequestByHead, getPullRequest, pendingFields } from './github/pulls.js'

/**
 * Runs the action; never throws (failures fail the step with one clear message).
 * `start`: what the light entry read (null: read here, where a bad input fails the step);
 * `early`: the reads it started before this module loaded (`prefetch.ts`).
 */
export async function run(
  start: RunStart | null = null,
  early: EarlyReads | null = null
): Promise<void> {
  try {
    const { inputs, context, route } = start ?? readStart()
    // Before any output; the light entry has sent its early reads by now (see maskToken).
    maskToken(inputs)
    if (route.kind === 'nothing') {
      core.info(`Receipt Gate: nothing to gate (${route.why}).`)
      return setOutputs(emptyOutputs('neutral'))
    }
    const octokit = createClient({
      token: inputs.token,
      baseUrl: context.apiUrl,
      early: early ?? undefined,
      timeScale: context.timeScale,
      onRetry: (line) => core.info(line)
    })
    if (route.kind === 'merge-group') {
      const published = await publishReport(
        mergeGroupReport(route.headSha),
        target(octokit, inputs, context, route.headSha, false)
      )
      return setOutputs(emptyOutputs('success', published))
    }
    const number =
      route.kind === 'pull'
        ? route.number
        : (route.number ??
          (await findPullRequestByHead(octokit, context.owner, context.repo, {
            sha: route.headSha,
            branch: route.headBranch,
            owner: route.headOwner
          })))
    if (number === null && route.kind === 'workflow-run') {
      const report = pullNotFoundReport(
        route.headSha,
        'no open pull request has this head (workflow_run.pull_requests is empty for forks; set pull-number)'
      )
      return await finish(
        report,
        inputs,
        context,
        target(octokit, inputs, context, route.headSha, false)
      )
    }
    if (number === null) throw new Error('no pull request to gate')
    // Performance (issue 7): when the event names the head, the receipts are listed
    // while the PR is read (a round trip less); its fields are awaited where needed.
    const pr = pendingFields(getPullRequest(octokit, context.owner, context.repo, number))
    const head = route.headSha ?? (await pr.headSha)
    const source =
      (await workspaceSource(context.workspace, head, pr.baseSha)) ??
      apiSource({
        octokit,
        owner: context.owner,
        repo: context.repo,
        head,
        pullNumber: number,
        changedFiles: pr.changedFiles
      })
    const report = await evaluate({
      source,
      options: inputs.gate,
      body: pr.body,
      branch: pr.headRef,
      // Links to the head's lines in the summary (issue 25).
      repositoryUrl: `${process.env.GITHUB_SERVER_URL || 'https://github.com'}/${context.owner}/${context.repo}`
    })
    const fork = await pr.fork
    await finish(report, inputs, context, target(octokit, inputs, context, head, fork))
  } catch (error) {
    core.setFailed(
      `Receipt Gate: ${error instanceof Error ? error.message : String(error)}`
    )
  }
}

/** Publishes, writes the summary and the report, sets outputs, and fails the step when it must. */
async function finish(
  report: Report,
  inputs: ActionInputs,
  context: RunContext,
  to: PublishTarget
): Promise<void> {
  logReport(report)
  // The job summary and the JSON report need nothing from the check run: they are
  // rendered and written while its writes are on the wire (issue 7). In macrotasks, not
  // microtasks: a microtask would run before the create's bytes reach the socket and
  // hold them back for the whole rendering (30–40 ms of a run on a 2-core runner); and
  // between each buffer written, an answer that came in is handled and its next batch
  // sent.
  const [published, reportPath] = await Promise.all([
    publishReport(report, to),
    nextMacrotask().then(async () => {
      const path = await writeReportFile(
        report,
        `${context.runId}-${context.runAttempt}`,
        nextMacrotask
      )
      await nextMacrotask()
      await writeJobSummary(report, nextMacrotask)
      return path
    })
  ])
  setOutputs(reportOutputs(report, published, reportPath))
  const failing =
    report.conclusion === 'failure' || report.conclusion === 'action_required'
  // Without a check run the step's result is the only signal: fail it whatever fail-step says.
  if (failing && (inputs.failStep || published.fallback)) {
    core.setFailed(
      `Receipt Gate: ${report.conclusion} — see the ${published.fallback ? 'job summary' : `check run ${published.checkRunUrl}`}`
    )
  }
}

function target(
  octokit: Octokit,
  inputs: ActionInputs,
  context: RunContext,
  headSha: string,
  fork: boolean
): PublishTarget {
  return {
    octokit,
    owner: context.owner,
    repo: context.repo,
    checkName: inputs.checkName,
    headSha,
    externalId: `${context.runId}-${context.runAttempt}`,
    fork,
    timeScale: context.timeScale
  }
}

async function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

function setOutputs(outputs: Outputs): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value)
}
