/** Where the CLI keeps compiled code, and which body a cache file belongs to. */
import { describe, expect, it } from '@jest/globals'
import { join } from 'node:path'
import { cacheDir, cacheFile, cacheKind } from '../../src/cli/compile-cache.js'

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
