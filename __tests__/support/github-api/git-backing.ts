/**
 * Answers the fake's git questions from a real repository through git plumbing, so what the
 * action reads through the fake API is exactly what the repository holds.
 *
 * Object reads and ref resolution go through one long-lived `git cat-file --batch-command`
 * (a git spawn costs ~15 ms on a small CI machine); graph and diff questions spawn git and are
 * cached by the full shas they were asked about (immutable answers).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { gitEnv } from '../git-repo.js'

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

export interface TreeEntry {
  /** Six-digit mode as GitHub prints it: 100644, 100755, 120000, 040000, 160000. */
  mode: string
  type: 'blob' | 'tree' | 'commit'
  sha: string
  /** Blob size in bytes; absent for trees and submodules. */
  size?: number
  path: string
}

export interface GitIdentity {
  name: string
  email: string
  /** UTC ISO 8601, second precision (`2024-01-01T00:00:00Z`). */
  date: string
}

export interface CommitInfo {
  sha: string
  tree: string
  parents: string[]
  author: GitIdentity
  committer: GitIdentity
  message: string
}

export type ChangeStatus =
  'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed'

export interface FileChange {
  status: ChangeStatus
  filename: string
  previous_filename?: string
  /** Blob sha of the new side (the old side for removals). */
  sha: string
  additions: number
  deletions: number
  binary: boolean
  /** Unified diff hunks, as GitHub's `patch` (absent for binary or content-less changes). */
  patch?: string
}

const STATUS: Record<string, ChangeStatus> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed'
}

const MERGE_DATE = '2024-06-01T00:00:00Z'

export class GitError extends Error {}

export interface ObjectInfo {
  sha: string
  type: string
  size: number
}

interface Pending {
  kind: 'info' | 'contents'
  resolve: (v: (ObjectInfo & { data?: Buffer }) | undefined) => void
  reject: (e: Error) => void
}

/** A persistent `git cat-file --batch-command` (git ≥ 2.36). */
class CatFile {
  private proc: ChildProcessWithoutNullStreams | undefined
  private buf: Buffer = Buffer.alloc(0)
  private readonly queue: Pending[] = []

  constructor(private readonly dir: string) {}

  async info(obj: string): Promise<ObjectInfo | undefined> {
    return this.request('info', obj)
  }

  async contents(obj: string): Promise<(ObjectInfo & { data: Buffer }) | undefined> {
    return (await this.request('contents', obj)) as
      (ObjectInfo & { data: Buffer }) | undefined
  }

  close(): void {
    const p = this.proc
    this.proc = undefined
    if (p) {
      p.stdin.end()
      p.kill()
    }
  }

  private async request(
    kind: Pending['kind'],
    obj: string
  ): Promise<(ObjectInfo & { data?: Buffer }) | undefined> {
    if (/[\n\r]/.test(obj)) return Promise.resolve(undefined)
    const proc = this.start()
    return new Promise((resolve, reject) => {
      this.queue.push({ kind, resolve, reject })
      proc.stdin.write(`${kind} ${obj}\n`)
    })
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.proc) return this.proc
    const proc = spawn('git', ['cat-file', '--batch-command'], {
      cwd: this.dir,
      env: gitEnv()
    })
    // Never keep the test process alive because of this helper.
    proc.unref()
    ;(proc.stdin as unknown as { unref?: () => void }).unref?.()
    ;(proc.stdout as unknown as { unref?: () => void }).unref?.()
    ;(proc.stderr as unknown as { unref?: () => void }).unref?.()
    proc.stdout.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk
      this.drain()
    })
    proc.stderr.on('data', () => undefined)
    proc.stdin.on('error', () => undefined)
    const fail = (why: string) => {
      if (this.proc === proc) this.proc = undefined
      for (const p of this.queue.splice(0)) p.reject(new GitError(`git cat-file: ${why}`))
    }
    proc.on('error', (e) => fail(e.message))
    proc.on('exit', (code) => fail(`exited with ${code}`))
    this.proc = proc
    return proc
  }

  private drain(): void {
    for (;;) {
      const head = this.queue[0]
      if (!head) return
      const nl = this.buf.indexOf(10)
      if (nl < 0) return
      const line = this.buf.subarray(0, nl).toString('utf8')
      if (/ (missing|ambiguous)$/.test(line)) {
        this.buf = this.buf.subarray(nl + 1)
        this.queue.shift()
        head.resolve(undefined)
        continue
      }
      const [sha, type, size] = line.split(' ')
      const info = { sha: sha!, type: type!, size: Number(size) }
      if (head.kind === 'info') {
        this.buf = this.buf.subarray(nl + 1)
        this.queue.shift()
        head.resolve(info)
        continue
      }
      const end = nl + 1 + info.size
      if (this.buf.length < end + 1) return
      const data = Buffer.from(this.buf.subarray(nl + 1, end))
      this.buf = this.buf.subarray(end + 1)
      this.queue.shift()
      head.resolve({ ...info, data })
    }
  }
}

