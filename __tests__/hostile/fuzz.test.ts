/**
 * Properties of the whole pipeline — evaluate → gate → annotations → summary, title,
 * text and outputs — over (a) arbitrary JSON receipts, (b) mutations of the valid
 * corpus receipts and chains, and (c) generated receipts with many hostile findings:
 *
 * - the core never throws, and the report always has a conclusion;
 * - nothing is lost: every current finding is a summary line or counted in the
 *   summary's "not shown" note, and every annotatable one is an annotation or counted
 *   in `annotationsNotShown`;
 * - the counts agree between the title, the summary, the outputs and the report;
 * - every output is neutralised and within its size limit.
 *
 * Runs: `FC_RUNS` per property (default 1000; more locally, e.g. FC_RUNS=20000). A failure
 * names its seed: `FC_SEED=<seed>` runs that sequence again.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { reportOutputs } from '../../src/action/outputs.js'
import { evaluate } from '../../src/gate/evaluate.js'
import { introducedOpen } from '../../src/gate/report.js'
import { findingLevel } from '../../src/gate/annotations.js'
import { parseOptions, type GateOptions } from '../../src/gate/options.js'
import type { Report } from '../../src/gate/report.js'
import { historyFileName } from '../../src/receipts/identity.js'
import { reportTitle } from '../../src/gate/outcome.js'
import { SUMMARY_LIMITS, findingLine, renderSummary } from '../../src/render/summary.js'
import { mdInline } from '../../src/render/markdown-escape.js'
import { renderText } from '../../src/render/text.js'
import type { Ancestry } from '../../src/gate/source.js'
import { CORPUS } from '../support/corpus.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonBytes,
  raw,
  type Built,
  type BuiltObject
} from '../support/receipt-builders.js'
import { HOSTILE_TEXT } from './corpus.js'
import {
  MEMORY_HEAD,
  MEMORY_PARENT,
  memorySource,
  type MemoryFile
} from './memory-source.js'
import { annotationProblems, markdownProblems, textProblems } from './neutral.js'
import { prototypeSnapshot } from './prototypes.js'

const RUNS = Number(process.env.FC_RUNS ?? '') || 1000
const settings = {
  numRuns: RUNS,
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
  // A failure's replay: fast-check prints its seed and path.
  ...(process.env.FC_PATH ? { path: process.env.FC_PATH, endOnFailure: true } : {})
}
const DIR = '.flow/review-receipts'
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const prototypesBefore = prototypeSnapshot()

// ── what every run must satisfy ──────────────────────────────────────────────

interface Run {
  files: MemoryFile[]
  options: GateOptions
  body: string | null
  sink: Uint8Array | null
  ancestry: Map<string, Ancestry>
  /** Byte budget of the summary (GitHub's, or a tighter one to force cuts). */
  limit: number
  /** Render the Markdown too (the most expensive check; every run of (c), a sample of the rest). */
  markdown: boolean
}

const CONCLUSIONS = ['success', 'failure', 'neutral', 'action_required']

