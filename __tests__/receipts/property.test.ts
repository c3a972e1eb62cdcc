/**
 * Properties of the pure core: it never throws, whatever the bytes — arbitrary JSON,
 * arbitrary text and bytes, and random mutations of the valid corpus receipts and
 * chains — and its answers are self-consistent (a valid projection has no reasons,
 * an invalid one has some; selection does not depend on input order).
 * Runs: `FC_RUNS` (default 1000) per property.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { checkEnvelope } from '../../src/receipts/envelope.js'
import {
  checkContainer,
  checkCriteria,
  checkFindings
} from '../../src/receipts/findings.js'
import { historyFileName, lineageId } from '../../src/receipts/identity.js'
import { isJsonObject, parseJsonText, readJsonBytes } from '../../src/receipts/json.js'
import {
  candidateHeads,
  loadGenerations,
  selectCurrent,
  sortItems,
  type HistoryFile,
  type Selection
} from '../../src/receipts/lineage.js'
import { inspectReceipt } from '../../src/receipts/receipt.js'
import type { FindingsContainer } from '../../src/receipts/schema.js'
import { CORPUS } from '../support/corpus.js'
import {
  buildContainer,
  buildItem,
  jsonBytes,
  jsonText,
  SHA,
  type Built,
  type BuiltObject
} from '../support/receipt-builders.js'
import {
  BASES,
  clone,
  isObject,
  mutate,
  mutated,
  mutationArb
} from '../support/mutations.js'

const RUNS = Number(process.env.FC_RUNS ?? '') || 1000
const settings = { numRuns: RUNS }

/** Everything the core says of one receipt file; throws only if the core does. */
function inspectAll(path: string, bytes: Uint8Array): void {
  const inspected = inspectReceipt(path, bytes)
  if (inspected.readable) {
    const { state, reasons } = inspected.projection
    if (state === 'invalid') expect(reasons.length).toBeGreaterThan(0)
    else expect(reasons).toEqual([])
    for (const reason of reasons) expect(typeof reason).toBe('string')
    if (state === 'valid') sortItems(inspected.projection.findings!.items)
  } else {
    expect(inspected.reason.length).toBeGreaterThan(0)
  }
  const read = readJsonBytes(bytes)
  if (read.ok) {
    checkEnvelope(read.value, path)
    if (isJsonObject(read.value)) {
      checkContainer(read.value)
      checkContainer(read.value.findings)
      checkFindings(read.value)
      checkCriteria(read.value)
    }
  }
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

// ── (a) arbitrary JSON values ────────────────────────────────────────────────

describe('arbitrary JSON', () => {
  it('never throws on a serialised JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        inspectAll('receipt.json', utf8(JSON.stringify(value)))
      }),
      settings
    )
  })
  it('never throws on arbitrary values in the findings, criteria and envelope slots', () => {
    const envelope = fc.record({
      type: fc.oneof(
        fc.constantFrom('impl_review', 'plan_review', 'completion_review', 'qa_verdict'),
        fc.jsonValue()
      ),
      id: fc.oneof(fc.constant('fn-7.1'), fc.jsonValue()),
      mode: fc.oneof(fc.constant('codex'), fc.jsonValue()),
      verdict: fc.oneof(fc.constant('SHIP'), fc.jsonValue()),
      findings: fc.jsonValue(),
      criteria: fc.jsonValue()
    })
    fc.assert(
      fc.property(
        envelope,
        fc.constantFrom('impl-fn-7.1.json', 'x.json'),
        (value, name) => {
          inspectAll(name, utf8(JSON.stringify(value)))
        }
      ),
      settings
    )
  })
  it('reads integer-free JSON exactly as JSON.parse does', () => {
    const noNumbers = fc.jsonValue().filter((value) => !/\d/.test(JSON.stringify(value)))
    fc.assert(
      fc.property(noNumbers, (value) => {
        const text = JSON.stringify(value)
        const read = parseJsonText(text)
        expect(read.ok).toBe(true)
        if (read.ok) expect(JSON.stringify(read.value)).toBe(text)
      }),
      settings
    )
  })
})

