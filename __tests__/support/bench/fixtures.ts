/**
 * Deterministic inputs of the benchmark (issue 7): the maximal findings container, a
 * 50-generation chain of them, 1,000 small receipts, and pull requests in real git
 * repositories (receipts with a 3-generation history, bookkeeping commits after the
 * review). Everything is valid as flowctl judges it, so the figures measure the happy
 * path a required check runs on every push.
 */
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { GIT_EMAIL, GIT_NAME, GitRepo, gitEnv } from '../git-repo.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  type BuiltObject
} from '../receipt-builders.js'

/** The container bound of flowctl (compact UTF-8 JSON). */
export const CONTAINER_BYTES = 256 * 1024
/** How close to the bound the maximal container is filled. */
export const MAXIMAL_MARGIN = 64

const BASE_SHA = '5d2c8a0e4b7f19c3a6d0e2f4b8c1a3e5d7f9b0c2'

/** A fake SHA that is stable for a label (for containers that never meet git). */
export function fakeSha(label: string): string {
  return createHash('sha1').update(label).digest('hex')
}

// Review prose: mostly ASCII, with two-, three- and four-byte characters (an astral one
// counts as one code point but two UTF-16 units), and nothing JSON has to escape.
const PROSE_UNIT =
  'The handler trusts the length field before checking the buffer — a crafted frame ' +
  'reads past the end (naïve bound, see § 4.2; ✓ covered by 𝔘nit tests only). '

// Prose up to 4,000 code points, with the UTF-16 offset and UTF-8 size of each prefix.
const PROSE_CHARS = Array.from(PROSE_UNIT.repeat(40)).slice(0, 4000)
const PROSE_TEXT = PROSE_CHARS.join('')
const PROSE_UNITS = [0]
const PROSE_BYTES = [0]
for (const ch of PROSE_CHARS) {
  PROSE_UNITS.push(PROSE_UNITS[PROSE_UNITS.length - 1]! + ch.length)
  PROSE_BYTES.push(PROSE_BYTES[PROSE_BYTES.length - 1]! + Buffer.byteLength(ch, 'utf8'))
}

/** `codePoints` (≤ 4,000) code points of review prose, at most `maxBytes` UTF-8 bytes. */
export function prose(codePoints: number, maxBytes = Infinity): string {
  let n = Math.min(codePoints, PROSE_CHARS.length)
  while (n > 0 && PROSE_BYTES[n]! > maxBytes) n--
  return PROSE_TEXT.slice(0, PROSE_UNITS[n])
}

/** UTF-8 size of a built value as compact JSON (no raw tokens here: JSON.stringify). */
function compactSize(value: BuiltObject): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8')
}

export interface MaximalOptions {
  /** `sourceReceiptId` of this generation (every item's `lastSeenReceiptId`). */
  sourceReceiptId: string
  /** Where the 200 findings were first seen (round 1's id); default: this generation. */
  firstSeenReceiptId?: string
  round?: number
  supersedesReceiptId?: string
  headSha?: string
  baseSha?: string
}

/**
 * The maximal container: 200 anchored items (the item bound), bodies and suggestions of
 * up to 4,000 code points (their bound), filled in item order until the compact JSON is
 * within {@link MAXIMAL_MARGIN} bytes of the 256 KiB bound. The bound does not leave room
 * for 200 × 2 × 4,000 code points: the first items carry full-length texts, the rest
 * short ones, which is what a real maximal review looks like.
 */
export function maximalContainer(options: MaximalOptions): BuiltObject {
  const source = options.sourceReceiptId
  const headSha = options.headSha ?? fakeSha(`head:${source}`)
  const baseSha = options.baseSha ?? BASE_SHA
  const severities = ['P0', 'P1', 'P2', 'P3'] as const
  const items = Array.from({ length: 200 }, (_, index) =>
    buildItem({
      ordinal: index + 1,
      sourceReceiptId: source,
      firstSeenReceiptId: options.firstSeenReceiptId ?? source,
      anchor: { headSha, baseSha },
      with: {
        severity: severities[index % 4]!,
        confidence: [100, 75, 50, 25][index % 4]!,
        title: `Bounds check ${index + 1}: ${prose(60)}`,
        body: prose(120),
        suggestion: prose(80),
        rIds: [`R${(index % 9) + 1}`, `R${(index % 7) + 10}`]
      }
    })
  )
  const container = buildContainer({
    sourceReceiptId: source,
    round: options.round ?? 1,
    supersedesReceiptId: options.supersedesReceiptId,
    headSha,
    baseSha,
    items
  })
  const target = CONTAINER_BYTES - MAXIMAL_MARGIN
  let bytes = compactSize(container)
  for (const item of items) {
    for (const key of ['body', 'suggestion'] as const) {
      const room = target - bytes
      if (room <= 0) break
      const current = item[key] as string
      const grown = prose(4000, Buffer.byteLength(current, 'utf8') + room)
      if (grown.length <= current.length) continue
      item[key] = grown
      bytes += Buffer.byteLength(grown, 'utf8') - Buffer.byteLength(current, 'utf8')
    }
  }
  const final = compactSize(container)
  if (final > CONTAINER_BYTES || final < target - 8)
    throw new Error(`maximalContainer: ${final} bytes, wanted about ${target}`)
  return container
}

