/**
 * Random mutations of the valid corpus receipts, for property tests: drop a key, retype
 * a value, turn an integer into a float token, duplicate, add a key (`__proto__` too),
 * change a string, swap two nodes. Shared by the core's properties
 * (`receipts/property.test.ts`) and the hostile regressions.
 */
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { corpusFiles } from './corpus.js'
import { raw, RawToken, SHA, type Built, type BuiltObject } from './receipt-builders.js'

/** The valid receipts of the corpus (and their history generations), parsed. */
export const BASES: Array<{ name: string; value: Built }> = corpusFiles()
  .filter((file) => /\/(valid|surprising-valid|real)\//.test(file))
  .map((file) => ({
    name: basename(file),
    value: JSON.parse(readFileSync(file, 'utf8')) as Built
  }))

export type Path = Array<string | number>

/** Every path to a node of a built value, root first. */
export function paths(value: Built, at: Path = []): Path[] {
  const out: Path[] = [at]
  if (Array.isArray(value))
    value.forEach((entry, i) => out.push(...paths(entry, [...at, i])))
  else if (isObject(value))
    for (const key of Object.keys(value)) out.push(...paths(value[key]!, [...at, key]))
  return out
}

export function clone(value: Built): Built {
  if (Array.isArray(value)) return value.map(clone)
  if (isObject(value)) {
    const out: BuiltObject = {}
    for (const key of Object.keys(value)) out[key] = clone(value[key]!)
    return out
  }
  return value
}

function isRaw(value: Built): boolean {
  return value instanceof RawToken
}

const REPLACEMENTS: Built[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  2,
  75,
  raw('1.0'),
  raw('1e0'),
  raw('100.0'),
  raw('-0'),
  raw('9007199254740993'),
  '',
  'x',
  'R4a',
  'P0',
  'open',
  '\ud800',
  '😀'.repeat(241),
  '../x',
  SHA.head1,
  [],
  {},
  ['R1', 'R1'],
  { unexpected: 1 }
]

type Op = 'drop' | 'retype' | 'float' | 'duplicate' | 'addKey' | 'string' | 'swap'

export interface Mutation {
  op: Op
  pick: number
  other: number
  replacement: number
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom<Op>(
    'drop',
    'retype',
    'float',
    'duplicate',
    'addKey',
    'string',
    'swap'
  ),
  pick: fc.nat(),
  other: fc.nat(),
  replacement: fc.nat({ max: REPLACEMENTS.length - 1 })
})

function parentOf(root: Built, path: Path): Built | undefined {
  let node: Built = root
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string | number, Built>)[key]!
  }
  return node
}

/** A clone of `root` with the node at `path` (not the root) replaced by `value`. */
export function replaced(root: Built, path: Path, value: Built): Built {
  const copy = clone(root)
  const parent = parentOf(copy, path) as Record<string | number, Built>
  parent[path.at(-1)!] = value
  return copy
}

/** Applies one mutation to a clone of `root`; returns the mutated root. */
export function mutate(root: Built, m: Mutation): Built {
  const all = paths(root)
  const path = all[m.pick % all.length]!
  if (path.length === 0) return m.op === 'retype' ? REPLACEMENTS[m.replacement]! : root
  const parent = parentOf(root, path) as Record<string | number, Built> | Built[]
  const key = path.at(-1)!
  const current = (parent as Record<string | number, Built>)[key]!
  const set = (value: Built): void => {
    ;(parent as Record<string | number, Built>)[key] = value
  }
  switch (m.op) {
    case 'drop':
      if (Array.isArray(parent)) parent.splice(key as number, 1)
      else delete (parent as Record<string, Built>)[key as string]
      break
    case 'retype':
      set(clone(REPLACEMENTS[m.replacement]!))
      break
    case 'float':
      if (typeof current === 'number')
        set(raw(m.other % 2 ? `${current}.0` : `${current}e0`))
      else set(raw(`${m.other % 300}.0`))
      break
    case 'duplicate':
      if (Array.isArray(parent)) parent.splice(key as number, 0, clone(current))
      else if (Array.isArray(current) && current.length > 0)
        current.push(clone(current[0]!))
      else (parent as Record<string, Built>)[`${String(key)}_copy`] = clone(current)
      break
    case 'addKey':
      if (
        current !== null &&
        typeof current === 'object' &&
        !Array.isArray(current) &&
        !isRaw(current)
      )
        (current as BuiltObject)[
          ['extra', '__proto__', 'constructor', 'anchor'][m.other % 4]!
        ] = clone(REPLACEMENTS[m.replacement]!)
      else set(clone(REPLACEMENTS[m.replacement]!))
      break
    case 'string':
      if (typeof current === 'string')
        set(
          [
            current.toUpperCase(),
            `${current}x`,
            current.slice(1),
            `\`${current}\``,
            `${current}/`,
            current.repeat(200)
          ][m.other % 6]!
        )
      else set(String(m.other))
      break
    case 'swap': {
      const target = all[m.other % all.length]!
      if (target.length > 0 && !target.some((part, i) => path[i] !== part)) break
      const otherParent = parentOf(root, target) as
        Record<string | number, Built> | undefined
      if (target.length === 0 || otherParent === undefined) break
      const otherKey = target.at(-1)!
      const otherValue = otherParent[otherKey]!
      if (path.every((part, i) => target[i] === part)) break
      otherParent[otherKey] = clone(current)
      set(clone(otherValue))
      break
    }
  }
  return root
}

/** A clone of `value` with `mutations` applied in turn. */
export function mutated(value: Built, mutations: readonly Mutation[]): Built {
  let out = clone(value)
  for (const m of mutations) out = mutate(out, m)
  return out
}

export function isObject(value: Built | undefined): value is BuiltObject {
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !isRaw(value)
  )
}
