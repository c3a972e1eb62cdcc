/**
 * Newer Flow-Next receipts (issue 26.3): any backend name is free text shown as given,
 * and a fan-out receipt's `draws[]` is reported as "N draws" on its verdict row while
 * its one merged findings container is judged as any other.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { evaluate } from '../../src/gate/evaluate.js'
import { parseOptions } from '../../src/gate/options.js'
import type { Report } from '../../src/gate/report.js'
import { renderSummary } from '../../src/render/summary.js'
import { renderText } from '../../src/render/text.js'
import { memorySource } from '../hostile/memory-source.js'
import { corpusPath } from '../support/corpus.js'

const REVIEWED = 'c0ffee0123456789abcdef0123456789abcdef01'
const NEWER = 'corpus/generated/newer/valid'

/** The gate over one receipt whose reviewed head is one bookkeeping commit behind. */
async function gate(bytes: Uint8Array): Promise<Report> {
  const options = parseOptions({ select: 'all' })
  return evaluate({
    source: memorySource({
      dir: options.receiptsDir,
      files: [{ path: 'impl-fn-7-receipt-gate.1.json', bytes }],
      ancestry: new Map([
        [
          REVIEWED,
          {
            kind: 'ahead',
            commits: 1,
            changedPaths: [`${options.receiptsDir}/impl-fn-7-receipt-gate.1.json`]
          }
        ]
      ])
    }),
    options,
    body: null,
    branch: null
  })
}

const corpusReceipt = (dir: string): Uint8Array =>
  readFileSync(corpusPath(`${NEWER}/${dir}/impl-fn-7-receipt-gate.1.json`))

/** A corpus receipt with some envelope keys replaced. */
function edited(dir: string, over: Record<string, unknown>): Uint8Array {
  const receipt = JSON.parse(new TextDecoder().decode(corpusReceipt(dir))) as Record<
    string,
    unknown
  >
  return new TextEncoder().encode(JSON.stringify({ ...receipt, ...over }))
}

describe('newer receipts through the gate', () => {
  it.each([
    ['fanout', 'codex', 3],
    ['fanout-failed-draw', 'codex', 3],
    ['fanout-one-draw', 'claude', 1],
    ['claude', 'claude', null]
  ] as const)(
    '%s: mode %s, %s draws, the merged findings current',
    async (dir, mode, draws) => {
      const report = await gate(corpusReceipt(dir))
      const row = report.receipts[0]
      expect(row).toMatchObject({
        mode,
        draws,
        verdict: 'NEEDS_WORK',
        structured: 'valid',
        currentness: 'current',
        conclusion: 'failure'
      })
      expect(row?.findings).toHaveLength(1)
      const label = draws === null ? null : `${draws} draw${draws === 1 ? '' : 's'}`
      const text = renderText(report, false, 200)
      const summary = renderSummary(report)
      if (label === null) {
        expect(text).not.toMatch(/draws?\b/)
        expect(summary).not.toMatch(/\d draws?\b/)
      } else {
        expect(text).toContain(`impl_review ${mode} NEEDS_WORK ${label}`)
        expect(summary).toContain(`| NEEDS\\_WORK (${label}) |`)
      }
    }
  )

  it('a draws value that is not a list is no fan-out', async () => {
    for (const draws of [3, 'three', {}, [], null]) {
      const report = await gate(edited('fanout', { draws }))
      expect(report.receipts[0]?.draws).toBeNull()
      expect(report.receipts[0]?.currentness).toBe('current')
    }
  })

  it('an unknown backend is shown as given, hostile text escaped', async () => {
    const mode = '::error::x <b>@team</b> | `tick`\nnext'
    const receipt = JSON.parse(
      new TextDecoder().decode(corpusReceipt('claude'))
    ) as Record<string, unknown> & { findings: Record<string, unknown> }
    receipt.mode = mode
    receipt.findings.backend = mode
    const report = await gate(new TextEncoder().encode(JSON.stringify(receipt)))
    expect(report.receipts[0]).toMatchObject({ mode, structured: 'valid' })
    const text = renderText(report, false, 200)
    expect(text).not.toContain('\nnext')
    expect(text.split('\n').some((line) => line.startsWith('::'))).toBe(false)
    const summary = renderSummary(report)
    expect(summary).not.toContain('<b>')
    expect(summary).not.toContain('| `tick`\nnext')
  })
})
