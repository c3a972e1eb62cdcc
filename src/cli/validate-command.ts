/**
 * `receipt-gate validate FILE…`: each receipt file alone (no git), for editors and
 * pre-commit hooks. Prints the envelope verdict and the projection state with reasons.
 * Exit 0 when every file is readable with a valid or absent projection, else 1.
 */
import { inspectReceipt, type InspectedReceipt } from '../receipts/receipt.js'
import { terminalLine } from '../render/safe-text.js'
import { choice, parseArgs } from './args.js'
import { CliError, type CliIo } from './io.js'

export const VALIDATE_USAGE = `Usage: receipt-gate validate [--format text|json] FILE…

Checks review receipt files on their own: the envelope as flow-next's Ralph guard
reads it, and the structured projection (findings v1, criteria) exactly as flowctl
validates it. Exit 0 when every file is readable and its projection valid or absent,
1 otherwise, 2 on usage errors.

Example:
  receipt-gate validate .flow/review-receipts/*.json
`

/** One file's verdict in the JSON form of `validate`. */
export interface ValidateRow {
  path: string
  readable: boolean
  reason: string | null
  type: string | null
  id: string | null
  mode: string | null
  verdict: string | null
  structured: 'valid' | 'absent' | 'invalid' | null
  structuredReasons: string[]
  findings: number | null
  round: number | null
  headSha: string | null
  criteria: number | null
}

/** Runs the command; returns the exit code. */
export function validateCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, { format: 'value', help: 'boolean' })
  if (args.flags.has('help')) {
    io.stdout(VALIDATE_USAGE)
    return 0
  }
  const format = choice(args, 'format', ['text', 'json'] as const, 'text')
  if (args.positionals.length === 0)
    throw new CliError('validate needs at least one FILE (see --help)')
  const rows = args.positionals.map((path) => toRow(readAndInspect(path, io)))
  io.stdout(
    format === 'json' ? `${JSON.stringify(rows, null, 2)}\n` : rows.map(textOf).join('')
  )
  return rows.every((row) => row.readable && row.structured !== 'invalid') ? 0 : 1
}

function readAndInspect(path: string, io: CliIo): InspectedReceipt {
  let bytes: Uint8Array
  try {
    bytes = io.readFile(path)
  } catch (error) {
    return {
      readable: false,
      path,
      reason: `cannot read the file (${errorCode(error)})`,
      data: null
    }
  }
  return inspectReceipt(path, bytes)
}

/** The JSON row of one inspected receipt. */
export function toRow(receipt: InspectedReceipt): ValidateRow {
  if (!receipt.readable) {
    return {
      path: receipt.path,
      readable: false,
      reason: receipt.reason,
      type: null,
      id: null,
      mode: null,
      verdict: null,
      structured: null,
      structuredReasons: [],
      findings: null,
      round: null,
      headSha: null,
      criteria: null
    }
  }
  const { envelope, projection } = receipt
  return {
    path: receipt.path,
    readable: true,
    reason: null,
    type: envelope.type,
    id: envelope.id,
    mode: envelope.mode,
    verdict: envelope.verdict,
    structured: projection.state,
    structuredReasons: projection.reasons,
    findings: projection.findings?.items.length ?? null,
    round: projection.findings?.round ?? null,
    headSha: projection.findings?.headSha ?? null,
    criteria: projection.criteria?.length ?? null
  }
}

function textOf(row: ValidateRow): string {
  const lines = [terminalLine(row.path)]
  if (!row.readable) {
    lines.push(`  unreadable: ${terminalLine(row.reason ?? '')}`)
    return `${lines.join('\n')}\n`
  }
  lines.push(
    `  envelope: ok — ${terminalLine(row.type ?? '')} ${terminalLine(row.id ?? '')}, verdict ${row.verdict}, mode ${terminalLine(row.mode ?? '(none)')}`
  )
  if (row.structured === 'valid') {
    const criteria = row.criteria === null ? '' : `, ${row.criteria} criteria`
    lines.push(
      `  projection: valid — ${row.findings} finding${row.findings === 1 ? '' : 's'}, round ${row.round}, head ${terminalLine(row.headSha ?? '')}${criteria}`
    )
  } else if (row.structured === 'absent') {
    lines.push(
      `  projection: absent — legacy receipt (verdict and prose only)${row.criteria === null ? '' : `, ${row.criteria} criteria`}`
    )
  } else {
    lines.push('  projection: invalid — the receipt falls back to verdict and prose:')
    for (const reason of row.structuredReasons)
      lines.push(`    - ${terminalLine(reason)}`)
  }
  return `${lines.join('\n')}\n`
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error)
    return String(error.code)
  return error instanceof Error ? error.message : String(error)
}
