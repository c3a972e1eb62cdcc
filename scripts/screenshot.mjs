// Renders the check-run summary the action posted for the demo PR (npm run demo action)
// to HTML with GitHub-like styling and screenshots it with headless Chromium (Debian's
// `chromium` package) into docs/check-run-summary.png, for the README.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import MarkdownIt from 'markdown-it'
import { ROOT, buildHarness } from './harness.mjs'

const work = mkdtempSync(join(tmpdir(), 'rg-shot-'))
const summaryFile = join(work, 'summary.md')
execFileSync(process.execPath, [buildHarness('demo-action')], {
  stdio: 'ignore',
  env: { ...process.env, RECEIPT_GATE_ROOT: ROOT, DEMO_SUMMARY_FILE: summaryFile }
})
// GitHub renders check-run Markdown with raw HTML allowed (details/summary) and GFM tables.
const body = new MarkdownIt({ html: true, linkify: true }).render(
  readFileSync(summaryFile, 'utf8')
)
const css = `
body { margin: 0; background: #fff; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
.frame { margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; }
.bar { padding: 12px 16px; border-bottom: 1px solid #d1d9e0; background: #f6f8fa; font-weight: 600; }
.bar small { color: #59636e; font-weight: 400; margin-left: 8px; }
.markdown { padding: 8px 24px 24px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
h3 { font-size: 1.25em; margin-top: 24px; }
table { border-collapse: collapse; display: block; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; border-radius: 6px; padding: .2em .4em; font: 85% ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; }
pre code { background: none; padding: 0; }
details summary { cursor: pointer; color: #0969da; }
blockquote { color: #59636e; border-left: .25em solid #d1d9e0; margin: 0; padding: 0 1em; }
`
const html = `<!doctype html><meta charset="utf-8"><style>${css}</style>
<div class="frame"><div class="bar">✅ Review receipts <small>Receipt Gate · demo pull request #7</small></div>
<div class="markdown">${body}</div></div>`
const page = join(work, 'summary.html')
writeFileSync(page, html)
const out = join(ROOT, 'docs', 'check-run-summary.png')
execFileSync(
  'chromium',
  [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    `--screenshot=${out}`,
    '--window-size=1100,1400',
    `file://${page}`
  ],
  { stdio: 'ignore' }
)
console.log(`wrote ${out}`)
