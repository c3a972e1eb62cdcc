/**
 * Runs the CLI's bundle through V8's code cache (issue 7). A check of ten receipts spends
 * about a fifth of its time compiling the bundle — the module itself, then each function
 * as it is first called. `dist/cli-body.js` is therefore a classic script (one async
 * function, written by scripts/build.mjs from ncc's output) that this module compiles
 * with the code V8 produced on an earlier run, and saves that code after a run that had
 * none. It is what Node 22's `module.enableCompileCache()` does for modules, written for
 * the Node 20 this CLI also supports.
 *
 * Nothing here may change an outcome: a cache that cannot be read, written or used
 * (another V8, flags, a damaged file: V8 checks and refuses it) only costs the compile.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'

/**
 * The body's first line, written by the build. V8 checks a cache against the source's
 * length only, so the key must name the content: a rebuilt body of the same length
 * must never run code compiled from the last one.
 */
const HEADER = /^\/\*! receipt-gate cli body sha256:([0-9a-f]{64}) \*\//

/** What the body is: ncc's output wrapped in `async function (createRequire, url)`. */
type Body = (require: typeof createRequire, url: string) => Promise<void>

/**
 * Where cached code lives: `RECEIPT_GATE_CACHE_DIR` (empty: none), else the user's cache
 * folder. `NODE_DISABLE_COMPILE_CACHE=1`, Node's own switch for its compile cache, turns
 * this one off too. Never a shared temporary folder: cached code is run as trusted.
 */
export function cacheDir(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform
): string | null {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return null
  if (env.RECEIPT_GATE_CACHE_DIR !== undefined) return env.RECEIPT_GATE_CACHE_DIR || null
  const base =
    env.XDG_CACHE_HOME ||
    (platform === 'win32' ? env.LOCALAPPDATA : undefined) ||
    (env.HOME ? join(env.HOME, platform === 'darwin' ? 'Library/Caches' : '.cache') : '')
  return base ? join(base, 'receipt-gate') : null
}

/**
 * The command a run's code is cached for. A cache holds the functions compiled by the run
 * that wrote it, and V8 takes it whichever run reads it: one written by `--version` holds
 * little of what `check` runs, which would then compile the rest again on every run
 * (about 13 ms here). So each command keeps a cache of its own.
 */
export function cacheKind(args: readonly string[]): 'check' | 'validate' | 'other' {
  const command = args[0]
  return command === 'check' || command === 'validate' ? command : 'other'
}

/**
 * The node flags a run was started with, as a key part: V8 refuses code cached under other
 * flags (`--max-old-space-size` among them), and the run that is refused writes its own,
 * so runs that alternate flags (a `NODE_OPTIONS` set in some shells only) would each
 * throw away the other's. '' without flags, the usual case, which keeps the usual name.
 */
export function flagsKey(
  execArgv: readonly string[],
  nodeOptions: string | undefined
): string {
  const flags = [...execArgv, nodeOptions ?? ''].join('\0')
  if (flags === '') return ''
  // FNV-1a: a name, not a guard (V8 checks the flags of what it takes), and node:crypto
  // costs 6–9 ms to load.
  let hash = 0x811c9dc5
  for (let i = 0; i < flags.length; i++) {
    hash ^= flags.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}

/**
 * The cache file for one body, one command and one set of node flags on this V8 (V8
 * would refuse another's code anyway).
 */
export function cacheFile(
  dir: string,
  source: string,
  kind: ReturnType<typeof cacheKind>,
  flags = ''
): string | null {
  const hash = HEADER.exec(source)?.[1]
  if (!hash) return null
  const flagged = flags ? `flags-${flags}-` : ''
  return join(
    dir,
    `cli-${hash.slice(0, 32)}-${kind}-${flagged}v8-${process.versions.v8}-${process.arch}.bin`
  )
}

/** Compiles and runs the body at `url`, with and for the code cache. */
export async function runBody(
  url: URL,
  env: NodeJS.ProcessEnv = process.env,
  args: readonly string[] = process.argv.slice(2)
): Promise<void> {
  const filename = fileURLToPath(url)
  const source = readFileSync(filename, 'utf8')
  const dir = cacheDir(env, process.platform)
  const flags = flagsKey(process.execArgv, env.NODE_OPTIONS)
  const file = dir === null ? null : cacheFile(dir, source, cacheKind(args), flags)
  const cachedData = file === null ? undefined : readCache(file)
  const script = new Script(source, { filename, cachedData })
  const body = script.runInThisContext() as Body
  await body(createRequire, url.href)
  // After the run, so the code of every function the run called is in it.
  if (file !== null && (cachedData === undefined || script.cachedDataRejected === true))
    writeCache(file, script.createCachedData())
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** A cache file not written for this long is dropped when another is written. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000

/** Written aside and renamed into place: a concurrent run reads all of it or none. */
function writeCache(file: string, data: Buffer): void {
  const aside = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    writeFileSync(aside, data, { mode: 0o600 })
    renameSync(aside, file)
    dropStale(dirname(file), basename(file))
  } catch {
    try {
      rmSync(aside, { force: true })
    } catch {
      // Nothing was written where nothing could be (a file in place of the folder).
    }
  }
}

/**
 * A cache file of any build, command, flags and V8 (files of builds before caches per
 * command have no command).
 */
const CACHE_NAME =
  /^cli-[0-9a-f]{32}-(?:[a-z]+-)?(?:flags-[0-9a-f]{8}-)?v8-.*\.bin(\.\d+\.tmp)?$/

/**
 * Each build of the CLI and each V8 writes a file of its own: those of builds no longer
 * run would pile up. Only on a write (a new build's first run of a command), so a run that
 * uses the cache never lists the folder. The caches of this build (its other commands)
 * are in use, however old (a run that reads a cache does not touch it); a file left
 * aside by a write that did not finish is dropped like another build's.
 */
function dropStale(dir: string, kept: string): void {
  const now = Date.now()
  const build = kept.slice(0, 'cli-'.length + 32)
  for (const name of readdirSync(dir)) {
    if (!CACHE_NAME.test(name) || (name.startsWith(build) && name.endsWith('.bin')))
      continue
    const path = join(dir, name)
    if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true })
  }
}
