/**
 * The head rule's compares leave while the receipts are still being read: each receipt's
 * reviewed commit is asked about, and the source's requests let go (`sent`), before the
 * next receipt is read (docs/performance.md, the action's own time).
 */
import { describe, expect, it } from '@jest/globals'
import { evaluate } from '../../src/gate/evaluate.js'
import { parseOptions } from '../../src/gate/options.js'
import type { ReceiptSource } from '../../src/gate/source.js'
import { memorySource } from '../hostile/memory-source.js'

const sha = (digit: string): string => digit.repeat(40)
const receipt = (n: number, head: string): Uint8Array =>
  new TextEncoder().encode(
    JSON.stringify({ type: 'impl_review', id: `fn-1.${n}`, verdict: 'SHIP', head })
  )

describe('compares during the read of the receipts', () => {
  it('asks about each receipt’s reviewed commit before reading the next, once a SHA', async () => {
    const options = parseOptions({ select: 'all', require: '' })
    const heads = [sha('a'), sha('b'), sha('a'), sha('c')]
    const memory = memorySource({
      dir: options.receiptsDir,
      files: heads.map((head, i) => ({
        path: `impl-fn-1.${i + 1}.json`,
        bytes: receipt(i + 1, head)
      })),
      ancestry: new Map(
        heads.map((head) => [head, { kind: 'ahead', commits: 1, changedPaths: [] }])
      )
    })
    // What had been asked each time the gate waited for its requests to leave.
    const asked: string[] = []
    const seenAtSent: string[][] = []
    const source: ReceiptSource = {
      ...memory,
      ancestry: async (reviewed) => {
        asked.push(reviewed)
        return memory.ancestry(reviewed)
      },
      sent: async () => {
        seenAtSent.push([...asked])
        // The next receipt is not read until this resolves.
        await new Promise((resolve) => setTimeout(resolve, 5))
        expect(asked).toEqual(seenAtSent.at(-1))
      }
    }
    const report = await evaluate({ source, options, body: null, branch: null })
    expect(seenAtSent).toEqual([
      [sha('a')],
      [sha('a'), sha('b')],
      [sha('a'), sha('b'), sha('c')]
    ])
    expect(asked).toEqual([sha('a'), sha('b'), sha('c')])
    expect(report.receipts.map((row) => row.currentness)).toEqual([
      'current',
      'current',
      'current',
      'current'
    ])
  })
})

describe('receipts the history rule places', () => {
  it('recorded together in one bookkeeping commit: its parent is asked about once', async () => {
    const options = parseOptions({ select: 'all', require: '' })
    const unbound = (n: number): Uint8Array =>
      new TextEncoder().encode(
        JSON.stringify({ type: 'impl_review', id: `fn-1.${n}`, verdict: 'SHIP' })
      )
    const paths = [1, 2, 3, 4].map((n) => `impl-fn-1.${n}.json`)
    const memory = memorySource({
      dir: options.receiptsDir,
      files: paths.map((path, i) => ({ path, bytes: unbound(i + 1) })),
      ancestry: new Map([[sha('a'), { kind: 'ahead', commits: 1, changedPaths: [] }]])
    })
    const asked: string[] = []
    const source: ReceiptSource = {
      ...memory,
      ancestry: async (reviewed) => {
        asked.push(reviewed)
        return memory.ancestry(reviewed)
      },
      // Every receipt written by commit b, a bookkeeping commit on top of a.
      receiptCommits: async (receipts) =>
        Promise.resolve(
          new Map(
            receipts.map(({ path }) => [
              path,
              {
                sha: sha('b'),
                parent: sha('a'),
                changedPaths: paths.map((p) => `${options.receiptsDir}/${p}`)
              }
            ])
          )
        )
    }
    const report = await evaluate({ source, options, body: null, branch: null })
    expect(asked).toEqual([sha('a')])
    expect(report.receipts.map((row) => row.currentness)).toEqual([
      'current',
      'current',
      'current',
      'current'
    ])
  })
})
