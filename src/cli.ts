#!/usr/bin/env node
/**
 * Entry of the `receipt-gate` CLI (bundled as dist/cli.js): runs the CLI proper,
 * dist/cli-body.js (`src/cli/entry.ts`), through V8's code cache (`cli/compile-cache.ts`).
 */
import { runBody } from './cli/compile-cache.js'
import { exitWhenFlushed } from './util/exit.js'

// A name, not a literal: ncc would take `new URL('./…', import.meta.url)` for an asset.
const BODY = 'cli-body.js'
await runBody(new URL(BODY, import.meta.url))
// After the code cache is written: the run is over.
await exitWhenFlushed()
