/**
 * Where a finding sits in the PR's diff. GitHub shows an annotation inline only
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

/** The lines a file's diff shows and the changes that removed base lines. */
export interface FileHunks {
  /** Head-side line ranges the diff shows (hunks, context included). */
  shown: Array<[number, number]>
  changes: Change[]
  /** The head file's last line the patch shows (for a deletion at the end of the file). */
  lastHeadLine: number
}

interface FileDiff extends Omit<FileHunks, 'shown'> {
  path: string
  /** Null when the file's hunks are unknown. */
  shown: FileHunks['shown'] | null
}

/** The diff of a PR by path; null when the changed files are unknown. */
export interface DiffMap {
  byHead: Map<string, FileDiff>
  byBase: Map<string, FileDiff>
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

/**
 * Reads a patch line by line, keeping only where its hunks sit: past a hunk header each
 * line counts by its first character, so a caller may cut long lines (a diff of any size
 * is read in bounded memory). A hunk ends when its header's line counts are used up, so
 * an empty context line (`diff.suppressBlankEmpty`) does not end it early.
 */
class HunkReader {
  private readonly hunks: FileHunks = { shown: [], changes: [], lastHeadLine: 0 }
  private oldLine = 0
  private newLine = 0
  private oldLeft = 0
  private newLeft = 0
  // The run of changed lines being read; its head line is its first added line, if any.
  private open: (Omit<Change, 'headLine'> & { headLine: number | null }) | null = null

  /** Feeds one line (without its line break). */
  line(line: string): void {
    if (this.oldLeft > 0 || this.newLeft > 0) this.hunkLine(line)
    else if (line.startsWith('@@')) this.header(line)
  }

  /** What was read: the lines shown and the changes. */
  result(): FileHunks {
    this.close()
    return this.hunks
  }

  private header(line: string): void {
    const header = HUNK_HEADER.exec(line)
    if (!header) return
    this.oldLine = Number(header[1])
    this.newLine = Number(header[3])
    this.oldLeft = header[2] === undefined ? 1 : Number(header[2])
    this.newLeft = header[4] === undefined ? 1 : Number(header[4])
    const count = this.newLeft
    // A hunk of no head lines (+n,0) shows none; its position is the line before.
    if (count > 0) this.hunks.shown.push([this.newLine, this.newLine + count - 1])
    else this.newLine += 1
    this.hunks.lastHeadLine = Math.max(this.hunks.lastHeadLine, this.newLine + count - 1)
  }

  private hunkLine(line: string): void {
    const mark = line[0]
    if (mark === '-' || mark === '+') {
      this.open ??= {
        removedFrom: this.oldLine,
        removedTo: this.oldLine - 1,
        headLine: null
      }
      if (mark === '-') {
        this.open.removedTo = this.oldLine++
        this.oldLeft--
      } else {
        this.open.headLine ??= this.newLine
        this.newLine++
        this.newLeft--
      }
    } else if (mark === ' ' || mark === undefined) {
      this.close()
      this.oldLine++
      this.newLine++
      this.oldLeft--
      this.newLeft--
    } else if (mark !== '\\') {
      // Anything else (hostile text, a hunk header past a wrong count) ends the hunk.
      this.oldLeft = this.newLeft = 0
      this.close()
      this.line(line)
      return
    }
    if (this.oldLeft <= 0 && this.newLeft <= 0) {
      this.oldLeft = this.newLeft = 0
      this.close()
    }
  }

  private close(): void {
    const open = this.open
    if (open && open.removedTo >= open.removedFrom)
      this.hunks.changes.push({ ...open, headLine: open.headLine ?? this.newLine })
    this.open = null
  }
}

/** Parses a patch's hunks into the lines the diff shows and the changes that removed base lines. */
export function parsePatch(patch: string): FileHunks {
  const reader = new HunkReader()
  for (const line of patch.split('\n')) reader.line(line)
  return reader.result()
}

/** The diff map of a PR's changed files, or null when they are unknown. */
export function diffMap(changed: ChangedFiles): DiffMap | null {
  if (changed.files === null) return null
  const byHead = new Map<string, FileDiff>()
  const byBase = new Map<string, FileDiff>()
  for (const file of changed.files) {
    const diff: FileDiff = {
      path: file.path,
      ...(file.hunks ?? { shown: null, changes: [], lastHeadLine: 0 })
    }
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

/** How git writes a path in a patch header: C-quoted when it holds a control character, `"` or `\\`. */
function gitQuoted(name: string): string {
  const escapes: Readonly<Record<string, string>> = {
    '\x07': 'a',
    '\b': 'b',
    '\t': 't',
    '\n': 'n',
    '\v': 'v',
    '\f': 'f',
    '\r': 'r',
    '"': '"',
    '\\': '\\'
  }
  const special = /[\x00-\x1f"\\\x7f]/g
  if (name.search(special) < 0) return name
  const escape = (c: string): string =>
    `\\${escapes[c] ?? c.charCodeAt(0).toString(8).padStart(3, '0')}`
  return `"${name.replace(special, escape)}"`
}

/** A changed file being read from git's patch: its sections' hunks, or why they are unknown. */
interface GitFile {
  file: Omit<ChangedFile, 'hunks'>
  hunks: HunkReader
  sections: number
  binary: boolean
}

/**
 * Reads `git diff -z --raw -p` (prefixes `a/` and `b/`): first the records of every change
 * (NUL-separated up to an empty field, paths never from a quoted header), then the patch,
 * line by line. Each patch section goes to the record its own `diff --git` header names,
 * never by position: git writes a type change (file to symlink or submodule) as two
 * sections, a deletion and a creation, which are read as one replacement. A record no
 * section names, or a binary one, has unknown hunks.
 */
export class GitDiffReader {
  private readonly files: GitFile[] = []
  private readonly byHeader = new Map<string, GitFile>()
  private current: GitFile | undefined

  /** Takes the NUL-separated records (everything before the patch). */
  records(raw: string): void {
    const fields = raw.split('\0')
    for (let i = 0; i < fields.length;) {
      const status = (fields[i++] ?? '').split(' ').pop() ?? ''
      if (status === '') continue
      const renamedOrCopied = /^[RC]/.test(status)
      const from = fields[i++] ?? ''
      const to = renamedOrCopied ? (fields[i++] ?? '') : from
      const file: GitFile = {
        file: status.startsWith('R') ? { path: to, previousPath: from } : { path: to },
        hunks: new HunkReader(),
        sections: 0,
        binary: false
      }
      this.files.push(file)
      this.byHeader.set(
        `diff --git ${gitQuoted(`a/${from}`)} ${gitQuoted(`b/${to}`)}`,
        file
      )
    }
  }

  /** Takes one line of the patch (a caller may cut a long one: headers are short). */
  line(line: string): void {
    if (line.startsWith('diff --git ')) {
      this.current = this.byHeader.get(line)
      if (this.current) this.current.sections++
    } else if (this.current === undefined) return
    else if (line.startsWith('Binary files ')) this.current.binary = true
    else this.current.hunks.line(line)
  }

  /** The changed files, in git's order. */
  result(): ChangedFile[] {
    return this.files.map(({ file, hunks, sections, binary }) => ({
      ...file,
      hunks: sections === 0 || binary ? null : hunks.result()
    }))
  }
}
