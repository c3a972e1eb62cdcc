/**
 * The report file and the job summary, written in pieces through one reused buffer
 * (issue 7): the bytes must be those of the whole text, `JSON.stringify(report, null, 2)`
 * and its line end for the report.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeReportFile } from '../../src/action/publish.js'
import { writePieces } from '../../src/action/write-pieces.js'
import type { Report } from '../../src/gate/report.js'
import { prettyJsonPieces } from '../../src/render/json-pieces.js'
import { reportFinding } from '../support/report-builders.js'
import { withEnv } from '../support/env.js'

const scratch = mkdtempSync(join(tmpdir(), 'receipt-gate-report-file-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const nextMacrotask = async (): Promise<void> =>
  new Promise((resolve) => setImmediate(resolve))
const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`
const joined = (value: unknown): string => [...prettyJsonPieces(value)].join('')

/** A deterministic pseudo-random JSON value (a linear congruential generator). */
function randomJson(seed: number): unknown {
  let state = seed
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state % n
  }
  const texts = ['', 'a', 'é', '😀', '\ud800', '"\\\n\t', '—✓𝔘', ' x ', '\u2028', '{}[]']
  const value = (depth: number): unknown => {
    switch (next(depth > 3 ? 5 : 8)) {
      case 0:
        return null
      case 1:
        return next(2) === 0
      case 2:
        return next(1000) - 500 + next(100) / 8
      case 3:
      case 4:
        return Array.from({ length: next(4) + 1 }, () => texts[next(texts.length)]).join(
          ''
        )
      case 5:
        return Array.from({ length: next(4) }, () => value(depth + 1))
      default: {
        const object: Record<string, unknown> = {}
        for (let i = next(5); i > 0; i--)
          object[texts[next(texts.length)] + String(next(20))] =
            next(9) === 0 ? undefined : value(depth + 1)
        return object
      }
    }
  }
  const top: Record<string, unknown> = {}
  for (let i = next(6); i > 0; i--) top[`k${next(30)}`] = value(1)
  return top
}

describe('prettyJsonPieces', () => {
  it('joins to JSON.stringify(value, null, 2) and a line end, for 500 random objects', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const value = randomJson(seed)
      expect(joined(value)).toBe(pretty(value))
    }
  })

  it('empty members and lists, members with no JSON form, numeric keys first', () => {
    const cases: unknown[] = [
      {},
      { a: [] },
      { a: {} },
      { a: [[]], b: [{}], c: [[[1]]] },
      { a: undefined, b: () => 1, c: Symbol('x') },
      { a: undefined },
      { a: [undefined, () => 1, null] },
      { z: 1, 2: 'two', 1: 'one', '': 'empty' },
      Object.assign(Object.create(null) as object, { a: [1, { b: [2] }] }),
      { date: new Date(0), nested: { toJSON: () => ['x'] } }
    ]
    for (const value of cases) expect(joined(value)).toBe(pretty(value))
  })

  it('a value that is not a plain object is stringified whole', () => {
    const cases: unknown[] = [
      [1, [2, { a: 3 }]],
      'text',
      7,
      null,
      new Date(0),
      { toJSON: () => ({ a: [1] }) },
      new (class Point {
        x = 1
      })()
    ]
    for (const value of cases) {
      expect(joined(value)).toBe(pretty(value))
      expect([...prettyJsonPieces(value)]).toHaveLength(1)
    }
  })

  it('a report is cut into a piece per list element, each far smaller than the whole', () => {
    const findings = (r: number) =>
      Array.from({ length: 20 }, (_, i) =>
        reportFinding({
          id: `f-${r}-${i}`,
          ordinal: i + 1,
          body: `—😀 ${'x'.repeat(500)}`
        })
      )
    const receipts = Array.from({ length: 10 }, (_, r) => ({
      path: `r${r}`,
      findings: findings(r)
    }))
    const report = {
      conclusion: 'failure',
      receipts,
      annotations: receipts.flatMap((row) =>
        row.findings.map((f) => ({ title: f.title, message: f.body }))
      ),
      notes: []
    }
    const pieces = [...prettyJsonPieces(report)]
    const whole = pretty(report)
    expect(pieces.join('')).toBe(whole)
    expect(pieces.length).toBeGreaterThan(210)
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(
      whole.length / 10
    )
  })
})

describe('writePieces', () => {
  const file = (name: string): string => join(scratch, name)

  it('writes the bytes of the joined text across many buffers, pausing after each', async () => {
    // Pieces of every size around the 64 KiB buffer: small ones, one that fills it, one
    // that may not fit an empty one (written on its own), astral characters throughout.
    const pieces = [
      'start —',
      ...Array.from({ length: 3000 }, (_, i) => `😀 ${i} é `),
      'x'.repeat(64 * 1024),
      '𝔘'.repeat(20_000),
      'y'.repeat(21_845),
      'end\n'
    ]
    let pauses = 0
    await writePieces(file('many.txt'), pieces, {
      flags: 'w',
      pause: async () => {
        pauses++
        await nextMacrotask()
      }
    })
    const bytes = readFileSync(file('many.txt'))
    expect(bytes.equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true)
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(bytes.length / (64 * 1024)) - 2)
  })

  it('replaces with w, appends with a; no pieces leave an appended file as it was', async () => {
    writeFileSync(file('append.txt'), 'before\n')
    await writePieces(file('append.txt'), ['one ', 'two\n'], { flags: 'a' })
    await writePieces(file('append.txt'), [], { flags: 'a' })
    expect(readFileSync(file('append.txt'), 'utf8')).toBe('before\none two\n')
    await writePieces(file('append.txt'), ['new'], { flags: 'w' })
    expect(readFileSync(file('append.txt'), 'utf8')).toBe('new')
  })

  it('a file that cannot be opened fails the write with its path', async () => {
    await expect(
      writePieces(join(scratch, 'missing', 'x.txt'), ['a'], { flags: 'w' })
    ).rejects.toThrow(/ENOENT.*missing/)
  })
})

describe('writeReportFile', () => {
  it('writes the report as the CLI prints it: JSON.stringify(report, null, 2) and a line end', async () => {
    const findings = Array.from({ length: 120 }, (_, i) =>
      reportFinding({ id: `f-${i}`, ordinal: i + 1, title: `é😀 ${i}`, body: `— ${i}` })
    )
    const report = {
      conclusion: 'failure',
      head: 'a'.repeat(40),
      receipts: [{ path: '.flow/review-receipts/impl-fn-1.json', findings }],
      missing: [],
      annotations: findings.map((f) => ({ path: 'src/a.ts', title: f.title })),
      notes: ['\ud800 lone']
    } as unknown as Report
    const path = await withEnv('RUNNER_TEMP', scratch, async () =>
      writeReportFile(report, '7-1', nextMacrotask)
    )
    expect(path).toBe(join(scratch, 'receipt-gate-report-7-1.json'))
    expect(readFileSync(path, 'utf8')).toBe(pretty(report))
  })
})
