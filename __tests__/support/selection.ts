/** Checks shared by the lineage tests (property and corpus). */
import { expect } from '@jest/globals'
import type { Selection } from '../../src/receipts/lineage.js'
import type { FindingsContainer } from '../../src/receipts/schema.js'

/**
 * `selectCurrent` over `withReportableText`'s containers (`slim`) decides as over the
 * originals: the same state and reason, the same tip object at the same index, the
 * same chain length; every container it replaced lost its text.
 */
export function expectSameSelection(
  got: Selection,
  want: Selection,
  containers: readonly FindingsContainer[],
  slim: readonly FindingsContainer[]
): void {
  expect(got.state).toBe(want.state)
  if (got.state === 'ambiguous' && want.state === 'ambiguous')
    expect(got.reason).toBe(want.reason)
  if ((got.state === 'current' || got.state === 'stale') && 'tip' in want) {
    expect(slim.indexOf(got.tip)).toBe(containers.indexOf(want.tip))
    expect(got.tip).toBe(want.tip)
    expect(got.chainLength).toBe(want.chainLength)
  }
  slim.forEach((container, i) => {
    if (container === containers[i]) return
    for (const item of container.items) {
      expect([item.title, item.body, item.suggestion]).toEqual(['', '', null])
    }
  })
}
