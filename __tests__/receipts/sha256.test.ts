/** SHA-256 for the finding identities: WebAssembly (sha256.wat) and the node:crypto fallback. */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import fc from 'fast-check'
import {
  nativeHasher,
  sha256Hex,
  useNodeCrypto,
  wasmHasher
} from '../../src/receipts/sha256.js'
import { FIXTURES } from '../support/corpus.js'

const reference = (text: string): string =>
  createHash('sha256').update(text, 'utf8').digest('hex')

// Strings of any UTF-16 units: lone surrogates included (UTF-8 encodes them as U+FFFD).
const units = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 })
  .map((codes) => String.fromCharCode(...codes))

describe.each([
  ['WebAssembly', wasmHasher],
  ['node:crypto (the fallback)', nativeHasher]
])('%s', (_name, make) => {
  const hash = make()
  it('gives the FIPS 180-4 example digests', () => {
    expect(hash('abc', 64)).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
    )
    expect(hash('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', 64)).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'
    )
    expect(hash('', 64)).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
    )
  })
  it('agrees with node:crypto at every length around the block edges', () => {
    for (let length = 0; length <= 200; length++) {
      const text = 'é'.repeat(length % 7) + 'a'.repeat(length)
      expect(hash(text, 64)).toBe(reference(text))
    }
  })
  it('agrees with node:crypto on any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.oneof(units, fc.string({ unit: 'binary' })), (text) => {
        expect(hash(text, 64)).toBe(reference(text))
      }),
      { numRuns: 500 }
    )
  })
  it('takes messages larger than its first memory page, and short ones after them', () => {
    for (const text of [
      'x'.repeat(70_000),
      '€'.repeat(100_000),
      'abc',
      '𝄞'.repeat(9_000)
    ])
      expect(hash(text, 64)).toBe(reference(text))
  })
  it('trims the digest to the digits asked for', () => {
    expect(hash('abc', 32)).toBe('ba7816bf8f01cfea414140de5dae2223')
    expect(hash('abc', 7)).toBe('ba7816b')
  })
})

describe('sha256Hex', () => {
  it('is the digest, all 64 digits unless asked for fewer', () => {
    expect(sha256Hex('abc')).toBe(reference('abc'))
    expect(sha256Hex('abc', 32)).toBe(reference('abc').slice(0, 32))
  })
})

describe('sha256-wasm.ts', () => {
  it('is the assembly of sha256.wat (npm run wasm -- --check)', () => {
    const run = spawnSync(
      process.execPath,
      [join(FIXTURES, '..', '..', 'scripts', 'wasm.mjs'), '--check'],
      { encoding: 'utf8' }
    )
    expect(run.stdout).toContain('sha256-wasm.ts is current')
    expect(run.status).toBe(0)
  })
})

describe('useNodeCrypto', () => {
  it('changes the engine, not the digests', () => {
    const before = sha256Hex('flow-next-finding-v1\0r\x001', 32)
    useNodeCrypto()
    expect(sha256Hex('flow-next-finding-v1\0r\x001', 32)).toBe(before)
    expect(sha256Hex('\ud800€')).toBe(reference('\ud800€'))
  })
})