/** Runs the pipeline and checks every property; returns the report. */
async function check(run: Run): Promise<Report> {
  const report = await evaluate({
    source: memorySource({
      dir: DIR,
      files: run.files,
      ancestry: run.ancestry,
      sink: run.sink
    }),
    options: run.options,
    body: run.body,
    branch: 'feature/fn-7'
  })
  expect(CONCLUSIONS).toContain(report.conclusion)
  expect(report.receipts.length).toBeLessThanOrEqual(run.files.length)
  JSON.parse(JSON.stringify(report))

  const current = report.receipts.flatMap((row) =>
    row.currentness === 'current'
      ? row.findings.map((finding) => ({ finding, receipt: row.path }))
      : []
  )

  // Counts agree: title, outputs, report.
  const title = reportTitle(report)
  const open = introducedOpen(report).length
  expect(open).toBe(
    current.filter(
      ({ finding: f }) =>
        f.classification === 'introduced' &&
        (f.status === 'open' || f.status === 'not_fixed')
    ).length
  )
  const titled = /(\d+) introduced findings? open/.exec(title)
  if (titled) expect(Number(titled[1])).toBe(open)
  else expect(open).toBe(0)
  const outputs = reportOutputs(report, { checkRunId: '1', checkRunUrl: 'u' }, 'r.json')
  expect(outputs).toMatchObject({
    conclusion: report.conclusion,
    receipts: String(report.receipts.length),
    'introduced-open': String(open),
    verdict: report.verdict
  })
  expect(Number(outputs['deferred-unnamed'])).toBeGreaterThanOrEqual(0)

  // Annotations: every annotatable current finding (and unreadable receipt) is shown or counted.
  const annotatable =
    report.receipts.filter((row) => row.currentness === 'unreadable').length +
    current.filter(
      ({ finding }) => findingLevel(finding) !== null && finding.anchor?.side === 'head'
    ).length
  expect(report.annotations.length + report.annotationsNotShown).toBe(annotatable)
  expect(report.annotations.length).toBeLessThanOrEqual(run.options.maxAnnotations)

  // The summary: within its budget, headed by the conclusion and the counts, and
  // nothing lost — each current finding is a line of it or counted in its note.
  const summary = renderSummary(report, run.limit)
  expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(run.limit)
  expect(summary).toContain(`Review receipts: ${report.conclusion}`)
  expect(summary).toContain(`**${mdInline(title)}**`)
  expect(summary).toContain(
    `${report.receipts.length} receipt${report.receipts.length === 1 ? '' : 's'} selected`
  )
  const lines = new Map<string, number>()
  for (const line of summary.split('\n')) lines.set(line, (lines.get(line) ?? 0) + 1)
  const wanted = new Map<string, number>()
  for (const { finding, receipt } of current) {
    const line = findingLine(finding, receipt)
    wanted.set(line, (wanted.get(line) ?? 0) + 1)
  }
  let shown = 0
  for (const [line, n] of wanted) shown += Math.min(n, lines.get(line) ?? 0)
  const counted = [
    ...summary.matchAll(/(\d+) findings? (?:and \d+ detail blocks? )?not shown/g)
  ]
    .map((m) => Number(m[1]))
    .reduce((a, b) => a + b, 0)
  expect(counted).toBeLessThanOrEqual(current.length)
  expect(shown + counted).toBeGreaterThanOrEqual(current.length)
  if (summary.length > 0 && counted === 0) expect(shown).toBe(current.length)

  // Neutral on the way out.
  expect(textProblems(renderText(report, false))).toEqual([])
  expect(annotationProblems(report.annotations)).toEqual([])
  if (run.markdown)
    expect(
      markdownProblems(summary, {
        markers: Object.values(HOSTILE_TEXT),
        receipts: report.receipts.length
      })
    ).toEqual([])
  return report
}

// ── shared arbitraries ──────────────────────────────────────────────────────

const SHAS = [
  MEMORY_HEAD,
  MEMORY_PARENT,
  'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  'c0ffee0123456789abcdef0123456789abcdef01',
  'd15ea5e0d15ea5e0d15ea5e0d15ea5e0d15ea5e0',
  '5d2c8a0e4b7f19c3a6d0e2f4b8c1a3e5d7f9b0c2'
]

const ancestryArb: fc.Arbitrary<Ancestry> = fc.oneof(
  fc.constant<Ancestry>({ kind: 'identical' }),
  fc.constant<Ancestry>({ kind: 'ahead', commits: 2, changedPaths: ['.flow/x.json'] }),
  fc.constant<Ancestry>({
    kind: 'ahead',
    commits: 1,
    changedPaths: ['src/app.ts', '.flow/bin/flowctl']
  }),
  fc.constant<Ancestry>({ kind: 'not-ancestor' }),
  fc.constant<Ancestry>({ kind: 'unknown-commit' }),
  fc.constant<Ancestry>({ kind: 'too-large', commits: 400 })
)

