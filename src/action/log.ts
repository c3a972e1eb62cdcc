/**
 * Logging untrusted text. Receipt text may hold `::set-output`, `::add-mask` or
 * `##[error]`: printed raw, the runner would execute it. Every untrusted line goes
 * between `::stop-commands::<token>` and `::<token>::`, which turns command processing
 * off for the lines between; the token is one that none of the lines holds (tokens.ts).
 */
import { terminalLine } from '../render/safe-text.js'
import { unusedToken } from './tokens.js'

/** Prints `lines` with workflow commands disabled; `write` is the raw stdout writer. */
export function logUntrusted(
  write: (line: string) => void,
  lines: readonly string[]
): void {
  if (lines.length === 0) return
  // Inside the block the runner executes nothing, but its log viewer still renders ANSI
  // escapes and bidi overrides: those (and every other control) are shown as \u{…}.
  const shown = lines.map((line) => terminalLine(line.replace(/\r?\n|\r/g, ' ')))
  // A token that none of the lines holds: none of them can end the block.
  const token = unusedToken(shown)
  write(`::stop-commands::${token}`)
  for (const line of shown) write(line)
  write(`::${token}::`)
}
