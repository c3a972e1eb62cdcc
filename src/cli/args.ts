/**
 * What a CLI command gets: its streams, files and environment (passed in for tests), and
 * a small, strict argument parser: `--flag value`, `--flag=value`, boolean flags and
 * positionals. Unknown flags and missing values are usage errors that name the flag.
 */
import { parseArgs as parseArgsStrict } from 'node:util'
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

/** The flags a command accepts, as `util.parseArgs` takes them: each a string or a boolean. */
export type FlagSpec = Readonly<
  Record<string, { type: 'string' | 'boolean'; short?: string }>
>

/** Flags that each take a value. */
export function valueFlags(names: readonly string[]): FlagSpec {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }] as const))
}

export interface ParsedArgs {
  /** The flags given, by name: their values ('' for a boolean flag). */
  flags: Map<string, string>
  positionals: string[]
}

/** Parses `argv` against `spec` (node's `util.parseArgs`, strict); a {@link CliError} names the flag. */
export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  try {
    const parsed = parseArgsStrict({
      args: [...argv],
      options: spec,
      allowPositionals: true
    })
    const flags = Object.entries(parsed.values).map(
      ([name, value]) => [name, typeof value === 'string' ? value : ''] as const
    )
    return { flags: new Map(flags), positionals: parsed.positionals }
  } catch (error) {
    throw usageError(error)
  }
}

/** Node's parse error in the CLI's words, one line: the flag and what is wrong with it. */
function usageError(error: unknown): unknown {
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof message !== 'string' || typeof code !== 'string') return error
  const flag = terminalLine(/'(-[^' ]*)/.exec(message)?.[1] ?? '')
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new CliError(`unknown option ${flag}`)
  if (code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return error
  if (message.includes('does not take an argument'))
    return new CliError(`${flag} takes no value`)
  // `--base -x`: a value that looks like a flag is taken only as `--base=-x`.
  const dash = message.includes('ambiguous')
    ? ` (one starting with "-": ${flag}=VALUE)`
    : ''
  return new CliError(`${flag} needs a value${dash}`)
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