// ── (b) arbitrary text and bytes ─────────────────────────────────────────────

describe('arbitrary text and bytes', () => {
  it('never throws on arbitrary strings (lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        parseJsonText(text)
        inspectAll('receipt.json', utf8(text))
      }),
      settings
    )
  })
  it('never throws on strings made of JSON punctuation', () => {
    const token = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      '\\u',
      'd800',
      '1',
      '-',
      '.',
      'e',
      'null',
      'NaN',
      ' ',
      '"findings"',
      '"items"',
      '"type"',
      '"impl_review"'
    )
    fc.assert(
      fc.property(fc.array(token, { maxLength: 80 }), (tokens) => {
        inspectAll('receipt.json', utf8(tokens.join('')))
      }),
      settings
    )
  })
  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        inspectAll('receipt.json', bytes)
      }),
      settings
    )
  })
  it('never throws when bytes of a valid receipt are overwritten', () => {
    const base = readFileSync(
      join(CORPUS, 'generated/valid/single/impl-fn-7-receipt-gate.1.json')
    )
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6
        }),
        (edits) => {
          const bytes = Uint8Array.from(base)
          for (const [at, byte] of edits) bytes[at % bytes.length] = byte
          inspectAll('impl-fn-7-receipt-gate.1.json', bytes)
        }
      ),
      settings
    )
  })
})

// ── (c) mutations of valid corpus receipts ───────────────────────────────────

describe('mutations of valid corpus receipts', () => {
  it('has bases to mutate', () => expect(BASES.length).toBeGreaterThan(20))
  it('never throws, and answers consistently', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: BASES.length - 1 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (index, mutations, compact) => {
          const base = BASES[index]!
          inspectAll(
            base.name,
            jsonBytes(mutated(base.value, mutations), compact ? 0 : 2)
          )
        }
      ),
      settings
    )
  })
  it('never throws on single mutations of the findings container alone', () => {
    const withFindings = BASES.filter(
      (base) => isObject(base.value) && isObject(base.value.findings)
    )
    fc.assert(
      fc.property(fc.nat({ max: withFindings.length - 1 }), mutationArb, (index, m) => {
        const container = clone((withFindings[index]!.value as BuiltObject).findings!)
        const read = readJsonBytes(jsonBytes(mutate(container, m)))
        if (read.ok) checkContainer(read.value)
      }),
      settings
    )
  })
})

// ── lineage: loadGenerations + selectCurrent ─────────────────────────────────

const CHAIN_DIR = join(CORPUS, 'generated/valid/chain-impl-codex')
const CHAIN_LATEST = JSON.parse(
  readFileSync(join(CHAIN_DIR, 'impl-fn-7-receipt-gate.2.json'), 'utf8')
) as Built
const CHAIN_HISTORY_NAME =
  '81510e1341b8613880e220da61875b99d90c81942ced4de73e22d531411274bc.json'
const CHAIN_HISTORY = JSON.parse(
  readFileSync(
    join(CHAIN_DIR, 'impl-fn-7-receipt-gate.2.json.history', CHAIN_HISTORY_NAME),
    'utf8'
  )
) as Built
const HEADS: string[] = [SHA.head1, SHA.head2, SHA.head3]

/** Parses a (possibly mutated) latest receipt the way a caller would before loading. */
function latestOf(value: Built | null) {
  if (value === null) return null
  const read = readJsonBytes(jsonBytes(value))
  if (!read.ok || !isJsonObject(read.value)) return undefined
  const findings = checkFindings(read.value)
  if (!findings.ok) return undefined
  return {
    receipt: read.value,
    findings: findings.value,
    name: 'impl-fn-7-receipt-gate.2.json'
  }
}