/** How each SHA found in the files relates to the head: drawn per run. */
const ancestryTableArb = fc.array(ancestryArb, { minLength: 8, maxLength: 8 })

function tableFor(
  files: readonly MemoryFile[],
  draws: readonly Ancestry[]
): Map<string, Ancestry> {
  const shas = new Set(SHAS)
  for (const file of files)
    for (const m of Buffer.from(file.bytes)
      .toString('latin1')
      .matchAll(/[0-9a-f]{40}/g))
      shas.add(m[0])
  const table = new Map<string, Ancestry>()
  let i = 0
  for (const sha of shas) table.set(sha, draws[i++ % draws.length]!)
  return table
}

const optionsArb: fc.Arbitrary<GateOptions> = fc
  .record({
    require: fc.subarray([
      'impl_review',
      'plan_review',
      'completion_review',
      'qa_verdict'
    ]),
    unboundHead: fc.constantFrom('history', 'fail', 'allow'),
    needsHuman: fc.constantFrom('action_required', 'failure', 'neutral'),
    audit: fc.boolean(),
    maxAnnotations: fc.oneof(fc.constant(1000), fc.integer({ min: 0, max: 60 }))
  })
  .map((o) =>
    parseOptions({
      select: 'all',
      require: o.require.join(','),
      'unbound-head': o.unboundHead,
      'needs-human-conclusion': o.needsHuman,
      'audit-deferred': String(o.audit),
      'max-annotations': String(o.maxAnnotations)
    })
  )

const hostileString = fc.oneof(
  fc.constantFrom(...Object.values(HOSTILE_TEXT)),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ maxLength: 20 })
)

const bodyArb = fc.oneof(
  fc.constant(null),
  hostileString,
  fc
    .array(
      fc
        .tuple(hostileString, fc.boolean())
        .map(
          ([tail, ticked]) =>
            `- [${ticked ? 'x' : ' '}] src/a.ts:1 — ${tail} — deferred from impl-review (x)`
        ),
      { maxLength: 4 }
    )
    .map((lines) => lines.join('\n'))
)

const sinkArb = fc.oneof(
  fc.constant(null),
  fc
    .array(
      hostileString.map(
        (tail) => `- [P1, confidence 75, introduced] src/a.ts:1 — ${tail}`
      ),
      { maxLength: 4 }
    )
    .map((lines) => utf8(lines.join('\n')))
)

const limitArb = fc.oneof(
  fc.constant<number>(SUMMARY_LIMITS.checkRun),
  fc.integer({ min: 1500, max: 20_000 })
)

const NAMES = [
  'impl-fn-7.1.json',
  'plan-fn-7.json',
  'completion-fn-7.json',
  'x.json',
  'a b.json',
  'x\n::set-output name=x::y.json',
  'sub/dir/impl-fn-7.2.json'
]

// ── (a) arbitrary JSON ───────────────────────────────────────────────────────

const envelopeArb = fc.record(
  {
    type: fc.oneof(
      fc.constantFrom('impl_review', 'plan_review', 'completion_review', 'qa_verdict'),
      fc.jsonValue()
    ),
    id: fc.oneof(fc.constantFrom('fn-7.1', 'fn-7'), hostileString, fc.jsonValue()),
    mode: fc.oneof(fc.constant('codex'), hostileString, fc.jsonValue()),
    verdict: fc.oneof(
      fc.constantFrom('SHIP', 'NEEDS_WORK', 'MAJOR_RETHINK', 'NEEDS_HUMAN'),
      fc.jsonValue()
    ),
    head: fc.oneof(fc.constantFrom(...SHAS), fc.jsonValue()),
    review: fc.oneof(hostileString, fc.jsonValue()),
    walkthrough: fc.oneof(fc.record({ deferred: fc.nat(5) }), fc.jsonValue()),
    suppressed_count: fc.jsonValue(),
    findings: fc.jsonValue(),
    criteria: fc.jsonValue()
  },
  { requiredKeys: [] }
)

