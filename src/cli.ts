#!/usr/bin/env node
/**
 * The `receipt-gate` CLI (dist/receipt-gate.mjs): wires the process's streams, files and environment
 * to the commands of `cli/main.ts`.
 */
import { readFileSync } from 'node:fs'
import { main } from './cli/main.js'
import { exitWhenFlushed } from './util/exit.js'

// A reader that stops early (`receipt-gate check --format json | head`) closes the pipe:
// that ends the output, it is no error worth a stack trace (the exit code stays the
// gate's). Any other failure to write is one line and exit 2, like every environment error.
const QUIET_ENDS = new Set(['EPIPE', 'ERR_STREAM_DESTROYED'])
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (QUIET_ENDS.has(error.code ?? '')) return
    if (stream !== process.stderr)
      process.stderr.write(`receipt-gate: cannot write the output: ${error.message}\n`)
    process.exit(2)
  })
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path),
  cwd: process.cwd(),
  color: Boolean(process.stdout.isTTY) && process.env.NO_COLOR === undefined,
  // Rows fit the terminal; a pipe or file gets the default width.
  columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  env: process.env
})
await exitWhenFlushed()
