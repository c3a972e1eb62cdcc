/**
 * Exemptions: pull requests that will never carry receipts (Dependabot, Renovate, a
 * labelled hotfix) need not have a review. Off unless `exempt-authors` or `exempt-labels`
 * names someone; decided only from what the API says about the pull request (its author
 * and labels), never from a receipt, which the PR's author writes. An exempt PR is never a
 * silent pass: the report names what exempted it, and the receipts it brings still gate.
 */
import type { GateOptions } from './options.js'

/** What the API says about the pull request; null where it said nothing usable. */
export interface PullFacts {
  /** The author's login as REST gives it (`dependabot[bot]`). */
  author: string | null
  /** Label names; null when they could not all be read. */
  labels: string[] | null
}

/** Who or what exempted the PR, and by which input. */
export interface Exemption {
  by: 'author' | 'label'
  name: string
  input: 'exempt-authors' | 'exempt-labels'
}

/** GitHub logins and label names are case-insensitive. */
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** The exemption that applies to this PR, or null (none configured, or no fact matches). */
export function exemptionOf(
  options: Pick<GateOptions, 'exemptAuthors' | 'exemptLabels'>,
  facts: PullFacts | null
): Exemption | null {
  if (facts === null) return null
  const { author, labels } = facts
  if (author !== null && options.exemptAuthors.some((name) => same(name, author)))
    return { by: 'author', name: author, input: 'exempt-authors' }
  const label = labels?.find((name) => options.exemptLabels.some((x) => same(x, name)))
  return label === undefined ? null : { by: 'label', name: label, input: 'exempt-labels' }
}

/**
 * The settings for an exempt PR: no type is required and coverage is shown, not required
 * (neither can be met without a review); everything else — the receipts it brings, the
 * deferred audit — still gates.
 */
export function exemptOptions(options: GateOptions): GateOptions {
  return {
    ...options,
    require: [],
    coverage: options.coverage === 'require' ? 'report' : options.coverage
  }
}
