/**
 * The runner's workspace as the receipt source when it holds the PR head with full history
 * (`actions/checkout` with `fetch-depth: 0`): git plumbing then replaces most API calls.
 * Otherwise (no checkout, a shallow one, one without the head, a git that refuses it) the
 * API source is used, never a decision from a cut history; `debug` is told why.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  GitError,
  gitSource,
  mergeBase,
  openRepository,
  resolveCommit
} from '../source/git.js'
import { isFullId } from '../gate/review-head.js'
import type { Debug, ReceiptSource } from '../gate/source.js'

/** A git source on `workspace`, or null when it cannot answer for `head` faithfully. */
export async function workspaceSource(
  workspace: string | undefined,
  head: string,
  /** The PR's base; a promise is awaited only when the workspace holds a repository. */
  base: string | Promise<string>,
  debug: Debug = () => undefined
): Promise<ReceiptSource | null> {
  const api = (why: string): null => {
    debug(`receipts through the API, not the workspace: ${why}`)
    return null
  }
  if (!workspace) return api('no workspace (GITHUB_WORKSPACE is not set)')
  if (!existsSync(join(workspace, '.git')))
    return api(`no .git in ${workspace} (no actions/checkout before this step)`)
  try {
    const { root: repo, shallow } = await openRepository(workspace)
    if (shallow) return api('a shallow checkout (actions/checkout needs fetch-depth: 0)')
    // Both reach git as arguments: full object ids only (an event or an answer may hold
    // anything, an option-like `--…` too). A base the workspace lacks fails `merge-base`
    // (not "no merge base"): the API instead.
    const baseSha = await base
    if (!isFullId(head, head) || !isFullId(baseSha, head))
      return api('the head or the base is not a full commit id')
    const [headSha, forkPoint] = await Promise.all([
      resolveCommit(repo, head),
      mergeBase(repo, baseSha, head)
    ])
    if (headSha !== head) return api(`the head ${head} resolves to ${headSha}`)
    debug(`receipts from the workspace ${repo} at ${head}`)
    return gitSource({ repo, head, mergeBase: forkPoint })
  } catch (error) {
    // Only git's refusals (not a repository, a safe.directory refusal, a missing commit)
    // mean "use the API"; anything else is a fault to report, not a fallback.
    if (!(error instanceof GitError)) throw error
    return api(`git: ${error.message}`)
  }
}
