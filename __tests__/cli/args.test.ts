/**
 * The command line's flags: declared once for `util.parseArgs`, each in the help, and
 * parse errors as one line that names the flag.
 */
import { describe, expect, it } from '@jest/globals'
import { CHECK_FLAGS, CHECK_USAGE } from '../../src/cli/check-command.js'
import { LAND_FLAGS, LAND_USAGE } from '../../src/cli/land-command.js'
import { runCli } from '../support/check-cli.js'

describe('check flags', () => {
  it.each([
    ['check', CHECK_USAGE, CHECK_FLAGS],
    ['land', LAND_USAGE, LAND_FLAGS]
  ])(
    '%s: the help lists every flag, and every flag it lists is one',
    (_, usage, flags) => {
      const listed = [...usage.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1])
      expect(new Set(listed)).toEqual(new Set(Object.keys(flags)))
      expect(listed).toHaveLength(Object.keys(flags).length)
    }
  )

  it.each([
    [['check', '--bogus'], 'unknown option --bogus'],
    [['check', '-x'], 'unknown option -x'],
    [['check', '--post=1'], '--post takes no value'],
    [['check', '--verbose=yes'], '--verbose takes no value'],
    [['check', '--base'], '--base needs a value'],
    [
      ['check', '--base', '--head'],
      '--base needs a value (one starting with "-": --base=VALUE)'
    ],
    [['validate', '--format'], '--format needs a value'],
    [['land', '--spec'], '--spec needs a value'],
    [['check', '--unknown\u001b[31m'], 'unknown option --unknown\\u{1b}[31m']
  ])('%j: one line, exit 2', async (argv, message) => {
    const run = await runCli(argv)
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(`receipt-gate ${argv[0]}: ${message}\n`)
  })
})
