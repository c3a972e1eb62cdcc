/**
 * Runs an action entry point as a child process the way the GitHub runner does:
 * event payload file, GITHUB_* / RUNNER_* variables, INPUT_* from action.yml defaults plus
 * overrides, and the GITHUB_OUTPUT / GITHUB_STEP_SUMMARY / GITHUB_ENV / GITHUB_STATE files.
 *
 *   const run = await runAction({ fake, event: { name: 'pull_request', pull: 7 },
 *                                 inputs: { 'receipts-dir': '.flow/review-receipts' } })
 *   run.exitCode, run.outputs.conclusion, run.summary, run.requests
 *   run.cleanup()
 */
import { spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import type { FakeGitHub, RecordedRequest } from './github-api/server.js'

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const DEFAULT_ENTRY = join(PROJECT_ROOT, 'dist', 'index.js')
export const DEFAULT_ACTION_YML = join(PROJECT_ROOT, 'action.yml')

export type RunnerEvent =
  /** A PR event built from the fake's PR metadata (GITHUB_SHA = its test merge commit). */
  | { name: 'pull_request' | 'pull_request_target'; pull: number; action?: string }
  /** Any event with an explicit payload (workflow_run, merge_group, workflow_dispatch…). */
  | { name: string; payload: unknown; sha?: string; ref?: string }

export interface RunActionOptions {
  /** Entry script (default `dist/index.js` of the project). */
  entry?: string
  /** The fake API: sets GITHUB_API_URL & co. and collects the run's requests. */
  fake?: FakeGitHub
  event?: RunnerEvent
  /** Input values by input name, as in a workflow's `with:` (e.g. `'receipts-dir'`). */
  inputs?: Record<string, string>
  /** Input defaults, layered over those of action.yml (use while action.yml does not exist). */
  inputDefaults?: Record<string, string>
  /** action.yml to read defaults from (default: the project's, if present). */
  actionYml?: string
  /** Value of `${{ github.token }}` (default `fake-token`). */
  token?: string
  /** Extra environment variables; `undefined` removes one. Applied last. */
  env?: Record<string, string | undefined>
  /** Working directory and GITHUB_WORKSPACE (default: the fake's repository). */
  workspace?: string
  /** Kill the child after this many ms (default 30 s). */
  timeoutMs?: number
  /** Run id / attempt (GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT). */
  runId?: number
  runAttempt?: number
  /** Set RUNNER_DEBUG=1. */
  debug?: boolean
  /**
   * Command line before the entry script (default `[process.execPath]`): e.g. GNU time
   * around node, to read the run's peak RSS (the benchmark).
   */
  prefix?: string[]
}

export interface ActionRun {
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  stdout: string
  stderr: string
  /** Parsed GITHUB_OUTPUT. */
  outputs: Record<string, string>
  /** Contents of GITHUB_STEP_SUMMARY. */
  summary: string
  /** Parsed GITHUB_ENV and GITHUB_STATE. */
  exportedEnv: Record<string, string>
  state: Record<string, string>
  /** Requests the fake received during the run. */
  requests: RecordedRequest[]
  /** TCP connections the fake accepted during the run (keep-alive: far fewer than requests). */
  connections: number
  /** The environment the child ran with. */
  env: Record<string, string>
  runnerTemp: string
  eventPath: string
  /** When the child was spawned (`performance.now()`, the clock of `receivedMs`). */
  startedMs: number
  durationMs: number
  /** Removes RUNNER_TEMP (where the run's files live). */
  cleanup(): void
}

/** `INPUT_<NAME>` as `@actions/core` reads it: spaces → `_`, upper-cased, hyphens kept. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

const BASE_ENV_KEYS = ['PATH', 'HOME', 'LANG', 'TZ', 'SYSTEMROOT', 'TMPDIR'] as const

/**
 * What a child starts from, of this process's environment: the variables a runner (or a
 * developer's shell) has everywhere. Nothing else is passed on — in particular none of
 * node's own (NODE_OPTIONS, NODE_EXTRA_CA_CERTS, which this machine sets and which costs
 * Node 20 about 50 ms a start reading the certificates).
 */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const k of BASE_ENV_KEYS) {
    const v = process.env[k]
    if (v !== undefined) env[k] = v
  }
  return env
}