describe('candidateHeads', () => {
  it('names the head of a generation superseded only by one of another kind', () => {
    const loaded = loadGenerations(latestOf(CHAIN_LATEST)!, [
      { name: CHAIN_HISTORY_NAME, bytes: jsonBytes(CHAIN_HISTORY) }
    ])
    if (!loaded.ok) throw new Error(loaded.reason)
    const [first, second] = loaded.generations.map((g) => g.findings!)
    expect(second!.supersedesReceiptId).toBe(first!.sourceReceiptId)
    expect(second!.headSha).not.toBe(first!.headSha)
    // The round-2 container of another kind: for the first one's kind, round 1 is a tip.
    const containers = [first!, { ...second!, reviewKind: 'plan' as const }]
    const filter = { kind: first!.reviewKind }
    const asked: string[] = []
    selectCurrent(containers, (sha) => (asked.push(sha), false), filter)
    expect(asked).toEqual([first!.headSha])
    expect(candidateHeads(containers, filter)).toEqual([first!.headSha])
    expect(candidateHeads(containers)).toEqual([second!.headSha])
  })
})

describe('lineage on mutated chains', () => {
  it('loadGenerations + selectCurrent never throw', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), mutationArb), { maxLength: 3 }),
        fc.boolean(),
        fc.constantFrom(CHAIN_HISTORY_NAME, 'x.json', historyFileName('round-1')),
        fc.subarray(HEADS),
        (mutations, orphan, historyName, current) => {
          let latest = clone(CHAIN_LATEST)
          let history = clone(CHAIN_HISTORY)
          for (const [onLatest, m] of mutations) {
            if (onLatest) latest = mutate(latest, m)
            else history = mutate(history, m)
          }
          const parsedLatest = latestOf(orphan ? null : latest)
          if (parsedLatest === undefined) return // flowctl refuses the latest pointer
          const files: HistoryFile[] = [{ name: historyName, bytes: jsonBytes(history) }]
          const loaded = loadGenerations(parsedLatest, files)
          if (!loaded.ok) {
            expect(loaded.reason.length).toBeGreaterThan(0)
            return
          }
          const containers = loaded.generations.flatMap((g) =>
            g.findings ? [g.findings] : []
          )
          const selection = selectCurrent(containers, (sha) => current.includes(sha))
          checkSelection(selection, (sha) => current.includes(sha))
          // What the gate holds selects the same, the same tip object, its text intact;
          // and every head selection asks about is one the gate judged beforehand.
          for (const filter of [
            {},
            { kind: 'implementation' as const, backend: 'codex' },
            { kind: 'plan' as const }
          ]) {
            const asked = new Set<string>()
            const isCurrent = (sha: string): boolean => {
              asked.add(sha)
              return current.includes(sha)
            }
            const want = selectCurrent(containers, isCurrent, filter)
            const judged = new Set(candidateHeads(containers, filter))
            for (const sha of asked) expect(judged.has(sha)).toBe(true)
            expect(want.state).toMatch(/^(current|stale|ambiguous|absent)$/)
          }
        }
      ),
      settings
    )
  })
  it('loadGenerations never throws on unreadable or garbage history files', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.string({ maxLength: 70 }),
            bytes: fc.oneof(
              fc.uint8Array({ maxLength: 200 }),
              fc.jsonValue().map((v) => utf8(JSON.stringify(v))),
              fc.constant({ unreadable: 'over the 2 MiB cap' })
            )
          }),
          { maxLength: 4 }
        ),
        fc.boolean(),
        (files, orphan) => {
          const loaded = loadGenerations(orphan ? null : latestOf(CHAIN_LATEST)!, files)
          if (!loaded.ok) expect(loaded.reason.length).toBeGreaterThan(0)
        }
      ),
      settings
    )
  })
})

// ── selection over random valid lineages ─────────────────────────────────────

const IDS = ['r1', 'r2', 'r3', 'r4']

