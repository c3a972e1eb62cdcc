/**
 * The receipt source on a local git repository, through plumbing only: objects at the
 * head commit (never the working tree), trees compared by `diff-tree` whatever the
 * configuration says, history walked by `log` once for all receipts. Every command runs
 * on the repository's top level, so the answer does not depend on the folder given.
 */
import { execFile, spawn } from 'node:child_process'
import { resolve as resolvePath } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { GitDiffReader } from '../gate/diff-map.js'
import { isFullId } from '../gate/review-head.js'
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

/** Arguments written as one command line (none of them holds a space). */
const words = (line: string): string[] => line.trim().split(/\s+/)

/**
 * Every changed path from the trees themselves: submodule pointers whatever `.gitmodules`
 * or `diff.ignoreSubmodules` say, both sides of a rename; no external diff, no textconv.
 */
const TREE_DIFF = words(`diff-tree -r -z --name-only --no-renames --ignore-submodules=none
  --no-ext-diff --no-textconv`)

/**
 * The PR's diff (run once): records of every change, renames found, then the patch, with
 * the headers {@link GitDiffReader} pairs sections by (`a/`, `b/` whatever `diff.noprefix`
 * says) and GitHub's hunks (no merging of nearby hunks past their context).
 */
const PR_DIFF = words(`diff -z --raw -p -M -U3 --inter-hunk-context=0 --src-prefix=a/
  --dst-prefix=b/ --no-color --no-ext-diff --no-textconv --ignore-submodules=none`)

/**
 * The longest patch line kept: headers (paths) are read whole below it; a hunk line is
 * counted by its first character, so a cut one is read alike and memory stays bounded.
 */
const PATCH_LINE_CAP = 64 * 1024

/** Exit codes of a git that answered "no" (not found, not an ancestor) rather than failed. */
const ANSWERED = [0, 1, 128]

/** Runs git in `repo`; resolves its exit code and stdout, or rejects with {@link GitError}. */
export async function git(
  repo: string,
  args: readonly string[],
  okCodes: readonly number[] = [0]
): Promise<{ code: number; stdout: string }> {
  const { code, stdout } = await gitBytes(repo, args, okCodes)
  return { code, stdout: stdout.toString('utf8') }
}

/** {@link git} with `input` on git's stdin, its stdout as bytes. */
async function gitBytes(
  repo: string,
  args: readonly string[],
  okCodes: readonly number[],
  input = ''
): Promise<{ code: number; stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['-C', repo, '-c', 'core.quotepath=off', '--literal-pathspecs', ...args],
      { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, env: GIT_ENV },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        const why = firstLine(stderr.toString('utf8')) || error?.message
        if (okCodes.includes(code)) resolve({ code, stdout })
        else reject(new GitError(why ?? `git ${args[0]} failed`))
      }
    )
    // Git may exit before it reads its input (a failure of its own, reported above).
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(input)
  })
}

/** First meaningful line of git's stderr, without its `fatal: ` prefix. */
function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')
  return line?.replace(/^(fatal|error): /, '') ?? ''
}

const splitNul = (text: string): string[] => text.split('\0').filter(Boolean)

/**
 * The top level for any folder of a repository (pathspecs are relative to the folder git
 * runs in: from a subfolder `.flow/…` is found nowhere), and whether it is a shallow clone.
 * A refusal is git's own first line ("not a git repository", "detected dubious
 * ownership" when safe.directory refuses it): the two need different fixes.
 */
export async function openRepository(
  dir: string
): Promise<{ root: string; shallow: boolean }> {
  // `--show-cdup`, not `--show-toplevel`: the latter fails in a bare repository, which
  // the gate reads as well as any (it reads commits, never a work tree).
  const asked = ['--is-bare-repository', '--is-shallow-repository', '--show-cdup']
  const out = await git(dir, ['rev-parse', ...asked])
  const [bare, shallow, up = ''] = out.stdout.split('\n')
  return {
    root: bare === 'true' ? dir : resolvePath(dir, up),
    shallow: shallow === 'true'
  }
}

