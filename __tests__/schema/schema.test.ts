/**
 * `schema/receipt.schema.json`: current with the zod source, a valid draft 2020-12
 * schema, and faithful to flowctl. It accepts every receipt flowctl accepts (corpus,
 * oracle fixtures, rule cases) and refuses every refused one, except those whose only
 * faults are rules JSON Schema cannot state (`INEXPRESSIBLE`). For the corpus the
 * misses are listed by name.
 */
import { describe, expect, it } from '@jest/globals'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { inspectReceipt } from '../../src/receipts/receipt.js'
import {
  INEXPRESSIBLE,
  receiptJsonSchema,
  renderReceiptSchema,
  SCHEMA_FILE,
  type Inexpressible
} from '../../scripts/receipt-schema.js'
import { checkEnvelope } from '../../src/receipts/envelope.js'
import { corpusPath, expected, FIXTURES } from '../support/corpus.js'
import { jsonBytes } from '../support/receipt-builders.js'
import { RULE_CASES } from '../receipts/rule-cases.js'

const ROOT = resolve(FIXTURES, '..', '..')
const committed = readFileSync(join(ROOT, SCHEMA_FILE), 'utf8')
// Strict, except that `if` clauses may test a key's presence without describing it.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true })
const validate = ajv.compile(JSON.parse(committed) as object)

/** The core's reasons for each rule JSON Schema cannot state. */
const REASON_OF: Record<Inexpressible, RegExp> = {
  'id derivation': /\.id: is not derived from/,
  'lastSeen equals source': /\.lastSeenReceiptId: must equal/,
  'anchor SHAs': /\.anchor\.(head|base)Sha: must equal the container/,
  'mode equals backend': /^mode: must equal findings\.backend/,
  'distinct from itself': /(priorFindingId|supersedesReceiptId): must differ/,
  'unique ids': /: duplicate (finding id|ordinal|criterion)/,
  'line order': /\.endLine: must not be below startLine/,
  'anchor paths': /\.(path|originalPath): must be a relative repository path/,
  'byte bound': /bytes as compact JSON, over the/,
  'float tokens': /\(got the float /,
  'unpaired surrogates': /unpaired surrogate/,
  'reader limits': /^invalid JSON: (nested deeper than|an integer of \d+ digits)/,
  'guard file name': /^(type|id) mismatch: expected/
}

/** The schema's answer for receipt bytes; `null` when they are not JSON text (RFC 8259). */
function schemaAccepts(bytes: Uint8Array): boolean | null {
  let value: unknown
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
    value = JSON.parse(text)
  } catch {
    return null
  }
  return validate(value)
}

/** The inexpressible rules that explain a refusal, or the reasons none explains. */
function explain(file: string, bytes: Uint8Array): Inexpressible[] | string[] {
  const inspected = inspectReceipt(file, bytes)
  const reasons = inspected.readable
    ? inspected.projection.reasons.filter((reason) => !reason.startsWith('…'))
    : [inspected.reason]
  const rules = reasons.map(
    (reason) =>
      (Object.keys(REASON_OF) as Inexpressible[]).find((rule) =>
        REASON_OF[rule].test(reason)
      ) ?? reason
  )
  const unexplained = rules.filter((rule) => !(rule in INEXPRESSIBLE))
  return unexplained.length > 0 || rules.length === 0
    ? unexplained
    : [...new Set(rules as Inexpressible[])]
}

interface Case {
  name: string
  file: string
  bytes: Uint8Array
  /** flowctl's answer (the product's where it documents a deviation). */
  accepted: boolean
}

/** Compares the schema with the truth: wrong refusals, and misses by rule. */
function compare(cases: Case[]): {
  refusedValid: string[]
  misses: Record<string, string[]>
  judged: number
} {
  const refusedValid: string[] = []
  const misses: Record<string, string[]> = {}
  let judged = 0
  for (const entry of cases) {
    const verdict = schemaAccepts(entry.bytes)
    if (verdict === null) continue
    judged++
    if (entry.accepted && !verdict) refusedValid.push(entry.name)
    if (!entry.accepted && verdict) {
      misses[entry.name] = explain(entry.file, entry.bytes)
    }
  }
  return { refusedValid, misses, judged }
}

const ACCEPTED = new Set(['valid', 'valid-no-findings'])

describe('schema/receipt.schema.json', () => {
  it('is current with the zod schemas (run `npm run schema`)', () => {
    expect(committed).toBe(renderReceiptSchema())
  })

  it('is a draft 2020-12 schema that ajv compiles in strict mode', () => {
    const schema = receiptJsonSchema()
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(ajv.validateSchema(schema)).toBe(true)
  })

  it('keeps the envelope open and the findings container closed', () => {
    const base = { type: 'impl_review', id: 'fn-1.2', verdict: 'SHIP' }
    expect(validate({ ...base, anything: { goes: [1, 2] } })).toBe(true)
    expect(validate({ ...base, findings: null, criteria: null })).toBe(true)
    expect(validate({ ...base, verdict: 'LGTM' })).toBe(false)
    expect(validate({ type: 'impl_review', verdict: 'SHIP' })).toBe(false)
    const schema = receiptJsonSchema() as {
      $defs: { findings: { additionalProperties: unknown } }
    }
    expect(schema.$defs.findings.additionalProperties).toBe(false)
  })

  it('counts string lengths in code points, as flowctl does', () => {
    const base = {
      type: 'completion_review',
      id: 'fn-1',
      verdict: 'SHIP',
      criteria: [{ id: 'G1', status: 'met', note: '😀'.repeat(400) }]
    }
    expect(validate(base)).toBe(true)
    base.criteria[0]!.note = '😀'.repeat(401)
    expect(validate(base)).toBe(false)
  })
})

