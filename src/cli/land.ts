/**
 * Flow-Next's land step runs the repository's merge-verdict command
 * (`land.mergeVerdictCommand`) from the base checkout with the pull request named only
 * in the environment: FLOW_HEAD_SHA, FLOW_BASE_REF, FLOW_PR_NUMBER, FLOW_SPEC_ID. Any
 * non-zero exit blocks the merge, so a variable that cannot be used is an error (exit
 * 2), never a guess.
 */
import { terminalLine } from '../util/safe-text.js'
import type { ParsedArgs } from './args.js'
import { CliError } from './io.js'

export interface LandContext {
  head: string | null
  pr: number | null
  baseRef: string | null
  spec: string | null
}

// A branch name as git allows it, and nothing a revision expression could add.
const REF = /^(?!-)(?!.*(?:\.\.|@\{|\/\/|\.lock$|\/$|\.$))[^\s~^:?*[\\\x00-\x1f\x7f]+$/

/** The land step's context, when its variables are set and no flag names the head. */
export function landContext(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>
): LandContext | null {
  if (args.flags.has('head') || args.flags.has('pr')) return null
  const head = env.FLOW_HEAD_SHA || null
  const pr = env.FLOW_PR_NUMBER || null
  if (head === null && pr === null) return null
  if (head !== null && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(head))
    throw new CliError(
      `FLOW_HEAD_SHA must be a full commit SHA (got ${JSON.stringify(terminalLine(head))})`
    )
  const baseRef = env.FLOW_BASE_REF || null
  if (baseRef !== null && !REF.test(baseRef))
    throw new CliError(
      `FLOW_BASE_REF must be a branch name (got ${JSON.stringify(terminalLine(baseRef))})`
    )
  return {
    head: head?.toLowerCase() ?? null,
    pr: pr === null ? null : prNumber(pr, 'FLOW_PR_NUMBER'),
    baseRef,
    spec: env.FLOW_SPEC_ID?.slice(0, 200) || null
  }
}

/** The report's note naming what the land step asked about (rendered as hostile text). */
export function landNote(land: LandContext): string {
  const parts = [
    land.pr !== null ? `pull request #${land.pr}` : null,
    land.spec !== null ? `spec ${land.spec}` : null,
    land.head !== null ? `head ${land.head.slice(0, 12)}` : null,
    land.baseRef !== null ? `base ${land.baseRef}` : null
  ].filter((part): part is string => part !== null)
  return `Flow-Next land merge-verdict check: ${parts.join(', ')}.`
}

/** A pull request number (`what` names where it came from for the error). */
export function prNumber(value: string, what: string): number {
  const number = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(number))
    throw new CliError(
      `${what} must be a pull request number (got ${JSON.stringify(terminalLine(value))})`
    )
  return number
}
