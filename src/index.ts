/**
 * Entry of the action (bundled as dist/index.js). Cold start (issue 7): an event with
 * nothing to gate is answered by the light path; only a run that gates loads the action
 * proper — dist/main.js, a bundle of its own (`webpackIgnore` keeps this import out of
 * this bundle), so the toolkit, octokit, undici and zod are read only when needed. Its
 * first reads are started before it loads, and answered while it does.
 */
import { startEarlyReads } from './action/prefetch.js'
import { lightStart } from './action/quick.js'
import { exitWhenFlushed } from './util/exit.js'

const start = lightStart()
if (start !== 'answered') {
  const early = start === null ? null : await startEarlyReads(start)
  const { run } = await import(/* webpackIgnore: true */ './main.js')
  // run() never throws and settles only when every write is answered.
  await run(start, early)
  await exitWhenFlushed()
}
