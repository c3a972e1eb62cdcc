/**
 * Where a finding sits in the PR's diff (issue 25). GitHub shows an annotation inline only
 * on a line of a hunk (context included), else in the Checks tab alone. Base-side anchors
 * (deleted lines) are moved to the head line of the change that removed them.
 */
import type { ChangedFile, ChangedFiles } from './source.js'

/** One run of removed and added lines: the base lines it removed, the head line it sits at. */
interface Change {
  removedFrom: number
  removedTo: number
  /** The head line of the change: its first added line, or (a pure deletion) the line after it. */
  headLine: number
}

interface FileDiff {
  path: string
  /** Head-side line ranges the diff shows (hunks, context included); null when the patch is unknown. */
  shown: Array<[number, number]> | null
  changes: Change[]
  /** The head file's last line the patch shows (for a deletion at the end of the file). */
  lastHeadLine: number
}

/** The diff of a PR by path; null when the changed files are unknown. */
export interface DiffMap {
  byHead: Map<string, FileDiff>
  byBase: Map<string, FileDiff>
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

/** Parses a patch's hunks into the lines the diff shows and the changes that removed base lines. */
export function parsePatch(patch: string): Omit<FileDiff, 'path'> {
  const shown: Array<[number, number]> = []
  const changes: Change[] = []
  let oldLine = 0
  let newLine = 0
  let inHunk = false
  // The run of changed lines being read; its head line is its first added line, if any.
  let open: (Omit<Change, 'headLine'> & { headLine: number | null }) | null = null
  let lastHeadLine = 0
  const close = (): void => {
    if (open && open.removedTo >= open.removedFrom)
      changes.push({ ...open, headLine: open.headLine ?? newLine })
    open = null
  }
  for (const line of patch.split('\n')) {
    const header = HUNK_HEADER.exec(line)
    if (header) {
      close()
      oldLine = Number(header[1])
      newLine = Number(header[3])
      const count = header[4] === undefined ? 1 : Number(header[4])
      // A hunk of no head lines (+n,0) shows none; its position is the line before.
      if (count > 0) shown.push([newLine, newLine + count - 1])
      else newLine += 1
      lastHeadLine = Math.max(lastHeadLine, newLine + count - 1)
      inHunk = true
      continue
    }
    if (!inHunk) continue
    const mark = line[0]
    if (mark === '-' || mark === '+') {
      open ??= { removedFrom: oldLine, removedTo: oldLine - 1, headLine: null }
      if (mark === '-') open.removedTo = oldLine++
      else {
        open.headLine ??= newLine
        newLine++
      }
    } else if (mark === ' ') {
      close()
      oldLine++
      newLine++
    } else if (mark !== '\\') {
      // Anything else (a blank line past the last hunk, git's next file header) ends the hunk.
      close()
      inHunk = false
    }
  }
  close()
  return { shown, changes, lastHeadLine }
}

/** The diff map of a PR's changed files, or null when they are unknown. */
export function diffMap(changed: ChangedFiles): DiffMap | null {
  if (changed.files === null) return null
  const byHead = new Map<string, FileDiff>()
  const byBase = new Map<string, FileDiff>()
  for (const file of changed.files) {
    const parsed =
      file.patch === null
        ? { shown: null, changes: [], lastHeadLine: 0 }
        : parsePatch(file.patch)
    const diff: FileDiff = { path: file.path, ...parsed }
    byHead.set(file.path, diff)
    byBase.set(file.previousPath ?? file.path, diff)
  }
  return { byHead, byBase }
}

/**
 * Whether a head-side anchor is on a line the PR's diff shows: true when any of its
 * lines is, false when none is (an unchanged file: false), null when unknown.
 */
export function inDiff(
  map: DiffMap | null,
  path: string,
  startLine: number,
  endLine: number
): boolean | null {
  if (map === null) return null
  const file = map.byHead.get(path)
  if (file === undefined) return false
  if (file.shown === null) return null
  return file.shown.some(([from, to]) => startLine <= to && endLine >= from)
}

/**
 * The head line a base-side anchor is annotated at: where the change that removed or
 * changed its first line sits, at the file's head path. Null when no hunk removed
 * that line (or the file is gone at the head, or its patch is unknown).
 */
export function mapBaseLine(
  map: DiffMap | null,
  path: string,
  line: number
): { path: string; line: number } | null {
  const file = map?.byBase.get(path)
  if (file === undefined || file.lastHeadLine === 0) return null
  const change = file.changes.find((c) => line >= c.removedFrom && line <= c.removedTo)
  if (change === undefined) return null
  // A deletion at the end of the file has no line after it: the last line instead.
  return {
    path: file.path,
    line: Math.max(1, Math.min(change.headLine, file.lastHeadLine))
  }
}

/**
 * Pairs `git diff -z --raw -p` records (NUL-separated, up to an empty field: paths never
 * from a quoted header) with the patch's sections after them, one per record, in order.
 */
export function gitChangedFiles(diff: string): ChangedFile[] {
  const end = diff.indexOf('\0\0')
  const fields = (end < 0 ? diff : diff.slice(0, end)).split('\0')
  const patchText = end < 0 ? '' : diff.slice(end + 2)
  const entries: Array<{ path: string; previousPath?: string }> = []
  for (let i = 0; i < fields.length;) {
    const status = (fields[i++] ?? '').split(' ').pop() ?? ''
    if (status === '') continue
    if (/^[RC]/.test(status)) {
      const from = fields[i++] ?? ''
      const to = fields[i++] ?? ''
      entries.push(
        status.startsWith('R') ? { path: to, previousPath: from } : { path: to }
      )
    } else entries.push({ path: fields[i++] ?? '' })
  }
  const sections = ('\n' + patchText).split('\ndiff --git ').slice(1)
  return entries.map((entry, i) => {
    const section = sections[i]
    // Hunks start at the first `@@`; a section without one (a mode change, a pure rename, a binary) has none.
    const at = section === undefined ? -1 : section.indexOf('\n@@ ')
    return {
      ...entry,
      patch: section === undefined ? null : at < 0 ? '' : section.slice(at + 1)
    }
  })
}
