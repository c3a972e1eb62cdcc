/**
 * Builders for the JSON objects GitHub returns (users, repositories, pull requests, commits,
 * diff entries, contents, check runs). Every response that leaves the fake is validated against
 * the OpenAPI description, so a builder that drifts from the contract fails the tests.
 */
import type { ChangeStatus, CommitInfo, FileChange, GitIdentity } from './git-backing.js'

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON documents */
type Json = any

export const WEB_URL = 'https://github.com'

/** Stable positive id from a string (FNV-1a), so ids do not change between runs. */
export function stableId(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return (h % 900_000_000) + 100_000_000
}

export const nodeId = (kind: string, id: number | string) =>
  Buffer.from(`${kind}:${id}`).toString('base64').replace(/=+$/, '')

/** `2024-01-01T00:00:00Z` from any ISO date (GitHub prints UTC with second precision). */
export const isoZ = (d: string | Date) =>
  new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z')

export interface RepoRef {
  owner: string
  name: string
  fork: boolean
  private: boolean
  defaultBranch: string
  ownerType?: 'User' | 'Organization'
}

export class GitHubObjects {
  constructor(readonly apiUrl: string) {}

  user(login: string, type: 'User' | 'Organization' | 'Bot' = 'User'): Json {
    // A bot's login (`dependabot[bot]`) is percent-encoded in its URLs, as GitHub does.
    const path = encodeURIComponent(login)
    const api = `${this.apiUrl}/users/${path}`
    const id = stableId(`user:${login}`)
    return {
      login,
      id,
      node_id: nodeId(type === 'Organization' ? 'O' : 'U', id),
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: '',
      url: api,
      html_url: `${WEB_URL}/${path}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type,
      site_admin: false
    }
  }

  repoId(r: RepoRef): number {
    return stableId(`repo:${r.owner}/${r.name}`)
  }

  repoApi(r: RepoRef): string {
    return `${this.apiUrl}/repos/${r.owner}/${r.name}`
  }

  repository(r: RepoRef): Json {
    const api = this.repoApi(r)
    const html = `${WEB_URL}/${r.owner}/${r.name}`
    const id = this.repoId(r)
    const t = '2024-01-01T00:00:00Z'
    return {
      id,
      node_id: nodeId('R', id),
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      owner: this.user(r.owner, r.ownerType ?? 'Organization'),
      private: r.private,
      html_url: html,
      description: null,
      fork: r.fork,
      url: api,
      archive_url: `${api}/{archive_format}{/ref}`,
      assignees_url: `${api}/assignees{/user}`,
      blobs_url: `${api}/git/blobs{/sha}`,
      branches_url: `${api}/branches{/branch}`,
      collaborators_url: `${api}/collaborators{/collaborator}`,
      comments_url: `${api}/comments{/number}`,
      commits_url: `${api}/commits{/sha}`,
      compare_url: `${api}/compare/{base}...{head}`,
      contents_url: `${api}/contents/{+path}`,
      contributors_url: `${api}/contributors`,
      deployments_url: `${api}/deployments`,
      downloads_url: `${api}/downloads`,
      events_url: `${api}/events`,
      forks_url: `${api}/forks`,
      git_commits_url: `${api}/git/commits{/sha}`,
      git_refs_url: `${api}/git/refs{/sha}`,
      git_tags_url: `${api}/git/tags{/sha}`,
      git_url: `git://github.com/${r.owner}/${r.name}.git`,
      issue_comment_url: `${api}/issues/comments{/number}`,
      issue_events_url: `${api}/issues/events{/number}`,
      issues_url: `${api}/issues{/number}`,
      keys_url: `${api}/keys{/key_id}`,
      labels_url: `${api}/labels{/name}`,
      languages_url: `${api}/languages`,
      merges_url: `${api}/merges`,
      milestones_url: `${api}/milestones{/number}`,
      notifications_url: `${api}/notifications{?since,all,participating}`,
      pulls_url: `${api}/pulls{/number}`,
      releases_url: `${api}/releases{/id}`,
      ssh_url: `git@github.com:${r.owner}/${r.name}.git`,
      stargazers_url: `${api}/stargazers`,
      statuses_url: `${api}/statuses/{sha}`,
      subscribers_url: `${api}/subscribers`,
      subscription_url: `${api}/subscription`,
      tags_url: `${api}/tags`,
      teams_url: `${api}/teams`,
      trees_url: `${api}/git/trees{/sha}`,
      clone_url: `${html}.git`,
      mirror_url: null,
      hooks_url: `${api}/hooks`,
      svn_url: html,
      homepage: null,
      language: 'TypeScript',
      forks_count: 0,
      forks: 0,
      stargazers_count: 0,
      watchers_count: 0,
      watchers: 0,
      size: 1,
      default_branch: r.defaultBranch,
      open_issues_count: 0,
      open_issues: 0,
      is_template: false,
      topics: [],
      has_issues: true,
      has_projects: true,
      has_wiki: true,
      has_pages: false,
      has_downloads: true,
      archived: false,
      disabled: false,
      visibility: r.private ? 'private' : 'public',
      pushed_at: t,
      created_at: t,
      updated_at: t,
      allow_forking: true,
      license: null
    }
  }

