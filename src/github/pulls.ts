/** Pull request reads: the PR itself (body fresh, never from the payload) and, for `workflow_run`, finding it. */
import type { Octokit } from './client.js'

export interface PullRequestInfo {
  number: number
  /** The head commit the check run goes on. */
  headSha: string
  headRef: string
  baseSha: string
  body: string | null
  changedFiles: number
  /** True when the head lives in another repository (a fork). */
  fork: boolean
}

/** `pulls.get`: the body is read fresh, so `edited` events see the new body. */
export async function getPullRequest(
  octokit: Octokit,
  owner: string,
  repo: string,
  number: number
): Promise<PullRequestInfo> {
  const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: number })
  return {
    number: data.number,
    headSha: data.head.sha,
    headRef: data.head.ref,
    baseSha: data.base.sha,
    body: data.body ?? null,
    changedFiles: data.changed_files,
    fork: data.head.repo?.full_name !== data.base.repo.full_name
  }
}

/** A PR read as a promise of each field, to be awaited where each is needed. */
export type PendingPullRequest = {
  [K in keyof PullRequestInfo]: Promise<PullRequestInfo[K]>
}

/**
 * The fields of a PR read still in flight (issue 7: the receipts are listed beside it).
 * Each is awaited later, after the work it runs beside, so none may count as an
 * unhandled rejection first; a failed read still rejects wherever a field is awaited.
 */
export function pendingFields(pull: Promise<PullRequestInfo>): PendingPullRequest {
  pull.catch(() => undefined)
  const fields: Partial<Record<keyof PullRequestInfo, Promise<unknown>>> = {}
  for (const key of FIELDS) {
    const value = pull.then((pr) => pr[key])
    value.catch(() => undefined)
    fields[key] = value
  }
  return fields as PendingPullRequest
}

// Every field of PullRequestInfo: `satisfies` makes the compiler hold the list to the type.
const FIELDS = Object.keys({
  number: true,
  headSha: true,
  headRef: true,
  baseSha: true,
  body: true,
  changedFiles: true,
  fork: true
} satisfies Record<keyof PullRequestInfo, true>) as (keyof PullRequestInfo)[]

/**
 * Finds the open PR whose head is `headSha`: `workflow_run.pull_requests` is empty for
 * fork PRs, so the PR is looked up among open PRs (filtered by head branch when known).
 */
export async function findPullRequestByHead(
  octokit: Octokit,
  owner: string,
  repo: string,
  head: { sha: string; branch: string | null; owner: string | null }
): Promise<number | null> {
  const filter = head.branch && head.owner ? { head: `${head.owner}:${head.branch}` } : {}
  const pulls = await octokit.paginate(octokit.rest.pulls.list, {
    owner,
    repo,
    state: 'open',
    per_page: 100,
    ...filter
  })
  return pulls.find((pull) => pull.head.sha === head.sha)?.number ?? null
}
