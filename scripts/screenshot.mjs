// `npm run screenshot`: runs the bundled action on the passing and the failing demo PR
// (the demo-action harness, as `npm run demo [failing] action`) and photographs, with
// headless Chromium (Debian's `chromium`; `fonts-noto-color-emoji` draws the ✅ and ❌), the pages
// scripts/check-run-pages.mjs renders from the check runs it posted: docs/check-run-summary.png
// (passing), docs/check-run-failing.png and docs/inline-annotations.png (failing), for the README.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { diffPage, summaryPage } from './check-run-pages.mjs'
import { ROOT, buildHarness } from './harness.mjs'

const WIDTH = 1100
const work = mkdtempSync(join(tmpdir(), 'rg-shot-'))

/** The check run and PR files the action posted for one demo scenario. */
function postedCheckRun(scenario) {
  const shotFile = join(work, `${scenario}.json`)
  try {
    execFileSync(process.execPath, [buildHarness('demo-action')], {
      stdio: 'ignore',
      env: {
        ...process.env,
        RECEIPT_GATE_ROOT: ROOT,
        DEMO_SCENARIO: scenario,
        DEMO_SHOT_FILE: shotFile
      }
    })
  } catch (error) {
    // The failing demo exits 1 as the action's step does; its check run is still written.
    if (scenario !== 'failing' || error.status !== 1) throw error
  }
  return JSON.parse(readFileSync(shotFile, 'utf8'))
}

function chromium(...args) {
  return execFileSync(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${mkdtempSync(join(work, 'profile-'))}`,
      '--hide-scrollbars',
      ...args
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }
  )
}

/** Screenshots an HTML page into docs/<name>, cut to the page's height. */
function shoot(html, name) {
  const file = join(work, `${name}.html`)
  writeFileSync(file, html)
  const dom = chromium(`--window-size=${WIDTH},800`, '--dump-dom', `file://${file}`)
  const height = Number(/data-height="(\d+)"/.exec(dom)?.[1] ?? 1400)
  const out = join(ROOT, 'docs', name)
  chromium(`--window-size=${WIDTH},${height}`, `--screenshot=${out}`, `file://${file}`)
  console.log(`wrote ${out}`)
}

try {
  const passing = postedCheckRun('passing')
  const failing = postedCheckRun('failing')
  shoot(summaryPage(passing.checkRun), 'check-run-summary.png')
  shoot(summaryPage(failing.checkRun), 'check-run-failing.png')
  shoot(diffPage(failing.checkRun, failing.files), 'inline-annotations.png')
} finally {
  rmSync(work, { recursive: true, force: true })
}
