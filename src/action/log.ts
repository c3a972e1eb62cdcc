/**
 * Logging untrusted text. Receipt text may hold `::set-output`, `::add-mask` or
 * `##[error]`: printed raw, the runner would execute it. Every untrusted line goes
 * between `::stop-commands::<random token>` and `::<token>::`, which turns command
 * processing off for the lines between.
 */
import { randomUUID } from 'node:crypto'
import { terminalLine } from '../render/safe-text.js'

/** Prints `lines` with workflow commands disabled; `write` is the raw stdout writer. */
export function logUntrusted(
  write: (line: string) => void,
  lines: readonly string[]
): void {
  if (lines.length === 0) return
  const token = randomUUID()
  write(`::stop-commands::${token}`)
  // Inside the block the runner executes nothing, but its log viewer still renders ANSI
  // escapes and bidi overrides: those (and every other control) are shown as \u{…}.
  for (const line of lines) write(terminalLine(line.replace(/\r?\n|\r/g, ' ')))
  write(`::${token}::`)
}
