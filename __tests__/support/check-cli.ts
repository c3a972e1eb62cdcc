/** Runs `receipt-gate` in-process (the real CLI code, real git) and captures its output. */
import { readFileSync } from 'node:fs'
import { main } from '../../src/cli/main.js'
import type { Report } from '../../src/gate/report.js'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI with `argv` in `cwd` (`columns`: a terminal's width; `env`: its whole environment). */
export async function runCli(
  argv: string[],
  cwd = process.cwd(),
  { columns, env = {} }: { columns?: number; env?: Record<string, string> } = {}
): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readFile: (path) => readFileSync(path),
    cwd,
    color: false,
    columns,
    env
  })
  // The CLI says what it waits for when the API's first answer takes over a second, which
  // a loaded machine can make happen anywhere: not what these callers check (the notice
  // has its own test, __tests__/cli/adoption.test.ts).
  return { code, stdout, stderr: stderr.replace(WAITING, '') }
}

const WAITING = /^receipt-gate check: waiting for .*…\n/gm

/** Runs `check --format json` on a repository and parses the report. */
export async function checkJson(
  repo: string,
  ...flags: string[]
): Promise<{ code: number; report: Report; stderr: string }> {
  const run = await runCli(['check', '--repo', repo, '--format', 'json', ...flags])
  if (run.code === 2) throw new Error(`check failed: ${run.stderr}`)
  return { code: run.code, report: JSON.parse(run.stdout) as Report, stderr: run.stderr }
}
