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
