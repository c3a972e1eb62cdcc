/**
 * The receipt source on a local git repository, through plumbing only: objects at the
 * head commit (never the working tree), trees compared by `diff-tree` whatever the
 * user's or the repository's configuration says (gitlinks included), history walked by
 * `log` once for all receipts. Every command runs on the repository's top level, so the
 * answer does not depend on the folder git was pointed at.
 */
import { execFile, spawn } from 'node:child_process'
import { gitChangedFiles } from '../gate/diff-map.js'
import { fullObjectId } from '../gate/review-head.js'
import {
  FILE_READ_CAP,
  notAFile,
  overFileCap,
  type Ancestry,
  type ChangedFile,
  type PrCommit,
  type ReceiptCommit,
  type ReceiptSource,
  type TreeEntry
} from '../gate/source.js'

/** A git command failed; `message` is git's own first line, fit for one line on stderr. */
export class GitError extends Error {}

/** The environment of every git process: no prompts, no locale, no optional locks. */
const GIT_ENV = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
  GIT_OPTIONAL_LOCKS: '0'
}

/**
 * Options that make a tree comparison list every changed path from the trees themselves:
 * submodule pointers whatever `.gitmodules` `ignore` or `diff.ignoreSubmodules` say,
 * both sides of a rename, mode-only changes; no external diff, no textconv.
 */
const TREE_DIFF = [
  'diff-tree',
  '-r',
  '-z',
  '--name-only',
  '--no-renames',
  '--ignore-submodules=none',
  '--no-ext-diff',
  '--no-textconv'
]

/** The PR's diff (run once): records of every change, renames found, then the patch. */
const PR_DIFF = `diff -z --raw -p -M -U3 --no-color --no-ext-diff --no-textconv
  --ignore-submodules=none`.split(/\s+/)

/** Runs git in `repo`; resolves stdout (bytes), or rejects with {@link GitError}. */
export async function git(
  repo: string,
  args: readonly string[],
  okCodes: readonly number[] = [0]
): Promise<{ code: number; stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', repo, '-c', 'core.quotepath=off', '--literal-pathspecs', ...args],
      { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, env: GIT_ENV },
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

/** First meaningful line of git's stderr, without its `fatal: ` prefix. */
function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.replace(/^(fatal|error): /, '') ?? ''
  )
}

/**
 * The top level for any folder of a repository (pathspecs are relative to the folder git
 * runs in: from a subfolder `.flow/…` is found nowhere), and whether it is a shallow clone.
 */
export async function openRepository(
  dir: string
): Promise<{ root: string; shallow: boolean }> {
  try {
    const asked = ['--is-bare-repository', '--is-shallow-repository', '--show-toplevel']
    const [bare, shallow, top] = (await gitText(dir, ['rev-parse', ...asked])).split('\n')
    return { root: bare === 'true' || !top ? dir : top, shallow: shallow === 'true' }
  } catch {
    throw new GitError(`not a git repository: ${dir}`)
  }
}

