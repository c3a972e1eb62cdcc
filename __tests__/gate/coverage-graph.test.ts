/**
 * The API source's pure coverage pieces: reachability over the PR's parent graph
 * (merges included, the base side left out) and which commits coverage must classify.
 */
import { describe, expect, it } from '@jest/globals'
import {
  codeCommits,
  codeTest,
  reachableInPr,
  toClassify
} from '../../src/gate/coverage.js'
import { globMatcher } from '../../src/gate/glob-matcher.js'

// main: m0 ← m1 ← m2. The PR: a ← b, then main (m2) merged in as M, then c.
// `m1` is the PR's merge base when it was opened; m2 joined through the merge.
const parents = new Map<string, string[]>([
  ['a', ['m1']],
  ['b', ['a']],
  ['M', ['b', 'm2']],
  ['c', ['M']]
])

describe('reachableInPr', () => {
  it('walks parents through merges and stops at the base side', () => {
    expect([...reachableInPr(parents, 'c')].sort()).toEqual(['M', 'a', 'b', 'c'])
    expect([...reachableInPr(parents, 'b')].sort()).toEqual(['a', 'b'])
  })

  it('reaches no PR commit from a commit outside the graph', () => {
    expect(reachableInPr(parents, 'm2').size).toBe(0)
    expect(reachableInPr(parents, 'unknown').size).toBe(0)
  })

  it('survives a cycle a hostile answer could spell', () => {
    const loop = new Map([
      ['x', ['y']],
      ['y', ['x']]
    ])
    expect([...reachableInPr(loop, 'x')].sort()).toEqual(['x', 'y'])
  })
})

describe('classification', () => {
  it('lists every unlisted commit, inside a SHIP review or not (git classifies them all)', () => {
    const isCode = codeTest(globMatcher(['.flow/**']))
    const unlisted = ['a', 'b', 'c'].map((sha) => ({ sha, paths: null }))
    expect(toClassify(unlisted, isCode)).toEqual(['a', 'b', 'c'])
    // Listed commits are never asked for again.
    expect(toClassify([{ sha: 'a', paths: ['src/x.ts'] }], isCode)).toEqual([])
  })

  it('counts an unlisted commit as code, a listed one by its paths', () => {
    const isBookkeeping = globMatcher(['.flow/**'])
    expect(
      codeCommits(
        [
          { sha: 'a', paths: null },
          { sha: 'b', paths: ['.flow/review-receipts/x.json'] },
          { sha: 'c', paths: ['.flow/x', 'src/y.ts'] }
        ],
        codeTest(isBookkeeping)
      )
    ).toEqual(['a', 'c'])
  })
})