/** A receipt around a container (impl_review by codex, as flowctl writes it: sorted keys). */
export function receiptAround(
  container: BuiltObject,
  id = 'fn-9-bench.1',
  verdict = 'NEEDS_WORK'
): BuiltObject {
  return sortKeys(buildReceipt({ id, verdict, findings: container }))
}

function sortKeys(value: BuiltObject): BuiltObject {
  const out: BuiltObject = {}
  for (const key of Object.keys(value).sort()) out[key] = value[key]!
  return out
}

/** UTF-8 bytes of a built value (pretty JSON, as flowctl writes receipts). */
export function bytesOf(value: BuiltObject, indent = 2): Uint8Array {
  // `jsonText` writes what JSON.stringify writes when there is no raw token: the fast one.
  return Buffer.from(`${JSON.stringify(value, null, indent)}\n`, 'utf8')
}

/** History file name of a generation: sha256(sourceReceiptId).json. */
export function historyName(sourceReceiptId: string): string {
  return `${createHash('sha256').update(sourceReceiptId, 'utf8').digest('hex')}.json`
}

export interface Chain {
  /** Receipt bytes of every generation, oldest first (the last is the latest pointer). */
  generations: { name: string; bytes: Uint8Array; sourceReceiptId: string }[]
  /** The head the tip reviewed. */
  tipHead: string
  totalBytes: number
}

/** A chain of `length` maximal generations: round k supersedes round k−1, every item kept. */
export function maximalChain(length = 50): Chain {
  const root = 'review-fn-9-bench.1-round-1'
  const generations: Chain['generations'] = []
  let previous: string | undefined
  let tipHead = ''
  for (let round = 1; round <= length; round++) {
    const source = round === 1 ? root : `review-fn-9-bench.1-round-${round}`
    tipHead = fakeSha(`head:${source}`)
    const container = maximalContainer({
      sourceReceiptId: source,
      firstSeenReceiptId: root,
      round,
      supersedesReceiptId: previous,
      headSha: tipHead
    })
    generations.push({
      name: historyName(source),
      bytes: bytesOf(receiptAround(container)),
      sourceReceiptId: source
    })
    previous = source
  }
  return {
    generations,
    tipHead,
    totalBytes: generations.reduce((sum, g) => sum + g.bytes.length, 0)
  }
}

/** `count` small receipts (one anchored finding each), as `[path, bytes]`. */
export function smallReceipts(count = 1000): { path: string; bytes: Uint8Array }[] {
  return Array.from({ length: count }, (_, index) => {
    const id = `fn-${index + 1}-small.1`
    const source = `review-${id}`
    const container = buildContainer({ sourceReceiptId: source, items: 1 })
    return {
      path: `.flow/review-receipts/impl-${id}.json`,
      bytes: bytesOf(receiptAround(container, id, 'SHIP'))
    }
  })
}

export interface PrShape {
  /** Receipts in the PR (each an impl_review of its own task). */
  receipts: number
  /** Anchored findings over all receipts (spread evenly), all open at the tip. */
  findings: number
  /** Generations per receipt: the latest pointer plus `generations − 1` history files. */
  generations: number
  /** `.flow/`-only commits after the last review was recorded. */
  bookkeepingAfter: number
  /**
   * Source modules the PR's code commits change (receipt k's findings sit in module
   * k mod `modules`); default one per receipt.
   */
  modules?: number
}

export const PR_10: PrShape = {
  receipts: 10,
  findings: 200,
  generations: 3,
  bookkeepingAfter: 2
}
export const PR_500: PrShape = {
  receipts: 500,
  findings: 1000,
  generations: 3,
  bookkeepingAfter: 2
}

