/** Reads the copied reference corpus (`__tests__/fixtures/corpus`) and its `_expected/` verdicts. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkFindings } from '../../src/receipts/findings.js'
import { isJsonObject, readJsonBytes } from '../../src/receipts/json.js'
import {
  loadGenerations,
  type HistoryFile,
  type LoadResult
} from '../../src/receipts/lineage.js'

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures')
export const CORPUS = join(FIXTURES, 'corpus')

/** Maps a `corpus/...` path of an `_expected` file onto the fixture copy. */
export function corpusPath(path: string): string {
  return join(FIXTURES, path)
}

/** Loads `_expected/<name>` of both halves of the corpus. */
export function expected<T>(name: string): T[] {
  return ['generated', 'real'].flatMap((half) => {
    const value = JSON.parse(
      readFileSync(join(CORPUS, half, '_expected', name), 'utf8')
    ) as T | T[]
    return Array.isArray(value) ? value : [value]
  })
}

/** Every `*.json` file of the corpus, except the `_expected` answers. */
export function corpusFiles(dir = CORPUS): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (name === '_expected') return []
    if (statSync(path).isDirectory()) return corpusFiles(path)
    return name.endsWith('.json') ? [path] : []
  })
}

/** flowctl's loader over a latest pointer on disk and its `.history/` folder. */
export function loadFromDisk(
  pointer: string
): LoadResult | { ok: false; latestInvalid: true; reason: string } {
  let latest = null
  if (existsSync(pointer)) {
    const read = readJsonBytes(readFileSync(pointer))
    if (!read.ok || !isJsonObject(read.value))
      return { ok: false, reason: 'latest unreadable' }
    const findings = checkFindings(read.value)
    if (!findings.ok)
      return { ok: false, latestInvalid: true, reason: findings.reasons.join('; ') }
    latest = { receipt: read.value, findings: findings.value, name: basename(pointer) }
  }
  const historyDir = `${pointer}.history`
  const history: HistoryFile[] = existsSync(historyDir)
    ? readdirSync(historyDir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => ({ name, bytes: readFileSync(join(historyDir, name)) }))
    : []
  return loadGenerations(latest, history)
}