const jsonFileArb: fc.Arbitrary<MemoryFile> = fc
  .tuple(
    fc.constantFrom(...NAMES),
    fc.oneof(fc.jsonValue(), envelopeArb),
    fc.constantFrom('100644', '100644', '100644', '120000', '160000')
  )
  .map(([path, value, mode]) => ({ path, bytes: utf8(JSON.stringify(value)), mode }))

describe('(a) arbitrary JSON through the whole pipeline', () => {
  it('never throws; always concludes; nothing lost; counts agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(jsonFileArb, {
          minLength: 1,
          maxLength: 4,
          selector: (f) => f.path
        }),
        optionsArb,
        bodyArb,
        sinkArb,
        ancestryTableArb,
        limitArb,
        fc.nat(9),
        async (files, options, body, sink, draws, limit, sample) => {
          await check({
            files,
            options,
            body,
            sink,
            ancestry: tableFor(files, draws),
            limit,
            markdown: sample === 0
          })
        }
      ),
      settings
    )
  })
})

// ── (b) mutations of the valid corpus receipts and chains ───────────────────

/** Every folder of the corpus with receipts in it, as a set of files relative to it. */
function corpusSets(): MemoryFile[][] {
  const sets: MemoryFile[][] = []
  const walk = (dir: string): void => {
    const names = readdirSync(dir).filter((n) => n !== '_expected')
    const files: MemoryFile[] = []
    const collect = (at: string): void => {
      for (const name of readdirSync(at)) {
        const path = join(at, name)
        if (statSync(path).isDirectory()) {
          if (name.endsWith('.history')) collect(path)
          continue
        }
        if (name.endsWith('.json'))
          files.push({ path: relative(dir, path), bytes: readFileSync(path) })
      }
    }
    collect(dir)
    if (files.length > 0) sets.push(files)
    for (const name of names) {
      const path = join(dir, name)
      if (statSync(path).isDirectory() && !name.endsWith('.history')) walk(path)
    }
  }
  walk(CORPUS)
  return sets
}

const SETS = corpusSets()

type Mutation =
  | { kind: 'json'; file: number; pick: number; op: number; value: Built }
  | { kind: 'bytes'; file: number; at: number; byte: number }
  | { kind: 'drop'; file: number }
  | { kind: 'rename'; file: number; name: string }
  | { kind: 'mode'; file: number; mode: string }
  | { kind: 'add'; file: MemoryFile }

const replacementArb: fc.Arbitrary<Built> = fc.oneof(
  fc.constantFrom<Built>(
    null,
    0,
    -1,
    raw('1.0'),
    raw('9007199254740993'),
    '',
    '../x',
    '/etc/passwd',
    'C:\\x',
    [],
    {},
    'SHIP',
    'NEEDS_WORK',
    'open',
    'introduced',
    'P0',
    'head',
    'base',
    ...SHAS
  ),
  hostileString
)

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('json' as const),
      file: fc.nat(),
      pick: fc.nat(),
      op: fc.nat(3),
      value: replacementArb
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('bytes' as const),
      file: fc.nat(),
      at: fc.nat(),
      byte: fc.integer({ min: 0, max: 255 })
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('drop' as const), file: fc.nat() })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      file: fc.nat(),
      name: fc.constantFrom(...NAMES)
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('mode' as const),
      file: fc.nat(),
      mode: fc.constantFrom('120000', '160000', '100755')
    })
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('add' as const), file: jsonFileArb })
  }
)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Every container (object or array) of a parsed value, with the keys in it. */
function slots(
  value: Json,
  out: Array<{ node: Json[] | Record<string, Json>; key: string | number }> = []
) {
  if (Array.isArray(value))
    value.forEach((entry, i) => {
      out.push({ node: value, key: i })
      slots(entry, out)
    })
  else if (value !== null && typeof value === 'object')
    for (const key of Object.keys(value)) {
      out.push({ node: value, key })
      slots(value[key]!, out)
    }
  return out
}