describe('the schema against flowctl', () => {
  it('agrees on the corpus, missing only the listed inexpressible cases', () => {
    const guard = new Map(
      expected<{ file: string; ok: boolean }>('guard-check.json').map((entry) => [
        entry.file,
        entry.ok
      ])
    )
    const cases = expected<{ file: string; overall: string }>(
      'validate-findings.json'
    ).map((entry) => {
      const bytes = readFileSync(corpusPath(entry.file))
      // Files the oracle ran no guard on: the core's guard, which agrees with it.
      const guardOk =
        guard.get(entry.file) ??
        checkEnvelope(JSON.parse(bytes.toString('utf8')), basename(entry.file)).ok
      return {
        name: entry.file,
        file: basename(entry.file),
        bytes,
        accepted: ACCEPTED.has(entry.overall) && guardOk
      }
    })
    const result = compare(cases)
    expect(result.judged).toBe(cases.length)
    expect(cases.filter((entry) => entry.accepted).length).toBeGreaterThan(30)
    expect(result.refusedValid).toEqual([])
    expect(result.misses).toEqual({
      'corpus/generated/invalid/anchor-head-mismatch.json': ['anchor SHAs'],
      'corpus/generated/invalid/anchor-inverted-range.json': ['line order'],
      'corpus/generated/invalid/anchor-path-traversal.json': ['anchor paths'],
      'corpus/generated/invalid/confidence-float.json': ['float tokens'],
      'corpus/generated/invalid/criteria-duplicate-id.json': ['unique ids'],
      'corpus/generated/invalid/id-not-derived.json': ['id derivation'],
      'corpus/generated/invalid/last-seen-not-source.json': ['lastSeen equals source'],
      'corpus/generated/invalid/mode-backend-mismatch.json': ['mode equals backend'],
      'corpus/generated/newer/invalid/claude-backend-mismatch.json': ['mode equals backend'],
      'corpus/generated/newer/invalid/claude-mode-case.json': ['mode equals backend'],
      'corpus/generated/newer/invalid/fanout-unmerged-duplicate.json': ['unique ids']
    })
  })

  const oracle = JSON.parse(
    readFileSync(join(FIXTURES, 'oracle', 'expected.json'), 'utf8')
  ) as {
    validate: Array<{ file: string; overall: string; deviation?: { ours: string } }>
    guard: Array<{
      file: string
      guard: string | null
      overall: string
      deviation?: { ours: string }
    }>
  }
  const oracleCases: Case[] = [
    ...oracle.validate.map((entry) => ({
      name: entry.file,
      file: basename(entry.file),
      bytes: readFileSync(join(FIXTURES, 'oracle', entry.file)),
      accepted: entry.deviation
        ? ACCEPTED.has(entry.deviation.ours)
        : ACCEPTED.has(entry.overall)
    })),
    ...oracle.guard.map((entry) => ({
      name: entry.file,
      file: basename(entry.file),
      bytes: readFileSync(join(FIXTURES, 'oracle', entry.file)),
      accepted: entry.deviation
        ? ACCEPTED.has(entry.deviation.ours)
        : entry.guard === '' && ACCEPTED.has(entry.overall)
    }))
  ]
  const ruleCases: Case[] = RULE_CASES.map((rule) => ({
    name: `${rule.rule}: ${rule.name}`,
    file: rule.file ?? 'receipt.json',
    bytes: jsonBytes(rule.receipt()),
    accepted: rule.expect === 'valid' || rule.expect === 'absent'
  }))

  it.each([
    ['the oracle fixtures', oracleCases],
    ['the rule cases', ruleCases]
  ])('agrees on %s, missing only inexpressible rules', (_what, cases) => {
    const result = compare(cases)
    expect(result.judged).toBeGreaterThan(cases.length * 0.9)
    expect(result.refusedValid).toEqual([])
    const unexplained = Object.entries(result.misses).filter(([, rules]) =>
      rules.some((rule) => !(rule in INEXPRESSIBLE))
    )
    expect(unexplained).toEqual([])
  })

  it('lists no rule that no case needs', () => {
    const seen = new Set(
      [...oracleCases, ...ruleCases].flatMap((entry) =>
        !entry.accepted && schemaAccepts(entry.bytes) === true
          ? explain(entry.file, entry.bytes)
          : []
      )
    )
    expect([...seen].sort()).toEqual(Object.keys(INEXPRESSIBLE).sort())
  })
})
