/**
 * Ends the process with `process.exitCode` once stdout and stderr are flushed (a write's
 * callback runs after every earlier write). Called when the run is over: a natural exit
 * would also wait for git processes to be reaped and tear the heap down (~5 ms).
 */
export async function exitWhenFlushed(): Promise<never> {
  for (const stream of [process.stdout, process.stderr]) {
    // A closed stream (EPIPE: `receipt-gate check | head`) calls back with its error.
    await new Promise((resolve) => stream.write('', resolve))
  }
  process.exit()
}
