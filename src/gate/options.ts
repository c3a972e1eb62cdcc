/**
 * The gate's settings, from the action inputs or the CLI flags: one typed object,
 * validated in one place. A bad value is an {@link OptionError} naming the input and
 * the allowed values.
 */
import { TYPE_TO_KIND } from '../receipts/limits.js'

const UNBOUND_HEAD_POLICIES = ['history', 'fail', 'allow'] as const
const NEEDS_HUMAN_CONCLUSIONS = ['action_required', 'failure', 'neutral'] as const
/** Review coverage of the PR's code commits: shown, required, or not computed. */
const COVERAGE_MODES = ['report', 'require', 'off'] as const
const DEFAULT_BOOKKEEPING = ['.flow/**', '!.flow/bin/**', '!.flow/config.json']

export type NeedsHumanConclusion = (typeof NEEDS_HUMAN_CONCLUSIONS)[number]

/** Which receipts the gate looks at. */
export type Selection =
  { mode: 'changed' } | { mode: 'all' } | { mode: 'globs'; globs: string[] }

export interface GateOptions {
  receiptsDir: string
  select: Selection
  /** Receipt types that must have a current receipt. */
  require: string[]
  /** picomatch globs (dot: true); a leading `!` excludes. */
  bookkeepingPaths: string[]
  unboundHead: (typeof UNBOUND_HEAD_POLICIES)[number]
  needsHumanConclusion: NeedsHumanConclusion
  auditDeferred: boolean
  maxAnnotations: number
  coverage: (typeof COVERAGE_MODES)[number]
  /** Pull request authors (logins) that need no review: the API's word, never a receipt's. */
  exemptAuthors: string[]
  /** Labels whose pull requests need no review. */
  exemptLabels: string[]
}

