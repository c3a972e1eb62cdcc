/**
 * One long-lived `git cat-file` for every object question of a run (issue 7): resolving
 * revisions, reading commits and trees, sizing and reading blobs. Starting a process
 * costs 7–10 ms of the parent's own time on a small VM, more than reading a few thousand
 * objects through a pipe, so the git source asks this reader instead of starting
 * `rev-parse`, `ls-tree`, `diff` and `rev-list` one after the other.
 *
 * git ≥ 2.36 answers both kinds of question in one `cat-file --batch-command` process.
 * Older git refuses that option (exit 129): the reader then starts `--batch-check` for
 * sizes and `--batch` for contents, and asks them again what the first one was asked.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { childProcess } from './child-process.js'

/** A git command failed; `message` is git's own first line, fit for one line on stderr. */
export class GitError extends Error {}

/** The environment of every git process: no prompts, no locale, no optional locks. */
export const GIT_ENV = {
  ...process.env,
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
  GIT_OPTIONAL_LOCKS: '0'
}

export interface ObjectInfo {
  oid: string
  type: string
  size: number
}

export interface GitObject extends ObjectInfo {
  content: Buffer
}

/** Why a name did not give an object, in git's words (`missing`, `ambiguous`, …). */
export interface NotFound {
  missing: string
}

type Kind = 'info' | 'contents'

interface Pending {
  kind: Kind
  name: string
  /** Larger contents are read past and answered `too large` (a hostile file is not held). */
  maxBytes: number
  resolve: (value: ObjectInfo | GitObject | NotFound) => void
  reject: (error: Error) => void
}

export function isNotFound(value: ObjectInfo | NotFound): value is NotFound {
  return 'missing' in value
}

/** First meaningful line of git's stderr, without its `fatal: ` prefix. */
export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.replace(/^(fatal|error): /, '') ?? ''
  )
}

/**
 * One `cat-file` process speaking the batch protocol: requests in order on stdin, a
 * header line per request on stdout, followed by the content for `contents`.
 */
class Channel {
  private readonly queue: Pending[] = []
  private readonly child: ChildProcessWithoutNullStreams
  private buffer: Buffer = Buffer.alloc(0)
  /** The object being received: its header, its buffer (null: read past) and bytes so far. */
  private body: { info: ObjectInfo; content: Buffer | null; filled: number } | null = null
  private stderr = ''
  private closed = false
  /** Set when git exits before answering anything (used to detect an old git). */
  private answered = false

  constructor(
    repo: string,
    private readonly mode: '--batch-command' | '--batch' | '--batch-check',
    private readonly onExit: (
      channel: Channel,
      code: number | null,
      early: boolean
    ) => void
  ) {
    this.child = childProcess().spawn('git', ['-C', repo, 'cat-file', mode], {
      env: GIT_ENV,
      stdio: ['pipe', 'pipe', 'pipe']
    })
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk))
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 4096) this.stderr += chunk.toString('utf8')
    })
    // A write after git exited is reported by 'close' below, with git's own message.
    this.child.stdin.on('error', () => undefined)
    this.child.on('error', (error) =>
      this.fail(new GitError(`cannot run git: ${error.message}`))
    )
    this.child.on('close', (code) => {
      this.closed = true
      this.onExit(this, code, !this.answered)
      this.fail(
        new GitError(
          firstLine(this.stderr) || `git cat-file exited with ${code ?? 'a signal'}`
        )
      )
    })
    this.idle()
  }

  get stderrText(): string {
    return this.stderr
  }

  /** The requests not answered yet (to ask them again elsewhere). */
  takePending(): Pending[] {
    return this.queue.splice(0)
  }

  ask(request: Pending): void {
    if (this.closed) {
      request.reject(
        new GitError(firstLine(this.stderr) || 'git cat-file is not running')
      )
      return
    }
    if (this.queue.length === 0) this.busy()
    this.queue.push(request)
    const line =
      this.mode === '--batch-command'
        ? `${request.kind} ${request.name}\n`
        : `${request.name}\n`
    this.child.stdin.write(line)
  }

  close(): void {
    if (!this.closed) this.child.stdin.end()
  }

  // The process must not keep node alive when nothing is asked (a caller that forgets
  // `close` must not hang), and must keep it alive while an answer is awaited.
  private busy(): void {
    this.child.ref()
    for (const stream of this.streams()) stream.ref()
  }

  private idle(): void {
    this.child.unref()
    for (const stream of this.streams()) stream.unref()
  }

  /** The pipes are sockets: each is a handle of its own for node's event loop. */
  private streams(): Array<{ ref(): void; unref(): void }> {
    const { stdin, stdout, stderr } = this.child
    return [stdin, stdout, stderr] as unknown as Array<{ ref(): void; unref(): void }>
  }

  private fail(error: Error): void {
    for (const request of this.queue.splice(0)) request.reject(error)
    this.idle()
  }

  private receive(chunk: Buffer): void {
    this.answered = true
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    let at = 0
    while (this.queue.length > 0) {
      if (this.body !== null) {
        // Copy what arrived into the object's own buffer: no re-concatenation of a
        // large blob for every chunk of the pipe.
        const { info, content } = this.body
        const take = Math.min(info.size - this.body.filled, this.buffer.length - at)
        content?.set(this.buffer.subarray(at, at + take), this.body.filled)
        this.body.filled += take
        at += take
        // The content, then one newline.
        if (this.body.filled < info.size || at >= this.buffer.length) break
        at += 1
        this.body = null
        this.settle(content === null ? { missing: 'too large' } : { ...info, content })
        continue
      }
      const eol = this.buffer.indexOf(0x0a, at)
      if (eol < 0) break
      const header = this.buffer.toString('utf8', at, eol)
      at = eol + 1
      const info = parseHeader(header)
      const request = this.queue[0] as Pending
      if (isNotFound(info) || request.kind === 'info') {
        this.settle(info)
        continue
      }
      const content = info.size > request.maxBytes ? null : Buffer.allocUnsafe(info.size)
      this.body = { info, content, filled: 0 }
    }
    this.buffer = at >= this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(at)
  }

  private settle(value: ObjectInfo | GitObject | NotFound): void {
    ;(this.queue.shift() as Pending).resolve(value)
    if (this.queue.length === 0) this.idle()
  }
}

