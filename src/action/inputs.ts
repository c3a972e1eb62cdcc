/**
 * The action's inputs, read once (the only module that reads `INPUT_*`) into one
 * typed, validated object. A bad value fails fast naming the input and what it allows.
 */
import { EOL } from 'node:os'
import { OptionError, parseOptions, type GateOptions } from '../gate/options.js'
import { escapeData } from './fallback.js'

export interface ActionInputs {
  token: string
  checkName: string
  failStep: boolean
  /** Set for `workflow_run`/manual use: gate this PR. */
  pullNumber: number | null
  gate: GateOptions
}

/** Input names as in action.yml, kebab-case. */
export const INPUT_NAMES = [
  'token',
  'receipts-dir',
  'select',
  'require',
  'bookkeeping-paths',
  'unbound-head',
  'needs-human-conclusion',
  'check-name',
  'audit-deferred',
  'max-annotations',
  'coverage',
  'fail-step',
  'pull-number'
] as const

/** Reads raw strings: `undefined` for an input the workflow did not set (action.yml supplies defaults). */
function raw(name: (typeof INPUT_NAMES)[number]): string | undefined {
  // `core.getInput` without `@actions/core` (issue 7: the light entry must not load it,
  // it brings undici): the same variable, trimmed at the ends only (list inputs keep
  // their newlines).
  const env = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`]
  return env === undefined ? undefined : env.trim()
}

/** Reads and validates every input, and masks the token; throws {@link OptionError} on a bad value. */
export function readInputs(): ActionInputs {
  const gate = parseOptions({
    receiptsDir: raw('receipts-dir'),
    select: raw('select'),
    require: raw('require'),
    bookkeepingPaths: raw('bookkeeping-paths'),
    unboundHead: raw('unbound-head'),
    needsHumanConclusion: raw('needs-human-conclusion'),
    auditDeferred: raw('audit-deferred'),
    maxAnnotations: raw('max-annotations'),
    coverage: raw('coverage')
  })
  const failStep = (raw('fail-step') ?? 'true').trim()
  if (!['true', 'false', 'True', 'False', 'TRUE', 'FALSE'].includes(failStep)) {
    throw new OptionError(
      'fail-step',
      `must be true or false (got ${JSON.stringify(failStep)})`
    )
  }
  const pull = (raw('pull-number') ?? '').trim()
  if (pull !== '' && !/^[1-9][0-9]{0,9}$/.test(pull)) {
    throw new OptionError(
      'pull-number',
      `must be a pull request number (got ${JSON.stringify(pull)})`
    )
  }
  const token = raw('token') ?? ''
  return {
    token,
    checkName: (raw('check-name') ?? '').trim() || 'Review receipts',
    failStep: failStep.toLowerCase() === 'true',
    pullNumber: pull === '' ? null : Number(pull),
    gate
  }
}

/**
 * `core.setSecret` for the token: the `add-mask` workflow command, escaped as the toolkit
 * escapes it. Written before the run's first line of output, not when the inputs are
 * read (issue 7): the first write to stdout sets the stream up (5 ms of a cold start on
 * a 2-core runner, 1.5 once the HTTP client is loaded), and the early reads go out first.
 */
export function maskToken(inputs: ActionInputs): void {
  if (inputs.token !== '')
    process.stdout.write(`::add-mask::${escapeData(inputs.token)}${EOL}`)
}
