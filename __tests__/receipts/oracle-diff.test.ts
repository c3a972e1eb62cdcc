/**
 * Differential test against flowctl: single-fault and tricky mutations of the valid
 * corpus receipts, guard-name cases and mutated lineages, with flowctl's verdicts as
 * the oracle printed them (`__tests__/fixtures/oracle/expected.json`, generated
 * outside the repo). The core must agree with every verdict, except the documented
 * deviations, where it must give its own documented answer (`deviation.ours`).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { checkEnvelope } from '../../src/receipts/envelope.js'
import { isJsonObject, readJsonBytes } from '../../src/receipts/json.js'
import { selectCurrent } from '../../src/receipts/lineage.js'
import { project } from '../../src/receipts/receipt.js'
import type { ReviewKind } from '../../src/receipts/schema.js'
import { FIXTURES, loadFromDisk } from '../support/corpus.js'

const ORACLE = join(FIXTURES, 'oracle')

type Overall =
  'valid' | 'valid-no-findings' | 'invalid' | 'flowctl-raised' | 'unparseable'
interface Deviation {
  why: string
  ours: string
}
interface ValidateEntry {
  file: string
  what: string
  overall: Overall
  error?: string
  deviation?: Deviation
}
interface GuardEntry {
  file: string
  what: string
  /** The guard's message ('' = accepted), or null when the guard raised. */
  guard: string | null
  overall: Overall
  deviation?: Deviation
}
interface Tip {
  sourceReceiptId: string
  round: number
}
interface CurrentEntry {
  chain: string
  what: string
  pointer: string
  head: string
  kind: ReviewKind | null
  backend: string | null
  status: string
  tip?: Tip
  staleTip?: Tip
  deviation?: Deviation
}

const expected = JSON.parse(readFileSync(join(ORACLE, 'expected.json'), 'utf8')) as {
  validate: ValidateEntry[]
  guard: GuardEntry[]
  current: CurrentEntry[]
}

/** The core's projection of one file, in the oracle's words (flowctl-raised → invalid). */
function overallOf(file: string): string {
  const read = readJsonBytes(readFileSync(join(ORACLE, file)))
  if (!read.ok) return 'unparseable'
  if (!isJsonObject(read.value)) return 'invalid'
  return { valid: 'valid', absent: 'valid-no-findings', invalid: 'invalid' }[
    project(read.value).state
  ]
}

const projected = (overall: Overall): string =>
  overall === 'flowctl-raised' ? 'invalid' : overall

describe('oracle fixtures', () => {
  it('hold a few hundred cases of every kind', () => {
    expect(expected.validate.length).toBeGreaterThanOrEqual(150)
    expect(expected.guard.length).toBeGreaterThanOrEqual(15)
    expect(new Set(expected.current.map((entry) => entry.chain)).size).toBeGreaterThan(25)
    const verdicts = new Set(expected.validate.map((entry) => entry.overall))
    for (const overall of [
      'valid',
      'valid-no-findings',
      'invalid',
      'flowctl-raised',
      'unparseable'
    ])
      expect(verdicts).toContain(overall)
  })
  it('document every deviation', () => {
    const deviations = [...expected.validate, ...expected.guard, ...expected.current]
      .filter((entry) => entry.deviation)
      .map((entry) => entry.deviation!.why)
    for (const why of deviations) expect(why.length).toBeGreaterThan(20)
    // NaN/Infinity, big integers, the nesting limit, the Unicode version of \d,
    // the guard's string rule, and SPEC §3's "several tips, none current".
    expect(new Set(deviations).size).toBeLessThanOrEqual(9)
  })
})

describe('projection agrees with validate-findings', () => {
  it.each(expected.validate.map((entry) => [entry.file, entry.what, entry] as const))(
    '%s (%s)',
    (file, _what, entry) => {
      const want = entry.deviation ? entry.deviation.ours : projected(entry.overall)
      expect(overallOf(file)).toBe(want)
      if (entry.deviation) expect(projected(entry.overall)).not.toBe(want)
    }
  )
})

describe('envelope agrees with the Ralph guard', () => {
  it.each(expected.guard.map((entry) => [entry.file, entry.what, entry] as const))(
    '%s (%s)',
    (file, _what, entry) => {
      const read = readJsonBytes(readFileSync(join(ORACLE, file)))
      expect(read.ok).toBe(true)
      if (!read.ok) return
      const check = checkEnvelope(read.value, basename(file))
      if (entry.deviation) {
        expect(entry.deviation.ours).toBe('unreadable')
        expect(entry.guard).toBe('')
        expect(check.ok).toBe(false)
      } else if (entry.guard === '') {
        expect(check).toMatchObject({ ok: true })
      } else {
        // The guard raised (null) or refused with a message: ours refuses, same words first.
        expect(check.ok).toBe(false)
        if (!check.ok && entry.guard !== null)
          expect(check.reason.startsWith(entry.guard)).toBe(true)
      }
      expect(overallOf(file)).toBe(projected(entry.overall))
    }
  )
})

describe('currentness agrees with select_current_review_findings (per receipt)', () => {
  const cases = expected.current.map(
    (entry) =>
      [
        `${entry.chain} @${entry.head.slice(0, 7)}${entry.kind ? ` ${entry.kind}/${entry.backend}` : ''}`,
        basename(entry.pointer),
        entry
      ] as const
  )
  it.each(cases)('%s: %s', (_title, _pointer, entry) => {
    const loaded = loadFromDisk(join(ORACLE, entry.pointer))
    const selection = loaded.ok
      ? selectCurrent(
          loaded.generations.flatMap((g) => (g.findings ? [g.findings] : [])),
          (sha) => sha === entry.head,
          { kind: entry.kind ?? undefined, backend: entry.backend ?? undefined }
        )
      : null
    const status =
      selection === null
        ? 'load-failed'
        : {
            current: 'current',
            stale: 'stale',
            ambiguous: 'ambiguous-or-invalid',
            absent: 'no-structured-findings'
          }[selection.state]
    // flowctl raising while loading (anchor: null) is a failed load for the product.
    const oracle = entry.status === 'flowctl-raised' ? 'load-failed' : entry.status
    expect(status).toBe(entry.deviation ? entry.deviation.ours : oracle)
    if (selection?.state === 'current' || selection?.state === 'stale') {
      const tip = selection.state === 'current' ? entry.tip : entry.staleTip
      if (tip)
        expect({ id: selection.tip.sourceReceiptId, round: selection.tip.round }).toEqual(
          {
            id: tip.sourceReceiptId,
            round: tip.round
          }
        )
    }
  })
})