/** Resolves a revision the user typed to a full commit SHA; a clear error when it names none. */
export async function resolveCommit(repo: string, rev: string): Promise<string> {
  const unknown = new GitError(`unknown revision ${JSON.stringify(rev)}`)
  if (/[\n\r]/.test(rev) || rev.startsWith('-')) throw unknown
  const verify = ['rev-parse', '--verify', '--quiet']
  const found = await git(repo, [...verify, `${rev}^{commit}`], ANSWERED)
  const sha = found.stdout.trim()
  if (found.code === 0 && sha !== '') return sha
  const empty = await git(repo, [...verify, 'HEAD'], ANSWERED)
  const anyRef = await git(repo, ['for-each-ref', '--count=1'])
  if (empty.code !== 0 && anyRef.stdout === '')
    throw new GitError('the repository has no commits')
  throw unknown
}

/** `git merge-base base head`, or null when the two have none. */
export async function mergeBase(
  repo: string,
  base: string,
  head: string
): Promise<string | null> {
  const found = await git(repo, ['merge-base', base, head], [0, 1])
  return (found.code === 0 && found.stdout.trim()) || null
}

/** The branch HEAD points at, or null when HEAD is detached. */
export async function headBranch(repo: string): Promise<string | null> {
  const branch = await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD'], ANSWERED)
  return (branch.code === 0 && branch.stdout.trim()) || null
}

/** Paths whose blob, mode or kind differ between two commits (`from` null: a root commit's). */
async function changedPaths(
  repo: string,
  from: string | null,
  to: string
): Promise<string[]> {
  const args = from === null ? [...TREE_DIFF, '--root', to] : [...TREE_DIFF, from, to]
  return splitNul((await git(repo, [...args, '--'])).stdout)
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
  const lsTree = words(`ls-tree ${recursive ? '-r' : ''} -l -z --full-tree`)
  const out = await git(repo, [...lsTree, commit, '--', dir])
  return splitNul(out.stdout).flatMap((record) => {
    const tab = record.indexOf('\t')
    const [mode = '', type = '', sha = '', size = '-'] = record.slice(0, tab).split(/ +/)
    const path = record.slice(tab + 1)
    if (path !== dir && !path.startsWith(`${dir}/`)) return []
    const kind = type === 'commit' || type === 'tree' ? type : 'blob'
    return [{ path, mode, type: kind, sha, size: size === '-' ? null : Number(size) }]
  })
}

/**
 * Reads blobs by name through one `cat-file --batch` process (null: missing, or not a
 * blob). Each answer is a header line (`<oid> <type> <size>`, or `<name> missing`) and,
 * for a found object, its content.
 */
async function readBlobs(
  repo: string,
  names: readonly string[]
): Promise<Array<Buffer | null>> {
  if (names.length === 0) return []
  // The protocol is one name per line: a name with a line break could name another object.
  const input = names.map((name) => `${/[\n\r]/.test(name) ? '-' : name}\n`).join('')
  const { stdout: out } = await gitBytes(repo, ['cat-file', '--batch'], [0], input)
  let at = 0
  return names.map(() => {
    const eol = out.indexOf(0x0a, at)
    const header = out.toString('utf8', at, eol).split(' ')
    at = eol + 1
    if (header.length !== 3) return null
    const size = Number(header[2])
    const content = out.subarray(at, at + size)
    at += size + 1
    return header[1] === 'blob' ? content : null
  })
}

/**
 * Streams the PR's diff through a {@link GitDiffReader}: the records whole, then the patch
 * line by line with each line cut at {@link PATCH_LINE_CAP}, so a diff of any size is read
 * in bounded memory (held whole, three 50 MB files took near 1 GB, and 512 MiB failed).
 */
