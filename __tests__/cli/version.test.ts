/** `receipt-gate --version` prints package.json's version, in the source and in the bundle. */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { VERSION } from '../../src/cli/main.js'
import { runCli } from '../support/check-cli.js'
import { FIXTURES } from '../support/corpus.js'

const ROOT = join(FIXTURES, '..', '..')
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
}

describe('--version', () => {
  it("is package.json's version", async () => {
    expect(VERSION).toBe(version)
    expect(await runCli(['--version'])).toEqual({
      code: 0,
      stdout: `${version}\n`,
      stderr: ''
    })
  })

  it('is bundled into dist/receipt-gate.mjs (run npm run build after a version bump)', () => {
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'dist', 'receipt-gate.mjs'), '--version'],
      {
        encoding: 'utf8'
      }
    )
    expect(run.stdout).toBe(`${version}\n`)
  })
})
