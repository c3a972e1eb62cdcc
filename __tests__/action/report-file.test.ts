/** The report file: `JSON.stringify(report, null, 2)` and its line end, as the CLI prints it. */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeReportFile } from '../../src/action/publish.js'
import type { Report } from '../../src/gate/report.js'
import { reportFinding } from '../support/report-builders.js'
import { withEnv } from '../support/env.js'

const scratch = mkdtempSync(join(tmpdir(), 'receipt-gate-report-file-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

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
      writeReportFile(report, '7-1')
    )
    expect(path).toBe(join(scratch, 'receipt-gate-report-7-1.json'))
    expect(readFileSync(path, 'utf8')).toBe(pretty(report))
  })
})
