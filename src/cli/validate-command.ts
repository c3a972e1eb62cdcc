/**
 * `receipt-gate validate FILE…`: each receipt file alone (no git), for editors and
 * pre-commit hooks. What it checks and its exit codes: VALIDATE_USAGE below.
 */
import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { basename } from 'node:path/posix'
import { HISTORY_DIR } from '../gate/plan.js'
import { selectGeneration } from '../gate/row.js'
import { loadGenerations, type HistoryFile } from '../receipts/lineage.js'
import { inspectReceipt, type InspectedReceipt } from '../receipts/receipt.js'
import { plural } from '../util/plural.js'
import { terminalLine } from '../util/safe-text.js'
import { CliError, formatFlag, type CliIo, type ParsedArgs } from './args.js'

export const VALIDATE_USAGE = `Usage: receipt-gate validate [--format text|json] FILE|FOLDER…

Checks review receipt files on their own: the envelope as flow-next's Ralph guard
reads it, and the structured projection (findings v1, criteria) exactly as flowctl
validates it. A FOLDER stands for the receipts in it, as check finds them: every
*.json under it, those inside a *.history/ folder left out. A receipt with a lineage (FILE.history/ beside it, or a round past 1)
has it checked as \`check\` reads it. Exit 0 when every file is readable, its
projection valid or absent and its lineage sound, 1 otherwise, 2 on usage errors.

Examples:
  receipt-gate validate .flow/review-receipts/*.json
  receipt-gate validate .flow/review-receipts
`

/** One file's verdict in the JSON form of `validate`: every key, null when unknown. */
interface ValidateRow {
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
  /** As `check` reads it: `ambiguous` is check's unknown state; null without a lineage. */
  lineage:
    { state: 'ok'; generations: number } | { state: 'ambiguous'; reason: string } | null
}

/** Runs the command; returns the exit code. */
export function validateCommand(args: ParsedArgs, io: CliIo): number {
  const format = formatFlag(args, ['text', 'json'])
  if (args.positionals.length === 0)
    throw new CliError('no FILE given: name one or more receipt files (see --help)')
  const files = args.positionals.flatMap((path) => receiptFiles(path, io))
  const rows = files.map((path) => toRow(readAndInspect(path, io), io))
  io.stdout(
    format === 'json' ? `${JSON.stringify(rows, null, 2)}\n` : rows.map(textOf).join('')
  )
  return rows.every(
    (row) =>
      row.readable && row.structured !== 'invalid' && row.lineage?.state !== 'ambiguous'
  )
    ? 0
    : 1
}

/**
 * A FILE as given; a FOLDER as the receipts under it (`*.json`, not in a `*.history/`
 * folder: those are generations, checked with their receipt), sorted.
 */
function receiptFiles(path: string, io: CliIo): string[] {
  const full = resolve(io.cwd, path)
  let folder = false
  try {
    folder = statSync(full).isDirectory()
  } catch {
    // Not there: readBytes says so for the file.
  }
  if (!folder) return [path]
  const found = readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split('\\').join('/'))
    .filter(
      (name) =>
        name.endsWith('.json') &&
        !HISTORY_DIR.test(name) &&
        !statSync(join(full, name)).isDirectory()
    )
    .sort()
  // None: the folder's own row says so (EISDIR below).
  return found.length === 0 ? [path] : found.map((name) => join(path, name))
}

function readAndInspect(path: string, io: CliIo): InspectedReceipt {
  const bytes = readBytes(resolve(io.cwd, path), io)
  return 'unreadable' in bytes
    ? { readable: false, path, reason: bytes.unreadable, data: null }
    : inspectReceipt(path, bytes)
}

/**
 * The lineage `check` would select from: the history folder beside the receipt (read
 * whole, as check lists it) with the receipt as the latest generation, its own head
 * taken as the current one. Structural faults (a missing parent, a shared id, a fork)
 * are then check's `ambiguous`, whatever the commit it runs at.
 */
