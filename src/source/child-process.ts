/**
 * `node:child_process`, loaded the first time git is run.
 *
 * Performance (issue 7): the action's bundle holds the git source beside the API source,
 * and a run on the API (no checkout with history: `pull_request_target`, the default
 * shallow checkout) never starts a process. Imported at the top, the module and what it
 * loads (sockets for pipes, `dgram`, the socket list) cost such a run 5–9 ms of its start
 * on a 2-core runner.
 */
import type * as ChildProcess from 'node:child_process'
import { createRequire } from 'node:module'

let loaded: typeof ChildProcess | undefined

export function childProcess(): typeof ChildProcess {
  loaded ??= createRequire(import.meta.url)('node:child_process') as typeof ChildProcess
  return loaded
}