/** A setting's input name (= the CLI flag's): its key in kebab case (`receipts-dir`). */
type Kebab<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `-${Lowercase<H>}`}${Kebab<T>}`
  : S
type InputName = Kebab<keyof GateOptions>

/** Raw values as typed, by input name; undefined = default. */
export type RawOptions = Readonly<Partial<Record<InputName, string>>>

/** A setting with a value it cannot take. `input` is the kebab-case name. */
export class OptionError extends Error {
  constructor(
    readonly input: string,
    message: string
  ) {
    super(`${input}: ${message}`)
  }
}

/** The error of a value that is not what `input` must be. */
export function mustBe(
  input: string,
  what: string,
  value: string | undefined,
  hint = ''
): OptionError {
  return new OptionError(input, `must be ${what} (got ${JSON.stringify(value)})${hint}`)
}

/** Splits a list input on commas and newlines; blanks dropped. */
export function parseList(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

function oneOf<T extends string>(
  raw: RawOptions,
  input: InputName,
  allowed: readonly T[],
  fallback: T
): T {
  const value = raw[input]
  const trimmed = value?.trim()
  if (!trimmed) return fallback
  if ((allowed as readonly string[]).includes(trimmed)) return trimmed as T
  const near = closest(trimmed, allowed)
  throw mustBe(
    input,
    `one of ${allowed.join(', ')}`,
    value,
    near === null ? '' : `: did you mean ${near}?`
  )
}

/**
 * The allowed word `typed` is most likely a typo of (at most two edits — a letter added,
 * dropped, changed, or two swapped — and fewer than half its letters), or null.
 */
function closest(typed: string, allowed: readonly string[]): string | null {
  const word = typed.toLowerCase()
  let best: { name: string; distance: number } | null = null
  for (const name of allowed) {
    const distance = editDistance(word, name.toLowerCase())
    if (
      distance <= Math.min(2, Math.floor(name.length / 2)) &&
      (!best || distance < best.distance)
    )
      best = { name, distance }
  }
  return best?.name ?? null
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  const at = (i: number, j: number): number => rows[i]?.[j] ?? 0
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, at(i - 2, j - 2) + 1)
      ;(rows[i] as number[])[j] = d
    }
  return at(a.length, b.length)
}

/** A boolean input (blank: `fallback`); the one parser of every true/false input. */
export function parseBoolean(
  value: string | undefined,
  input: string,
  fallback: boolean
): boolean {
  const trimmed = value?.trim()
  if (!trimmed) return fallback
  // The YAML 1.2 core schema spellings, as @actions/core's getBooleanInput takes them.
  if (['true', 'True', 'TRUE'].includes(trimmed)) return true
  if (['false', 'False', 'FALSE'].includes(trimmed)) return false
  throw mustBe(input, 'true or false', value)
}

const SELECT_MODES = ['changed', 'all']

function parseSelect(value: string | undefined): Selection {
  const items = parseList(value ?? '')
  if (items.length === 0 || (items.length === 1 && items[0] === 'changed'))
    return { mode: 'changed' }
  if (items.length === 1 && items[0] === 'all') return { mode: 'all' }
  // A bare word is no glob of a receipt (a receipt is a `*.json` path): a mode mistyped
  // (`chnaged`, `All`) would otherwise select nothing, and say so only as a missing review.
  for (const item of items) {
    const near = /^[A-Za-z_-]+$/.test(item) ? closest(item, SELECT_MODES) : null
    if (near !== null)
      throw new OptionError(
        'select',
        `unknown mode ${JSON.stringify(item)}: did you mean ${near}? (select is changed, all, or globs of receipt files such as .flow/review-receipts/impl-*.json)`
      )
  }
  if (items.includes('changed') || items.includes('all'))
    throw new OptionError(
      'select',
      'must be changed, all, or a list of globs (not a mix)'
    )
  return { mode: 'globs', globs: items }
}

function parseReceiptsDir(value: string | undefined): string {
  const dir = (value ?? '').trim().replace(/\/+$/, '') || '.flow/review-receipts'
  if (dir.startsWith('/') || dir.split('/').some((part) => part === '..' || part === ''))
    throw mustBe('receipts-dir', 'a relative path inside the repository', value)
  return dir.replace(/^\.\//, '')
}

/**
 * The receipt types to require. A type no receipt can have (`impl-review`) could never
 * be met and would fail every PR for a typo: refused, with the known types.
 */
function parseRequire(value: string | undefined): string[] {
  if (value === undefined) return ['impl_review']
  const types = parseList(value)
  const known = Object.keys(TYPE_TO_KIND)
  const unknown = types.find((type) => !known.includes(type))
  if (unknown !== undefined) {
    const near = closest(unknown, known)
    throw new OptionError(
      'require',
      `unknown receipt type ${JSON.stringify(unknown)}: the types are ${known.join(', ')}${near === null ? '' : `; did you mean ${near}?`}`
    )
  }
  return types
}

function parseMax(value: string | undefined): number {
  const trimmed = value?.trim()
  if (!trimmed) return 1000
  const n = Number(trimmed)
  if (!Number.isInteger(n) || n < 0 || n > 100000)
    throw mustBe('max-annotations', 'a whole number from 0 to 100000', value)
  return n
}

/** Builds validated settings; throws {@link OptionError} on the first bad value. */
export function parseOptions(raw: RawOptions): GateOptions {
  return {
    receiptsDir: parseReceiptsDir(raw['receipts-dir']),
    select: parseSelect(raw.select),
    require: parseRequire(raw.require),
    bookkeepingPaths:
      raw['bookkeeping-paths'] === undefined
        ? [...DEFAULT_BOOKKEEPING]
        : parseList(raw['bookkeeping-paths']),
    unboundHead: oneOf(raw, 'unbound-head', UNBOUND_HEAD_POLICIES, 'history'),
    needsHumanConclusion: oneOf(
      raw,
      'needs-human-conclusion',
      NEEDS_HUMAN_CONCLUSIONS,
      'action_required'
    ),
    auditDeferred: parseBoolean(raw['audit-deferred'], 'audit-deferred', true),
    maxAnnotations: parseMax(raw['max-annotations']),
    coverage: oneOf(raw, 'coverage', COVERAGE_MODES, 'report'),
    exemptAuthors: parseList(raw['exempt-authors'] ?? ''),
    exemptLabels: parseList(raw['exempt-labels'] ?? '')
  }
}