function checkLineage(receipt: InspectedReceipt, io: CliIo): ValidateRow['lineage'] {
  const container = receipt.readable ? receipt.projection.findings : null
  if (!receipt.readable || receipt.projection.state !== 'valid' || !container) return null
  const folder = resolve(io.cwd, `${receipt.path}.history`)
  let names: string[] | null
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json'))
  } catch (error) {
    // No history folder is the common case; any other failure is the system's to report.
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
    names = null
  }
  if (names === null && container.round <= 1) return null
  const history: HistoryFile[] = (names ?? []).map((name) => ({
    name,
    bytes: readBytes(resolve(folder, name), io)
  }))
  const name = basename(receipt.path)
  const loaded = loadGenerations(
    { receipt: receipt.data, findings: container, name },
    history
  )
  if (!loaded.ok) return { state: 'ambiguous', reason: loaded.reason }
  const selection = selectGeneration(
    receipt,
    loaded.generations,
    (sha) => sha === container.headSha
  )
  if (selection.state === 'ambiguous') {
    const missing =
      names === null ? ` (no ${terminalLine(name)}.history/ folder beside it)` : ''
    return { state: 'ambiguous', reason: `${selection.reason}${missing}` }
  }
  return { state: 'ok', generations: loaded.generations.length }
}

function toRow(receipt: InspectedReceipt, io: CliIo): ValidateRow {
  const envelope = receipt.readable ? receipt.envelope : null
  const projection = receipt.readable ? receipt.projection : null
  return {
    path: receipt.path,
    readable: receipt.readable,
    reason: receipt.readable ? null : receipt.reason,
    type: envelope?.type ?? null,
    id: envelope?.id ?? null,
    mode: envelope?.mode ?? null,
    verdict: envelope?.verdict ?? null,
    structured: projection?.state ?? null,
    structuredReasons: projection?.reasons ?? [],
    findings: projection?.findings?.items.length ?? null,
    round: projection?.findings?.round ?? null,
    headSha: projection?.findings?.headSha ?? null,
    criteria: projection?.criteria?.length ?? null,
    lineage: checkLineage(receipt, io)
  }
}

function textOf(row: ValidateRow): string {
  if (!row.readable)
    return `${terminalLine(row.path)}\n  unreadable: ${terminalLine(row.reason ?? '')}\n`
  const lines = [terminalLine(row.path)]
  lines.push(
    `  envelope: ok — ${terminalLine(row.type ?? '')} ${terminalLine(row.id ?? '')}, verdict ${row.verdict}, mode ${terminalLine(row.mode ?? '(none)')}`
  )
  const criteria = row.criteria === null ? '' : `, ${row.criteria} criteria`
  if (row.structured === 'valid')
    lines.push(
      `  projection: valid — ${plural(row.findings ?? 0, 'finding')}, round ${row.round}, head ${terminalLine(row.headSha ?? '')}${criteria}`
    )
  else if (row.structured === 'absent')
    lines.push(
      `  projection: absent — legacy receipt (verdict and prose only)${criteria}`
    )
  else {
    lines.push('  projection: invalid — the receipt falls back to verdict and prose:')
    for (const reason of row.structuredReasons)
      lines.push(`    - ${terminalLine(reason)}`)
  }
  if (row.lineage?.state === 'ok')
    lines.push(`  lineage: ok — ${plural(row.lineage.generations, 'generation')}`)
  else if (row.lineage?.state === 'ambiguous')
    lines.push(
      `  lineage: ambiguous — check would refuse it: ${terminalLine(row.lineage.reason)}`
    )
  return `${lines.join('\n')}\n`
}

const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a folder with no receipt file (*.json) in it',
  EACCES: 'permission denied',
  ENOTDIR: 'no such file (a part of the path is not a folder)'
}

/** A file's bytes, or why it could not be read in words (not `EISDIR`). */
function readBytes(path: string, io: CliIo): HistoryFile['bytes'] {
  try {
    return io.readFile(path)
  } catch (error) {
    const code =
      typeof error === 'object' && error !== null && 'code' in error
        ? String(error.code)
        : ''
    const why = code || (error instanceof Error ? error.message : String(error))
    return { unreadable: READ_ERRORS[code] ?? `cannot read the file (${why})` }
  }
}
