/**
 * Publishing the check run (SPEC §5): created already completed with its conclusion
 * and the first 50 annotations, the rest in sequential PATCH batches of 50 (GitHub
 * appends them). Writes are retried only when it is provable that the first attempt
 * did not land: a create is looked up by `external_id` first, a PATCH by the run's
 * annotation count. A batch answered 422 is split until the rejected annotations are
 * isolated; the rest are posted and the dropped ones named in the summary.
 */
import type { Conclusion } from '../gate/gate.js'
import type { ReportAnnotation } from '../gate/report.js'
import {
  GitHubError,
  MAX_RETRIES,
  attemptTimeoutMs,
  backoff,
  isPermissionDenied,
  sleep,
  type Octokit
} from './client.js'

export const ANNOTATIONS_PER_REQUEST = 50

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

export interface PublishedCheckRun {
  id: number
  url: string
  posted: number
  dropped: Dropped[]
}

/** Raised on 403 without a rate limit: no `checks: write` (fork PRs). The caller falls back. */
export class ChecksForbiddenError extends Error {}

/** Creates the completed check run and posts every annotation. */
export async function publishCheckRun(
  octokit: Octokit,
  input: CheckRunInput
): Promise<PublishedCheckRun> {
  const first = input.annotations.slice(0, ANNOTATIONS_PER_REQUEST)
  const created = await createOnce(octokit, input, first)
  let posted = created.posted
  const dropped: Dropped[] = [...created.dropped]
  for (
    let at = ANNOTATIONS_PER_REQUEST;
    at < input.annotations.length;
    at += ANNOTATIONS_PER_REQUEST
  ) {
    const batch = input.annotations.slice(at, at + ANNOTATIONS_PER_REQUEST)
    const result = await postBatch(octokit, input, created.id, batch, posted)
    posted = result.posted
    dropped.push(...result.dropped)
  }
  if (dropped.length > 0) {
    await guarded(async () =>
      octokit.rest.checks.update({
        owner: input.owner,
        repo: input.repo,
        check_run_id: created.id,
        output: { title: input.title, summary: input.summaryWithDropped(dropped) }
      })
    )
  }
  return { id: created.id, url: created.url, posted, dropped }
}

/** Maps a 403 permission answer to {@link ChecksForbiddenError}. */
async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (isPermissionDenied(error))
      throw new ChecksForbiddenError((error as Error).message)
    throw error
  }
}

/**
 * A write whose answer never came (timeout, reset) may still be in flight: GitHub can
 * apply it after we gave up. Re-sending at once posted a second check run (or the same
 * annotations twice) when the first attempt landed late.
 */
function unanswered(error: unknown): boolean {
  return error instanceof GitHubError && error.status === undefined
}

/**
 * Looks for a write's effect with `find`; after an unanswered write, keeps looking (with
 * backoff) for one request timeout — longer than GitHub spends on a request — before
 * concluding it did not land. After an answered failure one look is enough.
 */
async function landed<T>(
  find: () => Promise<T | null>,
  error: unknown,
  timeScale: number
): Promise<T | null> {
  const deadline = Date.now() + (unanswered(error) ? attemptTimeoutMs(timeScale) : 0)
  for (let attempt = 0; ; attempt++) {
    const found = await find()
    const left = deadline - Date.now()
    if (found !== null || left <= 0) return found
    await sleep(Math.min(backoff(attempt) * timeScale, left))
  }
}

function transient(error: unknown): boolean {
  return (
    error instanceof GitHubError && (error.status === undefined || error.status >= 500)
  )
}

