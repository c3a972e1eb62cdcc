/**
 * The action's REST client reads the PR files list and comparisons without their patches
 * (src/github/skim.ts, issue 7): every `"patch"` string member comes back null and
 * everything else exactly as `JSON.parse` reads it — checked on tricky and arbitrary
 * JSON, and through the client against the local GitHub API.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { createRestClient } from '../../src/github/http.js'
import { decodeWithoutPatches } from '../../src/github/skim.js'
import { servedScenario } from './scenario.js'

const RUNS = Number(process.env.FC_RUNS ?? '') || 1000

/** What the skim must give: the value with every string `patch` member set to null. */
function withoutPatches(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPatches)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === 'patch' && typeof member === 'string' ? null : withoutPatches(member)
    ])
  )
}

const skim = (text: string): unknown =>
  JSON.parse(decodeWithoutPatches(Buffer.from(text, 'utf8')))

describe('decodeWithoutPatches', () => {
  it('nulls the patches of a files list and keeps the names', () => {
    const files = [
      {
        filename: '.flow/review-receipts/impl-fn-1.json',
        status: 'modified',
        patch:
          '@@ -1 +1 @@\n-{"verdict": "NEEDS_WORK"}\n+{"verdict": "SHIP", "x": "a\\\\"}'
      },
      { filename: 'assets/logo.bin', status: 'added' },
      { filename: 'naïve "patch":"name".md', status: 'added', patch: 'é中😀 \\ "' }
    ]
    expect(skim(JSON.stringify(files))).toEqual([
      { ...files[0], patch: null },
      files[1],
      { ...files[2], patch: null }
    ])
  })

  it('tells a member from the same characters inside a string', () => {
    // The name holds `"patch":"` escaped, a key is `"patch` (its own closing quote
    // follows `patch`, an escaped one opens it), a value ends in an escaped backslash, a
    // key ends in one, and a patch holds every escape.
    const cases = [
      { name: 'a"patch":"b', patch: 'x' },
      { '"patch': 'not a patch', 'x"patch': 'nor this' },
      { a: 'ends in \\', patch: 'p' },
      { 'key\\': 1, patch: '\\"\\\\\\"\u0000\u001f\u2028' },
      { nested: { patch: 'deep', list: [{ patch: 'deeper' }] }, patch: 7 },
      { patch: '' },
      { patch: null, other: '"patch":"' }
    ]
    for (const value of cases)
      expect(skim(JSON.stringify(value))).toEqual(withoutPatches(value))
  })

  it('leaves spaced-out JSON whole and broken JSON broken', () => {
    const spaced = JSON.stringify({ patch: 'kept', a: 1 }, null, 2)
    expect(skim(spaced)).toEqual({ patch: 'kept', a: 1 })
    for (const broken of ['{"patch":"never closed', '{"patch":"a\\"}', '"patch":"'])
      expect(decodeWithoutPatches(Buffer.from(broken))).toBe(broken)
  })

  it('agrees with JSON.parse on arbitrary JSON full of quotes, backslashes and patch members', () => {
    const tricky = fc.string({
      unit: fc.constantFrom('"', '\\', 'patch', ':', ',', '}', 'é', '😀', 'x', '\u0001')
    })
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.constant('patch'), tricky), tie('node'), {
          maxKeys: 4
        }),
        fc.record({ filename: tricky, patch: tricky })
      )
    })).node
    fc.assert(
      fc.property(value, (v) => {
        expect(skim(JSON.stringify(v))).toEqual(withoutPatches(v))
      }),
      { numRuns: RUNS }
    )
  })

  it('never throws on arbitrary bytes, and decodes bytes without a member as they are', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const buffer = Buffer.from(bytes)
        const text = decodeWithoutPatches(buffer)
        if (!buffer.includes('"patch":"')) expect(text).toBe(buffer.toString('utf8'))
      }),
      { numRuns: RUNS }
    )
  })
})

describe('the REST client against the local GitHub API', () => {
  const served = servedScenario()
  const repo = { owner: 'acme', repo: 'widgets' }

  it('reads the files list with its patches (issue 25) and a comparison with null patches', async () => {
    const client = createRestClient({ token: 't', baseUrl: served.fake.url })
    const { data: files } = await client.rest.pulls.listFiles({
      ...repo,
      pull_number: 7,
      per_page: 100
    })
    const names = served.s.repo
      .git('diff', '--name-only', '-M', served.s.mergeBase, 'feature')
      .split('\n')
      .sort()
    expect(files.map((file) => file.filename).sort()).toEqual(names)
    expect(files.some((file) => file.filename === 'src/a.ts')).toBe(true)
    // The files list keeps its patches: they say which lines the PR's diff shows.
    expect(files.find((file) => file.filename === 'src/a.ts')?.patch).toMatch(/^@@ /)
    const { data: compare } = await client.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: `${served.s.featureWork}...${served.s.feature}`
    })
    expect(compare.status).toBe('ahead')
    expect(compare.files?.map((file) => [file.filename, file.patch])).toEqual([
      ['.flow/review-receipts/impl-fn-1.2.json', null]
    ])
    // Other answers keep every member.
    const { data: pr } = await client.rest.pulls.get({ ...repo, pull_number: 7 })
    expect(pr.head.sha).toBe(served.s.feature)
    served.fake.assertNoViolations()
  })
})
