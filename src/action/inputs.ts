/**
 * The action's inputs, read once (the only module that reads `INPUT_*`) into one
 * typed, validated object. A bad value fails fast naming the input and what it allows.
 */
import * as core from '@actions/core'
import { mustBe, parseBoolean, parseOptions, type GateOptions } from '../gate/options.js'

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
  'exempt-authors',
  'exempt-labels',
  'fail-step',
  'pull-number'
] as const

/** Each input's raw string by its name; `undefined`: not set. */
function rawInputs(): Partial<Record<string, string>> {
  return Object.fromEntries(
    INPUT_NAMES.map((name) => [
      name,
      `INPUT_${name.toUpperCase()}` in process.env ? core.getInput(name) : undefined
    ])
  )
}

/** Reads and validates every input, and masks the token; throws an `OptionError` on a bad value. */
export function readInputs(): ActionInputs {
  const raw = rawInputs()
  // Masked before anything else is logged.
  const token = raw.token ?? ''
  if (token !== '') core.setSecret(token)
  const gate = parseOptions(raw)
  const pull = (raw['pull-number'] ?? '').trim()
  if (pull !== '' && !/^[1-9][0-9]{0,9}$/.test(pull))
    throw mustBe('pull-number', 'a pull request number', pull)
  return {
    token,
    checkName: (raw['check-name'] ?? '').trim() || 'Review receipts',
    failStep: parseBoolean(raw['fail-step'], 'fail-step', true),
    pullNumber: pull === '' ? null : Number(pull),
    gate
  }
}
