/** Where the CLI keeps compiled code, and which body a cache file belongs to. */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { cacheDir, cacheFile, cacheKind, flagsKey } from '../../src/cli/compile-cache.js'

describe('cacheDir', () => {
  it("the user's cache folder by platform, XDG_CACHE_HOME first", () => {
    expect(cacheDir({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.cache/receipt-gate')
    expect(cacheDir({ HOME: '/Users/u' }, 'darwin')).toBe(
      '/Users/u/Library/Caches/receipt-gate'
    )
    expect(cacheDir({ HOME: '/h', LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe(
      join('C:\\L', 'receipt-gate')
    )
    expect(cacheDir({ HOME: '/home/u', XDG_CACHE_HOME: '/xdg' }, 'linux')).toBe(
      '/xdg/receipt-gate'
    )
  })

  it('RECEIPT_GATE_CACHE_DIR names it (empty: none); NODE_DISABLE_COMPILE_CACHE=1 turns it off; no home, none', () => {
    expect(cacheDir({ HOME: '/h', RECEIPT_GATE_CACHE_DIR: '/c' }, 'linux')).toBe('/c')
    expect(cacheDir({ HOME: '/h', RECEIPT_GATE_CACHE_DIR: '' }, 'linux')).toBeNull()
    expect(
      cacheDir({ RECEIPT_GATE_CACHE_DIR: '/c', NODE_DISABLE_COMPILE_CACHE: '1' }, 'linux')
    ).toBeNull()
    expect(cacheDir({}, 'linux')).toBeNull()
  })
})

describe('cacheFile', () => {
  const hash = 'ab'.repeat(32)
  it("is named by the body's content hash, the command and this V8, never by its length", () => {
    const file = cacheFile(
      '/c',
      `/*! receipt-gate cli body sha256:${hash} */\n(x)`,
      'check'
    )
    expect(file).toBe(
      join(
        '/c',
        `cli-${hash.slice(0, 32)}-check-v8-${process.versions.v8}-${process.arch}.bin`
      )
    )
    const other = cacheFile(
      '/c',
      `/*! receipt-gate cli body sha256:${'cd'.repeat(32)} */\n(x)`,
      'check'
    )
    expect(other).not.toBe(file)
    expect(
      cacheFile('/c', `/*! receipt-gate cli body sha256:${hash} */\n(x)`, 'other')
    ).not.toBe(file)
  })
  it('a body without the build header gets no cache', () => {
    expect(cacheFile('/c', '(async function () {})', 'check')).toBeNull()
    expect(
      cacheFile('/c', `(x)\n/*! receipt-gate cli body sha256:${hash} */`, 'check')
    ).toBeNull()
  })
})

describe('flagsKey', () => {
  it("none without node flags (the usual name); else a stable name of the flags, NODE_OPTIONS's too", () => {
    expect(flagsKey([], undefined)).toBe('')
    expect(flagsKey([], '')).toBe('')
    const big = flagsKey(['--max-old-space-size=4096'], undefined)
    expect(big).toMatch(/^[0-9a-f]{8}$/)
    expect(flagsKey(['--max-old-space-size=4096'], undefined)).toBe(big)
    expect(flagsKey(['--max-old-space-size=2048'], undefined)).not.toBe(big)
    const options = flagsKey([], '--max-old-space-size=4096')
    expect(options).toMatch(/^[0-9a-f]{8}$/)
    expect(options).not.toBe(big)
    expect(flagsKey(['--a', '--b'], undefined)).not.toBe(flagsKey(['--a --b'], undefined))
  })
  it('names the cache file', () => {
    const source = `/*! receipt-gate cli body sha256:${'ab'.repeat(32)} */\n(x)`
    expect(cacheFile('/c', source, 'check', '0123abcd')).toBe(
      join(
        '/c',
        `cli-${'ab'.repeat(16)}-check-flags-0123abcd-v8-${process.versions.v8}-${process.arch}.bin`
      )
    )
    expect(cacheFile('/c', source, 'check', '')).toBe(cacheFile('/c', source, 'check'))
  })
})

describe('cacheKind', () => {
  it('check and validate have a cache each; everything else shares one', () => {
    expect(cacheKind(['check', '--repo', '.'])).toBe('check')
    expect(cacheKind(['validate', 'a.json'])).toBe('validate')
    for (const args of [
      [],
      ['--version'],
      ['--help'],
      ['frobnicate'],
      ['--repo', 'check']
    ])
      expect(cacheKind(args)).toBe('other')
  })
})
