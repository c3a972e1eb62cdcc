/**
 * The action (docs/contract.md#receipts): context → pull request → receipt source → evaluate → publish →
 * outputs. The only place that sets outputs or fails the step; every decision is made
 * in the pure core, every call to the outside world in an adapter.
 */
import * as core from '@actions/core'
import { context } from '@actions/github'
import { runRepository, timeScaleFrom } from './action/context.js'
import { routeEvent } from './action/event.js'
import { readInputs, type ActionInputs } from './action/inputs.js'
import { logDebug, logUntrustedLines } from './action/log.js'
import { emptyOutputs, reportOutputs, type Outputs } from './action/outputs.js'
import {
  checksFix,
  logReport,
  publishReport,
  writeJobSummary,
  writeReportFile,
  type PublishTarget
} from './action/publish.js'
import { mergeGroupReport, pullNotFoundReport } from './action/special-reports.js'
import { workspaceSource } from './action/workspace.js'
import { deferralSinkPath } from './gate/deferred.js'
import { isJsonObject } from './receipts/json.js'
import { evaluate } from './gate/evaluate.js'
import type { Report } from './gate/report.js'
import { apiSource } from './github/api-source.js'
import { createClient, requestsSent, type Octokit } from './github/client.js'
import type { GraphqlRead } from './github/graphql-source.js'
import {
  findPullRequestByHead,
  pullsSharingHead,
  type PullRequestInfo
} from './github/pulls.js'
import { readPullRequest } from './github/read-pull.js'

/** Runs the action; never throws (a failure fails the step with one clear message). */
export async function run(): Promise<void> {
  try {
    const inputs = readInputs()
    // The payload `@actions/github` parsed when it loaded: an absent or non-object one is empty.
    const payload = isJsonObject(context.payload) ? context.payload : {}
    const route = routeEvent(context.eventName, payload, inputs.pullNumber)
    if (route.kind === 'nothing') {
      core.info(`Receipt Gate: nothing to gate (${route.why}).`)
      return setOutputs(emptyOutputs('neutral'))
    }
    const timeScale = timeScaleFrom(process.env)
    const octokit = createClient({
      token: inputs.token,
      baseUrl: context.apiUrl,
      timeScale,
      onRetry: core.info
    })
    const { owner, repo } = runRepository()
    const to = (headSha: string, fork: boolean): PublishTarget => ({
      octokit,
      owner,
      repo,
      checkName: inputs.checkName,
      headSha,
      externalId: `${context.runId}-${context.runAttempt}`,
      fork,
      timeScale
    })
    if (route.kind === 'merge-group') {
      const published = await publishReport(
        mergeGroupReport(route.headSha),
        to(route.headSha, false)
      )
      return setOutputs(emptyOutputs('success', published))
    }

    // The pull request: named by the event, or found by its head (workflow_run).
    const number =
      route.kind === 'pull'
        ? route.number
        : (route.number ??
          (await findPullRequestByHead(octokit, owner, repo, {
            sha: route.headSha,
            branch: route.headBranch,
            owner: route.headOwner
          })))
    if (number === null && route.kind === 'workflow-run') {
      const report = pullNotFoundReport(route.headSha)
      return await finish(report, inputs.failStep, to(route.headSha, false))
    }
    if (number === null) throw new Error('no pull request to gate')
    // One GraphQL read: the PR, and (the event naming the head) the receipts with it.
    const read = readPull(octokit, inputs, { owner, repo, number }, route)
    const base = read.then((r) => r.pull.baseSha)
    base.catch(() => undefined) // awaited only by a workspace that holds a repository
    // The PR's lists are of its head when read: the event's head's only while it is that.
    const pullHead = read.then((r) => r.pull.headSha)
    pullHead.catch(() => undefined) // awaited only by the API source's lists
    const head = route.headSha ?? (await read).pull.headSha
    // The receipts: from the workspace when it holds the head's history, else the API.
    const workspace = process.env.GITHUB_WORKSPACE
    const local = await workspaceSource(workspace, head, base, logDebug)
    const source =
      local ??
      apiSource({
        octokit,
        owner,
        repo,
        head,
        pullNumber: number,
        changedFiles: read.then((r) => r.pull.changedFiles),
        baseSha: base,
        pullHead
      })
    // The API's REST files list (GraphQL has no patches) needs only the PR's number: asked
    // for now, while the GraphQL read is on its way, not after it.
    if (!local) source.changedFiles().catch(() => undefined)
    const { pull, graphql } = await read
    // The check run goes on the commit, so every open PR on it is judged by this run: the
    // GraphQL read lists them with the PR; else one REST request does.
    const sharing =
      (head === route.headSha ? graphql?.sharing : null) ??
      (await pullsSharingHead(octokit, owner, repo, head, number))
    const report = await evaluate({
      // GraphQL for the receipts, the REST source for the rest (files list, compares).
      source: graphql && !local ? graphql.source(source) : source,
      options: inputs.gate,
      body: pull.body,
      sharing,
      branch: pull.headRef,
      // Its author and labels, as the API gives them, for exempt-authors and exempt-labels.
      pull,
      // Links to the head's lines in the summary.
      repositoryUrl: `${context.serverUrl}/${owner}/${repo}`,
      debug: logDebug
    })
    await finish(report, inputs.failStep, to(head, pull.fork))
  } catch (error) {
    core.setFailed(
      `Receipt Gate: ${error instanceof Error ? error.message : String(error)}`
    )
  }
}

