/**
 * Conformance: the core agrees with flowctl (the reference implementation) on every
 * receipt of the corpus — projection validity, the Ralph guard, and per-receipt
 * currentness — as recorded by the oracle in `_expected/`.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { checkEnvelope } from '../../src/receipts/envelope.js'
import { isJsonObject, readJsonBytes } from '../../src/receipts/json.js'
import { selectCurrent, type SelectionFilter } from '../../src/receipts/lineage.js'
import { project } from '../../src/receipts/receipt.js'
import { TYPE_TO_KIND, type ReviewKind } from '../../src/receipts/schema.js'
import { corpusFiles, corpusPath, expected, loadFromDisk } from '../support/corpus.js'

interface ValidateEntry {
  file: string
  overall: 'valid' | 'valid-no-findings' | 'invalid' | 'flowctl-raised' | 'unparseable'
}
interface GuardEntry {
  file: string
  validate_receipt_file: string
}
interface CurrentEntry {
  args: string
  result: Record<
    string,
    { status: string; tip?: { sourceReceiptId: string; round: number } }
  >
}

/** What the core says of one file's projection, in the oracle's words. */
function overallOf(path: string): string {
  const read = readJsonBytes(readFileSync(path))
  if (!read.ok) return 'unparseable'
  if (!isJsonObject(read.value)) return 'invalid'
  const projection = project(read.value)
  return { valid: 'valid', absent: 'valid-no-findings', invalid: 'invalid' }[
    projection.state
  ]
}

describe('projection (validate-findings.json)', () => {
  const entries = expected<ValidateEntry>('validate-findings.json')
  it('covers every receipt of the corpus outside currentness/', () => {
    const named = new Set(entries.map((entry) => corpusPath(entry.file)))
    const missing = corpusFiles().filter(
      (file) =>
        !named.has(file) && !file.includes('/currentness/') && !file.includes('.history/')
    )
    expect(missing).toEqual([])
  })
  it('holds the newer receipts (claude mode, fan-out draws): valid ones and refused ones', () => {
    const newer = entries.filter((entry) => entry.file.includes('/newer/'))
    const overall = (part: string): string[] =>
      newer.filter((entry) => entry.file.includes(part)).map((entry) => entry.overall)
    expect(overall('/valid/claude/')).toEqual(['valid'])
    expect(overall('/valid/fanout')).toEqual(['valid', 'valid', 'valid'])
    expect(overall('/invalid/').length).toBeGreaterThanOrEqual(5)
    expect(new Set(overall('/invalid/'))).toEqual(new Set(['invalid']))
  })
  it.each(entries.map((entry) => [entry.file, entry.overall] as const))(
    '%s is %s',
    (file, overall) => {
      const want = overall === 'flowctl-raised' ? 'invalid' : overall
      expect(overallOf(corpusPath(file))).toBe(want)
    }
  )
})