/** Resolves a revision the user typed to a full commit SHA; a clear error when it names none. */
export async function resolveCommit(repo: string, rev: string): Promise<string> {
  if (/[\n\r]/.test(rev) || rev.startsWith('-'))
    throw new GitError(`unknown revision ${JSON.stringify(rev)}`)
  const found = await git(
    repo,
    ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`],
    [0, 1, 128]
  )
  const sha = found.stdout.toString('utf8').trim()
  if (found.code !== 0 || sha === '') {
    const empty = await git(
      repo,
      ['rev-parse', '--verify', '--quiet', 'HEAD'],
      [0, 1, 128]
    )
    const anyRef = await git(repo, ['for-each-ref', '--count=1'], [0])
    if (empty.code !== 0 && anyRef.stdout.length === 0)
      throw new GitError('the repository has no commits')
    throw new GitError(`unknown revision ${JSON.stringify(rev)}`)
  }
  return sha
}

/** `git merge-base base head`, or null when the two have none. */
export async function mergeBase(
  repo: string,
  base: string,
  head: string
): Promise<string | null> {
  const found = await git(repo, ['merge-base', base, head], [0, 1])
  const sha = found.stdout.toString('utf8').trim()
  return found.code === 0 && sha !== '' ? sha : null
}

/** The branch HEAD points at, or null when HEAD is detached. */
export async function headBranch(repo: string): Promise<string | null> {
  const branch = await git(
    repo,
    ['symbolic-ref', '--quiet', '--short', 'HEAD'],
    [0, 1, 128]
  )
  return branch.code === 0 ? branch.stdout.toString('utf8').trim() || null : null
}

/** Paths whose blob, mode or kind differ between two commits (`from` null: a root commit's). */
export async function changedPaths(
  repo: string,
  from: string | null,
  to: string
): Promise<string[]> {
  const args = from === null ? [...TREE_DIFF, '--root', to] : [...TREE_DIFF, from, to]
  return splitNul((await git(repo, [...args, '--'])).stdout)
}

function splitNul(bytes: Buffer): string[] {
  return bytes.toString('utf8').split('\0').filter(Boolean)
}

/**
 * `ls-tree -l` of `dir` at `commit`: recursively, its blobs and submodules with blob
 * sizes; not recursively, the entry at `dir` itself (a tree included).
 */
async function listTree(
  repo: string,
  commit: string,
  dir: string,
  recursive = true
): Promise<TreeEntry[]> {
  const out = await git(repo, [
    'ls-tree',
    ...(recursive ? ['-r'] : []),
    '-l',
    '-z',
    '--full-tree',
    commit,
    '--',
    dir
  ])
  return splitNul(out.stdout).flatMap((record) => {
    const tab = record.indexOf('\t')
    const [mode = '', type = '', sha = '', size = '-'] = record.slice(0, tab).split(/ +/)
    const path = record.slice(tab + 1)
    if (path !== dir && !path.startsWith(`${dir}/`)) return []
    return [
      {
        path,
        mode,
        type: type === 'commit' ? 'commit' : type === 'tree' ? 'tree' : 'blob',
        sha,
        size: size === '-' ? null : Number(size)
      }
    ]
  })
}

/**
 * Reads objects by name through one `cat-file --batch` process: each answer is a header
 * line (`<oid> <type> <size>`, or `<name> missing`) and, for a found object, its content.
 */
async function readObjects(
  repo: string,
  names: readonly string[]
): Promise<Array<{ type: string; content: Buffer } | null>> {
  if (names.length === 0) return []
  const child = spawn('git', ['-C', repo, 'cat-file', '--batch'], {
    env: GIT_ENV,
    stdio: ['pipe', 'pipe', 'pipe']
  })
  const chunks: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
  child.stdin.on('error', () => undefined)
  // The protocol is one name per line: a name with a line break could name another object.
  child.stdin.end(names.map((name) => `${/[\n\r]/.test(name) ? '-' : name}\n`).join(''))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => reject(new GitError(`cannot run git: ${error.message}`)))
    child.on('close', resolve)
  })
  if (code !== 0) throw new GitError(`git cat-file exited with ${code ?? 'a signal'}`)
  const out = Buffer.concat(chunks)
  const answers: Array<{ type: string; content: Buffer } | null> = []
  let at = 0
  for (let i = 0; i < names.length; i++) {
    const eol = out.indexOf(0x0a, at)
    const header = out.toString('utf8', at, eol).split(' ')
    at = eol + 1
    if (header.length !== 3) {
      answers.push(null)
      continue
    }
    const size = Number(header[2])
    answers.push({ type: header[1] as string, content: out.subarray(at, at + size) })
    at += size + 1
  }
  return answers
}

export interface GitSourceOptions {
  /** The repository's top level ({@link repositoryRoot}). */
  repo: string
  head: string
  /** The merge base of the PR's base and the head, or null when selection does not need it. */
  mergeBase: string | null
  /** A shallow clone: history-based answers say so instead of deciding from a cut history. */
  shallow?: boolean
}

const SHALLOW_HINT =
  'the repository is a shallow clone: fetch its history (git fetch --unshallow, or actions/checkout with fetch-depth: 0)'

/** A {@link ReceiptSource} over a local repository at a resolved head commit. */
export function gitSource({
  repo,
  head,
  mergeBase,
  shallow = false
}: GitSourceOptions): ReceiptSource {
  // A commit's changed paths, computed once however many receipts it recorded.
  const commitPaths = new Map<string, Promise<string[]>>()
  const pathsOf = async (parent: string | null, sha: string): Promise<string[]> => {
    let found = commitPaths.get(sha)
    if (!found) {
      found = changedPaths(repo, parent, sha)
      commitPaths.set(sha, found)
    }
    return found
  }
  const receiptCommit = async (
    path: string,
    walked: { sha: string; parent: string | null } | undefined
  ): Promise<ReceiptCommit | null> => {
    const commit = walked ?? (await newestCommitOf(repo, head, path))
    if (commit === null) return null
    // The boundary of a shallow clone looks like a root commit that added everything.
    if (commit.parent === null && shallow)
      return { ...commit, changedPaths: null, note: SHALLOW_HINT }
    return { ...commit, changedPaths: await pathsOf(commit.parent, commit.sha) }
  }
  let prFiles: Promise<ChangedFile[]> | undefined
  const prDiff = async (base: string): Promise<ChangedFile[]> =>
    (prFiles ??= git(repo, [...PR_DIFF, base, head, '--']).then((out) =>
      gitChangedFiles(out.stdout.toString('utf8'))
    ))
  return {
    head,
    shallowNote: shallow ? SHALLOW_HINT : null,
    async listTree(dir: string) {
      return { entries: await listTree(repo, head, dir), truncated: false }
    },
    async readBlobs(shas) {
      const found = await readObjects(repo, shas)
      return new Map(
        shas.map((sha, i) => {
          const object = found[i]
          return [sha, object?.type === 'blob' ? object.content : 'no such blob']
        })
      )
    },
    async readFile(path: string): Promise<Uint8Array | string | null> {
      const [entry] = await listTree(repo, head, path, false)
      if (entry === undefined || entry.path !== path) return null
      if (entry.type !== 'blob') return notAFile(path, entry.type)
      if (entry.mode === '120000') return notAFile(path, 'symlink')
      if ((entry.size ?? 0) > FILE_READ_CAP) return overFileCap(path)
      const [blob] = await readObjects(repo, [entry.sha])
      return blob?.content ?? null
    },
    async changedPaths() {
      if (mergeBase === null)
        return {
          paths: null,
          note: shallow
            ? `no merge base with the base branch (${SHALLOW_HINT})`
            : 'no merge base with the base branch'
        }
      // Both sides of a rename: the paths `diff-tree --no-renames` lists, from the one diff.
      const files = await prDiff(mergeBase)
      const renamed = files.flatMap((f) => f.previousPath ?? [])
      return { paths: [...files.map((f) => f.path), ...renamed] }
    },
    async ancestry(reviewed: string): Promise<Ancestry> {
      // Only a full object id is ever handed to git (the gate checked it is one): never a
      // ref, an abbreviation or an option that receipt text could spell.
      if (fullObjectId(reviewed, head) !== reviewed) return { kind: 'unknown-commit' }
      if (reviewed === head) return { kind: 'identical' }
      // One walk tells a commit from other objects and how it relates to the head: it lists
      // the commit itself (`<`, or `-` as a boundary), never a tag (peeled to its commit).
      const paths = changedPaths(repo, reviewed, head)
      void paths.catch(() => undefined)
      const args = [
        'rev-list',
        '--left-right',
        '--boundary',
        `${reviewed}...${head}`,
        '--'
      ]
      const walk = await git(repo, args, [0, 128])
      const listed = walk.stdout.toString('utf8').split('\n')
      if (walk.code !== 0 || !listed.some((line) => line.slice(1) === reviewed)) {
        const type = await git(repo, ['cat-file', '-t', reviewed], [0, 1, 128])
        if (type.code !== 0)
          return shallow
            ? { kind: 'unknown-commit', note: SHALLOW_HINT }
            : { kind: 'unknown-commit' }
        // A commit whose walk failed (a broken repository): git's own error.
        if (type.stdout.toString('utf8').trim() === 'commit') await git(repo, args)
        return { kind: 'not-a-commit' }
      }
      if (listed.some((line) => line.startsWith('<'))) return { kind: 'not-ancestor' }
      const commits = listed.filter((line) => line.startsWith('>')).length
      return { kind: 'ahead', commits, changedPaths: await paths }
    },
    async receiptCommits(receipts) {
      const found = await newestCommits(repo, head, receipts)
      const answers = new Map<string, ReceiptCommit | null>()
      await Promise.all(
        receipts.map(async ({ path }) => {
          answers.set(path, await receiptCommit(path, found.get(path)))
        })
      )
      return answers
    },
    async changedFiles() {
      if (mergeBase === null)
        return { files: null, note: 'no merge base with the base branch' }
      return { files: await prDiff(mergeBase) }
    },
    async prCommits() {
      if (mergeBase === null)
        return { commits: null, note: 'no merge base with the base branch' }
      return { commits: await prCommitPaths(repo, `${mergeBase}..${head}`) }
    },
    async commitsBetween(from, to) {
      const since = from ?? mergeBase
      const full = (id: string | null): boolean =>
        id !== null && fullObjectId(id, head) === id
      // Only full object ids reach git: never a ref or an option receipt text could spell.
      if (!full(since) || !full(to)) return null
      const out = await git(repo, ['rev-list', to, `^${since}`, '--'], [0, 128])
      if (out.code !== 0) return null
      return out.stdout
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '')
    }
  }
}

/**
 * The non-merge commits of `range`, oldest first, each with the paths it changed, from
 * one `log` (not a `diff-tree` per commit). Records start with \x01 and the commit id.
 */
async function prCommitPaths(repo: string, range: string): Promise<PrCommit[]> {
  const out = await git(repo, [
    'log',
    '-z',
    '--no-merges',
    '--reverse',
    '--format=%x01%H',
    '--name-only',
    '--no-renames',
    '--ignore-submodules=none',
    range,
    '--'
  ])
  const commits: Array<PrCommit & { paths: string[] }> = []
  for (const token of out.stdout.toString('utf8').split('\0')) {
    const header = /^\x01([0-9a-f]{40}(?:[0-9a-f]{24})?)$/.exec(token)
    if (header) commits.push({ sha: header[1] as string, paths: [] })
    else if (token.replace(/^\n/, '') !== '')
      commits[commits.length - 1]?.paths.push(token.replace(/^\n/, ''))
  }
  return commits
}

/**
 * One walk of the history of the receipts' folders for every receipt: the newest commit
 * that wrote each receipt's blob as it is at the head. A receipt this walk does not find
 * (written by a merge, whose diff `log` does not show) is left to {@link newestCommitOf}.
 */
async function newestCommits(
  repo: string,
  head: string,
  receipts: ReadonlyArray<{ path: string; blob: string }>
): Promise<Map<string, { sha: string; parent: string | null }>> {
  const wanted = new Map(receipts.map(({ path, blob }) => [path, blob]))
  const found = new Map<string, { sha: string; parent: string | null }>()
  if (wanted.size === 0) return found
  const folders = [
    ...new Set(receipts.map(({ path }) => path.slice(0, path.lastIndexOf('/')) || '.'))
  ]
  const out = await git(repo, [
    'log',
    '-z',
    '--raw',
    '--no-abbrev',
    '--no-renames',
    '--ignore-submodules=none',
    '--format=%x1e%H %P',
    head,
    '--',
    ...folders
  ])
  for (const record of out.stdout.toString('utf8').split('\x1e')) {
    const headerEnd = record.indexOf('\0')
    if (headerEnd < 0) continue
    const [sha = '', parent] = record.slice(0, headerEnd).split(' ')
    const fields = record
      .slice(headerEnd + 1)
      .replace(/^\n/, '')
      .split('\0')
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const newBlob = (fields[i] as string).split(' ')[3]
      const path = fields[i + 1] as string
      if (!found.has(path) && wanted.get(path) === newBlob)
        found.set(path, { sha, parent: parent || null })
    }
    if (found.size === wanted.size) break
  }
  return found
}

/** `git log -1 -- path`: the newest commit that changed one path, with git's own simplification. */
async function newestCommitOf(
  repo: string,
  head: string,
  path: string
): Promise<{ sha: string; parent: string | null } | null> {
  const log = await gitText(repo, ['log', '-1', '--format=%H %P', head, '--', path])
  if (log === '') return null
  const [sha = '', parent] = log.split(' ')
  return { sha, parent: parent ?? null }
}
