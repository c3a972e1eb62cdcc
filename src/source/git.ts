/**
 * The receipt source on a local git repository, through plumbing only: objects at the
 * head commit (never the working tree) through one long-lived `cat-file` process
 * (`git-objects.ts`), trees listed and compared in process (`git-trees.ts`), and git
 * processes only for what needs git's commit-graph walks (`merge-base` when the base is
 * not an ancestor of the head, and `rev-list` when the history after a review is not a
 * straight line).
 */
import { readFile, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { childProcess } from './child-process.js'
import { GIT_ENV, GitError, ObjectReader, firstLine, isNotFound } from './git-objects.js'
import { TreeReader, linearDistance, reachesWithin } from './git-trees.js'
import {
  FILE_READ_CAP,
  notAFile,
  overFileCap,
  type Ancestry,
  type ReceiptCommit,
  type ReceiptSource
} from './types.js'

export { GitError, ObjectReader } from './git-objects.js'

/** Commits walked through the reader before a merge base is left to `git merge-base`. */
const MERGE_BASE_WALK = 32

/**
 * `git merge-base base head`: the merge base, or null when the two have none; rejects
 * with {@link GitError} when git cannot answer (an object missing). Without a process
 * when `base` is an ancestor of `head` a short walk away (then the merge base is `base`
 * itself): a pull request whose branch is up to date with its base.
 */
export async function mergeBase(
  repo: string,
  objects: ObjectReader,
  base: string,
  head: string
): Promise<string | null> {
  if (await reachesWithin(new TreeReader(objects, head), head, base, MERGE_BASE_WALK))
    return base
  const found = await git(repo, ['merge-base', base, head], [0, 1])
  const sha = found.stdout.toString('utf8').trim()
  return found.code === 0 && sha !== '' ? sha : null
}

/** Runs git in `repo`; resolves stdout (bytes), or rejects with {@link GitError}. */
export async function git(
  repo: string,
  args: readonly string[],
  okCodes: readonly number[] = [0]
): Promise<{ code: number; stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    childProcess().execFile(
      'git',
      ['-C', repo, '-c', 'core.quotepath=off', '--literal-pathspecs', ...args],
      { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, env: GIT_ENV },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        if (okCodes.includes(code)) resolve({ code, stdout })
        else
          reject(
            new GitError(
              firstLine(stderr.toString('utf8')) ||
                (error?.message ?? `git ${args[0]} failed`)
            )
          )
      }
    )
  })
}

async function gitText(repo: string, args: readonly string[]): Promise<string> {
  return (await git(repo, args)).stdout.toString('utf8').trim()
}

/**
 * Resolves a revision to a full commit SHA through the reader (no process of its own);
 * a clear error when it does not name one.
 */
export async function resolveCommit(objects: ObjectReader, rev: string): Promise<string> {
  const found = await objects.info(`${rev}^{commit}`)
  if (isNotFound(found)) throw new GitError(`unknown revision ${JSON.stringify(rev)}`)
  return found.oid
}

/** Checks `repo` is a git repository, with git's own message turned into one line. */
export async function assertRepository(repo: string): Promise<void> {
  try {
    await git(repo, ['rev-parse', '--git-dir'])
  } catch {
    throw new GitError(`not a git repository: ${repo}`)
  }
}

/**
 * The branch HEAD points at, read from the repository's `HEAD` file (no process): a
 * name, null when HEAD is detached, undefined when only git can tell (a linked work
 * tree's layout git would resolve differently, a HEAD outside `refs/heads/`).
 */
export async function headBranch(repo: string): Promise<string | null | undefined> {
  try {
    const dotGit = join(repo, '.git')
    let gitDir = dotGit
    if (!(await stat(dotGit)).isDirectory()) {
      const pointer = /^gitdir: (.+?)\r?\n?$/.exec(await readFile(dotGit, 'utf8'))
      if (pointer === null) return undefined
      const target = pointer[1] as string
      gitDir = isAbsolute(target) ? target : resolve(dirname(dotGit), target)
    }
    const head = await readFile(join(gitDir, 'HEAD'), 'utf8')
    const ref = /^ref: refs\/heads\/(.+)\n?$/.exec(head)
    if (ref !== null) return ref[1]
    return /^[0-9a-f]{40,64}\n?$/.test(head) ? null : undefined
  } catch {
    return undefined
  }
}

/** Receipt text is hostile: only a hex SHA is ever handed to git, never a ref or an option. */
const SHA_LIKE = /^[0-9a-f]{4,64}$/i

