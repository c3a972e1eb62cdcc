/**
 * What a CLI command gets: its streams, files and environment (passed in for tests), and
 * a small, strict argument parser: `--flag value`, `--flag=value`, boolean flags and
 * positionals. Unknown flags and missing values are usage errors that name the flag.
 */
import { terminalLine } from '../util/safe-text.js'

export interface CliIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Reads a file's bytes (throws with a message when it cannot). */
  readFile: (path: string) => Uint8Array
  /** Working directory for relative paths. */
  cwd: string
  /** True when stdout is a terminal that may take colours. */
  color: boolean
  /** The terminal's width for text output; undefined (a pipe, a file): 100 columns. */
  columns?: number | undefined
  env: Readonly<Record<string, string | undefined>>
}

/** What to do without a token, in the words every such error uses. */
export const NEEDS_TOKEN =
  'needs a token: set GITHUB_TOKEN or GH_TOKEN, or log in with gh auth login'

/** A usage or environment error: one line on stderr and exit code 2. */
export class CliError extends Error {}

/** The flags a command accepts: name → whether it takes a value. */
export type FlagSpec = Readonly<Record<string, 'value' | 'boolean'>>

export interface ParsedArgs {
  /** The flags given, by name: their values ('' for a boolean flag). */
  flags: Map<string, string>
  positionals: string[]
}

/**
 * The flags a usage text documents, so the two cannot disagree: `  --name WORD` takes a
 * value, a bare `  --name` (its description two spaces on) does not.
 */
export function flagsFromUsage(usage: string): FlagSpec {
  return Object.fromEntries(
    [...usage.matchAll(/^ {2}--([a-z-]+)( \S)?/gm)].map((m) => [
      m[1] as string,
      m[2] ? 'value' : 'boolean'
    ])
  )
}

/** Parses `argv` against `spec`; throws {@link CliError} on anything it does not know. */
export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags = new Map<string, string>()
  const positionals: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string
    if (word === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    // `-h` is `--help` wherever help is (`check -h`), as for the command itself.
    if (word === '-h' && Object.hasOwn(spec, 'help')) {
      flags.set('help', '')
      continue
    }
    if (!word.startsWith('--') || word === '-') {
      if (word.startsWith('-') && word !== '-')
        throw new CliError(`unknown option ${word}`)
      positionals.push(word)
      continue
    }
    const eq = word.indexOf('=')
    const name = word.slice(2, eq === -1 ? undefined : eq)
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined
    if (kind === undefined) throw new CliError(`unknown option --${name}`)
    if (kind === 'boolean') {
      if (eq !== -1) throw new CliError(`--${name} takes no value`)
      flags.set(name, '')
      continue
    }
    const value = eq === -1 ? argv[++i] : word.slice(eq + 1)
    if (value === undefined) throw new CliError(`--${name} needs a value`)
    flags.set(name, value)
  }
  return { flags, positionals }
}

/** `--format`: one of `formats`, the first by default; a usage error names them all. */
export function formatFlag<T extends string>(
  args: ParsedArgs,
  formats: readonly [T, ...T[]]
): T {
  const value = args.flags.get('format') ?? formats[0]
  if ((formats as readonly string[]).includes(value)) return value as T
  throw new CliError(
    `--format must be one of ${formats.join(', ')} (got ${JSON.stringify(value)})`
  )
}

/** A pull request number (`what` names where it came from for the error). */
export function prNumber(value: string, what: string): number {
  // At most ten digits: always a safe integer.
  if (!/^[1-9][0-9]{0,9}$/.test(value))
    throw new CliError(
      `${what} must be a pull request number (got ${JSON.stringify(terminalLine(value))})`
    )
  return Number(value)
}
