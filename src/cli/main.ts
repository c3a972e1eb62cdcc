/**
 * The `receipt-gate` command line: dispatches to a command and turns usage and
 * environment errors into one line on stderr and exit code 2 — never a stack trace.
 */
import packageJson from '../../package.json' with { type: 'json' }
import {
  parseArgs,
  valueFlags,
  type CliIo,
  type FlagSpec,
  type ParsedArgs
} from './args.js'
import { CHECK_FLAGS, CHECK_USAGE } from './check-command.js'
import { LAND_FLAGS, LAND_USAGE, checkOrLand, landCommand } from './land-command.js'
import { VALIDATE_USAGE, validateCommand } from './validate-command.js'

/** package.json's version, bundled in at build time. */
export const VERSION: string = packageJson.version

const USAGE = `Usage: receipt-gate <command> [options]

Commands:
  check            run the gate on a local git repository (see check --help)
  land             Flow-Next land's merge-verdict command (see land --help)
  validate FILE…   check receipt files on their own (envelope + projection)

Options:
  --help           show help (also: receipt-gate <command> --help)
  --version        print the version

Examples:
  receipt-gate check --base origin/main
  receipt-gate validate .flow/review-receipts/*.json
`

interface Command {
  flags: FlagSpec
  usage: string
  run: (args: ParsedArgs, io: CliIo) => number | Promise<number>
}

const COMMANDS: Record<string, Command> = {
  check: { flags: CHECK_FLAGS, usage: CHECK_USAGE, run: checkOrLand },
  land: { flags: LAND_FLAGS, usage: LAND_USAGE, run: landCommand },
  validate: { flags: valueFlags(['format']), usage: VALIDATE_USAGE, run: validateCommand }
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
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!command) {
    io.stderr(
      `receipt-gate: unknown command ${JSON.stringify(name)} (try: ${Object.keys(COMMANDS).join(', ')})\n`
    )
    return 2
  }
  try {
    // `-h` is `--help` wherever help is (`check -h`), as for the command itself.
    const help = { type: 'boolean', short: 'h' } as const
    const args = parseArgs(rest, { ...command.flags, help })
    if (!args.flags.has('help')) return await command.run(args, io)
    io.stdout(command.usage)
    return 0
  } catch (error) {
    // A CliError says what to fix; anything else (git's, GitHub's) is one line too.
    io.stderr(
      `receipt-gate ${name}: ${error instanceof Error ? error.message : String(error)}\n`
    )
    return 2
  }
}
