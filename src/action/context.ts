/** The run's environment, read once: event, repository, run ids, API URL, workspace. */
import { readFileSync } from 'node:fs'
import { isJsonObject, readJsonBytes, type JsonObject } from '../receipts/json.js'

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

/** Reads `GITHUB_*` variables and the event payload file. */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const [owner = '', repo = ''] = (env.GITHUB_REPOSITORY ?? '').split('/')
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    payload: readPayload(env.GITHUB_EVENT_PATH),
    owner,
    repo,
    runId: env.GITHUB_RUN_ID ?? '',
    runAttempt: env.GITHUB_RUN_ATTEMPT ?? '1',
    apiUrl: env.GITHUB_API_URL || undefined,
    workspace: env.GITHUB_WORKSPACE || undefined,
    timeScale: timeScaleFrom(env)
  }
}

/** The event payload; an absent, unreadable or non-object one is empty. */
function readPayload(path: string | undefined): JsonObject {
  try {
    const read = path ? readJsonBytes(readFileSync(path)) : null
    if (read?.ok && isJsonObject(read.value)) return read.value
  } catch {
    // An unreadable payload file: the same as none.
  }
  return Object.create(null) as JsonObject
}

/** `RECEIPT_GATE_TIME_SCALE` (default 1): tests shrink every wait and timeout with it. */
export function timeScaleFrom(env: NodeJS.ProcessEnv): number {
  const scale = Number(env.RECEIPT_GATE_TIME_SCALE)
  return Number.isFinite(scale) && scale > 0 ? scale : 1
}
