/**
 * Logging untrusted text. Receipt text may hold `::set-output`, `::add-mask` or
 * `##[error]`: printed raw, the runner would execute it. Every untrusted line goes
 * between `::stop-commands::<token>` and `::<token>::`, which turns command processing
 * off for the lines between; the token is one that none of the lines holds.
 */
import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import { terminalLine } from '../util/safe-text.js'

/** Prints `lines` with workflow commands disabled (`draw`: the token's source, for tests). */
export function logUntrusted(
  write: (line: string) => void,
  lines: readonly string[],
  draw: () => string = randomUUID
): void {
  if (lines.length === 0) return
  // Inside the block the runner executes nothing, but its log viewer still renders ANSI
  // escapes and bidi overrides: those (and every other control) are shown as \u{…}.
  const shown = lines.map((line) => terminalLine(line.replace(/\r?\n|\r/g, ' ')))
  // Safety comes from this check, not from the randomness: no line can end the block.
  let token = draw()
  while (shown.some((line) => line.includes(token))) token = draw()
  write(`::stop-commands::${token}`)
  for (const line of shown) write(line)
  write(`::${token}::`)
}

/**
 * A decision for the step's debug log, shown with ACTIONS_STEP_DEBUG or a re-run with
 * debug logging. Its text may be hostile: a `::debug::` line's data runs nothing, and
 * as one line with every control shown as `\u{…}` it cannot start another line or
 * paint the log.
 */
export const logDebug = (message: string): void => core.debug(terminalLine(message))

/** {@link logUntrusted} to the step's log. */
export const logUntrustedLines = (lines: readonly string[]): void =>
  logUntrusted(core.info, lines)
