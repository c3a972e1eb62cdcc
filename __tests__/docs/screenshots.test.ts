/**
 * The README's three pictures (docs/*.png, made by `npm run screenshot`) cannot be compared
 * here, so their captions state what they show, and this test runs the bundled action on
 * both demo pull requests and checks each caption against the check run posted today: a
 * change to the demo or to the summary fails here until the pictures and captions are
 * regenerated. It also checks the pages photographed carry those lines.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../support/runner.js'
import { runDemoCheckRun, type DemoCheckRun } from '../support/harness/demo-check-run.js'
// @ts-expect-error: a plain ES module script shared with `npm run screenshot`
import { diffPage, summaryPage } from '../../scripts/check-run-pages.mjs'

type CheckRun = NonNullable<DemoCheckRun['checkRun']>
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')

/** The italic caption under the README's picture, on one line. */
function caption(picture: string): string {
  const after = readme.split(`](docs/${picture})`)[1] ?? ''
  const match = /^\s*\*([^*]+)\*/.exec(after)
  return (match?.[1] ?? '').replace(/\s+/g, ' ')
}

/** The summary's next step, as Markdown-unescaped text. */
const nextStep = (run: CheckRun) =>
  (/^\*\*Next:\*\* (.+)$/m.exec(run.output.summary ?? '')?.[1] ?? '').replace(
    /\\(.)/g,
    '$1'
  )

const range = (a: CheckRun['annotations'][number]) =>
  a.start_line === a.end_line ? `${a.start_line}` : `${a.start_line}-${a.end_line}`

let passing: DemoCheckRun
let failing: DemoCheckRun
beforeAll(async () => {
  passing = await runDemoCheckRun(PROJECT_ROOT, false)
  failing = await runDemoCheckRun(PROJECT_ROOT, true)
}, 60_000)

describe('the README pictures of the demo check runs', () => {
  it.each([
    ['check-run-summary.png', () => passing, '✅ success'],
    ['check-run-failing.png', () => failing, '❌ failure']
  ])(
    '%s: its caption states the conclusion, title and next step posted today',
    (png, demo, heading) => {
      const run = demo().checkRun as CheckRun
      const text = caption(png)
      expect(text).toContain(`${heading}, "${run.output.title}"`)
      expect(nextStep(run)).not.toBe('')
      expect(text).toContain(`next: ${nextStep(run)}.`)
      const html = summaryPage(run) as string
      expect(html).toContain(`<div class="frame ${run.conclusion}">`)
      expect(html).toContain(
        `<h2>${heading.split(' ')[0]} Review receipts: ${run.conclusion}</h2>`
      )
      expect(html).toContain(`<strong>Next:</strong> ${nextStep(run)}`)
    }
  )

  it("inline-annotations.png: its caption places each annotation as the failing run's diff does", () => {
    const run = failing.checkRun as CheckRun
    const inDiff = new Set(failing.files.map((f) => f.filename))
    const inline = run.annotations.filter((a) => inDiff.has(a.path))
    const outside = run.annotations.filter((a) => !inDiff.has(a.path))
    expect(inline.length).toBeGreaterThan(0)
    expect(outside.length).toBeGreaterThan(0)
    const text = caption('inline-annotations.png')
    for (const a of inline)
      expect(text).toContain(`${a.annotation_level} on ${a.path}:${range(a)}`)
    for (const a of outside)
      expect(text).toContain(`${a.path}:${range(a)} is outside the diff`)
    // The page shows each one right under the last line of its range.
    const html = diffPage(run, failing.files) as string
    for (const a of inline)
      expect(html).toMatch(
        new RegExp(
          `<td class="num">${a.end_line}</td><td>[^<]*</td></tr><tr class="note ${a.annotation_level}-level">`
        )
      )
  })
})
