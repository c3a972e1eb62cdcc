/**
 * Real git repositories in temp dirs, for tests.
 *
 *   const repo = GitRepo.init()                    // `git init -b main`, identity, fixed dates
 *   repo.write({ 'src/a.ts': 'x\n', 'old.txt': null })  // null deletes
 *   const c1 = repo.commit('first')               // stages everything, returns the sha
 *   repo.branch('feature')                         // create (from HEAD) and switch
 *   repo.checkout('main')
 *   repo.git('log', '--oneline')                   // any git command, stdout trimmed
 *   repo.cleanup()
 *
 * Every commit gets its own fixed author/committer date (2024-01-01T00:00:00Z plus one minute
 * per commit), so shas are reproducible across runs. Global and system git config are ignored.
 */
import { execFileSync } from 'node:child_process'
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export const GIT_NAME = 'Receipt Gate Tests'
export const GIT_EMAIL = 'tests@receipt-gate.invalid'
const EPOCH = Date.UTC(2024, 0, 1)

/** Environment for running git without the user's config, hooks or prompts. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('GIT_')) env[k] = v
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    ...extra
  }
}

export interface CommitOptions {
  /** Allow a commit without changes (default false). */
  allowEmpty?: boolean
  /** Author/committer date (ISO 8601); default: the next fixed date. */
  date?: string
  /** Author name/email; default the test identity. */
  author?: { name: string; email: string }
}

export class GitRepo {
  private commits = 0

  private constructor(
    /** Absolute path of the work tree (symlinks resolved). */
    readonly path: string
  ) {}

  /** A fresh repository on branch `main` (or `branch`) in a new temp dir. */
  static init(options: { branch?: string; prefix?: string } = {}): GitRepo {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), options.prefix ?? 'rg-git-')))
    const repo = new GitRepo(dir)
    repo.git('init', '-q', '-b', options.branch ?? 'main')
    // Written directly: one git spawn costs ~15 ms on a small CI machine.
    appendFileSync(
      join(dir, '.git', 'config'),
      `[user]\n\tname = ${GIT_NAME}\n\temail = ${GIT_EMAIL}\n` +
        '[commit]\n\tgpgsign = false\n[core]\n\tautocrlf = false\n'
    )
    return repo
  }

  /** Runs git in the repository; returns stdout without the trailing newline. */
  git(...args: string[]): string {
    return this.gitWith({}, ...args)
  }

  /** Runs git with extra environment variables. */
  gitWith(env: Record<string, string>, ...args: string[]): string {
    try {
      return execFileSync('git', args, {
        cwd: this.path,
        env: gitEnv(env),
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'pipe']
      }).replace(/\n$/, '')
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string; message: string }
      const detail = (err.stderr || err.stdout || '').trim()
      throw new Error(`git ${args.join(' ')} failed${detail ? `: ${detail}` : ''}`)
    }
  }

  /** Writes files (relative paths; parent folders are created). `null` deletes a file. */
  write(files: Record<string, string | Uint8Array | null>): this {
    for (const [rel, content] of Object.entries(files)) {
      const abs = join(this.path, rel)
      if (content === null) {
        rmSync(abs, { force: true, recursive: true })
        continue
      }
      mkdirSync(dirname(abs), { recursive: true })
      writeFileSync(abs, content)
    }
    return this
  }

  /** Creates a symbolic link `path` -> `target` (target as written, usually relative). */
  symlink(path: string, target: string): this {
    const abs = join(this.path, path)
    mkdirSync(dirname(abs), { recursive: true })
    rmSync(abs, { force: true })
    symlinkSync(target, abs)
    return this
  }

  /**
   * Stages a gitlink (submodule entry, mode 160000) pointing at `sha`, with an empty folder
   * like an uninitialised submodule; no .gitmodules (write one yourself if needed).
   */
  submodule(path: string, sha: string): this {
    mkdirSync(join(this.path, path), { recursive: true })
    this.git('update-index', '--add', '--cacheinfo', `160000,${sha},${path}`)
    return this
  }

  /** Stages everything (`git add -A`) and commits; returns the new commit sha. */
  commit(message: string, options: CommitOptions = {}): string {
    this.git('add', '-A')
    const date = options.date ?? this.nextDate()
    const env: Record<string, string> = {
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date
    }
    if (options.author) {
      env.GIT_AUTHOR_NAME = options.author.name
      env.GIT_AUTHOR_EMAIL = options.author.email
    }
    const args = ['commit', '-q', '--no-verify', '-m', message]
    if (options.allowEmpty) args.push('--allow-empty')
    this.gitWith(env, ...args)
    return this.head()
  }

  /** Creates branch `name` at `from` (default HEAD) and checks it out. */
  branch(name: string, from?: string): this {
    this.git('checkout', '-q', '-b', name, ...(from ? [from] : []))
    return this
  }

  /** Checks out a branch or commit. */
  checkout(ref: string): this {
    this.git('checkout', '-q', ref)
    return this
  }

  /** Merges `ref` into the current branch with a merge commit; returns its sha. */
  merge(ref: string, message = `Merge ${ref}`): string {
    const date = this.nextDate()
    this.gitWith(
      { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      'merge',
      '-q',
      '--no-ff',
      '--no-edit',
      '-m',
      message,
      ref
    )
    return this.head()
  }

  /** Creates a lightweight tag. */
  tag(name: string, ref = 'HEAD'): this {
    this.git('tag', name, ref)
    return this
  }

  /** The full sha of a revision (default HEAD). */
  revParse(rev = 'HEAD'): string {
    return this.git('rev-parse', '--verify', `${rev}^{commit}`)
  }

  /** Sha of HEAD (read from .git when possible, without spawning git). */
  head(): string {
    try {
      const head = readFileSync(join(this.path, '.git', 'HEAD'), 'utf8').trim()
      if (/^[0-9a-f]{40}$/.test(head)) return head
      const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1]
      if (ref) {
        const sha = readFileSync(join(this.path, '.git', ref), 'utf8').trim()
        if (/^[0-9a-f]{40}$/.test(sha)) return sha
      }
    } catch {
      // packed or unusual refs: ask git
    }
    return this.revParse('HEAD')
  }

  /** Name of the current branch. */
  currentBranch(): string {
    return this.git('symbolic-ref', '--short', 'HEAD')
  }

  /** Removes the temp dir. Safe to call twice. */
  cleanup(): void {
    rmSync(this.path, { recursive: true, force: true })
  }

  private nextDate(): string {
    const d = new Date(EPOCH + this.commits++ * 60_000)
    return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
  }
}
