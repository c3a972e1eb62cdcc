/** Entry of the action (bundled as dist/index.js): runs it, nothing else. */
import { run } from './main.js'

await run()
