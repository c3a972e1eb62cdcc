/**
 * The hostile corpus through the CLI in-process (the same core as the action, real git):
 * every case of `__tests__/fixtures/hostile/manifest.json` sits in one repository next
 * to a valid control receipt. One run must conclude, give each hostile receipt its
 * expected row with a clear reason, leave the control receipt alone, pollute no
 * prototype, read nothing outside the repository, and neutralise every hostile byte in
 * the Markdown, text and annotations.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Report } from '../../src/gate/report.js'
import { branchSlug } from '../../src/gate/deferred.js'
import { renderText } from '../../src/render/text.js'
import { runCli } from '../support/check-cli.js'
import { GitRepo } from '../support/git-repo.js'
import {
  BRANCH,
  CONTROL,
  HOSTILE_TEXT,
  OUTSIDE_MARKER,
  buildCorpusRepo,
  casePath,
  manifest,
  type CorpusRepo
} from './corpus.js'
import { annotationProblems, markdownProblems, textProblems } from './neutral.js'
import { prototypeSnapshot } from './prototypes.js'

let corpus: CorpusRepo
let report: Report
let markdown: string
let code: number
const before = prototypeSnapshot()

beforeAll(async () => {
  corpus = buildCorpusRepo()
  const flags = [
    'check',
    '--repo',
    corpus.repo.path,
    '--base',
    'main',
    '--select',
    'all',
    '--branch',
    BRANCH,
    '--body-file',
    corpus.bodyFile
  ]
  const json = await runCli([...flags, '--format', 'json'])
  code = json.code
  if (json.code === 2) throw new Error(json.stderr)
  report = JSON.parse(json.stdout) as Report
  markdown = (await runCli([...flags, '--format', 'markdown'])).stdout
}, 120_000)
afterAll(() => corpus?.cleanup())

const rowOf = (path: string) => report.receipts.find((row) => row.path === path)

describe('the hostile corpus', () => {
  it('has at least 40 cases, each with an expected outcome', () => {
    expect(manifest.cases.length).toBeGreaterThanOrEqual(40)
    for (const c of manifest.cases) expect(c.expect.currentness).toBeDefined()
    expect(new Set(manifest.cases.map((c) => c.id)).size).toBe(manifest.cases.length)
  })

  it('concludes: one report, one row per receipt, failure for the unreadable ones', () => {
    expect(code).toBe(1)
    expect(report.conclusion).toBe('failure')
    expect(report.receipts).toHaveLength(manifest.cases.length + 1)
  })

  it.each(manifest.cases.map((c) => [c.id, c] as const))(
    '%s: the expected row, with a clear reason',
    (_id, c) => {
      const row = rowOf(casePath(c))
      expect(row).toBeDefined()
      const { reason, ...fields } = c.expect
      expect(row).toMatchObject(fields)
      if (c.expect.currentness === 'unreadable') {
        expect(row!.conclusion).toBe('failure')
        expect(report.problems).toContainEqual(
          expect.objectContaining({ code: 'unreadable-receipt', path: row!.path })
        )
        expect(report.annotations).toContainEqual(
          expect.objectContaining({ path: row!.path, annotation_level: 'failure' })
        )
      }
      if (c.expect.structured === 'invalid') {
        expect(row!.structuredReasons.length).toBeGreaterThan(0)
        expect(row!.findings).toEqual([])
        expect(report.problems).toContainEqual(
          expect.objectContaining({ code: 'invalid-projection', path: row!.path })
        )
      }
      if (reason !== undefined)
        expect([row!.reason, ...row!.structuredReasons].join('\n')).toContain(reason)
      // A reason is one readable line, bounded, whatever the receipt held.
      expect(row!.reason).not.toMatch(/[\r\n]/)
      for (const text of [row!.reason, ...row!.structuredReasons])
        expect(text.length).toBeLessThan(1000)
    }
  )

  it('leaves the control receipt alone: current SHIP, its one finding annotated', () => {
    expect(rowOf(CONTROL)).toMatchObject({
      currentness: 'current',
      verdict: 'SHIP',
      conclusion: 'success',
      structured: 'valid',
      findings: [expect.objectContaining({ title: 'Control finding' })]
    })
    expect(report.missing).toEqual([])
    expect(report.annotations).toContainEqual(
      expect.objectContaining({ path: 'src/file-1.ts', annotation_level: 'warning' })
    )
  })

  it('pollutes no prototype', () => {
    expect(prototypeSnapshot()).toEqual(before)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('reads nothing outside the repository (symlinks are never followed)', () => {
    const everything = JSON.stringify(report) + markdown
    expect(everything).not.toContain(OUTSIDE_MARKER)
    expect(everything).not.toContain('root:x:0:0')
  })

  it('neutralises every hostile byte in the Markdown summary', () => {
    expect(
      markdownProblems(markdown, {
        markers: Object.values(HOSTILE_TEXT),
        receipts: report.receipts.length
      })
    ).toEqual([])
  })

  it('neutralises every hostile byte in the text report', () => {
    expect(textProblems(renderText(report, false))).toEqual([])
    expect(textProblems(renderText(report, true).replace(/\u001b\[\d+m/g, ''))).toEqual(
      []
    )
  })

  it('neutralises annotation titles, messages and raw details', () => {
    expect(annotationProblems(report.annotations)).toEqual([])
  })

  it('a receipts folder that is a symlink to outside the repository: nothing read through it', async () => {
    const repo = GitRepo.init()
    try {
      repo.write({ 'src/app.ts': 'a\n' })
      repo.commit('initial')
      repo.branch(BRANCH)
      repo.symlink('.flow/review-receipts', corpus.outside)
      repo.commit('chore(flow): receipts elsewhere')
      const run = await runCli([
        'check',
        '--repo',
        repo.path,
        '--base',
        'main',
        '--select',
        'all',
        '--format',
        'json'
      ])
      const linked = JSON.parse(run.stdout) as Report
      expect(run.code).toBe(1)
      expect(linked).toMatchObject({
        conclusion: 'failure',
        receipts: [],
        missing: ['impl_review']
      })
      expect(run.stdout).not.toContain(OUTSIDE_MARKER)
    } finally {
      repo.cleanup()
    }
  })

  it('audits the hostile deferral file and PR body without echoing them raw', () => {
    expect(report.deferred.skipped).toBe(false)
    expect(report.deferred.expected).toBeGreaterThanOrEqual(3)
    expect(report.deferred.unnamed.length).toBeGreaterThan(0)
    expect(branchSlug('<img src=x>/$(whoami)`id`')).toMatch(/^[A-Za-z0-9._-]+$/)
  })
})
