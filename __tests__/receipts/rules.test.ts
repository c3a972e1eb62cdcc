/**
 * One case per validation rule of the reference (§4.1–4.5, §5, §6, the guard's name
 * forms): each receipt differs from a valid one in one way, and the core must give
 * flowctl's answer with a reason that names the offending field. The cases live in
 * `rule-cases.ts`; every expectation there was checked against the oracle.
 */
import { describe, expect, it } from '@jest/globals'
import { checkContainer } from '../../src/receipts/findings.js'
import { lineageId } from '../../src/receipts/identity.js'
import { readJsonBytes } from '../../src/receipts/json.js'
import { inspectReceipt, type InspectedReceipt } from '../../src/receipts/receipt.js'
import {
  buildContainer,
  compactBytes,
  containerOfBytes,
  jsonBytes,
  raw,
  SHA
} from '../support/receipt-builders.js'
import { RULE_CASES, type Outcome, type RuleCase } from './rule-cases.js'

function outcomeOf(inspected: InspectedReceipt): { outcome: Outcome; reasons: string[] } {
  if (!inspected.readable) return { outcome: 'unreadable', reasons: [inspected.reason] }
  return { outcome: inspected.projection.state, reasons: inspected.projection.reasons }
}

function judge(rule: RuleCase): { outcome: Outcome; reasons: string[] } {
  return outcomeOf(inspectReceipt(rule.file ?? 'receipt.json', jsonBytes(rule.receipt())))
}

const sections = [...new Set(RULE_CASES.map((rule) => rule.rule.split(' ')[0]!))]

describe.each(sections)('rules %s', (section) => {
  const cases = RULE_CASES.filter((rule) => rule.rule.split(' ')[0] === section)
  it.each(cases.map((rule) => [`${rule.rule}: ${rule.name}`, rule] as const))(
    '%s',
    (_title, rule) => {
      const { outcome, reasons } = judge(rule)
      expect(outcome).toBe(rule.expect)
      if (rule.expect === 'valid' || rule.expect === 'absent') {
        expect(reasons).toEqual([])
      } else {
        expect(rule.field).toBeDefined()
        expect(reasons.some((reason) => rule.field!.test(reason))).toBe(true)
      }
    }
  )
})

describe('rule table', () => {
  it('covers every section of the reference it claims', () => {
    for (const section of ['§4.1', '§4.2', '§4.3', '§4.4', '§4.5', '§5', '§6', 'guard'])
      expect(sections).toContain(section)
  })
  it('gives every failing case a field to name', () => {
    const missing = RULE_CASES.filter(
      (rule) => rule.expect !== 'valid' && rule.expect !== 'absent' && !rule.field
    )
    expect(missing.map((rule) => rule.name)).toEqual([])
  })
  it('lists the documented deviations from flowctl and nothing else', () => {
    expect(
      RULE_CASES.filter((rule) => rule.deviation).map((rule) => [
        rule.name,
        rule.deviation!.flowctl
      ])
    ).toEqual([
      ['ordinal 2^60 (an int to Python)', 'valid'],
      ['type a number (no name form)', 'invalid']
    ])
  })
})

describe('identities (§4.4)', () => {
  it('derives the id the oracle prints for (review-fork-root, 1)', () => {
    expect(lineageId('review-fork-root', 1)).toBe(
      'finding-161943b139e903ad1c238197566e988a'
    )
  })
  it('hashes the UTF-8 of non-ASCII receipt ids', () => {
    expect(lineageId('ré😀', 12)).toMatch(/^finding-[0-9a-f]{32}$/)
    expect(lineageId('ré😀', 12)).not.toBe(lineageId('re😀', 12))
  })
})

describe('checkContainer on its own (no envelope binding)', () => {
  const parsed = (value: Parameters<typeof jsonBytes>[0]) => {
    const read = readJsonBytes(jsonBytes(value))
    if (!read.ok) throw new Error(read.reason)
    return read.value
  }
  it('accepts any backend and any kind without a receipt around it', () => {
    const container = buildContainer({ reviewKind: 'qa', backend: 'whatever' })
    expect(checkContainer(parsed(container))).toMatchObject({ ok: true })
  })
  it('names the container `findings` in reasons', () => {
    const container = buildContainer()
    container.round = raw('1.0')
    const checked = checkContainer(parsed(container))
    expect(checked.ok).toBe(false)
    if (!checked.ok) expect(checked.reasons[0]).toMatch(/^findings\.round: /)
  })
  it('refuses non-objects and undefined', () => {
    expect(checkContainer(undefined)).toMatchObject({ ok: false })
    expect(checkContainer([])).toMatchObject({ ok: false })
    expect(checkContainer(null)).toMatchObject({ ok: false })
  })
  it('caps the reasons of a badly broken container', () => {
    const container = buildContainer({ items: 20 })
    for (const item of container.items as Array<Record<string, unknown>>) {
      item.confidence = 1
      item.severity = 'x'
    }
    const checked = checkContainer(parsed(container))
    expect(checked.ok).toBe(false)
    if (!checked.ok) {
      expect(checked.reasons.length).toBeLessThanOrEqual(6)
      expect(checked.reasons.at(-1)).toMatch(/more problems/)
    }
  })
})

describe('the byte bound (§4.1) is on compact, sorted-key UTF-8 JSON', () => {
  it('builds containers of an exact compact size', () => {
    for (const size of [262143, 262144, 262145])
      expect(compactBytes(containerOfBytes(size))).toBe(size)
  })
  it('does not count the file formatting: a pretty-printed file over 256 KiB can hold a bound-sized container', () => {
    const receipt = {
      type: 'impl_review',
      id: 'x',
      mode: 'codex',
      verdict: 'SHIP',
      findings: containerOfBytes(262144)
    }
    const bytes = jsonBytes(receipt, 8)
    expect(bytes.length).toBeGreaterThan(262144 + 4096)
    const inspected = inspectReceipt('receipt.json', bytes)
    expect(inspected.readable && inspected.projection.state).toBe('valid')
  })
  it('counts escapes as written: a body of control characters is six bytes each', () => {
    const container = containerOfBytes(262144 - 5 * 10)
    const items = container.items as Array<Record<string, unknown>>
    // Ten U+0001 characters replace ten 'x': each becomes `\u0001` (6 bytes, +5).
    items[0]!.body = '\u0001'.repeat(10) + (items[0]!.body as string).slice(10)
    expect(compactBytes(container)).toBe(262144)
    expect(checkContainer(readValue(container))).toMatchObject({ ok: true })
    items[0]!.body = '\u0001'.repeat(11) + (items[0]!.body as string).slice(11)
    expect(checkContainer(readValue(container))).toMatchObject({ ok: false })
  })
  it('holds for anchors on the corpus SHAs too', () => {
    const container = containerOfBytes(262144, { headSha: SHA.head1, anchored: true })
    expect(checkContainer(readValue(container))).toMatchObject({ ok: true })
  })
})

function readValue(value: Parameters<typeof jsonBytes>[0]) {
  const read = readJsonBytes(jsonBytes(value, 0))
  if (!read.ok) throw new Error(read.reason)
  return read.value
}