/** A JSON edit: replace, delete, duplicate into a new key, or replace with a large string. */
function editJson(bytes: Uint8Array, pick: number, op: number, value: Built): Uint8Array {
  let parsed: Json
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as Json
  } catch {
    return bytes
  }
  const all = slots(parsed)
  if (all.length === 0) return bytes
  const { node, key } = all[pick % all.length]!
  const target = node as Record<string | number, Built>
  const root = parsed as Built
  switch (op) {
    case 0:
      target[key] = value
      break
    case 1:
      if (Array.isArray(node)) node.splice(key as number, 1)
      else delete node[key as string]
      break
    case 2: {
      // A new key next to this one; own and enumerable even when it is `__proto__`.
      const name = ['__proto__', 'constructor', 'prototype', `${String(key)}_copy`][
        pick % 4
      ]!
      if (Array.isArray(node)) node.push(node[key as number]!)
      else Object.defineProperty(node, name, { value, enumerable: true, writable: true })
      break
    }
    default:
      target[key] = typeof value === 'string' ? value.repeat(50) : value
  }
  return jsonBytes(root, pick % 2 === 0 ? 2 : 0)
}

function applyMutations(
  base: readonly MemoryFile[],
  mutations: readonly Mutation[]
): MemoryFile[] {
  const files = base.map((f) => ({ ...f }))
  for (const m of mutations) {
    if (m.kind === 'add') {
      files.push(m.file)
      continue
    }
    if (files.length === 0) continue
    const index = m.file % files.length
    const file = files[index]!
    switch (m.kind) {
      case 'json':
        file.bytes = editJson(file.bytes, m.pick, m.op, m.value)
        break
      case 'bytes': {
        const bytes = Uint8Array.from(file.bytes)
        if (bytes.length > 0) bytes[m.at % bytes.length] = m.byte
        file.bytes = bytes
        break
      }
      case 'drop':
        files.splice(index, 1)
        break
      case 'rename':
        file.path = m.name
        break
      case 'mode':
        file.mode = m.mode
        break
    }
  }
  // One tree cannot hold two entries at one path.
  return [...new Map(files.map((f) => [f.path, f])).values()]
}

describe('(b) mutations of the valid corpus receipts and chains', () => {
  it('has corpus sets with chains to mutate', () => {
    expect(SETS.length).toBeGreaterThan(10)
    expect(SETS.some((set) => set.some((f) => f.path.includes('.history/')))).toBe(true)
  })
  it('never throws; always concludes; nothing lost; counts agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: SETS.length - 1 }),
        fc.array(mutationArb, { minLength: 0, maxLength: 5 }),
        optionsArb,
        bodyArb,
        sinkArb,
        ancestryTableArb,
        limitArb,
        fc.nat(9),
        async (set, mutations, options, body, sink, draws, limit, sample) => {
          const files = applyMutations(SETS[set]!, mutations)
          await check({
            files,
            options,
            body,
            sink,
            ancestry: tableFor(files, draws),
            limit,
            markdown: sample === 0
          })
        }
      ),
      settings
    )
  })
})

// ── (c) many findings, hostile text, chains: the "nothing lost" stress ───────

const itemArb = fc.record({
  severity: fc.constantFrom('P0', 'P1', 'P2', 'P3'),
  confidence: fc.constantFrom(0, 25, 50, 75, 100),
  classification: fc.constantFrom('introduced', 'pre_existing'),
  status: fc.constantFrom('open', 'fixed', 'not_fixed', 'withdrawn'),
  title: fc.oneof(
    fc.constantFrom(...Object.values(HOSTILE_TEXT).map((t) => t.slice(0, 240))),
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.constant('x'.repeat(240))
  ),
  body: fc.oneof(
    fc.constantFrom(...Object.values(HOSTILE_TEXT)),
    fc.constant('b'.repeat(4000)),
    fc.string({ minLength: 1, maxLength: 80 })
  ),
  anchor: fc.constantFrom('head', 'base', 'none')
})

