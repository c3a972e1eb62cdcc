/**
 * The layout's rules, read from the imports of `src/` (type-only ones too): the pure
 * core (`gate/`, `receipts/`) depends on no adapter or renderer, and no two folders
 * import each other, directly or round a longer loop.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src')
const CORE = ['gate', 'receipts']
const NOT_IN_CORE = ['render', 'action', 'cli', 'github', 'source']

/** Every import of src/ between two of its files, as `src/`-relative paths. */
function imports(): Array<{ from: string; to: string }> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts')
  )
  return files.flatMap((file) => {
    const from = file.split('\\').join('/')
    const text = readFileSync(join(SRC, file), 'utf8')
    return ts
      .preProcessFile(text, true, true)
      .importedFiles.map((ref) => ref.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => posix.normalize(posix.join(posix.dirname(from), name)))
      .filter((to) => !to.startsWith('..'))
      .map((to) => ({ from, to }))
  })
}

/** The folder of a `src/`-relative path; `.` for the entry points at the top. */
function folder(path: string): string {
  return path.includes('/') ? (path.split('/')[0] as string) : '.'
}

/** A loop of folders, e.g. `gate → render → gate`, or null when there is none. */
function folderCycle(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
  const done = new Set<string>()
  const visit = (node: string, path: string[]): string[] | null => {
    const at = path.indexOf(node)
    if (at >= 0) return [...path.slice(at), node]
    if (done.has(node)) return null
    for (const next of edges.get(node) ?? []) {
      const found = visit(next, [...path, node])
      if (found) return found
    }
    done.add(node)
    return null
  }
  for (const node of edges.keys()) {
    const found = visit(node, [])
    if (found) return found
  }
  return null
}

describe('architecture', () => {
  const all = imports()

  it('reads the imports and finds a loop where there is one', () => {
    expect(all).toContainEqual({ from: 'main.ts', to: 'gate/evaluate.js' })
    const loop = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['b'])]
    ])
    expect(folderCycle(loop)).toEqual(['b', 'c', 'b'])
  })

  it('keeps the core pure: gate/ and receipts/ import no adapter or renderer', () => {
    const offending = all
      .filter(
        ({ from, to }) => CORE.includes(folder(from)) && NOT_IN_CORE.includes(folder(to))
      )
      .map(({ from, to }) => `${from} → ${to}`)
    expect(offending).toEqual([])
  })

  it('has no import cycle between folders', () => {
    const edges = new Map<string, Set<string>>()
    for (const { from, to } of all) {
      const [a, b] = [folder(from), folder(to)]
      if (a === b) continue
      edges.set(a, (edges.get(a) ?? new Set()).add(b))
    }
    expect(folderCycle(edges)?.join(' → ') ?? null).toBeNull()
  })
})