async function readPrDiff(
  repo: string,
  base: string,
  head: string
): Promise<ChangedFile[]> {
  const args = ['-C', repo, '-c', 'core.quotepath=off', ...PR_DIFF, base, head, '--']
  const child = spawn('git', args, { env: GIT_ENV })
  const reader = new GitDiffReader()
  const decoder = new StringDecoder('utf8')
  // The records until the empty field that ends them (`\0\0`), then the current line.
  let records: string | null = ''
  let line = ''
  const take = (text: string): void => {
    let at = 0
    if (records !== null) {
      const from = Math.max(0, records.length - 1)
      records += text
      const end = records.indexOf('\0\0', from)
      if (end < 0) return
      reader.records(records.slice(0, end))
      text = records.slice(end + 2)
      records = null
    }
    for (let eol = text.indexOf('\n'); eol >= 0; eol = text.indexOf('\n', at)) {
      reader.line(line + text.slice(at, Math.min(eol, at + PATCH_LINE_CAP - line.length)))
      line = ''
      at = eol + 1
    }
    if (line.length < PATCH_LINE_CAP)
      line += text.slice(at, at + PATCH_LINE_CAP - line.length)
  }
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => take(decoder.write(chunk)))
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8')
  })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', (error) => reject(new GitError(`cannot run git: ${error.message}`)))
    child.on('close', resolve)
  })
  if (code !== 0)
    throw new GitError(firstLine(stderr) || `git diff exited with ${code ?? 'a signal'}`)
  take(decoder.end())
  if (records !== null) reader.records(records)
  else reader.line(line)
  return reader.result()
}

export interface GitSourceOptions {
  /** The repository's top level ({@link openRepository}). */
  repo: string
  head: string
  /** The merge base of the PR's base and the head, or null when selection does not need it. */
  mergeBase: string | null
  /** A shallow clone: history-based answers say so instead of deciding from a cut history. */
  shallow?: boolean
}

const SHALLOW_HINT =
  'the repository is a shallow clone: fetch its history (git fetch --unshallow, or actions/checkout with fetch-depth: 0)'
const NO_BASE = 'no merge base with the base branch'

/** A {@link ReceiptSource} over a local repository at a resolved head commit. */
export function gitSource({
  repo,
  head,
  mergeBase,
  shallow = false
}: GitSourceOptions): ReceiptSource {
  // A commit's changed paths, computed once however many receipts it recorded.
  const commitPaths = new Map<string, Promise<string[]>>()
  const receiptCommit = async (
    path: string,
    walked: WalkedCommit | undefined
  ): Promise<ReceiptCommit | null> => {
    const commit = walked ?? (await newestCommitOf(repo, head, path))
    if (commit === null) return null
    // The boundary of a shallow clone looks like a root commit that added everything.
    if (commit.parent === null && shallow)
      return { ...commit, changedPaths: null, note: SHALLOW_HINT }
    const paths =
      commitPaths.get(commit.sha) ?? changedPaths(repo, commit.parent, commit.sha)
    commitPaths.set(commit.sha, paths)
    return { ...commit, changedPaths: await paths }
  }
  let prFiles: Promise<ChangedFile[]> | undefined
  const prDiff = async (base: string): Promise<ChangedFile[]> =>
    (prFiles ??= readPrDiff(repo, base, head))
  return {
    head,
    shallow,
    async listTree(dir: string) {
      return { entries: await listTree(repo, head, dir), truncated: false }
    },
    async readBlobs(shas) {
      const found = await readBlobs(repo, shas)
      return new Map(shas.map((sha, i) => [sha, found[i] ?? 'no such blob']))
    },
    async readFile(path: string): Promise<Uint8Array | string | null> {
      const [entry] = await listTree(repo, head, path, false)
      if (entry === undefined || entry.path !== path) return null
      if (entry.type !== 'blob') return notAFile(path, entry.type)
      if (entry.mode === '120000') return notAFile(path, 'symlink')
      if ((entry.size ?? 0) > FILE_READ_CAP) return overFileCap(path)
      const [blob] = await readBlobs(repo, [entry.sha])
      return blob ?? null
    },
    async changedPaths() {
      if (mergeBase === null)
        return { paths: null, note: shallow ? `${NO_BASE} (${SHALLOW_HINT})` : NO_BASE }
      // Both sides of a rename: the paths `diff-tree --no-renames` lists, from the one diff.
      const files = await prDiff(mergeBase)
      const renamed = files.flatMap((f) => f.previousPath ?? [])
      return { paths: [...files.map((f) => f.path), ...renamed] }
    },
    async ancestry(reviewed: string): Promise<Ancestry> {
      // Only full object ids reach git: never a ref, an abbreviation or an option that
      // receipt text could spell.
      if (!isFullId(reviewed, head)) return { kind: 'unknown-commit' }
      if (reviewed === head) return { kind: 'identical' }
      // One walk tells a commit from other objects and how it relates to the head: it lists
      // the commit itself (`<`, or `-` as a boundary), never a tag (peeled to its commit).
      const paths = changedPaths(repo, reviewed, head)
      void paths.catch(() => undefined)
      const args = [
        ...words('rev-list --left-right --boundary'),
        `${reviewed}...${head}`,
        '--'
      ]
      const walk = await git(repo, args, [0, 128])
      const listed = walk.stdout.split('\n')
      if (walk.code !== 0 || !listed.some((line) => line.slice(1) === reviewed)) {
        const type = await git(repo, ['cat-file', '-t', reviewed], ANSWERED)
        if (type.code !== 0)
          return { kind: 'unknown-commit', ...(shallow && { note: SHALLOW_HINT }) }
        // A commit whose walk failed (a broken repository): git's own error.
        if (type.stdout.trim() === 'commit') await git(repo, args)
        return { kind: 'not-a-commit' }
      }
      if (listed.some((line) => line.startsWith('<'))) return { kind: 'not-ancestor' }
      const commits = listed.filter((line) => line.startsWith('>')).length
      return { kind: 'ahead', commits, changedPaths: await paths }
    },
    async receiptCommits(receipts) {
      const found = await newestCommits(repo, head, receipts)
      const ask = async ({ path }: { path: string }) =>
        [path, await receiptCommit(path, found.get(path))] as const
      return new Map(await Promise.all(receipts.map(ask)))
    },
    async changedFiles() {
      if (mergeBase === null) return { files: null, note: NO_BASE }
      return { files: await prDiff(mergeBase) }
    },
    async prCommits() {
      if (mergeBase === null) return { commits: null, note: NO_BASE }
      return { commits: await prCommitPaths(repo, `${mergeBase}..${head}`) }
    },
    async commitsBetween(from, to) {
      const since = from ?? mergeBase
      if (!isFullId(since, head) || !isFullId(to, head)) return null
      const out = await git(repo, ['rev-list', to, `^${since}`, '--'], [0, 128])
      return out.code === 0 ? out.stdout.split('\n').filter((line) => line !== '') : null
    }
  }
}

