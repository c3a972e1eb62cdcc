/**
 * From the listing of `receipts-dir` to the receipts to read: a receipt is any `*.json`
 * not inside a `*.history/` folder; its generations are `<receipt>.history/*.json`;
 * a history folder without its receipt is a receipt too (a failed retry leaves it so).
 * Caps (docs/contract.md#receipts): 2 MiB a file, 500 receipts in path order, 64 MiB in all — over a cap,
 * that receipt alone is unreadable.
 */
import type { Selection } from './options.js'
import { plural } from '../util/plural.js'
import { shortSha } from '../util/short-sha.js'
import { globMatcher, isExclusion } from './glob-matcher.js'
import type { ReceiptSource, TreeEntry } from './source.js'

const CAPS = { fileBytes: 2 * 1024 * 1024, receipts: 500, totalBytes: 64 * 1024 * 1024 }

/** One receipt to read: its latest pointer (if any) and its history files. */
export interface ReceiptPlan {
  path: string
  latest: TreeEntry | null
  history: TreeEntry[]
  /** Set when the receipt must not be read: the reason it is unreadable. */
  unreadable: string | null
}

/** Inside a `*.history/` folder: a generation of a receipt, never a receipt itself. */
export const HISTORY_DIR = /\.history\//

/** Groups a listing into receipts, sorted by path. Listing order does not matter. */
export function planReceipts(entries: readonly TreeEntry[]): ReceiptPlan[] {
  const plans = new Map<string, ReceiptPlan>()
  const plan = (path: string): ReceiptPlan => {
    const found = plans.get(path) ?? { path, latest: null, history: [], unreadable: null }
    plans.set(path, found)
    return found
  }
  for (const entry of entries) {
    if (!entry.path.endsWith('.json')) continue
    const historyAt = entry.path.search(HISTORY_DIR)
    if (historyAt === -1) {
      plan(entry.path).latest = entry
      continue
    }
    const owner = entry.path.slice(0, historyAt)
    const rest = entry.path.slice(historyAt + '.history/'.length)
    // flowctl globs `*.json` directly in the history folder: deeper files are not generations.
    if (owner.endsWith('.json') && !rest.includes('/') && !HISTORY_DIR.test(owner))
      plan(owner).history.push(entry)
  }
  // Paths are distinct: compared by code units, never equal.
  return [...plans.values()].sort((a, b) => (a.path < b.path ? -1 : 1)).map(checkKinds)
}

/** The plan's files: its latest pointer (if any), then its history. */
function filesOf(plan: ReceiptPlan): TreeEntry[] {
  return plan.latest ? [plan.latest, ...plan.history] : plan.history
}

/** Symlinks and submodules are never followed: a receipt that is one is unreadable. */
function checkKinds(plan: ReceiptPlan): ReceiptPlan {
  const bad = filesOf(plan).find(
    (entry) => entry.type !== 'blob' || entry.mode === '120000'
  )
  if (!bad) return plan
  const what =
    bad.mode === '160000' || bad.type === 'commit'
      ? 'a submodule'
      : bad.mode === '120000'
        ? 'a symbolic link'
        : `a ${bad.type}`
  const where = bad === plan.latest ? 'the receipt' : `history file ${bad.path}`
  return { ...plan, unreadable: `${where} is ${what}, which is not followed` }
}

/** Applies the caps in path order; returns the plans with over-cap ones marked unreadable. */
export function applyCaps(plans: readonly ReceiptPlan[]): ReceiptPlan[] {
  let total = 0
  return plans.map((plan, index) => {
    if (plan.unreadable) return plan
    const files = filesOf(plan)
    const big = files.find((entry) => (entry.size ?? 0) > CAPS.fileBytes)
    const size = files.reduce((sum, entry) => sum + (entry.size ?? 0), 0)
    let why: string | null = null
    if (index >= CAPS.receipts)
      why = `over the cap of ${CAPS.receipts} receipts (receipts are read in path order)`
    else if (big) why = `${big.path} is ${big.size} bytes, over the 2 MiB cap per file`
    else if (total + size > CAPS.totalBytes)
      why = 'reading it would pass the 64 MiB cap on all receipts and history'
    else total += size
    return why === null ? plan : { ...plan, unreadable: why }
  })
}

/** The PR's changed paths as the source told them, or why they are unknown. */
type ChangedPaths = Awaited<ReturnType<ReceiptSource['changedPaths']>>

/**
 * `select`: receipts changed in the PR (default; `changed` is what the source said),
 * all, or globs, in natural order (`r-9`, `r-10`). What selected nothing is said in
 * `notes`: a silent empty selection reads only as a missing receipt.
 */
export function selectPlans(
  plans: readonly ReceiptPlan[],
  select: Selection,
  changed: ChangedPaths | null,
  base: string | null,
  notes: string[]
): ReceiptPlan[] {
  let chosen = [...plans]
  if (select.mode === 'globs') {
    const match = globMatcher(select.globs)
    chosen = plans.filter((plan) => match(plan.path))
    for (const glob of select.globs) {
      // An exclusion selects nothing by itself.
      if (isExclusion(glob)) continue
      const one = globMatcher([glob])
      if (!plans.some((plan) => one(plan.path)))
        notes.push(`select: ${JSON.stringify(glob)} matched no receipt`)
    }
  } else if (select.mode === 'changed' && changed?.paths === null) {
    notes.push(`${changed.note}: all receipts selected`)
  } else if (select.mode === 'changed' && changed?.paths) {
    // A changed history file selects its receipt: the path before its first `.history/`
    // (a receipt's own path holds none, and ends in `.json`, so no other split fits it).
    const touched = new Set(changed.paths.map((path) => path.split('.history/')[0]))
    chosen = plans.filter((plan) => touched.has(plan.path))
    if (chosen.length === 0 && plans.length > 0)
      notes.push(
        `none of the ${plural(plans.length, 'receipt')} changed since the base${base ? ` ${shortSha(base)}` : ''} (select: all checks every one)`
      )
  }
  return chosen.sort((a, b) => naturalOrder(a.path, b.path))
}

/** Every blob the plans need, each once. */
export function blobsOf(plans: readonly ReceiptPlan[]): string[] {
  const needed = plans.filter((plan) => !plan.unreadable)
  return [...new Set(needed.flatMap(filesOf).map((entry) => entry.sha))]
}

/** Paths with their digit runs compared as numbers (`…9, 10, 11`); a fixed locale, so every run sorts alike. */
const naturalOrder = new Intl.Collator('en', { numeric: true }).compare