  gitIdentity(id: GitIdentity): Json {
    return { name: id.name, email: id.email, date: isoZ(id.date) }
  }

  private parents(r: RepoRef, info: CommitInfo): Json[] {
    return info.parents.map((p) => ({
      sha: p,
      url: `${this.repoApi(r)}/commits/${p}`,
      html_url: `${WEB_URL}/${r.owner}/${r.name}/commit/${p}`
    }))
  }

  private verification(): Json {
    return {
      verified: false,
      reason: 'unsigned',
      signature: null,
      payload: null,
      verified_at: null
    }
  }

  /** `commit` schema (repos API). Git identities map to no GitHub account: author is null. */
  commit(
    r: RepoRef,
    info: CommitInfo,
    extra: { files?: Json[]; stats?: Json } = {}
  ): Json {
    const api = this.repoApi(r)
    const out: Json = {
      sha: info.sha,
      node_id: nodeId('C', info.sha),
      commit: {
        author: this.gitIdentity(info.author),
        committer: this.gitIdentity(info.committer),
        message: info.message,
        tree: { sha: info.tree, url: `${api}/git/trees/${info.tree}` },
        url: `${api}/git/commits/${info.sha}`,
        comment_count: 0,
        verification: this.verification()
      },
      url: `${api}/commits/${info.sha}`,
      html_url: `${WEB_URL}/${r.owner}/${r.name}/commit/${info.sha}`,
      comments_url: `${api}/commits/${info.sha}/comments`,
      author: null,
      committer: null,
      parents: this.parents(r, info)
    }
    if (extra.stats) out.stats = extra.stats
    if (extra.files) out.files = extra.files
    return out
  }

  /** `git-commit` schema (git data API). */
  gitCommit(r: RepoRef, info: CommitInfo): Json {
    const api = this.repoApi(r)
    return {
      sha: info.sha,
      node_id: nodeId('C', info.sha),
      url: `${api}/git/commits/${info.sha}`,
      html_url: `${WEB_URL}/${r.owner}/${r.name}/commit/${info.sha}`,
      author: this.gitIdentity(info.author),
      committer: this.gitIdentity(info.committer),
      tree: { sha: info.tree, url: `${api}/git/trees/${info.tree}` },
      message: info.message,
      parents: this.parents(r, info),
      verification: this.verification()
    }
  }

  /**
   * `diff-entry`. GitHub links every entry, whatever its status, at the commit the list was
   * computed at (a PR's list: its head then) — the only head a files list names.
   */
  diffEntry(r: RepoRef, change: FileChange, commit: string): Json {
    const enc = change.filename.split('/').map(encodeURIComponent).join('/')
    const out: Json = {
      sha: change.sha,
      filename: change.filename,
      status: change.status satisfies ChangeStatus,
      additions: change.additions,
      deletions: change.deletions,
      changes: change.additions + change.deletions,
      blob_url: `${WEB_URL}/${r.owner}/${r.name}/blob/${commit}/${enc}`,
      raw_url: `${WEB_URL}/${r.owner}/${r.name}/raw/${commit}/${enc}`,
      contents_url: `${this.repoApi(r)}/contents/${enc}?ref=${commit}`
    }
    if (change.patch !== undefined) out.patch = change.patch
    if (change.previous_filename !== undefined)
      out.previous_filename = change.previous_filename
    return out
  }

