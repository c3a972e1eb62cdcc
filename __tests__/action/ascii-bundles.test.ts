/**
 * The bundles are ASCII only (scripts/ascii-only.mjs, run by scripts/build.mjs): every
 * character outside ASCII in a literal is a `\uXXXX` escape, so node reads and compiles
 * them as one-byte text (issue 7), and the escapes mean what the characters meant.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
// @ts-expect-error: a plain ES module script of the build
import { asciiOnly } from '../../scripts/ascii-only.mjs'

const escape = asciiOnly as (code: string, options?: { module?: boolean }) => string
const NON_ASCII = /[\u0080-\uffff]/

/** The values a script's last expression gives, as JSON. */
function valuesOf(code: string): string {
  return JSON.stringify(runInNewContext(code))
}

describe('asciiOnly', () => {
  it('escapes strings, templates and regular expressions to the same values', () => {
    // Identity escapes (`\—`), escaped backslashes before the character, astral
    // characters in a `u` class and as one `.`, a template's cooked text.
    const code = String.raw`[
      "—é😀", '\—', "\\—", "a\\\—b",
      ${'`'}x—${'$'}{1}y😀\—${'`'},
      /[😀—]/u.test("😀"), /^.$/u.test("😀"), /^..$/.test("😀"), /\—/.test("—"),
      /[é-ü]/.test("ñ"), "—".length, /é/i.test("É")
    ]`
    const escaped = escape(code, { module: false })
    expect(NON_ASCII.test(escaped)).toBe(false)
    expect(valuesOf(escaped)).toBe(valuesOf(code))
    expect(JSON.parse(valuesOf(code))).toEqual([
      '—é😀',
      '—',
      '\\—',
      'a\\—b',
      'x—1y😀—',
      true,
      true,
      true,
      true,
      true,
      1,
      true
    ])
  })

  it('escapes comments and leaves ASCII code as it is', () => {
    const code = '/*! © the authors — MIT */\nconst a = 1 // naïve\nexport { a }\n'
    const escaped = escape(code)
    expect(NON_ASCII.test(escaped)).toBe(false)
    expect(escaped).toContain('const a = 1 //')
    expect(escape('export const a = "plain"\n')).toBe('export const a = "plain"\n')
  })

  it('refuses what an escape would change or cannot hold', () => {
    // A tagged template sees its raw text; an identifier is not a literal.
    expect(() => escape('String.raw`—`', { module: false })).toThrow(/tagged template/)
    expect(() => escape('const é = 1', { module: false })).toThrow(/name token/)
  })
})

describe('dist/', () => {
  it('every bundle is ASCII only', () => {
    const bundles = readdirSync('dist').filter((name) => name.endsWith('.js'))
    expect(bundles).toEqual(expect.arrayContaining(['index.js', 'main.js', 'cli.js']))
    for (const name of bundles)
      expect([name, NON_ASCII.test(readFileSync(`dist/${name}`, 'utf8'))]).toEqual([
        name,
        false
      ])
  })
})