/**
 * The commits of `range`, oldest first, each with the paths it changed, from one `log`
 * (not a `diff-tree` per commit). A merge's paths are those that differ from every
 * parent (`-c`): its own edit, none for a clean merge. Records start with \x01 and the
 * commit id.
 */
async function prCommitPaths(repo: string, range: string): Promise<PrCommit[]> {
  const log = words(`log -z -c --reverse --format=%x01%H --name-only --no-renames
    --ignore-submodules=none`)
  const out = await git(repo, [...log, range, '--'])
  const commits: Array<PrCommit & { paths: string[] }> = []
  for (const token of out.stdout.split('\0')) {
    const header = /^\x01([0-9a-f]{40}(?:[0-9a-f]{24})?)$/.exec(token)
    const path = token.replace(/^\n/, '')
    if (header) commits.push({ sha: header[1] as string, paths: [] })
    else if (path !== '') commits[commits.length - 1]?.paths.push(path)
  }
  return commits
}

type WalkedCommit = { sha: string; parent: string | null }

/**
 * One walk of the history of the receipts' folders for every receipt: the newest commit
 * that wrote each receipt's blob as it is at the head. A receipt this walk does not find
 * (written by a merge, whose diff `log` does not show) is left to {@link newestCommitOf}.
 */
async function newestCommits(
  repo: string,
  head: string,
  receipts: ReadonlyArray<{ path: string; blob: string }>
): Promise<Map<string, WalkedCommit>> {
  const wanted = new Map(receipts.map(({ path, blob }) => [path, blob]))
  const found = new Map<string, WalkedCommit>()
  if (wanted.size === 0) return found
  const folders = new Set(
    receipts.map(({ path }) => path.slice(0, path.lastIndexOf('/')) || '.')
  )
  const log = words('log -z --raw --no-abbrev --no-renames --ignore-submodules=none')
  const out = await git(repo, [...log, '--format=%x1e%H %P', head, '--', ...folders])
  for (const record of out.stdout.split('\x1e')) {
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
): Promise<WalkedCommit | null> {
  const log = await git(repo, ['log', '-1', '--format=%H %P', head, '--', path])
  if (log.stdout.trim() === '') return null
  const [sha = '', parent] = log.stdout.trim().split(' ')
  return { sha, parent: parent ?? null }
}
