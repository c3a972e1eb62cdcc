#!/usr/bin/env node
/** Entry of the `receipt-gate` CLI (bundled as dist/cli.js). */
import { readFileSync } from 'node:fs'
import { main } from './cli/main.js'

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path),
  cwd: process.cwd(),
  color: Boolean(process.stdout.isTTY) && process.env.NO_COLOR === undefined,
  env: process.env
})
