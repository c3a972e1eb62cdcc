/**
 * The runner's workspace as the receipt source when it holds the PR head with full history
 * (`actions/checkout` with `fetch-depth: 0`): git plumbing then replaces most API calls.
 * Otherwise (no checkout, a shallow one, one without the head) the API source is used,
 * never a decision from a cut history.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { gitSource, mergeBase, openRepository, resolveCommit } from '../source/git.js'
import { isFullId } from '../gate/review-head.js'
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
    // Both reach git as arguments: full object ids only (an event or an answer may hold
    // anything, an option-like `--…` too). A base the workspace lacks fails `merge-base`
    // (not "no merge base"): the API instead.
    const baseSha = await base
    if (!isFullId(head, head) || !isFullId(baseSha, head)) return null
    const [headSha, forkPoint] = await Promise.all([
      resolveCommit(repo, head),
      mergeBase(repo, baseSha, head)
    ])
    return headSha === head ? gitSource({ repo, head, mergeBase: forkPoint }) : null
  } catch {
    return null
  }
}
