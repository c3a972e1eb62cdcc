/**
 * The action's inputs, read once (the only module that reads `INPUT_*`) into one
 * typed, validated object. A bad value fails fast naming the input and what it allows.
 */
import * as core from '@actions/core'
import { OptionError, parseOptions, type GateOptions } from '../gate/options.js'

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
  return `INPUT_${name.toUpperCase()}` in process.env ? core.getInput(name) : undefined
}

/** Reads and validates every input, and masks the token; throws {@link OptionError} on a bad value. */
export function readInputs(): ActionInputs {
  // Masked before anything else is read or logged.
  const token = raw('token') ?? ''
  if (token !== '') core.setSecret(token)
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
  return {
    token,
    checkName: (raw('check-name') ?? '').trim() || 'Review receipts',
    failStep: failStep.toLowerCase() === 'true',
    pullNumber: pull === '' ? null : Number(pull),
    gate
  }
}
