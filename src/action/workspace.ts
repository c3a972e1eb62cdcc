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
    // Performance (issue 7): two git processes side by side, not four in a row. The
    // rev-parse answers "full history?" and fails unless both commits are here.
    const [present, mergeBase] = await Promise.all([
      git(
        workspace,
        [
          'rev-parse',
          '--is-shallow-repository',
          `${head}^{commit}`,
          `${baseSha}^{commit}`
        ],
        [0, 128]
      ),
      git(workspace, ['merge-base', baseSha, head], [0, 1, 128])
    ])
    if (present.code !== 0 || present.stdout.toString('utf8').split('\n')[0] !== 'false')
      return null
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