const builtReceiptArb = fc.record({
  type: fc.constantFrom('impl_review', 'plan_review'),
  verdict: fc.constantFrom('SHIP', 'NEEDS_WORK', 'MAJOR_RETHINK', 'NEEDS_HUMAN'),
  head: fc.constantFrom(...SHAS),
  items: fc.array(itemArb, { maxLength: 120 }),
  chained: fc.boolean(),
  deferred: fc.nat(3)
})

function builtFiles(
  receipts: ReadonlyArray<{
    type: string
    verdict: string
    head: string
    items: Array<{
      severity: string
      confidence: number
      classification: string
      status: string
      title: string
      body: string
      anchor: string
    }>
    chained: boolean
    deferred: number
  }>
): MemoryFile[] {
  const base = SHAS[5]!
  return receipts.flatMap((r, n) => {
    const kind = r.type === 'impl_review' ? 'implementation' : 'plan'
    const id = r.type === 'impl_review' ? `fn-7.${n + 1}` : `fn-${n + 7}`
    const name = r.type === 'impl_review' ? `impl-${id}.json` : `plan-${id}.json`
    const source = `review-${n}-2`
    const items = r.items.map((it, i) =>
      buildItem({
        ordinal: i + 1,
        sourceReceiptId: r.chained ? source : `review-${n}-1`,
        firstSeenReceiptId: `review-${n}-1`,
        anchor: it.anchor === 'none' ? false : { headSha: r.head, baseSha: base },
        with: {
          severity: it.severity,
          confidence: it.confidence,
          classification: it.classification,
          status: it.status,
          title: it.title,
          body: it.body,
          ...(it.anchor === 'base'
            ? {
                anchor: {
                  path: `src/file-${i + 1}.ts`,
                  side: 'base',
                  startLine: 3,
                  baseSha: base,
                  headSha: r.head
                }
              }
            : {})
        }
      })
    )
    const envelope = (container: BuiltObject): BuiltObject =>
      buildReceipt({
        type: r.type,
        id,
        verdict: r.verdict,
        findings: container,
        extra: {
          walkthrough: { deferred: r.deferred },
          review: HOSTILE_TEXT.FENCE ?? 'x'
        }
      })
    if (!r.chained) {
      const container = buildContainer({
        sourceReceiptId: `review-${n}-1`,
        reviewKind: kind,
        headSha: r.head,
        baseSha: base,
        items
      })
      return [{ path: name, bytes: jsonBytes(envelope(container), 0) }]
    }
    // Round 2 supersedes round 1 (kept in the history folder, as flowctl leaves it).
    const round1 = buildContainer({
      sourceReceiptId: `review-${n}-1`,
      reviewKind: kind,
      headSha: SHAS[2]!,
      baseSha: base,
      items: r.items.map((_, i) =>
        buildItem({
          ordinal: i + 1,
          sourceReceiptId: `review-${n}-1`,
          anchor: { headSha: SHAS[2]!, baseSha: base }
        })
      )
    })
    const round2 = buildContainer({
      sourceReceiptId: source,
      supersedesReceiptId: `review-${n}-1`,
      reviewKind: kind,
      headSha: r.head,
      baseSha: base,
      items
    })
    return [
      { path: name, bytes: jsonBytes(envelope(round2), 0) },
      {
        path: `${name}.history/${historyFileName(`review-${n}-1`)}`,
        bytes: jsonBytes(envelope(round1), 0)
      }
    ]
  })
}

describe('(c) many hostile findings and chains', () => {
  it('never throws; nothing lost even when the summary and annotations are cut; counts agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(builtReceiptArb, { minLength: 1, maxLength: 3 }),
        optionsArb,
        bodyArb,
        ancestryTableArb,
        limitArb,
        async (receipts, options, body, draws, limit) => {
          const files = builtFiles(receipts)
          await check({
            files,
            options,
            body,
            sink: null,
            ancestry: tableFor(files, draws),
            limit,
            markdown: true
          })
        }
      ),
      settings
    )
  })
  it('pollutes no prototype over all the runs', () => {
    expect(prototypeSnapshot()).toEqual(prototypesBefore)
  })
})