/** A container-valid generation in a small world of ids, rounds and heads. */
const generationArb: fc.Arbitrary<FindingsContainer> = fc
  .record({
    source: fc.constantFrom(...IDS),
    parent: fc.option(fc.constantFrom(...IDS), { nil: undefined }),
    round: fc.integer({ min: 1, max: 4 }),
    head: fc.constantFrom(...HEADS),
    backend: fc.constantFrom('codex', 'codex', 'cursor'),
    items: fc.array(
      fc.record({
        ordinal: fc.integer({ min: 1, max: 3 }),
        firstSeen: fc.constantFrom(...IDS),
        prior: fc.option(
          fc.tuple(fc.constantFrom(...IDS), fc.integer({ min: 1, max: 3 })),
          {
            nil: undefined
          }
        )
      }),
      { maxLength: 3 }
    )
  })
  .map(({ source, parent, round, head, backend, items }) => {
    const seen = new Set<number>()
    const built = items
      .filter(({ ordinal }) => !seen.has(ordinal) && seen.add(ordinal))
      .map(({ ordinal, firstSeen, prior }) =>
        buildItem({
          ordinal,
          sourceReceiptId: source,
          firstSeenReceiptId: firstSeen,
          with: prior ? { priorFindingId: lineageId(...prior) } : {}
        })
      )
      .filter((item) => item.priorFindingId !== item.id)
    const supersedes = parent === source ? undefined : parent
    return buildContainer({
      sourceReceiptId: source,
      supersedesReceiptId: supersedes,
      round: supersedes === undefined ? 1 : Math.max(2, round),
      headSha: head,
      backend,
      items: built
    })
  })
  .map((built) => {
    const read = readJsonBytes(jsonBytes(built))
    const checked = read.ok ? checkContainer(read.value) : null
    if (!checked?.ok)
      throw new Error(`generator made an invalid container: ${jsonText(built)}`)
    return checked.value
  })

function checkSelection(selection: Selection, isCurrent: (sha: string) => boolean): void {
  if (selection.state === 'current') expect(isCurrent(selection.tip.headSha)).toBe(true)
  if (selection.state === 'stale') expect(isCurrent(selection.tip.headSha)).toBe(false)
  if (selection.state === 'current' || selection.state === 'stale')
    expect(selection.chainLength).toBeGreaterThanOrEqual(1)
  if (selection.state === 'ambiguous') expect(selection.reason.length).toBeGreaterThan(0)
}

const summary = (selection: Selection) =>
  selection.state === 'current' || selection.state === 'stale'
    ? [selection.state, selection.tip.sourceReceiptId, selection.chainLength]
    : [selection.state]

describe('selection over random valid lineages', () => {
  it('never throws, is consistent, and does not depend on input order', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uniqueArray(generationArb, {
            selector: (c) => c.sourceReceiptId,
            maxLength: 4
          }),
          fc.array(generationArb, { maxLength: 5 })
        ),
        fc.subarray(HEADS),
        fc.option(fc.constantFrom('codex', 'cursor'), { nil: undefined }),
        fc.func(fc.nat()),
        (containers, heads, backend, order) => {
          const isCurrent = (sha: string): boolean => heads.includes(sha)
          const selection = selectCurrent(containers, isCurrent, { backend })
          checkSelection(selection, isCurrent)
          const shuffled = [...containers].sort(
            (a, b) =>
              order(a.sourceReceiptId + a.headSha) - order(b.sourceReceiptId + b.headSha)
          )
          expect(summary(selectCurrent(shuffled, isCurrent, { backend }))).toEqual(
            summary(selection)
          )
        }
      ),
      settings
    )
  })
  it('selects a tip only where its head is current', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(generationArb, {
          selector: (c) => c.sourceReceiptId,
          maxLength: 4
        }),
        (containers) => {
          for (const head of HEADS) {
            const selection = selectCurrent(containers, (sha) => sha === head)
            if (selection.state === 'current') expect(selection.tip.headSha).toBe(head)
          }
        }
      ),
      settings
    )
  })
})
