/** Pull request reads: the PR itself (body fresh, never from the payload) and, for `workflow_run`, finding it. */
import { z } from 'zod'
import type { Octokit } from './client.js'

// Read leniently: an odd author or label list is an unknown (no exemption), not a failed read.
const Author = z.object({ login: z.string().min(1) })
const Labels = z.array(z.object({ name: z.string() }))

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
  /** The author's login as REST spells it (`dependabot[bot]`), for `exempt-authors`. */
  author: string | null
  /** Label names (null: not all could be read), for `exempt-labels`. */
  labels: string[] | null
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
    fork: data.head.repo?.full_name !== data.base.repo.full_name,
    author: Author.safeParse(data.user).data?.login ?? null,
    labels: Labels.safeParse(data.labels).data?.map((label) => label.name) ?? null
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
