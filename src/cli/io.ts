/** What a CLI command may touch: its streams, files and environment, passed in for tests. */
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

/** A usage or environment error: one line on stderr and exit code 2. */
export class CliError extends Error {}
