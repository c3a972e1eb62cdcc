/**
 * Places each current finding in the PR's diff. Head-side findings outside it
 * are annotated in the Checks tab only, so the summary lists them with a link; base-side
 * ones are moved to the change that removed their line, or listed as not mapped.
 */
import { findingLevel } from './annotations.js'
import { inDiff, mapBaseLine, type DiffMap } from './diff-map.js'
import type { DiffPlacement, ReceiptRow, ReportFinding } from './report.js'

/**
 * The rows with `inDiff` (and base-side `mappedTo`) on their current findings, and what
 * the summary lists; links need `repositoryUrl` (`<server>/<owner>/<repo>`).
 */
export function placeFindings(
  rows: readonly ReceiptRow[],
  map: DiffMap | null,
  note: string | null,
  head: string,
  repositoryUrl: string | null
): { rows: ReceiptRow[]; diff: DiffPlacement } {
  const diff: DiffPlacement = { known: map !== null, note, outside: [], unmapped: [] }
  const placed = rows.map((row) => {
    if (row.currentness !== 'current' || row.findings.length === 0) return row
    const findings = row.findings.map((finding) => {
      const out = place(finding, map)
      const anchor = out.anchor
      if (anchor === null || findingLevel(out) === null) return out
      const entry = {
        receipt: row.path,
        id: out.id,
        severity: out.severity,
        title: out.title,
        path: anchor.path,
        line: anchor.startLine
      }
      if (anchor.side === 'head' && out.inDiff === false)
        diff.outside.push({ ...entry, url: blobUrl(repositoryUrl, head, entry) })
      if (anchor.side === 'base' && out.mappedTo === null)
        diff.unmapped.push({ ...entry, url: null })
      return out
    })
    return { ...row, findings }
  })
  return { rows: placed, diff }
}

function place(finding: ReportFinding, map: DiffMap | null): ReportFinding {
  const anchor = finding.anchor
  if (anchor === null) return { ...finding, inDiff: null }
  if (anchor.side === 'head')
    return {
      ...finding,
      inDiff: inDiff(map, anchor.path, anchor.startLine, anchor.endLine)
    }
  // A mapped base-side finding sits on a changed line: in the diff by construction;
  // else it is out of it unless the changed files or this file's patch are unknown.
  const mappedTo = mapBaseLine(map, anchor.path, anchor.startLine)
  const unknown = map === null || map.byBase.get(anchor.path)?.shown === null
  return { ...finding, inDiff: mappedTo ? true : unknown ? null : false, mappedTo }
}

/** `<server>/<owner>/<repo>/blob/<head>/<path>#L<n>`, each path segment escaped; null without a repository. */
function blobUrl(
  repositoryUrl: string | null,
  head: string,
  at: { path: string; line: number }
): string | null {
  if (!repositoryUrl) return null
  const path = at.path.split('/').map(encodeURIComponent).join('/')
  return `${repositoryUrl.replace(/\/+$/, '')}/blob/${head}/${path}#L${at.line}`
}