const BLOB_MISSING: Record<string, string> = {
  ambiguous: 'ambiguous object name',
  'too large': 'larger than git objects are read here (64 MiB)'
}

/** Past this many commits after a review, `rev-list` counts (it has the commit graph). */
const LINEAR_WALK_CAP = 100

export interface GitSourceOptions {
  repo: string
  /** The reader every object question goes through; the caller closes it. */
  objects: ObjectReader
  head: string
  /** The merge base of the PR's base and the head, or null when selection does not need it. */
  mergeBase: string | null
}

/** A {@link ReceiptSource} over a local repository at a resolved head commit. */
export function gitSource({
  repo,
  objects,
  head,
  mergeBase
}: GitSourceOptions): ReceiptSource {
  const trees = new TreeReader(objects, head)
  const readBlob = async (name: string): Promise<Uint8Array | string> => {
    const found = await objects.read(name)
    if (isNotFound(found)) return BLOB_MISSING[found.missing] ?? 'no such object'
    return found.content
  }
  return {
    head,
    async listTree(dir: string) {
      return { entries: await trees.listRecursive(head, dir), truncated: false }
    },
    async readBlobs(shas) {
      const contents = await Promise.all(shas.map(readBlob))
      return new Map(shas.map((sha, i) => [sha, contents[i] as Uint8Array | string]))
    },
    async readFile(path: string): Promise<Uint8Array | string | null> {
      const found = await objects.read(`${head}:${path}`, FILE_READ_CAP)
      if (isNotFound(found))
        return found.missing === 'too large' ? overFileCap(path) : null
      if (found.type !== 'blob') return notAFile(path, found.type)
      return found.content
    },
    async changedPaths() {
      if (mergeBase === null)
        return { paths: null, note: 'no merge base with the base branch' }
      return { paths: await trees.changedPaths(mergeBase, head) }
    },
    async ancestry(reviewed: string): Promise<Ancestry> {
      if (!SHA_LIKE.test(reviewed)) return { kind: 'unknown-commit' }
      const found = await objects.info(`${reviewed}^{commit}`)
      if (isNotFound(found)) return { kind: 'unknown-commit' }
      if (found.oid === head) return { kind: 'identical' }
      // Bookkeeping commits after a review are usually a few in a row: counted here.
      const distance = await linearDistance(trees, head, found.oid, LINEAR_WALK_CAP)
      if (distance === 'not-ancestor') return { kind: 'not-ancestor' }
      if (distance === 'complex') return ancestryByRevList(repo, found.oid, head)
      return {
        kind: 'ahead',
        commits: distance,
        changedPaths: await trees.changedPaths(found.oid, head)
      }
    },
    async receiptCommit(path: string): Promise<ReceiptCommit | null> {
      // `log` with its history simplification has no cheap in-process equal: one process.
      const log = await gitText(repo, ['log', '-1', '--format=%H %P', head, '--', path])
      if (log === '') return null
      const [sha = '', parent] = log.split(' ')
      return {
        sha,
        parent: parent ?? null,
        changedPaths: await trees.changedPaths(parent ?? null, sha)
      }
    }
  }
}

/**
 * The exact answer for any history (merges, long lines): `rev-list --left-right --count
 * R...H` counts the commits only R reaches (0: R is H or an ancestor of it) and only H
 * reaches (how far ahead H is), beside the `diff` of the two.
 */
async function ancestryByRevList(
  repo: string,
  reviewed: string,
  head: string
): Promise<Ancestry> {
  const [counted, diff] = await Promise.all([
    git(
      repo,
      ['rev-list', '--left-right', '--count', `${reviewed}...${head}`, '--'],
      [0, 128]
    ),
    git(
      repo,
      ['diff', '--name-only', '--no-renames', '-z', reviewed, head, '--'],
      [0, 128]
    )
  ])
  if (counted.code !== 0) return { kind: 'unknown-commit' }
  const [left = '', right = ''] = counted.stdout.toString('utf8').trim().split(/\s+/)
  if (left !== '0') return { kind: 'not-ancestor' }
  if (right === '0') return { kind: 'identical' }
  if (diff.code !== 0) throw new GitError(`git diff ${reviewed} ${head} failed`)
  return {
    kind: 'ahead',
    commits: Number(right),
    changedPaths: diff.stdout.toString('utf8').split('\0').filter(Boolean)
  }
}