export class GitBacking {
  private readonly cat: CatFile
  private readonly memo = new Map<string, Promise<unknown>>()

  constructor(readonly dir: string) {
    this.cat = new CatFile(dir)
  }

  /** Stops the cat-file process. */
  close(): void {
    this.cat.close()
  }

  /** Runs git in the repository; rejects with GitError on a non-zero exit. */
  async run(args: string[], env: Record<string, string> = {}): Promise<string> {
    return (await this.exec(args, env)).toString('utf8')
  }

  private async exec(args: string[], env: Record<string, string>): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        args,
        {
          cwd: this.dir,
          env: gitEnv(env),
          encoding: 'buffer',
          maxBuffer: 512 * 1024 * 1024
        },
        (err, stdout, stderr) => {
          if (err) {
            const why = stderr.toString('utf8').trim() || err.message
            reject(new GitError(`git ${args.join(' ')}: ${why}`))
          } else resolve(stdout)
        }
      )
    })
  }

  /** Caches an answer that only depends on full shas. */
  private async once<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined
    if (!p) {
      p = compute()
      this.memo.set(key, p)
      p.catch(() => this.memo.delete(key))
    }
    return p
  }

  /** Full sha of a commit named by sha, branch, tag, `heads/x` or `tags/x`; undefined if none. */
  async resolveCommit(rev: string): Promise<string | undefined> {
    return this.peel(rev, 'commit')
  }

  /** Tree sha for a tree sha, or a commit/ref (peeled like GitHub does). */
  async resolveTree(rev: string): Promise<string | undefined> {
    return this.peel(rev, 'tree')
  }

  private async peel(rev: string, type: 'commit' | 'tree'): Promise<string | undefined> {
    if (!plainRev(rev)) return undefined
    for (const candidate of refCandidates(rev)) {
      const info = await this.cat.info(`${candidate}^{${type}}`)
      if (info) return info.sha
    }
    return undefined
  }

  /**
   * The object a plain revision names, unpeeled (an annotated tag stays a tag), with its
   * type and size; undefined if none. Same revision rules as `resolveCommit`.
   */
  async resolveObject(rev: string): Promise<ObjectInfo | undefined> {
    if (!plainRev(rev)) return undefined
    for (const candidate of refCandidates(rev)) {
      const info = await this.cat.info(candidate)
      if (info) return info
    }
    return undefined
  }

  /** Contents of any object by full sha (undefined if absent). */
  async object(sha: string): Promise<(ObjectInfo & { data: Buffer }) | undefined> {
    if (!/^[0-9a-f]{40}$/i.test(sha)) return undefined
    return this.cat.contents(sha)
  }

  /** Number of commits reachable from `start` (a sha), optionally only those touching `path`. */
  async count(start: string, path?: string): Promise<number> {
    return this.once(`count:${start}:${path}`, async () => {
      const args = ['rev-list', '--count', start, '--']
      if (path) args.push(path)
      return Number((await this.run(args)).trim())
    })
  }

  async objectType(sha: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{4,64}$/i.test(sha)) return undefined
    return (await this.cat.info(sha))?.type
  }

  /** Entries of a tree; `recursive` lists subtrees and their contents too (like `ls-tree -r -t`). */
  async lsTree(tree: string, recursive: boolean): Promise<TreeEntry[]> {
    return this.once(`tree:${tree}:${recursive}`, async () => {
      const out: TreeEntry[] = []
      const walk = async (sha: string, prefix: string) => {
        const entries = await this.readTree(sha, prefix)
        for (const e of entries) {
          out.push(e)
          if (recursive && e.type === 'tree') await walk(e.sha, `${e.path}/`)
        }
      }
      await walk(tree, '')
      return out
    })
  }

  private async readTree(sha: string, prefix: string): Promise<TreeEntry[]> {
    const obj = await this.cat.contents(sha)
    if (!obj || obj.type !== 'tree') throw new GitError(`not a tree: ${sha}`)
    const entries: TreeEntry[] = []
    const data = obj.data
    let i = 0
    while (i < data.length) {
      const sp = data.indexOf(32, i)
      const nul = data.indexOf(0, sp)
      const mode = data.subarray(i, sp).toString('latin1').padStart(6, '0')
      const name = data.subarray(sp + 1, nul).toString('utf8')
      const entrySha = data.subarray(nul + 1, nul + 21).toString('hex')
      i = nul + 21
      const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob'
      entries.push({ mode, type, sha: entrySha, path: prefix + name })
    }
    await Promise.all(
      entries
        .filter((e) => e.type === 'blob')
        .map(async (e) => {
          e.size = (await this.cat.info(e.sha))?.size ?? 0
        })
    )
    return entries
  }

  /**
   * The newest commit from `start` (a sha) that `git log -1 <start> -- <path>` names, without
   * spawning git: git's default history simplification walks one chain (a commit different
   * from every parent at `path` is the answer; otherwise follow the first parent it equals),
   * so the answer is read from trees through cat-file. undefined if `path` never existed.
   */
  async lastChange(start: string, path: string): Promise<string | undefined> {
    const at = async (commit: string) => {
      const e = await this.entryIn((await this.commit(commit)).tree, path)
      return e && `${e.mode} ${e.sha}`
    }
    for (let c = start; ;) {
      const mine = await at(c)
      const parents = (await this.commit(c)).parents
      if (!parents.length) return mine === undefined ? undefined : c
      let same: string | undefined
      for (const p of parents) {
        if ((await at(p)) === mine) {
          same = p
          break
        }
      }
      if (same === undefined) return c
      c = same
    }
  }

  /** Mode and sha at `path` below a tree, from names only (no blob sizes). */
  private async entryIn(
    tree: string,
    path: string
  ): Promise<{ mode: string; sha: string } | undefined> {
    let entry = { mode: '040000', sha: tree }
    for (const name of path.split('/')) {
      if (entry.mode !== '040000') return undefined
      const names = await this.once(`names:${entry.sha}`, async () =>
        this.parseTree(entry.sha)
      )
      const hit = names.get(name)
      if (!hit) return undefined
      entry = hit
    }
    return entry
  }

  private async parseTree(
    sha: string
  ): Promise<Map<string, { mode: string; sha: string }>> {
    const obj = await this.cat.contents(sha)
    if (!obj || obj.type !== 'tree') throw new GitError(`not a tree: ${sha}`)
    const out = new Map<string, { mode: string; sha: string }>()
    const data = obj.data
    for (let i = 0; i < data.length;) {
      const sp = data.indexOf(32, i)
      const nul = data.indexOf(0, sp)
      out.set(data.subarray(sp + 1, nul).toString('utf8'), {
        mode: data.subarray(i, sp).toString('latin1').padStart(6, '0'),
        sha: data.subarray(nul + 1, nul + 21).toString('hex')
      })
      i = nul + 21
    }
    return out
  }

  /** The entry at `path` in a commit's tree (undefined if absent). `''` is the root tree. */
  async entryAt(commit: string, path: string): Promise<TreeEntry | undefined> {
    const clean = path.replace(/^\/+|\/+$/g, '')
    const root = await this.resolveTree(commit)
    if (!root) return undefined
    let entry: TreeEntry = { mode: '040000', type: 'tree', sha: root, path: '' }
    if (clean === '') return entry
    for (const name of clean.split('/')) {
      if (entry.type !== 'tree') return undefined
      const list = await this.lsTree(entry.sha, false)
      const hit = list.find((e) => e.path === name)
      if (!hit) return undefined
      entry = { ...hit, path: entry.path ? `${entry.path}/${name}` : name }
    }
    return entry
  }

  async blob(sha: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{40}$/i.test(sha)) return undefined
    const obj = await this.cat.contents(sha)
    return obj?.type === 'blob' ? obj.data : undefined
  }

  async commit(sha: string): Promise<CommitInfo> {
    return this.once(`commit:${sha}`, async () => {
      const obj = await this.cat.contents(sha)
      if (!obj || obj.type !== 'commit') throw new GitError(`not a commit: ${sha}`)
      return parseCommit(obj.sha, obj.data.toString('utf8'))
    })
  }

  async mergeBase(a: string, b: string): Promise<string | undefined> {
    return this.once(`mb:${a}:${b}`, async () => {
      try {
        return (await this.run(['merge-base', a, b])).trim() || undefined
      } catch {
        return undefined
      }
    })
  }

  async isAncestor(a: string, b: string): Promise<boolean> {
    return this.once(`anc:${a}:${b}`, async () => {
      try {
        await this.run(['merge-base', '--is-ancestor', a, b])
        return true
      } catch {
        return false
      }
    })
  }

  /** Commits reachable from `include` but not from `exclude`, oldest first. */
  async range(exclude: string | undefined, include: string): Promise<string[]> {
    return this.once(`range:${exclude}:${include}`, async () => {
      const args = ['rev-list', '--reverse', '--topo-order', include]
      if (exclude) args.push(`^${exclude}`)
      return (await this.run(args)).split('\n').filter(Boolean)
    })
  }

  /** Commits from `start` (a sha), newest first, optionally only those touching `path`. */
  async log(
    start: string,
    options: { path?: string; skip?: number; limit?: number } = {}
  ): Promise<string[]> {
    const path = options.path?.replace(/^\/+/, '')
    return this.once(
      `log:${start}:${path}:${options.skip}:${options.limit}`,
      async () => {
        const args = ['log', '--format=%H']
        if (options.skip) args.push(`--skip=${options.skip}`)
        if (options.limit !== undefined) args.push(`--max-count=${options.limit}`)
        args.push(start, '--')
        if (path) args.push(path)
        return (await this.run(args)).split('\n').filter(Boolean)
      }
    )
  }

  /**
   * GitHub's test merge commit of `head` into `base` (`refs/pull/N/merge`), built with
   * `merge-tree --write-tree` + `commit-tree` (no ref, no work tree change); null on conflict.
   */
  async testMerge(base: string, head: string): Promise<string | null> {
    return this.once(`merge:${base}:${head}`, async () => {
      try {
        const tree = (
          await this.run(['merge-tree', '--write-tree', '--no-messages', base, head])
        )
          .split('\n')[0]!
          .trim()
        const env = {
          GIT_AUTHOR_DATE: MERGE_DATE,
          GIT_COMMITTER_DATE: MERGE_DATE,
          GIT_AUTHOR_NAME: 'GitHub',
          GIT_AUTHOR_EMAIL: 'noreply@github.com',
          GIT_COMMITTER_NAME: 'GitHub',
          GIT_COMMITTER_EMAIL: 'noreply@github.com'
        }
        const msg = `Merge ${head} into ${base}`
        return (
          await this.run(['commit-tree', tree, '-p', base, '-p', head, '-m', msg], env)
        ).trim()
      } catch {
        return null
      }
    })
  }

  /** Files changed from `from` (undefined = empty tree) to `to`, with counts and patches. */
  async diff(from: string | undefined, to: string): Promise<FileChange[]> {
    const base = from ?? EMPTY_TREE
    return this.once(`diff:${base}:${to}`, async () => {
      // One spawn: raw and numstat records (NUL-terminated), an empty record, then the patch.
      const out = await this.run([
        'diff-tree',
        '-r',
        '-M',
        '-z',
        '--raw',
        '--numstat',
        '-p',
        '--full-index',
        // GitHub lists submodule pointer changes whatever `.gitmodules` says.
        '--ignore-submodules=none',
        '--no-ext-diff',
        '--no-color',
        base,
        to
      ])
      return parseDiff(out)
    })
  }
}

