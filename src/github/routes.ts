/**
 * The parameters of two reads of the API source: the first page of the PR's files list,
 * and the receipts folder's tree asked for by name.
 */

type Repo = { owner: string; repo: string }

/** The first page of the PR's files list. */
export function filesPageParams(
  base: Repo,
  number: number
): Repo & { pull_number: number; per_page: number } {
  return { ...base, pull_number: number, per_page: 100 }
}

/**
 * The recursive tree of `dir` at `head`, asked for by name (`<commit>:<path>`), or null
 * where the name would mean something else to git than to a walk (a `.` segment).
 */
export function folderTreeParams(
  base: Repo,
  head: string,
  dir: string
): (Repo & { tree_sha: string; recursive: string }) | null {
  if (dir.split('/').some((segment) => segment === '.')) return null
  return { ...base, tree_sha: `${head}:${dir}`, recursive: '1' }
}
