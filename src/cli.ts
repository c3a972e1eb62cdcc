#!/usr/bin/env node
/**
 * Entry of the `receipt-gate` CLI (dist/cli.js): turns on Node's compile cache (Node ≥ 22.1,
 * in `NODE_COMPILE_CACHE` or Node's default folder), then loads the CLI proper, a bundle
 * of its own, so that its compiled code is what the cache keeps between runs.
 */
import module from 'node:module'

// Typed here: this machine's @types/node (20) predates the function.
const { enableCompileCache } = module as { enableCompileCache?: () => unknown }
enableCompileCache?.()
// A name, not a literal path: the bundler leaves the body out of this entry.
const BODY = 'cli-main.js'
await import(/* webpackIgnore: true */ `./${BODY}`)
