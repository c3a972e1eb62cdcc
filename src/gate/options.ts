/**
 * The gate's settings, from the action inputs or the CLI flags: one typed object,
 * validated in one place. A bad value is an {@link OptionError} naming the input and
 * the allowed values.
 */
import { TYPE_TO_KIND } from '../receipts/limits.js'

const UNBOUND_HEAD_POLICIES = ['history', 'fail', 'allow'] as const
const NEEDS_HUMAN_CONCLUSIONS = ['action_required', 'failure', 'neutral'] as const
/** Review coverage of the PR's code commits (issue 25): shown, required, or not computed. */
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
  value: string | undefined
): OptionError {
  return new OptionError(input, `must be ${what} (got ${JSON.stringify(value)})`)
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
  throw mustBe(input, `one of ${allowed.join(', ')}`, value)
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

function parseSelect(value: string | undefined): Selection {
  const items = parseList(value ?? '')
  if (items.length === 0 || (items.length === 1 && items[0] === 'changed'))
    return { mode: 'changed' }
  if (items.length === 1 && items[0] === 'all') return { mode: 'all' }
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
  if (unknown !== undefined)
    throw new OptionError(
      'require',
      `unknown receipt type ${JSON.stringify(unknown)}: the types are ${known.join(', ')}`
    )
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
    coverage: oneOf(raw, 'coverage', COVERAGE_MODES, 'report')
  }
}
