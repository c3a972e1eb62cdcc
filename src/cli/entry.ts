/**
 * The CLI proper: bundled as dist/cli-body.js, a script that dist/cli.js (`src/cli.ts`)
 * runs through V8's code cache.
 */
import { readFileSync } from 'node:fs'
import { main } from './main.js'

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path),
  cwd: process.cwd(),
  color: Boolean(process.stdout.isTTY) && process.env.NO_COLOR === undefined,
  env: process.env
})