function parseDiff(out: string): FileChange[] {
  let pos = 0
  const next = () => {
    const nul = out.indexOf('\0', pos)
    const end = nul < 0 ? out.length : nul
    const tok = out.slice(pos, end)
    pos = end + 1
    return tok
  }
  const changes: FileChange[] = []
  while (pos < out.length && out[pos] === ':') {
    const [, , oldSha, newSha, code] = next().slice(1).split(' ')
    const letter = (code ?? 'M').charAt(0)
    const status = STATUS[letter] ?? 'modified'
    const change: FileChange = {
      status,
      filename: next(),
      sha: (status === 'removed' ? oldSha : newSha) ?? '',
      additions: 0,
      deletions: 0,
      binary: false
    }
    if (letter === 'R' || letter === 'C') {
      change.previous_filename = change.filename
      change.filename = next()
    }
    changes.push(change)
  }
  for (const change of changes) {
    const [a, d, p] = next().split('\t')
    if (p === '') {
      next()
      next()
    }
    change.binary = a === '-'
    change.additions = a === '-' ? 0 : Number(a)
    change.deletions = d === '-' ? 0 : Number(d)
  }
  if (out[pos] === '\0') pos++
  const sections = out
    .slice(pos)
    .split(/^(?=diff --git )/m)
    .filter((s) => s.startsWith('diff --git '))
  if (sections.length === changes.length) {
    sections.forEach((section, j) => {
      const at = section.search(/^@@ /m)
      const c = changes[j]!
      if (at >= 0 && !c.binary) c.patch = section.slice(at).replace(/\n$/, '')
    })
  }
  return changes
}

