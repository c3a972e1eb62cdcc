/** The stop-commands token: untrusted text cannot end its block, however it was chosen. */
import { describe, expect, it } from '@jest/globals'
import { logUntrusted } from '../../src/action/log.js'

describe('the stop-commands token', () => {
  it('is fresh for every block', () => {
    const tokens = new Set<string>()
    for (let i = 0; i < 50; i++) logUntrusted((line) => tokens.add(line), ['x'])
    // Each block: its opening, the line, its closing; 50 distinct openings.
    expect([...tokens].filter((t) => t.startsWith('::stop-commands::'))).toHaveLength(50)
  })
  it('is drawn again when a line holds it: a guessed token cannot end the block', () => {
    const draws = ['guessed', 'guessed', 'fresh']
    const lines: string[] = []
    logUntrusted(
      (line) => lines.push(line),
      ['::guessed::', '::set-output name=x::1'],
      () => draws.shift() ?? 'unreachable'
    )
    expect(lines).toEqual([
      '::stop-commands::fresh',
      '::guessed::',
      '::set-output name=x::1',
      '::fresh::'
    ])
  })
})
