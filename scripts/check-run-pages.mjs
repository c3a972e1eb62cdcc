// The pages `npm run screenshot` photographs, rendered from a check run the bundled action
// really posted (and the PR's files as the API lists them): its summary as the Checks tab
// shows it, and a "Files changed" view with its annotations inline on their lines.
import MarkdownIt from 'markdown-it'

const CSS = `
body { margin: 0; background: #fff; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
.frame { margin: 16px; border: 1px solid #d1d9e0; border-radius: 6px; overflow: hidden; }
.bar { padding: 12px 16px; border-bottom: 1px solid #d1d9e0; background: #f6f8fa; font-weight: 600; }
.bar small { color: #59636e; font-weight: 400; margin-left: 8px; }
.markdown { padding: 8px 24px 24px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
.failure h2 { color: #d1242f; }
.success h2 { color: #1a7f37; }
h3 { font-size: 1.25em; margin-top: 24px; }
table { border-collapse: collapse; display: block; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; border-radius: 6px; padding: .2em .4em; font: 85% ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; }
pre code { background: none; padding: 0; }
details summary { cursor: pointer; color: #0969da; }
.diff { width: 100%; border-collapse: collapse; display: table; font: 12px/20px ui-monospace, SFMono-Regular, Menlo, monospace; }
.diff td { border: 0; padding: 0 10px; white-space: pre; }
.diff tr:nth-child(2n) { background: none; }
.diff .num { width: 1%; color: #59636e; text-align: right; }
.diff .hunk td { background: #ddf4ff; color: #59636e; }
.diff .add td { background: #dafbe1; }
.diff .del td { background: #ffebe9; }
.note td { white-space: normal; padding: 8px 16px; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.note div { border: 1px solid #d1d9e0; border-left: 4px solid var(--level); border-radius: 6px; padding: 8px 12px; background: #fff; }
.note b { color: var(--level); }
.note p { margin: 4px 0 0; color: #59636e; white-space: pre-line; }
.failure-level { --level: #d1242f; } .warning-level { --level: #9a6700; } .notice-level { --level: #0969da; }
`
const LEVEL_ICON = { failure: '✖', warning: '⚠', notice: 'ℹ' }

const escape = (text) =>
  String(text ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

// The page reports its height so the screenshot can be cut to it (headless Chromium
// captures only the window).
// (flow-root keeps the last frame's margin inside what is measured).
const page = (inner) =>
  `<!doctype html><meta charset="utf-8"><style>${CSS}</style><main style="display: flow-root">${inner}</main>` +
  `<script>document.body.dataset.height = document.querySelector('main').offsetHeight</script>`

const bar = (checkRun, where) =>
  `<div class="bar">${checkRun.conclusion === 'success' ? '✅' : '❌'} ${escape(checkRun.name)} <small>Receipt Gate · demo pull request #7 · ${where}</small></div>`

/** The check run's summary as GitHub renders it: raw HTML allowed (details), GFM tables. */
export function summaryPage(checkRun) {
  const body = new MarkdownIt({ html: true, linkify: true }).render(
    checkRun.output.summary ?? ''
  )
  return page(
    `<div class="frame ${escape(checkRun.conclusion)}">${bar(checkRun, 'Checks')}<div class="markdown">${body}</div></div>`
  )
}

/** The lines of a unified-diff `patch`: hunk headers, and each line with its numbers. */
function diffLines(patch) {
  let oldLine = 0
  let newLine = 0
  return patch.split('\n').map((text) => {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(text)
    if (hunk) {
      oldLine = Number(hunk[1])
      newLine = Number(hunk[2])
      return { kind: 'hunk', text }
    }
    if (text.startsWith('+')) return { kind: 'add', text, newNo: newLine++ }
    if (text.startsWith('-')) return { kind: 'del', text, oldNo: oldLine++ }
    return { kind: 'ctx', text, oldNo: oldLine++, newNo: newLine++ }
  })
}

const annotationRow = (a) =>
  `<tr class="note ${escape(a.annotation_level)}-level"><td colspan="3"><div><b>${LEVEL_ICON[a.annotation_level] ?? ''} Check ${escape(a.annotation_level)}: ${escape(a.title)}</b> <small>Review receipts · line ${a.start_line === a.end_line ? a.start_line : `${a.start_line}–${a.end_line}`}</small><p>${escape(a.message)}</p></div></td></tr>`

/** One file's diff, each annotation placed under the last line of its range, as GitHub does. */
function fileDiff(file, annotations) {
  const mine = annotations.filter((a) => a.path === file.filename)
  const rows = diffLines(file.patch ?? '').map((line) => {
    const cells =
      line.kind === 'hunk'
        ? `<td class="num"></td><td class="num"></td><td>${escape(line.text)}</td>`
        : `<td class="num">${line.oldNo ?? ''}</td><td class="num">${line.newNo ?? ''}</td><td>${escape(line.text)}</td>`
    const notes = mine.filter(
      (a) => line.newNo !== undefined && a.end_line === line.newNo
    )
    return `<tr class="${line.kind}">${cells}</tr>${notes.map(annotationRow).join('')}`
  })
  return `<div class="frame"><div class="bar">${escape(file.filename)}</div><table class="diff">${rows.join('')}</table></div>`
}

/** "Files changed": the PR's diff with the check run's annotations inline. */
export function diffPage(checkRun, files) {
  // The receipts' JSON under .flow/ carries no annotation and would fill the picture.
  const code = files.filter((f) => !f.filename.startsWith('.flow/'))
  const listed = new Set(code.map((f) => f.filename))
  const outside = checkRun.annotations.filter((a) => !listed.has(a.path)).length
  const note = outside
    ? ` · ${outside} annotation${outside === 1 ? '' : 's'} outside the diff (Checks tab only)`
    : ''
  return page(
    `<div class="frame">${bar(checkRun, `Files changed${note}`)}</div>${code.map((f) => fileDiff(f, checkRun.annotations)).join('')}`
  )
}
