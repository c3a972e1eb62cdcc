/**
 * Publishing the check run (docs/contract.md#check-run-and-report): created already completed with its conclusion
 * and the first 50 annotations, the rest in sequential PATCH batches of 50 (GitHub
 * appends them). Writes are retried only when it is provable that the first attempt
 * did not land: a create is looked up by `external_id` first, a PATCH by the run's
 * annotation count. A batch answered 422 is split until the rejected annotations are
 * isolated; the rest are posted and the dropped ones named in the summary.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Conclusion } from '../gate/gate.js'
import type { ReportAnnotation } from '../gate/report.js'
import {
  MAX_RETRIES,
  attemptTimeoutMs,
  backoff,
  statusOf,
  transient,
  type Octokit
} from './client.js'

/** Annotations a check-run write carries at most. */
const PER_REQUEST = 50

export interface CheckRunInput {
  owner: string
  repo: string
  name: string
  headSha: string
  externalId: string
  conclusion: Conclusion
  title: string
  summary: string
  annotations: readonly ReportAnnotation[]
  /** Re-renders the summary once some annotations were dropped (named in it). */
  summaryWithDropped: (dropped: readonly Dropped[]) => string
  timeScale: number
  log: (line: string) => void
}

export interface Dropped {
  annotation: ReportAnnotation
  reason: string
}

type Posted = { posted: number; dropped: Dropped[] }

export interface PublishedCheckRun extends Posted {
  id: number
  url: string
}

/** Raised on 403 without a rate limit: no `checks: write` (fork PRs). The caller falls back. */
export class ChecksForbiddenError extends Error {}

/** Creates the completed check run and posts every annotation. */
export async function publishCheckRun(
  octokit: Octokit,
  input: CheckRunInput
): Promise<PublishedCheckRun> {
  const { annotations } = input
  const created = await createOnce(octokit, input, annotations.slice(0, PER_REQUEST))
  let done: Posted = created
  for (let at = PER_REQUEST; at < annotations.length; at += PER_REQUEST) {
    const batch = annotations.slice(at, at + PER_REQUEST)
    done = await postBatch(octokit, input, created.id, batch, done)
  }
  if (done.dropped.length > 0)
    await update(octokit, input, created.id, {
      summary: input.summaryWithDropped(done.dropped)
    })
  return { id: created.id, url: created.url, ...done }
}

/** Maps the 403 GitHub gives a token without `checks: write` to {@link ChecksForbiddenError}. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (statusOf(error) === 403 && !/rate limit/i.test((error as Error).message))
      throw new ChecksForbiddenError((error as Error).message)
    throw error
  }
}

/** PATCHes the run's output: its title and summary, and `annotations` when given. */
async function update(
  octokit: Octokit,
  input: CheckRunInput,
  id: number,
  output: { summary?: string; annotations?: ReportAnnotation[] }
): Promise<void> {
  await guarded(async () =>
    octokit.rest.checks.update({
      owner: input.owner,
      repo: input.repo,
      check_run_id: id,
      output: { title: input.title, summary: input.summary, ...output }
    })
  )
}

interface Write<T> {
  send: () => Promise<T>
  /** The write's effect, where it landed (null: not found). */
  find: () => Promise<T | null>
  /** Answers a 422 (the annotations refused); without it, a 422 is thrown. */
  refused?: (error: Error) => Promise<T>
  /** What the write does, to log its retries. */
  what?: string
}

/**
 * Sends a write, and after a transient failure looks for its effect before sending it
 * again (up to {@link MAX_RETRIES} times): a write whose answer was lost may have landed,
 * and re-sending it posted a second check run or the same annotations twice.
 */
async function writeOnce<T>(input: CheckRunInput, write: Write<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write.send()
    } catch (error) {
      const code = statusOf(error)
      if (code === 422 && write.refused) return write.refused(error as Error)
      if (code === null || !transient(code) || attempt >= MAX_RETRIES) throw error
      if (write.what)
        input.log(
          `${write.what} failed (${(error as Error).message}); looking for it before retrying`
        )
      // Unanswered (timeout, reset), the write may land late: keep looking (with backoff)
      // for one request timeout, longer than GitHub spends on a request. Else one look.
      const deadline =
        Date.now() + (code === undefined ? attemptTimeoutMs(input.timeScale) : 0)
      for (let look = 0; ; look++) {
        const found = await write.find()
        if (found !== null) return found
        const left = deadline - Date.now()
        if (left <= 0) break
        await sleep(Math.min(backoff(look) * input.timeScale, left))
      }
      await sleep(backoff(attempt) * input.timeScale)
    }
  }
}

/** POSTs the run, looked up by `external_id` after a transient failure. */
async function createOnce(
  octokit: Octokit,
  input: CheckRunInput,
  first: readonly ReportAnnotation[]
): Promise<PublishedCheckRun> {
  return writeOnce(input, {
    what: 'creating the check run',
    send: async () => {
      const { data } = await guarded(async () =>
        octokit.rest.checks.create({
          owner: input.owner,
          repo: input.repo,
          name: input.name,
          head_sha: input.headSha,
          external_id: input.externalId,
          status: 'completed',
          conclusion: input.conclusion,
          completed_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
          output: { title: input.title, summary: input.summary, annotations: [...first] }
        })
      )
      return { id: data.id, url: data.html_url ?? '', posted: first.length, dropped: [] }
    },
    find: async () => {
      const { data } = await octokit.rest.checks.listForRef({
        owner: input.owner,
        repo: input.repo,
        ref: input.headSha,
        check_name: input.name,
        filter: 'all',
        per_page: 100
      })
      const run = data.check_runs.find((c) => c.external_id === input.externalId)
      if (!run) return null
      const posted = Math.min(first.length, run.output.annotations_count)
      return { id: run.id, url: run.html_url ?? '', posted, dropped: [] }
    },
    // The annotations were refused: create without them, then isolate the bad ones.
    refused:
      first.length > 0
        ? async () => {
            const created = await createOnce(octokit, input, [])
            return {
              ...created,
              ...(await postBatch(octokit, input, created.id, first, created))
            }
          }
        : undefined
  })
}

/** PATCHes one batch after `before` (the annotations the run holds, those dropped so far). */
async function postBatch(
  octokit: Octokit,
  input: CheckRunInput,
  id: number,
  batch: readonly ReportAnnotation[],
  before: Posted,
  probed = false
): Promise<Posted> {
  if (batch.length === 0) return before
  const posted = before.posted + batch.length
  const done = (): Posted => ({ posted, dropped: before.dropped })
  return writeOnce(input, {
    send: async () => {
      await update(octokit, input, id, { annotations: [...batch] })
      return done()
    },
    // Annotations append: a PATCH that landed behind a 502 must not be sent twice.
    find: async () => {
      const { data } = await octokit.rest.checks.get({
        owner: input.owner,
        repo: input.repo,
        check_run_id: id
      })
      return data.output.annotations_count >= posted ? done() : null
    },
    // Split in halves until each refused annotation stands alone. A 422 may come from the
    // output itself, not the annotations: one PATCH without them tells, before splitting.
    refused: async (error) => {
      if (batch.length > 1 && !probed) await update(octokit, input, id, {})
      const [only] = batch
      if (batch.length === 1 && only) {
        const dropped = { annotation: only, reason: error.message }
        return { posted: before.posted, dropped: [...before.dropped, dropped] }
      }
      const half = Math.ceil(batch.length / 2)
      const left = await postBatch(octokit, input, id, batch.slice(0, half), before, true)
      return postBatch(octokit, input, id, batch.slice(half), left, true)
    }
  })
}
