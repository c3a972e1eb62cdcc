/**
 * The in-process workloads of the benchmark: the pure core on the maximal container, a
 * 50-generation chain and 1,000 small receipts, the deferred audit of a large body against
 * a 1 MiB deferral file, timed with `performance.now()` after a
 * warm-up (so the JIT has compiled what a long-lived process would run).
 */
import { performance } from 'node:perf_hooks'
import { auditDeferred } from '../../../src/gate/deferred.js'
import { checkContainer } from '../../../src/receipts/findings.js'
import { own, readJsonBytes, type JsonObject } from '../../../src/receipts/json.js'
import {
  loadGenerations,
  selectCurrent,
  type HistoryFile
} from '../../../src/receipts/lineage.js'
import { inspectReceipt, type ReadableReceipt } from '../../../src/receipts/receipt.js'
import type { FindingsContainer } from '../../../src/receipts/schema.js'
import {
  bytesOf,
  maximalChain,
  maximalContainer,
  receiptAround,
  smallReceipts
} from './fixtures.js'
import { repeat, stats, type Stats } from './measure.js'

export const CORE_WORKLOADS = [
  'validate-max',
  'read-validate-max',
  'select-50',
  'load-chain-50',
  'small-1000',
  'audit-64k',
  'audit-1m'
] as const
export type CoreWorkload = (typeof CORE_WORKLOADS)[number]

export const CORE_LABELS: Record<CoreWorkload, string> = {
  'validate-max': 'core: validate maximal container (parsed)',
  'read-validate-max': 'core: read + validate maximal receipt (bytes)',
  'select-50': 'core: select over 50 validated generations',
  'load-chain-50': 'core: read + validate + load 50-generation chain',
  'small-1000': 'core: read + validate 1,000 small receipts',
  'audit-64k': 'core: deferred audit, 65,536-char body, 1 MiB sink',
  'audit-1m': 'core: deferred audit, 1 MB body, 1 MiB sink'
}

/**
 * A deferral file of 1 MiB and a body of `bodyChars` characters: every other sink bullet
 * named, the rest near misses (same `<file>:<line>`, another title), so the audit matches,
 * looks near misses up and writes a hint for half of the bullets.
 */
function auditInput(bodyChars: number): Parameters<typeof auditDeferred>[0] {
  const sinkLines: string[] = []
  const bodyLines: string[] = []
  let sinkBytes = 0
  let bodyLength = 0
  for (let i = 0; sinkBytes < 1024 * 1024; i++) {
    const tail = `src/module-${i}.ts:${i + 1} — finding number ${i} in the loader`
    const line = `- [P1, confidence 75, introduced] ${tail}`
    sinkLines.push(line)
    sinkBytes += Buffer.byteLength(line) + 1
    const named = i % 2 === 0 ? tail : `src/module-${i}.ts:${i + 1} — another title`
    const bullet = `- [ ] [P1, confidence 75, introduced] ${named} — deferred from impl-review (\`.flow/review-deferred/feature.md\`)`
    if (bodyLength + bullet.length + 1 <= bodyChars) {
      bodyLines.push(bullet)
      bodyLength += bullet.length + 1
    }
  }
  const body = `## Open items\n\n${bodyLines.join('\n')}`
    .padEnd(bodyChars, ' ')
    .slice(0, bodyChars)
  return {
    enabled: true,
    body,
    deferredCount: sinkLines.length,
    sink: {
      path: '.flow/review-deferred/feature.md',
      markdown: `${sinkLines.join('\n')}\n`
    },
    sinkNote: null
  }
}

export interface CoreResult {
  name: CoreWorkload
  label: string
  /** Milliseconds per operation. */
  ms: Stats
  /** Input size of one operation. */
  inputBytes: number
  /** Peak RSS (KiB) of the process that ran it: its own child, or null in-process. */
  peakRssKb: number | null
}

function mustRead(path: string, bytes: Uint8Array): ReadableReceipt {
  const receipt = inspectReceipt(path, bytes)
  if (!receipt.readable || receipt.projection.state !== 'valid')
    throw new Error(`bench fixture ${path} is not a valid receipt`)
  return receipt
}

