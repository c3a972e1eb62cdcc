/**
 * What the run's environment adds to `@actions/github`'s `context` (event, repository,
 * run ids, API and server URLs): the repository's names without a throw, and the tests'
 * time scale.
 */
import { context } from '@actions/github'

/**
 * `context.repo` where the runner names the repository (it always does); else empty
 * names for the API to refuse, never `context.repo`'s throw or a name it would take from
 * the event payload instead.
 */
export function runRepository(): { owner: string; repo: string } {
  return process.env.GITHUB_REPOSITORY ? context.repo : { owner: '', repo: '' }
}

/** `RECEIPT_GATE_TIME_SCALE` (default 1): tests shrink every wait and timeout with it. */
export function timeScaleFrom(env: NodeJS.ProcessEnv): number {
  const scale = Number(env.RECEIPT_GATE_TIME_SCALE)
  return Number.isFinite(scale) && scale > 0 ? scale : 1
}