export async function runAction(options: RunActionOptions = {}): Promise<ActionRun> {
  const entry = resolve(options.entry ?? DEFAULT_ENTRY)
  if (!existsSync(entry))
    throw new Error(`action entry ${entry} does not exist (build it first?)`)
  const fake = options.fake
  const token = options.token ?? 'fake-token'
  const workspace = options.workspace ?? fake?.git.dir ?? process.cwd()
  const runnerTemp = mkdtempSync(join(tmpdir(), 'rg-runner-'))
  const files = {
    event: join(runnerTemp, '_github_workflow', 'event.json'),
    output: join(runnerTemp, '_runner_file_commands', 'set_output'),
    summary: join(runnerTemp, '_runner_file_commands', 'step_summary'),
    env: join(runnerTemp, '_runner_file_commands', 'set_env'),
    state: join(runnerTemp, '_runner_file_commands', 'save_state'),
    path: join(runnerTemp, '_runner_file_commands', 'add_path')
  }
  for (const f of Object.values(files)) {
    mkdirSync(dirname(f), { recursive: true })
    writeFileSync(f, '')
  }
  mkdirSync(join(runnerTemp, 'tool-cache'), { recursive: true })

  // Event payload and the refs the runner derives from it.
  const ev = options.event ?? { name: 'workflow_dispatch', payload: { inputs: {} } }
  let payload: unknown
  let sha = ''
  let ref = ''
  const extra: Record<string, string> = {}
  if ('pull' in ev) {
    if (!fake)
      throw new Error('a pull_request event needs the fake (for the PR metadata)')
    const p = await fake.pullRequestEvent(ev.pull, ev.action ?? 'synchronize')
    payload = p
    if (ev.name === 'pull_request') {
      sha = (await fake.mergeCommitSha(ev.pull)) ?? p.pull_request.head.sha
      ref = `refs/pull/${ev.pull}/merge`
    } else {
      sha = p.pull_request.base.sha
      ref = `refs/heads/${p.pull_request.base.ref}`
    }
    extra.GITHUB_HEAD_REF = p.pull_request.head.ref
    extra.GITHUB_BASE_REF = p.pull_request.base.ref
  } else {
    payload = ev.payload
    sha =
      ev.sha ?? (fake ? ((await fake.git.resolveCommit(fake.defaultBranch)) ?? '') : '')
    ref = ev.ref ?? `refs/heads/${fake?.defaultBranch ?? 'main'}`
  }
  writeFileSync(files.event, JSON.stringify(payload, null, 2))

  // Inputs: every input of action.yml with its default (as the runner does), then overrides.
  const ymlPath = options.actionYml ?? DEFAULT_ACTION_YML
  const fromYml = existsSync(ymlPath)
    ? parseActionInputs(readFileSync(ymlPath, 'utf8'))
    : {}
  const defaults = { ...fromYml, ...(options.inputDefaults ?? {}) }
  const expr = expressionContext(token, payload, fake?.fullName ?? '')
  const inputs: Record<string, string> = {}
  for (const [name, value] of Object.entries(defaults)) {
    inputs[inputEnvName(name)] = evaluate(value, expr, name)
  }
  for (const [name, value] of Object.entries(options.inputs ?? {}))
    inputs[inputEnvName(name)] = value

  const runId = options.runId ?? 1000
  const runAttempt = options.runAttempt ?? 1
  const env: Record<string, string> = baseEnv()
  Object.assign(env, {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: ev.name,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_SHA: sha,
    GITHUB_REF: ref,
    GITHUB_REF_NAME: ref.replace(/^refs\/(heads|tags)\//, '').replace(/^refs\//, ''),
    GITHUB_REF_TYPE: ref.startsWith('refs/tags/') ? 'tag' : 'branch',
    GITHUB_HEAD_REF: '',
    GITHUB_BASE_REF: '',
    GITHUB_WORKSPACE: workspace,
    GITHUB_RUN_ID: String(runId),
    GITHUB_RUN_NUMBER: '1',
    GITHUB_RUN_ATTEMPT: String(runAttempt),
    GITHUB_JOB: 'gate',
    GITHUB_WORKFLOW: 'Review receipts',
    GITHUB_WORKFLOW_REF: `${fake?.fullName ?? 'acme/widgets'}/.github/workflows/receipts.yml@${ref}`,
    GITHUB_ACTION: '__receipt-gate',
    GITHUB_ACTOR: 'octocat',
    GITHUB_TRIGGERING_ACTOR: 'octocat',
    GITHUB_RETENTION_DAYS: '90',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_STATE: files.state,
    GITHUB_PATH: files.path,
    RUNNER_TEMP: runnerTemp,
    RUNNER_TOOL_CACHE: join(runnerTemp, 'tool-cache'),
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_NAME: 'fake-runner',
    RUNNER_ENVIRONMENT: 'github-hosted',
    NO_PROXY: '127.0.0.1,localhost',
    ...extra
  })
  if (options.debug) env.RUNNER_DEBUG = '1'
  if (fake) {
    Object.assign(env, fake.env())
  } else {
    env.GITHUB_SERVER_URL = 'https://github.com'
  }
  Object.assign(env, inputs)
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }

  const first = fake?.requests.length ?? 0
  const connectionsBefore = fake?.connections ?? 0
  const t0 = performance.now()
  const [command, ...prefixArgs] = options.prefix ?? [process.execPath]
  const child = spawn(command!, [...prefixArgs, entry], {
    cwd: workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (c: Buffer) => out.push(c))
  child.stderr.on('data', (c: Buffer) => err.push(c))
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, options.timeoutMs ?? 30_000)
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>(
    (res, rej) => {
      child.once('error', rej)
      child.once('close', (code, sig) => res([code, sig]))
    }
  )
  clearTimeout(timer)
  const durationMs = performance.now() - t0

  return {
    exitCode,
    signal,
    timedOut,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    outputs: parseFileCommand(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
    exportedEnv: parseFileCommand(readFileSync(files.env, 'utf8')),
    state: parseFileCommand(readFileSync(files.state, 'utf8')),
    requests: fake ? fake.requests.slice(first) : [],
    connections: fake ? fake.connections - connectionsBefore : 0,
    env,
    runnerTemp,
    eventPath: files.event,
    startedMs: t0,
    durationMs,
    cleanup: () => rmSync(runnerTemp, { recursive: true, force: true })
  }
}

/**
 * Parses a GITHUB_OUTPUT / GITHUB_ENV / GITHUB_STATE file like the runner: `name=value` lines
 * and `name<<DELIMITER` blocks ending at a line equal to the delimiter. Throws on an
 * unterminated block (the runner fails the step then).
 */
export function parseFileCommand(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split(/\r?\n/)
  if (lines.length && lines[lines.length - 1] === '') lines.pop()
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line === '') continue
    const heredoc = line.indexOf('<<')
    const eq = line.indexOf('=')
    if (heredoc > 0 && (eq < 0 || heredoc < eq)) {
      const name = line.slice(0, heredoc)
      const delimiter = line.slice(heredoc + 2)
      if (!delimiter) throw new Error(`file command: empty delimiter for ${name}`)
      const value: string[] = []
      let closed = false
      for (i++; i < lines.length; i++) {
        if (lines[i] === delimiter) {
          closed = true
          break
        }
        value.push(lines[i]!)
      }
      if (!closed)
        throw new Error(`file command: matching delimiter not found '${delimiter}'`)
      out[name] = value.join('\n')
    } else if (eq > 0) {
      out[line.slice(0, eq)] = line.slice(eq + 1)
    } else {
      throw new Error(`file command: invalid line '${line}'`)
    }
  }
  return out
}