describe('envelope (guard-check.json)', () => {
  const entries = expected<GuardEntry>('guard-check.json')
  it.each(entries.map((entry) => [entry.file, entry.validate_receipt_file] as const))(
    '%s → %j',
    (file, verdict) => {
      const read = readJsonBytes(readFileSync(corpusPath(file)))
      if (!read.ok) {
        expect(verdict).toMatch(/^invalid JSON/)
        return
      }
      const check = checkEnvelope(read.value, basename(file))
      if (verdict === '') expect(check).toMatchObject({ ok: true })
      else
        expect(check.ok ? '' : check.reason).toMatch(
          new RegExp(`^${verdict.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)
        )
    }
  )
})

/** The oracle's own output shape (`{query, receipts}`), as stored for the real corpus. */
interface RawCurrent {
  query: { head: string; kind: string | null; backend: string | null; mode: string }
  receipts: Array<{
    receipt: string
    status: string
    tip?: { sourceReceiptId: string; round: number }
  }>
}

/** Both stored shapes as `{args, result}` entries. */
function normalise(
  entry: CurrentEntry | RawCurrent | Record<string, unknown>
): CurrentEntry[] {
  if ('args' in entry) return [entry as CurrentEntry]
  const raw = entry as RawCurrent
  const flags = [
    `--head ${raw.query.head}`,
    raw.query.kind ? `--kind ${raw.query.kind}` : '',
    raw.query.backend ? `--backend ${raw.query.backend}` : '',
    `--mode ${raw.query.mode}`
  ]
  return [
    {
      args: `current ${flags.filter(Boolean).join(' ')}`,
      result: Object.fromEntries(raw.receipts.map((r) => [r.receipt, r]))
    }
  ]
}

/** Parses an oracle `current …` argument line. */
function parseArgs(args: string): {
  head: string
  kind?: string
  backend?: string
  mode: string
} {
  const words = args.split(' ')
  const flag = (name: string): string | undefined => {
    const at = words.indexOf(name)
    return at === -1 ? undefined : words[at + 1]
  }
  return {
    head: flag('--head') ?? '',
    kind: flag('--kind'),
    backend: flag('--backend'),
    mode: flag('--mode') ?? 'per-receipt'
  }
}

function kindOf(name: string | undefined): ReviewKind | undefined {
  if (name === undefined) return undefined
  return TYPE_TO_KIND[name] ?? (name as ReviewKind)
}

describe('currentness (current.json, per receipt)', () => {
  const cases = expected<CurrentEntry | RawCurrent>('current.json')
    .flatMap(normalise)
    .flatMap((entry) => {
      const query = parseArgs(entry.args)
      // pooled/files modes only document flowctl: the product selects per receipt.
      if (query.mode !== 'per-receipt') return []
      return Object.entries(entry.result).map(
        ([pointer, result]) => [entry.args, pointer, query, result] as const
      )
    })
  it('has cases', () => expect(cases.length).toBeGreaterThan(10))
  it.each(cases)('%s: %s', (_args, pointer, query, result) => {
    const loaded = loadFromDisk(corpusPath(pointer))
    if (!loaded.ok) {
      expect(result.status).toBe('load-failed')
      return
    }
    const filter: SelectionFilter = { kind: kindOf(query.kind), backend: query.backend }
    const containers = loaded.generations.flatMap((g) => (g.findings ? [g.findings] : []))
    const selection = selectCurrent(containers, (sha) => sha === query.head, filter)
    const status = {
      current: 'current',
      stale: 'stale',
      ambiguous: 'ambiguous-or-invalid',
      absent: 'no-structured-findings'
    }[selection.state]
    expect(status).toBe(result.status)
    if (selection.state === 'current') {
      expect({ id: selection.tip.sourceReceiptId, round: selection.tip.round }).toEqual({
        id: result.tip?.sourceReceiptId,
        round: result.tip?.round
      })
    }
  })
})

describe('loadGenerations keeps what selection and the report read', () => {
  it('with a latest receipt: history generations keep their container, not their receipt', () => {
    const loaded = loadFromDisk(
      corpusPath('corpus/generated/valid/chain-impl-codex/impl-fn-7-receipt-gate.2.json')
    )
    if (!loaded.ok) throw new Error(loaded.reason)
    const history = loaded.generations.filter((g) => g.source === 'history')
    expect(history.length).toBeGreaterThan(0)
    for (const generation of history) {
      expect(generation.receipt).toBeNull()
      expect(generation.findings?.items.length).toBeGreaterThan(0)
    }
    const latest = loaded.generations.at(-1)
    expect(latest?.source).toBe('latest')
    expect(latest?.receipt).not.toBeNull()
  })

  it('an orphaned history keeps every receipt: its envelope comes from one of them', () => {
    const loaded = loadFromDisk(
      corpusPath(
        'corpus/generated/currentness/orphan-history/impl-fn-7-receipt-gate.2.json'
      )
    )
    if (!loaded.ok) throw new Error(loaded.reason)
    expect(loaded.generations.length).toBeGreaterThan(0)
    for (const generation of loaded.generations) {
      expect(generation.source).toBe('history')
      expect(generation.receipt).not.toBeNull()
    }
  })
})
