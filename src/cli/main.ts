/**
 * The `receipt-gate` command line: dispatches to a command and turns usage and
 * environment errors into one line on stderr and exit code 2 — never a stack trace.
 */
import packageJson from '../../package.json' with { type: 'json' }
import { CliError, type CliIo } from './io.js'
import { checkCommand } from './check-command.js'
import { validateCommand } from './validate-command.js'

/** package.json's version, bundled in at build time. */
export const VERSION: string = packageJson.version

const USAGE = `Usage: receipt-gate <command> [options]

Commands:
  check            run the gate on a local git repository (see check --help)
  validate FILE…   check receipt files on their own (envelope + projection)

Options:
  --help           show help (also: receipt-gate <command> --help)
  --version        print the version

Examples:
  receipt-gate check --base origin/main
  receipt-gate validate .flow/review-receipts/*.json
`

type Command = (argv: readonly string[], io: CliIo) => number | Promise<number>

const COMMANDS: Record<string, Command> = {
  check: checkCommand,
  validate: validateCommand
}

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE)
    return name === undefined ? 2 : 0
  }
  if (name === '--version') {
    io.stdout(`${VERSION}\n`)
    return 0
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr(
      `receipt-gate: unknown command ${JSON.stringify(name)} (try: ${Object.keys(COMMANDS).join(', ')})\n`
    )
    return 2
  }
  try {
    return await command(rest, io)
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`receipt-gate ${name}: ${error.message}\n`)
      return 2
    }
    io.stderr(
      `receipt-gate ${name}: ${error instanceof Error ? error.message : String(error)}\n`
    )
    return 2
  }
}
