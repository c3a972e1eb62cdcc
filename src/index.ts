/** Entry of the action (bundled as dist/index.js). */
import { run } from './main.js'
import { exitWhenFlushed } from './util/exit.js'

// run() never throws. Then the process ends as soon as the log is flushed: fetch's idle
// keep-alive connections would hold it open for seconds with nothing left to do.
await run()
await exitWhenFlushed()