export interface BenchPr {
  repo: GitRepo
  shape: PrShape
  base: string
  /** The code commit every receipt's last round reviewed. */
  reviewed: string
  head: string
  branch: string
  body: string
  /** Receipt and history files at the head. */
  receiptFiles: number
  receiptBytes: number
}

export const BENCH_BRANCH = 'feature/fn-9-bench'
const RECEIPTS_DIR = '.flow/review-receipts'
const SEVERITIES = ['P0', 'P1', 'P2', 'P3'] as const

/**
 * Commits written with `git fast-import`: no work tree, no loose objects (a pack per
 * {@link flush}, as after a fetch), and seconds faster than `add` + `commit` for 500
 * receipts on a small VM. Dates are fixed, so shas are reproducible.
 */
class Importer {
  private parts: string[] = []
  private clock = Date.UTC(2024, 0, 1) / 1000
  /** Ref tips written by earlier flushes: a new fast-import starts from them explicitly. */
  private readonly tips = new Map<string, string>()
  private readonly touched = new Set<string>()

  constructor(private readonly repo: GitRepo) {}

  commit(
    ref: string,
    message: string,
    files: Record<string, string>,
    from?: string
  ): void {
    const who = `${GIT_NAME} <${GIT_EMAIL}> ${(this.clock += 60)} +0000`
    const data = (text: string) => `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`
    this.parts.push(`commit ${ref}\nauthor ${who}\ncommitter ${who}\n${data(message)}`)
    const parent = from ?? (this.touched.has(ref) ? undefined : this.tips.get(ref))
    if (parent) this.parts.push(`from ${parent}\n`)
    this.touched.add(ref)
    for (const [path, text] of Object.entries(files))
      this.parts.push(`M 100644 inline ${path}\n${data(text)}`)
    this.parts.push('\n')
  }

  /** Writes the commits so far; returns the sha of `ref`. */
  flush(ref: string): string {
    execFileSync('git', ['fast-import', '--quiet', '--done'], {
      cwd: this.repo.path,
      env: gitEnv(),
      input: `${this.parts.join('')}done\n`,
      maxBuffer: 64 * 1024 * 1024
    })
    this.parts = []
    for (const touched of this.touched)
      this.tips.set(touched, this.repo.git('rev-parse', touched))
    this.touched.clear()
    return this.tips.get(ref) ?? this.repo.git('rev-parse', ref)
  }
}

/**
 * A pull request as a Flow-Next team commits it: per round, one code commit changing
 * the tasks' modules, then one `.flow/` commit recording that round's review of every
 * task (the former latest receipt moved into `<receipt>.history/`); after the last round,
 * `bookkeepingAfter` task-status commits. Each round carries forward every finding of
 * the previous one (status `not_fixed`) and adds new ones (`open`), so the last round
 * holds `findings / receipts` anchored findings per receipt. Verdicts: NEEDS_WORK, then
 * SHIP at the last round; every receipt is current at the head. HEAD is the PR branch
 * (the work tree is not checked out: the gate reads commits, never files).
 */
