/**
 * The runner's workspace as the receipt source when it holds the PR head with full history
 * (`actions/checkout` with `fetch-depth: 0`): git plumbing then replaces most API calls.
 * Otherwise (no checkout, a shallow one, one without the head) the API source is used,
 * never a decision from a cut history.
 */
import { existsSync } from 'node:fs'
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
  if (!workspace || !existsSync(join(workspace, '.git'))) return null
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
