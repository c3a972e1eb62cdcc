/**
 * The receipt source on a local git repository, through plumbing only: the tree at the
 * head commit (never the working tree), all blobs through one `cat-file --batch`
 * process, ancestry with `merge-base --is-ancestor` and `diff --name-only`.
 */
import { execFile, spawn } from 'node:child_process'
import type {
  Ancestry,
  ReceiptCommit,
  ReceiptSource,
  TreeListing,
  TreeEntry
} from './types.js'

/** A git command failed; `message` is git's own first line, fit for one line on stderr. */
export class GitError extends Error {}

const GIT_ENV = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
  GIT_OPTIONAL_LOCKS: '0'
}

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

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.replace(/^(fatal|error): /, '') ?? ''
  )
}

async function gitText(repo: string, args: readonly string[]): Promise<string> {
  return (await git(repo, args)).stdout.toString('utf8').trim()
}

/** Resolves a revision to a full commit SHA; a clear error when it does not name one. */
export async function resolveCommit(repo: string, rev: string): Promise<string> {
  try {
    return await gitText(repo, [
      'rev-parse',
      '--verify',
      '--quiet',
      '--end-of-options',
      `${rev}^{commit}`
    ])
  } catch {
    throw new GitError(`unknown revision ${JSON.stringify(rev)}`)
  }
}

/** Checks `repo` is a git repository, with git's own message turned into one line. */
export async function assertRepository(repo: string): Promise<void> {
  try {
    await git(repo, ['rev-parse', '--git-dir'])
  } catch {
    throw new GitError(`not a git repository: ${repo}`)
  }
}

/** Reads many objects through one `git cat-file --batch` process. */
export async function catFileBatch(
  repo: string,
  names: readonly string[]
): Promise<Map<string, Uint8Array | string>> {
  const result = new Map<string, Uint8Array | string>()
  if (names.length === 0) return result
  const child = spawn('git', ['-C', repo, 'cat-file', '--batch'], {
    env: GIT_ENV,
    stdio: ['pipe', 'pipe', 'pipe']
  })
  const chunks: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new GitError(`git cat-file exited with ${code}`))
    )
  })
  child.stdin.end(`${names.join('\n')}\n`)
  await done
  const out = Buffer.concat(chunks)
  let at = 0
  for (const name of names) {
    const eol = out.indexOf(0x0a, at)
    const header = out.subarray(at, eol).toString('utf8')
    at = eol + 1
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      result.set(
        name,
        header.endsWith(' missing') ? 'no such object' : 'ambiguous object name'
      )
      continue
    }
    const size = Number(header.split(' ')[2])
    result.set(name, new Uint8Array(out.subarray(at, at + size)))
    at += size + 1 // content, then a newline
  }
  return result
}

/** Parses `ls-tree -r -l -z` output. */
function parseLsTree(stdout: Buffer): TreeEntry[] {
  return stdout
    .toString('utf8')
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const tab = record.indexOf('\t')
      const [mode = '', type = 'blob', sha = '', size = '-'] = record
        .slice(0, tab)
        .split(/ +/)
      return {
        path: record.slice(tab + 1),
        mode,
        type: type as TreeEntry['type'],
        sha,
        size: size === '-' ? null : Number(size)
      }
    })
}

const SHA_LIKE = /^[0-9a-f]{4,64}$/i

export interface GitSourceOptions {
  repo: string
  head: string
  /** The merge base of the PR's base and the head, or null when selection does not need it. */
  mergeBase: string | null
}

/**
 * Object reads asked for in the same tick, through one `cat-file --batch` (issue 7): the
 * gate asks for the receipts' blobs and the deferral file together, and a git process
 * costs more than reading a few hundred objects.
 */
function coalescedReader(
  repo: string
): (names: readonly string[]) => Promise<Map<string, Uint8Array | string>> {
  let pending: {
    names: Set<string>
    done: Promise<Map<string, Uint8Array | string>>
  } | null = null
  return async (names) => {
    if (pending === null) {
      const batch = { names: new Set<string>(), done: Promise.resolve(new Map()) }
      // Read once the caller's synchronous code has asked for everything it will.
      batch.done = Promise.resolve().then(async () => {
        pending = null
        return catFileBatch(repo, [...batch.names])
      })
      pending = batch
    }
    for (const name of names) pending.names.add(name)
    const all = await pending.done
    return new Map(names.map((name) => [name, all.get(name) ?? 'no such object']))
  }
}

/** A {@link ReceiptSource} over a local repository at a resolved head commit. */
export function gitSource({ repo, head, mergeBase }: GitSourceOptions): ReceiptSource {
  const read = coalescedReader(repo)
  return {
    head,
    async listTree(dir: string): Promise<TreeListing> {
      const { stdout } = await git(repo, [
        'ls-tree',
        '-r',
        '-l',
        '-z',
        head,
        '--',
        `${dir}/`
      ])
      return { entries: parseLsTree(stdout), truncated: false }
    },
    readBlobs: async (shas) => read(shas),
    async readFile(path: string): Promise<Uint8Array | null> {
      const found = (await read([`${head}:${path}`])).get(`${head}:${path}`)
      return found instanceof Uint8Array ? found : null
    },
    async changedPaths() {
      if (mergeBase === null)
        return { paths: null, note: 'no merge base with the base branch' }
      const { stdout } = await git(repo, [
        'diff',
        '--name-only',
        '--no-renames',
        '-z',
        mergeBase,
        head
      ])
      return { paths: stdout.toString('utf8').split('\0').filter(Boolean) }
    },
    async ancestry(reviewed: string): Promise<Ancestry> {
      // Receipt text is hostile: only a hex SHA is ever handed to git, never a ref or an option.
      if (!SHA_LIKE.test(reviewed)) return { kind: 'unknown-commit' }
      // Two git processes, side by side (issue 7; it was four in a row): `rev-list
      // --left-right --count R...H` resolves R as a commit and counts the commits only R
      // reaches (0: R is H or an ancestor of it) and only H reaches (how far ahead H is).
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
    },
    async receiptCommit(path: string): Promise<ReceiptCommit | null> {
      const log = await gitText(repo, ['log', '-1', '--format=%H %P', head, '--', path])
      if (log === '') return null
      const [sha = '', parent] = log.split(' ')
      const args = parent
        ? ['diff', '--name-only', '--no-renames', '-z', parent, sha]
        : [
            'diff-tree',
            '--root',
            '--no-commit-id',
            '--name-only',
            '--no-renames',
            '-r',
            '-z',
            sha
          ]
      const { stdout } = await git(repo, args)
      return {
        sha,
        parent: parent ?? null,
        changedPaths: stdout.toString('utf8').split('\0').filter(Boolean)
      }
    }
  }
}
