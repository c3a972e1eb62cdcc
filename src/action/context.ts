/** The run's environment, read once: event, repository, run ids, API URL, workspace. */
import { context } from '@actions/github'
import { isJsonObject, type JsonObject } from '../receipts/json.js'

export interface RunContext {
  eventName: string
  payload: JsonObject
  owner: string
  repo: string
  runId: string
  runAttempt: string
  apiUrl: string | undefined
  workspace: string | undefined
  timeScale: number
}

/**
 * Reads `GITHUB_*` variables. The event payload is the one `@actions/github` parsed when it
 * loaded (the client imports it): an absent or non-object one is empty.
 */
export function readRunContext(): RunContext {
  const env = process.env
  const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/')
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: isJsonObject(context.payload) ? context.payload : {},
    owner,
    repo,
    runId: env.GITHUB_RUN_ID ?? '',
    runAttempt: env.GITHUB_RUN_ATTEMPT ?? '1',
    apiUrl: env.GITHUB_API_URL || undefined,
    workspace: env.GITHUB_WORKSPACE || undefined,
    timeScale: timeScaleFrom(env)
  }
}

/** `RECEIPT_GATE_TIME_SCALE` (default 1): tests shrink every wait and timeout with it. */
export function timeScaleFrom(env: NodeJS.ProcessEnv): number {
  const scale = Number(env.RECEIPT_GATE_TIME_SCALE)
  return Number.isFinite(scale) && scale > 0 ? scale : 1
}