  contentLinks(
    r: RepoRef,
    path: string,
    sha: string,
    ref: string,
    kind: 'blob' | 'tree' | 'commit'
  ) {
    const api = this.repoApi(r)
    const enc = path.split('/').map(encodeURIComponent).join('/')
    const self = `${api}/contents/${enc}?ref=${encodeURIComponent(ref)}`
    const git =
      kind === 'commit'
        ? null
        : `${api}/git/${kind === 'tree' ? 'trees' : 'blobs'}/${sha}`
    const html =
      kind === 'commit' ? null : `${WEB_URL}/${r.owner}/${r.name}/${kind}/${ref}/${enc}`
    const download =
      kind === 'blob'
        ? `https://raw.githubusercontent.com/${r.owner}/${r.name}/${ref}/${enc}`
        : null
    return {
      url: self,
      git_url: git,
      html_url: html,
      download_url: download,
      _links: { self, git, html }
    }
  }

  /** `pull-request-simple` (list endpoints). */
  pullRequestSimple(base: RepoRef, pr: PullView): Json {
    const api = this.repoApi(base)
    const url = `${api}/pulls/${pr.number}`
    const html = `${WEB_URL}/${base.owner}/${base.name}/pull/${pr.number}`
    const issue = `${api}/issues/${pr.number}`
    const id = stableId(`pull:${base.owner}/${base.name}#${pr.number}`)
    const side = (s: PullView['head']) => ({
      label: `${s.repo.owner}:${s.ref}`,
      ref: s.ref,
      sha: s.sha,
      user: this.user(s.repo.owner, s.repo.ownerType ?? 'Organization'),
      repo: this.repository(s.repo)
    })
    const link = (href: string) => ({ href })
    return {
      url,
      id,
      node_id: nodeId('PR', id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issue,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${api}/pulls/comments{/number}`,
      comments_url: `${issue}/comments`,
      statuses_url: `${api}/statuses/${pr.head.sha}`,
      number: pr.number,
      state: pr.state,
      locked: false,
      title: pr.title,
      user: this.user(pr.user, pr.user.endsWith('[bot]') ? 'Bot' : 'User'),
      body: pr.body,
      labels: pr.labels.map((name) => ({
        id: stableId(`label:${name}`),
        node_id: nodeId('L', name),
        url: `${api}/labels/${encodeURIComponent(name)}`,
        name,
        description: null,
        color: 'ededed',
        default: false
      })),
      milestone: null,
      active_lock_reason: null,
      created_at: pr.created_at,
      updated_at: pr.updated_at,
      closed_at: pr.closed_at,
      merged_at: pr.merged_at,
      merge_commit_sha: pr.merge_commit_sha,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: side(pr.head),
      base: side(pr.base),
      _links: {
        self: link(url),
        html: link(html),
        issue: link(issue),
        comments: link(`${issue}/comments`),
        review_comments: link(`${url}/comments`),
        review_comment: link(`${api}/pulls/comments{/number}`),
        commits: link(`${url}/commits`),
        statuses: link(`${api}/statuses/${pr.head.sha}`)
      },
      author_association: pr.head.repo.fork ? 'CONTRIBUTOR' : 'MEMBER',
      auto_merge: null,
      draft: pr.draft
    }
  }

  /** `pull-request` (pulls/get). */
  pullRequest(base: RepoRef, pr: PullView, stats: PullStats): Json {
    return {
      ...this.pullRequestSimple(base, pr),
      merged: pr.merged,
      mergeable: pr.mergeable,
      rebaseable: pr.mergeable,
      mergeable_state: pr.mergeable_state,
      merged_by: null,
      comments: 0,
      review_comments: 0,
      maintainer_can_modify: pr.head.repo.fork,
      commits: stats.commits,
      additions: stats.additions,
      deletions: stats.deletions,
      changed_files: stats.changed_files
    }
  }

  /** `pull-request-minimal` (check runs). */
  pullRequestMinimal(base: RepoRef, pr: PullView): Json {
    const side = (s: PullView['head']) => ({
      ref: s.ref,
      sha: s.sha,
      repo: { id: this.repoId(s.repo), url: this.repoApi(s.repo), name: s.repo.name }
    })
    return {
      id: stableId(`pull:${base.owner}/${base.name}#${pr.number}`),
      number: pr.number,
      url: `${this.repoApi(base)}/pulls/${pr.number}`,
      head: side(pr.head),
      base: side(pr.base)
    }
  }

  checkRun(r: RepoRef, run: StoredCheckRunView, pulls: Json[]): Json {
    const url = `${this.repoApi(r)}/check-runs/${run.id}`
    return {
      id: run.id,
      name: run.name,
      node_id: nodeId('CR', run.id),
      head_sha: run.head_sha,
      external_id: run.external_id,
      url,
      html_url: `${WEB_URL}/${r.owner}/${r.name}/runs/${run.id}`,
      details_url: run.details_url,
      status: run.status,
      conclusion: run.conclusion,
      started_at: run.started_at,
      completed_at: run.completed_at,
      output: {
        title: run.output.title,
        summary: run.output.summary,
        text: run.output.text,
        annotations_count: run.annotations.length,
        annotations_url: `${url}/annotations`
      },
      check_suite: { id: run.check_suite_id },
      app: this.app(run.app_id),
      pull_requests: pulls
    }
  }

  app(id: number): Json {
    const isActions = id === GITHUB_ACTIONS_APP_ID
    const slug = isActions ? 'github-actions' : `app-${id}`
    return {
      id,
      slug,
      node_id: nodeId('A', id),
      owner: this.user(isActions ? 'github' : 'app-owner', 'Organization'),
      name: isActions ? 'GitHub Actions' : `App ${id}`,
      description: isActions ? 'Automate your workflow from idea to production' : null,
      external_url: isActions
        ? 'https://help.github.com/en/actions'
        : `https://example.invalid/${slug}`,
      html_url: `${WEB_URL}/apps/${slug}`,
      created_at: '2018-07-30T09:30:17Z',
      updated_at: '2024-04-10T20:33:16Z',
      permissions: {
        checks: 'write',
        contents: 'write',
        metadata: 'read',
        pull_requests: 'write'
      },
      events: ['check_run', 'check_suite', 'pull_request', 'push']
    }
  }

  annotation(r: RepoRef, run: StoredCheckRunView, a: StoredAnnotation): Json {
    const enc = a.path.split('/').map(encodeURIComponent).join('/')
    return {
      path: a.path,
      blob_href: `${WEB_URL}/${r.owner}/${r.name}/blob/${run.head_sha}/${enc}`,
      start_line: a.start_line,
      end_line: a.end_line,
      start_column: a.start_column ?? null,
      end_column: a.end_column ?? null,
      annotation_level: a.annotation_level,
      title: a.title ?? null,
      message: a.message,
      raw_details: a.raw_details ?? null
    }
  }
}

export const GITHUB_ACTIONS_APP_ID = 15368

export interface StoredAnnotation {
  path: string
  start_line: number
  end_line: number
  start_column?: number
  end_column?: number
  annotation_level: 'notice' | 'warning' | 'failure'
  message: string
  title?: string
  raw_details?: string
}

export interface StoredCheckRunView {
  id: number
  name: string
  head_sha: string
  external_id: string | null
  details_url: string | null
  status: string
  conclusion: string | null
  started_at: string | null
  completed_at: string | null
  output: { title: string | null; summary: string | null; text: string | null }
  annotations: StoredAnnotation[]
  check_suite_id: number
  app_id: number
}

export interface PullView {
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  draft: boolean
  merged: boolean
  user: string
  labels: string[]
  head: { ref: string; sha: string; repo: RepoRef }
  base: { ref: string; sha: string; repo: RepoRef }
  created_at: string
  updated_at: string
  closed_at: string | null
  merged_at: string | null
  merge_commit_sha: string | null
  mergeable: boolean | null
  mergeable_state: string
}

export interface PullStats {
  commits: number
  additions: number
  deletions: number
  changed_files: number
}
