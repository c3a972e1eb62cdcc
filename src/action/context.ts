/**
 * What the run's environment adds to `@actions/github`'s `context` (event, repository,
 * run ids, API and server URLs): the workspace, and the tests' time scale.
 */

/** The runner's workspace (`GITHUB_WORKSPACE`); undefined when unset or empty. */
export function workspaceDir(): string | undefined {
  return process.env.GITHUB_WORKSPACE || undefined
}

/** `RECEIPT_GATE_TIME_SCALE` (default 1): tests shrink every wait and timeout with it. */
export function timeScaleFrom(env: NodeJS.ProcessEnv): number {
  const scale = Number(env.RECEIPT_GATE_TIME_SCALE)
  return Number.isFinite(scale) && scale > 0 ? scale : 1
}