/**
 * Input defaults from action.yml (`inputs.<name>.default`), for the YAML subset action
 * metadata uses: plain, single- and double-quoted scalars and `|` / `>` block scalars.
 * Inputs without a default are absent (the runner sets no INPUT_ variable for them).
 */
export function parseActionInputs(yml: string): Record<string, string> {
  const lines = yml.split(/\r?\n/)
  const indentOf = (l: string) => l.length - l.trimStart().length
  const meaningful = (l: string) => l.trim() !== '' && !l.trim().startsWith('#')
  const out: Record<string, string> = {}
  const start = lines.findIndex((l) => /^inputs:\s*(#.*)?$/.test(l))
  if (start < 0) return out
  let inputIndent = -1
  let current: string | undefined
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!
    if (!meaningful(line)) continue
    const ind = indentOf(line)
    if (ind === 0) break
    if (inputIndent < 0) inputIndent = ind
    const m = /^\s*([^:#]+?)\s*:\s*(.*)$/.exec(line)
    if (!m) continue
    if (ind === inputIndent) {
      current = unquote(m[1]!)
      continue
    }
    if (!current || m[1] !== 'default') continue
    const raw = m[2]!
    const block = /^([|>])([+-]?)\s*(#.*)?$/.exec(raw)
    if (block) {
      const body: string[] = []
      let blockIndent = -1
      let j = i + 1
      for (; j < lines.length; j++) {
        const l = lines[j]!
        if (l.trim() === '') {
          body.push('')
          continue
        }
        const li = indentOf(l)
        if (li <= ind) break
        if (blockIndent < 0) blockIndent = li
        body.push(l.slice(blockIndent))
      }
      i = j - 1
      while (body.length && body[body.length - 1] === '') body.pop()
      let text = block[1] === '|' ? body.join('\n') : foldLines(body)
      if (block[2] !== '-') text += '\n'
      out[current] = text
    } else {
      out[current] = scalar(raw)
    }
  }
  return out
}

function foldLines(lines: string[]): string {
  return lines.reduce((acc, l, idx) => {
    if (idx === 0) return l
    if (l === '') return acc + '\n'
    return acc.endsWith('\n') ? acc + l : `${acc} ${l}`
  }, '')
}

function unquote(s: string): string {
  return scalar(s)
}

function scalar(raw: string): string {
  const s = raw.trim()
  if (s.startsWith("'")) return s.slice(1, s.lastIndexOf("'")).replace(/''/g, "'")
  if (s.startsWith('"')) return JSON.parse(s.slice(0, s.lastIndexOf('"') + 1)) as string
  return s.replace(/\s+#.*$/, '')
}

interface ExprContext {
  github: Record<string, unknown>
}

function expressionContext(
  token: string,
  payload: unknown,
  repository: string
): ExprContext {
  return { github: { token, event: payload, repository } }
}

/** Evaluates `${{ github.x.y }}` in a default like the runner; other expressions throw. */
function evaluate(value: string, ctx: ExprContext, input: string): string {
  return value.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_all, expression: string) => {
    if (!/^github(\.[A-Za-z_][\w-]*)+$/.test(expression)) {
      throw new Error(`input ${input}: unsupported expression \${{ ${expression} }}`)
    }
    let v: unknown = ctx
    for (const k of expression.split('.')) {
      v =
        v !== null && typeof v === 'object'
          ? (v as Record<string, unknown>)[k]
          : undefined
    }
    if (v === undefined || v === null) return ''
    if (typeof v === 'string') return v
    if (typeof v === 'number' || typeof v === 'boolean') return String(v)
    return JSON.stringify(v)
  })
}