/**
 * The PR, and the GraphQL read of its receipts (one request for the PR, the folder and the
 * deferral file); null where GraphQL fails (refused for the token, an outage, its own rate
 * limit): the REST source then answers the same questions, with more requests.
 */
async function readPull(
  octokit: Octokit,
  inputs: ActionInputs,
  { owner, repo, number }: { owner: string; repo: string; number: number },
  { headSha, headBranch }: { headSha: string | null; headBranch: string | null }
): Promise<{ pull: PullRequestInfo; graphql: GraphqlRead | null }> {
  return readPullRequest(
    {
      octokit,
      owner,
      repo,
      number,
      head: headSha,
      branchSinkPath: headSha && headBranch ? deferralSinkPath(headBranch) : null,
      receiptsDir: inputs.gate.receiptsDir,
      bookkeepingPaths: inputs.gate.bookkeepingPaths,
      debug: logDebug
    },
    (why) => {
      logDebug(`the PR and its receipts through REST, not GraphQL: ${why}`)
      logUntrustedLines([
        `Receipt Gate: the GraphQL read failed (${why}); reading through REST`
      ])
    }
  )
}

/** Publishes, writes the summary and the report, sets outputs, and fails the step when it must. */
async function finish(
  report: Report,
  failStep: boolean,
  to: PublishTarget
): Promise<void> {
  const publishing = publishReport(report, to)
  publishing.catch(() => undefined) // awaited below, once the rest is written
  // The log, the report file and the job summary are written while the check run's
  // create is on its way, not before it leaves.
  await requestsSent(to.octokit)
  logReport(report)
  const [published, reportPath] = await Promise.all([
    publishing,
    writeReportFile(report, to.externalId),
    writeJobSummary(report)
  ])
  setOutputs(reportOutputs(report, published, reportPath))
  const failing =
    report.conclusion === 'failure' || report.conclusion === 'action_required'
  // Without a check run the step's result is the only signal: fail it whatever fail-step
  // says, and name there what to change (publishReport warned of it already on a pass).
  if (failing && published.fallback) {
    core.setFailed(
      `Receipt Gate: ${report.conclusion} (see the job summary); ${checksFix(to.fork, to.checkName)}`
    )
  } else if (failing && failStep) {
    core.setFailed(
      `Receipt Gate: ${report.conclusion} — see the check run ${published.checkRunUrl}`
    )
  }
}

function setOutputs(outputs: Outputs): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value)
}