/** POST the run; on a transient failure, find it by external_id before trying again. */
async function createOnce(
  octokit: Octokit,
  input: CheckRunInput,
  first: readonly ReportAnnotation[]
): Promise<{ id: number; url: string; posted: number; dropped: Dropped[] }> {
  for (let attempt = 0; ; attempt++) {
    try {
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
    } catch (error) {
      if (isUnprocessable(error) && first.length > 0) {
        // The annotations were refused: create without them, then isolate the bad ones.
        const created = await createOnce(octokit, input, [])
        const result = await postBatch(octokit, input, created.id, first, 0)
        return { ...created, posted: result.posted, dropped: result.dropped }
      }
      if (!transient(error) || attempt >= MAX_RETRIES) throw error
      input.log(
        `creating the check run failed (${(error as Error).message}); looking for it before retrying`
      )
      const existing = await landed(
        async () => findByExternalId(octokit, input),
        error,
        input.timeScale
      )
      if (existing)
        return {
          ...existing,
          posted: Math.min(first.length, existing.annotations),
          dropped: []
        }
      await sleep(backoff(attempt) * input.timeScale)
    }
  }
}

async function findByExternalId(
  octokit: Octokit,
  input: CheckRunInput
): Promise<{ id: number; url: string; annotations: number } | null> {
  const { data } = await octokit.rest.checks.listForRef({
    owner: input.owner,
    repo: input.repo,
    ref: input.headSha,
    check_name: input.name,
    filter: 'all',
    per_page: 100
  })
  const run = data.check_runs.find(
    (candidate) => candidate.external_id === input.externalId
  )
  return run
    ? { id: run.id, url: run.html_url ?? '', annotations: run.output.annotations_count }
    : null
}

function isUnprocessable(error: unknown): boolean {
  return error instanceof GitHubError && error.status === 422
}

/** PATCHes one batch; `before` is how many annotations the run holds already. */
async function postBatch(
  octokit: Octokit,
  input: CheckRunInput,
  id: number,
  batch: readonly ReportAnnotation[],
  before: number,
  probed = false
): Promise<{ posted: number; dropped: Dropped[] }> {
  if (batch.length === 0) return { posted: before, dropped: [] }
  for (let attempt = 0; ; attempt++) {
    try {
      await guarded(async () =>
        octokit.rest.checks.update({
          owner: input.owner,
          repo: input.repo,
          check_run_id: id,
          output: { title: input.title, summary: input.summary, annotations: [...batch] }
        })
      )
      return { posted: before + batch.length, dropped: [] }
    } catch (error) {
      if (isUnprocessable(error)) {
        if (batch.length > 1 && !probed) await probeWithoutAnnotations(octokit, input, id)
        return isolate(octokit, input, id, batch, before, (error as Error).message)
      }
      if (!transient(error) || attempt >= MAX_RETRIES) throw error
      // Annotations append: a PATCH that landed behind a 502 must not be sent twice.
      const done = await landed(
        async () => {
          const { data } = await octokit.rest.checks.get({
            owner: input.owner,
            repo: input.repo,
            check_run_id: id
          })
          return data.output.annotations_count >= before + batch.length ? true : null
        },
        error,
        input.timeScale
      )
      if (done) return { posted: before + batch.length, dropped: [] }
      await sleep(backoff(attempt) * input.timeScale)
    }
  }
}

/**
 * A 422 may come from the output itself, not the annotations: then no batch can ever
 * pass, and splitting would only multiply requests. One PATCH without annotations tells.
 */
async function probeWithoutAnnotations(
  octokit: Octokit,
  input: CheckRunInput,
  id: number
): Promise<void> {
  await guarded(async () =>
    octokit.rest.checks.update({
      owner: input.owner,
      repo: input.repo,
      check_run_id: id,
      output: { title: input.title, summary: input.summary }
    })
  )
}

/** Splits a refused batch in halves until each refused annotation stands alone. */
async function isolate(
  octokit: Octokit,
  input: CheckRunInput,
  id: number,
  batch: readonly ReportAnnotation[],
  before: number,
  reason: string
): Promise<{ posted: number; dropped: Dropped[] }> {
  if (batch.length === 1)
    return {
      posted: before,
      dropped: [{ annotation: batch[0] as ReportAnnotation, reason }]
    }
  const half = Math.ceil(batch.length / 2)
  const left = await postBatch(octokit, input, id, batch.slice(0, half), before, true)
  const right = await postBatch(octokit, input, id, batch.slice(half), left.posted, true)
  return { posted: right.posted, dropped: [...left.dropped, ...right.dropped] }
}
