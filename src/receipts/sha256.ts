/**
 * SHA-256 of a string's UTF-8 bytes, in hex, for the finding identities (identity.ts).
 *
 * Performance (issue 7): `node:crypto` costs 7–9 ms to load on Node 20 and 12–16 ms on
 * Node 24 (the action's runtime), for about 600 digests of short strings a run. SHA-256
 * in JavaScript is no cheaper in a fresh process: V8 interprets it until its optimizing
 * compiler, 30 ms of work on the other core, catches up (10–25 ms for 600 digests). So
 * SHA-256 is WebAssembly (sha256.wat, assembled into sha256-wasm.ts), which V8's baseline
 * compiler makes into machine code at once, under a millisecond for the module, and a
 * digest takes three calls: the UTF-8 bytes written, the hash, the hex digits read.
 * Without WebAssembly (`node --jitless`), node:crypto does it, as it does in the action
 * (`useNodeCrypto`), which has loaded it for TLS.
 *
 * Strings are encoded as node:crypto encodes them: UTF-8, a lone surrogate as U+FFFD.
 */
import { createRequire } from 'node:module'
import { SHA256_WASM } from './sha256-wasm.js'

/** Hex digits of the digest: at most 64 (`digits` trims it, as identities do). */
type Hasher = (text: string, digits: number) => string

let hasher: Hasher | undefined

/** The first `digits` hex digits (default all 64) of the SHA-256 of `text`'s UTF-8 bytes. */
export function sha256Hex(text: string, digits = 64): string {
  hasher ??= typeof WebAssembly === 'object' ? wasmHasher() : nativeHasher()
  return hasher(text, digits)
}

/**
 * Hashes with node:crypto from now on, for a process that loads it anyway: the action,
 * whose HTTPS client loads node:tls and with it node:crypto's internals. There
 * node:crypto itself costs under a millisecond more, and its digests are faster in cold
 * code than the WebAssembly path's (2–3 ms less for 600 of them).
 */
export function useNodeCrypto(): void {
  hasher = nativeHasher()
}

/** node:crypto's SHA-256 (the fallback; exported for the tests). */
export function nativeHasher(): Hasher {
  const crypto = createRequire(import.meta.url)(
    'node:crypto'
  ) as typeof import('node:crypto')
  return (text, digits) =>
    crypto.createHash('sha256').update(text, 'utf8').digest('hex').slice(0, digits)
}

// sha256.wat's memory layout: the hex digits at 0, the message from 1024.
const MESSAGE = 1024
const PAGE = 65536

// The little of the WebAssembly global used here (its types come with lib "dom", which
// would bring the rest of the browser; @types/node 20 has none). Absent under --jitless.
declare const WebAssembly:
  | {
      Module: new (bytes: Uint8Array) => object
      Instance: new (module: object) => { exports: object }
    }
  | undefined

interface Sha256Exports {
  memory: { buffer: ArrayBuffer; grow: (pages: number) => number }
  hex: (length: number) => void
}

/** The WebAssembly SHA-256 (exported for the tests). */
export function wasmHasher(): Hasher {
  if (typeof WebAssembly !== 'object') throw new Error('WebAssembly is not available')
  const module = new WebAssembly.Module(Buffer.from(SHA256_WASM, 'base64'))
  const { memory, hex } = new WebAssembly.Instance(module).exports as Sha256Exports
  // A view of the whole memory; growing the memory replaces its buffer, so the view too.
  let view = Buffer.from(memory.buffer)
  return (text, digits) => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; the padding at most 72 more.
    const room = MESSAGE + text.length * 3 + 72
    if (room > view.length) {
      memory.grow(Math.ceil((room - view.length) / PAGE))
      view = Buffer.from(memory.buffer)
    }
    hex(view.write(text, MESSAGE, 'utf8'))
    return view.toString('latin1', 0, Math.min(digits, 64))
  }
}
