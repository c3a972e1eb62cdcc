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
  /** The description: "" when it is empty (REST answers null, GraphQL ""), audited all the same. */
  body: string
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
    body: data.body ?? '',
    changedFiles: data.changed_files,
    fork: data.head.repo?.full_name !== data.base.repo.full_name,
    author: Author.safeParse(data.user).data?.login ?? null,
    labels: Labels.safeParse(data.labels).data?.map((label) => label.name) ?? null
  }
}

/** Another open PR whose head is the judged commit: the check run posted there is its too. */
export interface SharingPull {
  number: number
  body: string
}

/**
 * The other open PRs whose head is `head` (`commits/{sha}/pulls`, one page of 100 unless
 * more PRs hold the commit), with their bodies; `number` is the PR being judged.
 */
export async function pullsSharingHead(
  octokit: Octokit,
  owner: string,
  repo: string,
  head: string,
  number: number
): Promise<SharingPull[]> {
  const pulls = await octokit.paginate(
    octokit.rest.repos.listPullRequestsAssociatedWithCommit,
    { owner, repo, commit_sha: head, per_page: 100 }
  )
  return sharingOnly(
    pulls.map((pull) => ({
      number: pull.number,
      open: pull.state === 'open',
      head: pull.head.sha,
      body: pull.body
    })),
    head,
    number
  )
}

/** Of the PRs holding a commit, the other open ones whose head it is; an empty body is "". */
export function sharingOnly(
  pulls: readonly { number: number; open: boolean; head: string; body: string | null }[],
  head: string,
  number: number
): SharingPull[] {
  return pulls
    .filter(
      (pull) =>
        pull.open &&
        pull.number !== number &&
        pull.head.toLowerCase() === head.toLowerCase()
    )
    .map((pull) => ({ number: pull.number, body: pull.body ?? '' }))
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