/** `<oid> <type> <size>`, or `<name> missing` / `<name> ambiguous` and the like. */
function parseHeader(header: string): ObjectInfo | NotFound {
  const match = /^([0-9a-f]{40,64}) ([a-z]+) ([0-9]+)$/.exec(header)
  if (match === null) {
    const space = header.lastIndexOf(' ')
    return { missing: space < 0 ? header : header.slice(space + 1) }
  }
  return { oid: match[1] as string, type: match[2] as string, size: Number(match[3]) }
}

/**
 * The default bound of one object read: above SPEC §2's 64 MiB for all receipts, so it
 * only ever stops what no cap would let through (a commit, tree or file of any size).
 */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024

/**
 * Answers object questions about one repository through as few `cat-file` processes
 * as the installed git allows (one for git ≥ 2.36, two otherwise).
 */
export class ObjectReader {
  private combined: Channel | null = null
  private sizes: Channel | null = null
  private contentsChannel: Channel | null = null

  constructor(
    private readonly repo: string,
    /** false: the two-process protocol of git < 2.36, whatever git is installed. */
    private batchCommand = true
  ) {}

  /** Type and size of the object `name` names (any revision syntax git accepts). */
  async info(name: string): Promise<ObjectInfo | NotFound> {
    return this.ask('info', name)
  }

  /**
   * The object `name` names, with its content; `too large` past `maxBytes` (the bytes are
   * read past, never held).
   */
  async read(name: string, maxBytes = DEFAULT_MAX_BYTES): Promise<GitObject | NotFound> {
    return this.ask('contents', name, maxBytes) as Promise<GitObject | NotFound>
  }

  /** Lets the processes exit (they also never keep node alive while idle). */
  close(): void {
    for (const channel of [this.combined, this.sizes, this.contentsChannel])
      channel?.close()
  }

  private async ask(
    kind: Kind,
    name: string,
    maxBytes = DEFAULT_MAX_BYTES
  ): Promise<ObjectInfo | GitObject | NotFound> {
    // The protocol is one name per line: a name with a line break can name nothing.
    if (/[\n\r]/.test(name) || name === '') return { missing: 'missing' }
    return new Promise((resolve, reject) => {
      this.channelFor(kind).ask({ kind, name, maxBytes, resolve, reject })
    })
  }

  private channelFor(kind: Kind): Channel {
    if (this.batchCommand) {
      this.combined ??= new Channel(
        this.repo,
        '--batch-command',
        (channel, code, early) => this.onCombinedExit(channel, code, early)
      )
      return this.combined
    }
    if (kind === 'info') {
      this.sizes ??= new Channel(this.repo, '--batch-check', () => undefined)
      return this.sizes
    }
    this.contentsChannel ??= new Channel(this.repo, '--batch', () => undefined)
    return this.contentsChannel
  }

  /** git < 2.36 exits 129 on `--batch-command` before answering: ask the old way. */
  private onCombinedExit(channel: Channel, code: number | null, early: boolean): void {
    if (!(code === 129 && early && /batch-command/.test(channel.stderrText))) return
    this.batchCommand = false
    this.combined = null
    for (const request of channel.takePending())
      this.channelFor(request.kind).ask(request)
  }
}