export function buildBenchPr(shape: PrShape): BenchPr {
  const repo = GitRepo.init({ prefix: 'rg-bench-' })
  const importer = new Importer(repo)
  const branch = `refs/heads/${BENCH_BRANCH}`
  const modules = Array.from(
    { length: shape.modules ?? shape.receipts },
    (_, k) => `src/mod-${k + 1}.ts`
  )
  const moduleText = (k: number, round: number) =>
    Array.from(
      { length: 200 },
      (_, line) => `export const v${line} = ${line * (round + 1) + k} // ${modules[k]}`
    ).join('\n') + '\n'
  const code = (round: number) =>
    Object.fromEntries(modules.map((m, k) => [m, moduleText(k, round)]))
  importer.commit('refs/heads/main', 'initial import', {
    ...code(0),
    'README.md': '# bench\n'
  })
  const base = importer.flush('refs/heads/main')

  const perReceipt = Math.floor(shape.findings / shape.receipts)
  const extra = shape.findings - perReceipt * shape.receipts
  // Findings each round adds: round 1 most, later rounds the rest.
  const introducedAt = (total: number, round: number): number => {
    if (shape.generations === 1) return total
    const later = Math.floor(total / (2 * (shape.generations - 1)))
    return round === 1 ? total - later * (shape.generations - 1) : later
  }
  let reviewed = base
  const latest = new Map<number, { source: string; text: string }>()
  for (let round = 1; round <= shape.generations; round++) {
    importer.commit(
      branch,
      `fn-9-bench: round ${round} changes`,
      code(round),
      round === 1 ? base : undefined
    )
    reviewed = importer.flush(branch)
    const files: Record<string, string> = {}
    for (let k = 0; k < shape.receipts; k++) {
      const id = `fn-9-bench.${k + 1}`
      const path = `${RECEIPTS_DIR}/impl-${id}.json`
      const total = perReceipt + (k < extra ? 1 : 0)
      let count = 0
      for (let r = 1; r <= round; r++) count += introducedAt(total, r)
      const source = `review-${id}-round-${round}`
      const items = Array.from({ length: count }, (_, i) => {
        let firstRound = 1
        let seen = introducedAt(total, 1)
        while (i >= seen) seen += introducedAt(total, ++firstRound)
        const line = 1 + ((i * 7) % 190)
        return buildItem({
          ordinal: i + 1,
          sourceReceiptId: source,
          firstSeenReceiptId: `review-${id}-round-${firstRound}`,
          anchor: { headSha: reviewed, baseSha: base },
          with: {
            severity: SEVERITIES[i % 4]!,
            confidence: [100, 75, 50, 25][i % 4]!,
            classification: i % 5 === 4 ? 'pre_existing' : 'introduced',
            status: firstRound === round ? 'open' : 'not_fixed',
            title: `Finding ${i + 1} of ${id}: unchecked length before slicing`,
            body: prose(400 + ((i * 37) % 300)),
            suggestion: prose(150),
            rIds: [`R${(i % 5) + 1}`],
            anchor: {
              path: modules[k % modules.length]!,
              side: 'head',
              startLine: line,
              endLine: line + (i % 3),
              baseSha: base,
              headSha: reviewed
            }
          }
        })
      })
      const container = buildContainer({
        sourceReceiptId: source,
        round,
        supersedesReceiptId: round > 1 ? `review-${id}-round-${round - 1}` : undefined,
        headSha: reviewed,
        baseSha: base,
        items
      })
      const verdict = round === shape.generations ? 'SHIP' : 'NEEDS_WORK'
      const text = `${JSON.stringify(receiptAround(container, id, verdict), null, 2)}\n`
      const before = latest.get(k)
      if (before) files[`${path}.history/${historyName(before.source)}`] = before.text
      files[path] = text
      latest.set(k, { source, text })
    }
    importer.commit(branch, `chore(flow): record round ${round} reviews`, files)
  }
  for (let i = 1; i <= shape.bookkeepingAfter; i++) {
    importer.commit(branch, `chore(flow): task ${i} done`, {
      [`.flow/tasks/fn-9-bench.${i}.json`]: `{"status": "done", "step": ${i}}\n`
    })
  }
  const head = importer.flush(branch)
  repo.git('symbolic-ref', 'HEAD', branch)
  const listing = repo.git('ls-tree', '-r', '-l', 'HEAD', '--', `${RECEIPTS_DIR}/`)
  let receiptFiles = 0
  let receiptBytes = 0
  for (const line of listing.split('\n').filter(Boolean)) {
    receiptFiles++
    receiptBytes += Number(line.split(/\s+/)[3])
  }
  return {
    repo,
    shape,
    base,
    reviewed,
    head,
    branch: BENCH_BRANCH,
    body: '## Summary\n\nBenchmark pull request.\n',
    receiptFiles,
    receiptBytes
  }
}

/**
 * Issue 28's cost case: 500 receipts that name no reviewed head (the history rule decides
 * each), committed together in one `.flow/`-only commit with 30,000 other `.flow` files,
 * after one code commit. Every receipt is current (inferred from history).
 */
