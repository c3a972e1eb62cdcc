/**
 * dist/licenses.txt: the notices of every package bundled into dist/, each once
 * (scripts/build.mjs merges the file ncc writes for each bundle).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'

// A block opens with the package's name, then its license id, after a blank line.
const names = (text: string): string[] =>
  [...`\n\n${text}`.matchAll(/\n\n((?:@[\w.-]+\/)?[\w.-]+)\n[^\n]{1,60}\n/g)].map(
    (match) => match[1] as string
  )

describe('dist/licenses.txt', () => {
  const listed = names(readFileSync('dist/licenses.txt', 'utf8'))

  it('names each bundled package once', () => {
    expect(listed.filter((name, at) => listed.indexOf(name) !== at)).toEqual([])
  })

  it('names the runtime dependencies the bundles hold', () => {
    expect(listed).toEqual(
      expect.arrayContaining(['@actions/github', 'picomatch', 'undici', 'zod'])
    )
  })
})
