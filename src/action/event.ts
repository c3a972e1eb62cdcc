/**
 * Which pull request a run gates, from the event. Pure: it reads the event
 * name and payload handed in, and says what to do.
 */
import { isJsonObject, own, type JsonObject, type JsonValue } from '../receipts/json.js'

export type EventRoute =
  /** Gate PR `number`; `headSha` and `headBranch` from the payload when the event carries them. */
  | { kind: 'pull'; number: number; headSha: string | null; headBranch: string | null }
  /** Second stage of the fork-safe setup: find the PR of `headSha` when the payload has none. */
  | {
      kind: 'workflow-run'
      number: number | null
      headSha: string
      headBranch: string | null
      headOwner: string | null
    }
  /** A merge queue group: report success on its head so the queue does not wait. */
  | { kind: 'merge-group'; headSha: string }
  | { kind: 'nothing'; why: string }

function field(object: JsonValue | undefined, ...path: string[]): JsonValue | undefined {
  return path.reduce((at, key) => (isJsonObject(at) ? own(at, key) : undefined), object)
}

const text = (value: JsonValue | undefined): string | null =>
  typeof value === 'string' && value !== '' ? value : null
const int = (value: JsonValue | undefined): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null

/** Routes an event; `pullNumber` is the `pull-number` input (it wins for any event). */
export function routeEvent(
  eventName: string,
  payload: JsonObject,
  pullNumber: number | null
): EventRoute {
  if (eventName === 'pull_request' || eventName === 'pull_request_target') {
    const payloadNumber = int(field(payload, 'pull_request', 'number'))
    const number = pullNumber ?? payloadNumber ?? int(field(payload, 'number'))
    if (number === null)
      return { kind: 'nothing', why: `${eventName} event without a pull request number` }
    // The payload's head is the gated PR's only when pull-number names no other PR.
    const sameNumber = pullNumber === null || pullNumber === payloadNumber
    const head = sameNumber ? field(payload, 'pull_request', 'head') : undefined
    return {
      kind: 'pull',
      number,
      headSha: text(field(head, 'sha')),
      headBranch: text(field(head, 'ref'))
    }
  }
  if (eventName === 'workflow_run') {
    const headSha = text(field(payload, 'workflow_run', 'head_sha'))
    const prs = field(payload, 'workflow_run', 'pull_requests')
    const first = Array.isArray(prs) ? int(field(prs[0], 'number')) : null
    if (headSha === null)
      return { kind: 'nothing', why: 'workflow_run event without a head SHA' }
    return {
      kind: 'workflow-run',
      number: pullNumber ?? first,
      headSha,
      headBranch: text(field(payload, 'workflow_run', 'head_branch')),
      headOwner: text(field(payload, 'workflow_run', 'head_repository', 'owner', 'login'))
    }
  }
  if (eventName === 'merge_group') {
    const headSha = text(field(payload, 'merge_group', 'head_sha'))
    return headSha
      ? { kind: 'merge-group', headSha }
      : { kind: 'nothing', why: 'merge_group event without a head SHA' }
  }
  if (pullNumber !== null)
    return { kind: 'pull', number: pullNumber, headSha: null, headBranch: null }
  return {
    kind: 'nothing',
    why: `${eventName || 'this'} event has no pull request (set pull-number to gate one)`
  }
}
