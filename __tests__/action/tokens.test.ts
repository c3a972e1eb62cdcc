/** Tokens the untrusted text cannot spell: stop-commands blocks and GITHUB_OUTPUT delimiters. */
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setOutput } from '../../src/action/commands.js'
import { logUntrusted } from '../../src/action/log.js'
import { unusedToken } from '../../src/action/tokens.js'
import { withEnv } from '../support/env.js'

// With Math.random at 0 for one draw (7 calls), then at 0.5: the first two tokens drawn.
const FIRST = '00000000-0000-4000-8000-000000000000'
const SECOND = '80000000-8000-4800-a800-800000800000'

function drawsFirstThenSecond(): void {
  const random = jest.spyOn(Math, 'random')
  for (let i = 0; i < 7; i++) random.mockReturnValueOnce(0)
  random.mockReturnValue(0.5)
}

afterEach(() => {
  jest.restoreAllMocks()
})

describe('unusedToken', () => {
  it('is UUID-shaped (version 4 layout) and differs between draws', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => unusedToken([])))
    expect(tokens.size).toBe(200)
    for (const token of tokens)
      expect(token).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
      )
  })
  it('draws again when a text holds the token (the draws are as predicted)', () => {
    drawsFirstThenSecond()
    expect(unusedToken([])).toBe(FIRST)
    drawsFirstThenSecond()
    expect(unusedToken(['plain', `text ::${FIRST}:: that guessed it`])).toBe(SECOND)
  })
})

describe('a guessed token cannot end a block', () => {
  it('stop-commands: a line holding the first draw gets the next', () => {
    drawsFirstThenSecond()
    const lines: string[] = []
    logUntrusted((line) => lines.push(line), [`::${FIRST}::`, '::set-output name=x::1'])
    expect(lines).toEqual([
      `::stop-commands::${SECOND}`,
      `::${FIRST}::`,
      '::set-output name=x::1',
      `::${SECOND}::`
    ])
  })
  it('GITHUB_OUTPUT: a value holding the first delimiter is written with the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-tokens-'))
    const file = join(dir, 'output')
    writeFileSync(file, '')
    const value = `x\nghadelimiter_${FIRST}\nverdict<<EOF\nSHIP\nEOF`
    try {
      drawsFirstThenSecond()
      await withEnv('GITHUB_OUTPUT', file, () => setOutput('report', value))
      expect(readFileSync(file, 'utf8')).toBe(
        `report<<ghadelimiter_${SECOND}\n${value}\nghadelimiter_${SECOND}\n`
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