let chain50: ReturnType<typeof maximalChain> | undefined

/** Builds a workload's input (not timed) and returns the operation to time. */
export function prepareCore(name: CoreWorkload): { op: () => void; inputBytes: number } {
  switch (name) {
    case 'validate-max':
    case 'read-validate-max': {
      const bytes = bytesOf(receiptAround(maximalContainer({ sourceReceiptId: 'max-1' })))
      const path = '.flow/review-receipts/impl-fn-9-bench.1.json'
      if (name === 'read-validate-max') {
        return { op: () => void mustRead(path, bytes), inputBytes: bytes.length }
      }
      const read = readJsonBytes(bytes)
      if (!read.ok) throw new Error(read.reason)
      const findings = own(read.value as JsonObject, 'findings')
      return {
        op: () => {
          if (!checkContainer(findings).ok) throw new Error('maximal container refused')
        },
        inputBytes: bytes.length
      }
    }
    case 'select-50':
    case 'load-chain-50': {
      chain50 ??= maximalChain(50)
      const chain = chain50
      const latest = chain.generations[chain.generations.length - 1]!
      const history: HistoryFile[] = chain.generations
        .slice(0, -1)
        .map((g) => ({ name: g.name, bytes: g.bytes }))
      const path = '.flow/review-receipts/impl-fn-9-bench.1.json'
      const load = () => {
        const receipt = mustRead(path, latest.bytes)
        const loaded = loadGenerations(
          { receipt: receipt.data, findings: receipt.projection.findings, name: path },
          history
        )
        if (!loaded.ok || loaded.generations.length !== 50)
          throw new Error(`chain did not load: ${loaded.ok ? 'short' : loaded.reason}`)
        return loaded.generations
      }
      if (name === 'load-chain-50')
        return { op: () => void load(), inputBytes: chain.totalBytes }
      const containers = load().map((g) => g.findings as FindingsContainer)
      const filter = { kind: 'implementation' as const, backend: 'codex' }
      return {
        op: () => {
          const selection = selectCurrent(
            containers,
            (sha) => sha === chain.tipHead,
            filter
          )
          if (selection.state !== 'current' || selection.chainLength !== 50)
            throw new Error(`selection: ${JSON.stringify(selection).slice(0, 200)}`)
        },
        inputBytes: chain.totalBytes
      }
    }
    case 'audit-64k':
    case 'audit-1m': {
      const input = auditInput(name === 'audit-64k' ? 65_536 : 1_000_000)
      return {
        op: () => {
          if (!auditDeferred(input).failed)
            throw new Error('the audit passed a partial body')
        },
        inputBytes: (input.body ?? '').length + (input.sink?.markdown.length ?? 0)
      }
    }
    case 'small-1000': {
      const receipts = smallReceipts(1000)
      return {
        op: () => {
          for (const r of receipts) mustRead(r.path, r.bytes)
        },
        inputBytes: receipts.reduce((sum, r) => sum + r.bytes.length, 0)
      }
    }
  }
}

/** Runs and warm-ups of a workload of about half a second are capped (10 after 2). */
const SLOW: ReadonlySet<CoreWorkload> = new Set([
  'load-chain-50',
  'audit-64k',
  'audit-1m'
])

/** Runs one core workload in this process. */
export async function runCore(
  name: CoreWorkload,
  options: { runs: number; warmup: number }
): Promise<CoreResult> {
  const { op, inputBytes } = prepareCore(name)
  const runs = SLOW.has(name) ? Math.min(options.runs, 10) : options.runs
  const warmup = SLOW.has(name) ? Math.min(options.warmup, 2) : options.warmup
  const samples = await repeat(runs, warmup, () => {
    const t0 = performance.now()
    op()
    return performance.now() - t0
  })
  return {
    name,
    label: CORE_LABELS[name],
    ms: stats(samples),
    inputBytes,
    peakRssKb: null
  }
}