export function buildHistoryPr(receipts = 500, flowFiles = 30_000): BenchPr {
  const repo = GitRepo.init({ prefix: 'rg-bench-history-' })
  const importer = new Importer(repo)
  const branch = `refs/heads/${BENCH_BRANCH}`
  importer.commit('refs/heads/main', 'initial import', {
    'src/app.ts': 'export const a = 1\n'
  })
  const base = importer.flush('refs/heads/main')
  importer.commit(branch, 'fn-1: change', { 'src/app.ts': 'export const a = 2\n' }, base)
  const reviewed = importer.flush(branch)
  const files: Record<string, string> = {}
  let receiptBytes = 0
  for (let k = 1; k <= receipts; k++) {
    const text = `${JSON.stringify({ type: 'impl_review', id: `fn-1.${k}`, mode: 'codex', verdict: 'SHIP', review: 'ok' })}\n`
    files[`${RECEIPTS_DIR}/impl-fn-1.${k}.json`] = text
    receiptBytes += Buffer.byteLength(text)
  }
  for (let k = 0; k < flowFiles; k++)
    files[`.flow/tasks/d${Math.floor(k / 1000)}/t${k}.json`] = `{"n":${k}}\n`
  importer.commit(branch, 'chore(flow): record 500 reviews', files)
  const head = importer.flush(branch)
  repo.git('symbolic-ref', 'HEAD', branch)
  return {
    repo,
    shape: { receipts, findings: 0, generations: 1, bookkeepingAfter: 0 },
    base,
    reviewed,
    head,
    branch: BENCH_BRANCH,
    body: '## Summary\n',
    receiptFiles: receipts,
    receiptBytes
  }
}

/**
 * Issue 13's size case: a PR that adds three 50 MB source files (a million lines each),
 * then records one unbound receipt in a `.flow/`-only commit (current, from history).
 * What it measures is the git source's read of the PR's diff.
 */
export function buildBigDiffPr(files = 3, bytes = 50 * 1024 * 1024): BenchPr {
  const repo = GitRepo.init({ prefix: 'rg-bench-diff-' })
  const importer = new Importer(repo)
  const branch = `refs/heads/${BENCH_BRANCH}`
  importer.commit('refs/heads/main', 'initial import', { 'README.md': '# bench\n' })
  const base = importer.flush('refs/heads/main')
  const big: Record<string, string> = {}
  for (let k = 1; k <= files; k++) {
    const line = `export const value${k} = '${'x'.repeat(28)}' // generated\n`
    big[`src/generated-${k}.ts`] = line.repeat(Math.ceil(bytes / line.length))
  }
  importer.commit(branch, 'fn-1: generated tables', big, base)
  const reviewed = importer.flush(branch)
  const receipt = `${JSON.stringify({ type: 'impl_review', id: 'fn-1.1', mode: 'codex', verdict: 'SHIP', review: 'ok' })}\n`
  importer.commit(branch, 'chore(flow): record the review', {
    [`${RECEIPTS_DIR}/impl-fn-1.1.json`]: receipt
  })
  const head = importer.flush(branch)
  repo.git('symbolic-ref', 'HEAD', branch)
  return {
    repo,
    shape: { receipts: 1, findings: 0, generations: 1, bookkeepingAfter: 0 },
    base,
    reviewed,
    head,
    branch: BENCH_BRANCH,
    body: '## Summary\n',
    receiptFiles: 1,
    receiptBytes: Buffer.byteLength(receipt)
  }
}

/**
 * {@link buildBenchPr} built once under `cacheDir` (a large shape takes a while) and
 * lent to each bench run as a fresh repository borrowing the cached objects (git's
 * alternates): nothing is copied, and the run may not change the cache.
 */
export function cachedBenchPr(shape: PrShape, cacheDir: string): BenchPr {
  const dir = join(
    cacheDir,
    `pr-${shape.receipts}x${shape.generations}-${shape.findings}-${shape.bookkeepingAfter}-${shape.modules ?? shape.receipts}`
  )
  const metaFile = join(dir, 'bench-pr.json')
  if (!existsSync(metaFile)) {
    const built = buildBenchPr(shape)
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(cacheDir, { recursive: true })
    renameOrCopy(built.repo.path, dir)
    writeFileSync(metaFile, JSON.stringify({ ...built, repo: undefined }))
  }
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as Omit<BenchPr, 'repo'>
  const repo = GitRepo.init({ prefix: 'rg-bench-cached-' })
  writeFileSync(
    join(repo.path, '.git', 'objects', 'info', 'alternates'),
    `${join(dir, '.git', 'objects')}\n`
  )
  repo.git('update-ref', `refs/heads/main`, meta.base)
  repo.git('update-ref', `refs/heads/${meta.branch}`, meta.head)
  repo.git('symbolic-ref', 'HEAD', `refs/heads/${meta.branch}`)
  return { ...meta, repo }
}

function renameOrCopy(from: string, to: string): void {
  try {
    renameSync(from, to)
  } catch {
    cpSync(from, to, { recursive: true })
    rmSync(from, { recursive: true, force: true })
  }
}
