/**
 * Uses the runner's workspace as the receipt source when it already holds the PR head
 * with full history (e.g. `actions/checkout` with `fetch-depth: 0` on `pull_request`):
 * local git plumbing then replaces most API calls. Otherwise — no checkout, a shallow
 * one (the default depth 1), or one without the head — the API source is used, never a
 * decision from a cut history.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { gitSource, mergeBase, openRepository, resolveCommit } from '../source/git.js'
import type { ReceiptSource } from '../gate/source.js'

/** A git source on `workspace`, or null when it cannot answer for `head` faithfully. */
export async function workspaceSource(
  workspace: string | undefined,
  head: string,
  /** The PR's base; a promise is awaited only when the workspace holds a repository. */
  base: string | Promise<string>
): Promise<ReceiptSource | null> {
  if (!workspace || !(await exists(join(workspace, '.git')))) return null
  try {
    const { root: repo, shallow } = await openRepository(workspace)
    if (shallow) return null
    const baseSha = await base
    const [headSha] = await Promise.all([
      resolveCommit(repo, head),
      resolveCommit(repo, baseSha)
    ])
    if (headSha !== head) return null
    return gitSource({ repo, head, mergeBase: await mergeBase(repo, baseSha, head) })
  } catch {
    return null
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}
