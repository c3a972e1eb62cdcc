/**
 * The runner's commands the action uses, written as `@actions/core` writes them (log
 * lines, `::warning::`/`::error::` workflow commands, the GITHUB_OUTPUT file, the job
 * summary). Performance (issue 7): `@actions/core` loads its HTTP client, and with it
 * undici, at import — a third of the action's start-up time for five small functions.
 */
import { appendFileSync, existsSync, promises as fs, constants } from 'node:fs'
import { EOL } from 'node:os'
import { escapeData } from './fallback.js'
import { unusedToken } from './tokens.js'
import { writePieces } from './write-pieces.js'

/** `core.info`: one log line. */
export function info(message: string): void {
  process.stdout.write(`${message}${EOL}`)
}

/** `core.warning`: a `::warning::` workflow command. */
export function warning(message: string): void {
  process.stdout.write(`::warning::${escapeData(message)}${EOL}`)
}

/** `core.setFailed`: an `::error::` workflow command, and the step fails. */
export function setFailed(message: string): void {
  process.exitCode = 1
  process.stdout.write(`::error::${escapeData(message)}${EOL}`)
}

/** `core.setOutput`: a `name<<delimiter` block in GITHUB_OUTPUT (`::set-output` without one). */
export function setOutput(name: string, value: string): void {
  const file = process.env.GITHUB_OUTPUT || ''
  if (file) {
    if (!existsSync(file)) throw new Error(`Missing file at path: ${file}`)
    // A delimiter neither the name nor the value holds (the toolkit draws one at random
    // and throws when the value happens to hold it).
    const delimiter = `ghadelimiter_${unusedToken([name, value])}`
    appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, {
      encoding: 'utf8'
    })
    return
  }
  process.stdout.write(EOL)
  process.stdout.write(
    `::set-output name=${escapeData(name).replace(/:/g, '%3A').replace(/,/g, '%2C')}::${escapeData(value)}${EOL}`
  )
}

/**
 * `core.summary.addRaw(markdown, true).write()`: appends to the job summary file. The
 * Markdown comes as the pieces it is made of, encoded through one reused buffer (issue 7:
 * a joined megabyte of Markdown is a two-megabyte string, then a copy with the line end,
 * then its bytes); `pause` is awaited between the buffers written.
 */
export async function appendSummary(
  pieces: readonly string[],
  pause?: () => Promise<void>
): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY
  if (!file)
    throw new Error(
      'Unable to find environment variable for $GITHUB_STEP_SUMMARY. Check if your runtime environment supports job summaries.'
    )
  try {
    await fs.access(file, constants.R_OK | constants.W_OK)
  } catch {
    throw new Error(
      `Unable to access summary file: '${file}'. Check if the file has correct read/write permissions.`
    )
  }
  await writePieces(file, [...pieces, EOL], { flags: 'a', pause })
}
