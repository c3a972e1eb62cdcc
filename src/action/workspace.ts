/**
 * Uses the runner's workspace as the receipt source when it already holds the PR head
 * with full history (e.g. `actions/checkout` with `fetch-depth: 0` on `pull_request`):
 * local git plumbing then replaces most API calls. Otherwise the API source is used.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ObjectReader, git, gitSource, mergeBase, resolveCommit } from '../source/git.js'
import type { ReceiptSource } from '../source/types.js'

/** A git source on `workspace`, or null when it cannot answer for `head` faithfully. */
export async function workspaceSource(
  workspace: string | undefined,
  head: string,
  /** The PR's base; a promise is awaited only when the workspace holds a full history. */
  base: string | Promise<string>
): Promise<ReceiptSource | null> {
  if (!workspace) return null
  // Performance (issue 7): the usual answers come from the file system, without a
  // process: no checkout (pull_request_target), or a shallow one (the default depth 1).
  const history = await fullHistory(workspace)
  if (history === false) return null
  const baseSha = await base
  const objects = new ObjectReader(workspace)
  try {
    const [present, forkPoint, shallow] = await Promise.all([
      Promise.all([resolveCommit(objects, head), resolveCommit(objects, baseSha)]).then(
        () => true,
        () => false
      ),
      // A merge base git cannot find (an object missing) is none: the source says so.
      mergeBase(workspace, objects, baseSha, head).catch(() => null),
      history === 'ask-git'
        ? git(workspace, ['rev-parse', '--is-shallow-repository']).then(
            ({ stdout }) => stdout.toString('utf8').trim() !== 'false'
          )
        : false
    ])
    if (!present || shallow) {
      objects.close()
      return null
    }
    // The reader's process exits when node does; it never keeps the step alive.
    return gitSource({ repo: workspace, objects, head, mergeBase: forkPoint })
  } catch {
    objects.close()
    return null
  }
}

/**
 * false when `workspace` has no repository or a shallow one; 'ask-git' when `.git` is
 * not a plain folder (a linked work tree, a submodule): then git is asked.
 */
async function fullHistory(workspace: string): Promise<boolean | 'ask-git'> {
  try {
    const dotGit = await stat(join(workspace, '.git'))
    if (!dotGit.isDirectory()) return 'ask-git'
  } catch {
    return false
  }
  try {
    await stat(join(workspace, '.git', 'shallow'))
    return false
  } catch {
    return true
  }
}