function parseCommit(sha: string, text: string): CommitInfo {
  const split = text.indexOf('\n\n')
  const headers = split < 0 ? text : text.slice(0, split)
  const message = split < 0 ? '' : text.slice(split + 2)
  const info: CommitInfo = {
    sha,
    tree: '',
    parents: [],
    author: { name: '', email: '', date: '' },
    committer: { name: '', email: '', date: '' },
    message: message.replace(/\n+$/, '')
  }
  for (const line of headers.split('\n')) {
    if (line.startsWith(' ')) continue // continuation (gpgsig, mergetag)
    const sp = line.indexOf(' ')
    const key = line.slice(0, sp)
    const value = line.slice(sp + 1)
    if (key === 'tree') info.tree = value
    else if (key === 'parent') info.parents.push(value)
    else if (key === 'author' || key === 'committer') info[key] = parseIdentity(value)
  }
  return info
}

function parseIdentity(value: string): GitIdentity {
  const m = /^(.*?) <([^>]*)> (\d+) [+-]\d{4}$/.exec(value)
  if (!m) return { name: value, email: '', date: '1970-01-01T00:00:00Z' }
  const date = new Date(Number(m[3]) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  return { name: m[1]!, email: m[2]!, date }
}

/** GitHub takes shas and ref names, not git revision syntax (`~`, `^`, `:`, `..`, `@{`). */
export function plainRev(rev: string): boolean {
  return rev !== '' && !rev.startsWith('-') && !/[~^:\s\\]|\.\.|@\{/.test(rev)
}

/** How GitHub reads a ref parameter: sha, `heads/x`, `tags/x`, `refs/...`, or a short name. */
function refCandidates(rev: string): string[] {
  if (rev.startsWith('refs/')) return [rev]
  if (rev.startsWith('heads/') || rev.startsWith('tags/')) return [`refs/${rev}`, rev]
  return [rev]
}
