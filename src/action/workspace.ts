/**
 * Uses the runner's workspace as the receipt source when it already holds the PR head
 * with full history (e.g. `actions/checkout` with `fetch-depth: 0` on `pull_request`):
 * local git plumbing then replaces most API calls. Otherwise the API source is used.
 */
import { git, gitSource } from '../source/git.js'
import type { ReceiptSource } from '../source/types.js'

/** A git source on `workspace`, or null when it cannot answer for `head` faithfully. */
export async function workspaceSource(
  workspace: string | undefined,
  head: string,
  baseSha: string
): Promise<ReceiptSource | null> {
  if (!workspace) return null
  try {
    const shallow = await git(workspace, ['rev-parse', '--is-shallow-repository'])
    if (shallow.stdout.toString('utf8').trim() !== 'false') return null
    const has = await git(workspace, ['cat-file', '-e', `${head}^{commit}`], [0, 1, 128])
    const hasBase = await git(
      workspace,
      ['cat-file', '-e', `${baseSha}^{commit}`],
      [0, 1, 128]
    )
    if (has.code !== 0 || hasBase.code !== 0) return null
    const mergeBase = await git(workspace, ['merge-base', baseSha, head], [0, 1])
    const sha = mergeBase.stdout.toString('utf8').trim()
    return gitSource({
      repo: workspace,
      head,
      mergeBase: mergeBase.code === 0 && sha ? sha : null
    })
  } catch {
    return null
  }
}
