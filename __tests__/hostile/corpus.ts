/**
 * The hostile corpus (`__tests__/fixtures/hostile/`): its manifest, and one real git
 * repository that holds every case next to a valid control receipt, so that one run
 * shows both that each hostile receipt gets its expected row and that it leaves the
 * others alone.
 *
 * Layout: `main` (code) → `feature/fn-7` (one code commit, the reviewed head) → one
 * `.flow/`-only commit with the control receipt `impl-fn-7.1.json`, each case under
 * `.flow/review-receipts/<case id>/<name>`, and a hostile deferral file.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GitRepo } from '../support/git-repo.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonText
} from '../support/receipt-builders.js'

export const HOSTILE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'hostile'
)
export const DIR = '.flow/review-receipts'
export const CONTROL = `${DIR}/impl-fn-7.1.json`
export const BRANCH = 'feature/fn-7'
/** Text of the receipt outside the repository that symlinks point at: it must never be read. */
export const OUTSIDE_MARKER = 'OUTSIDE-SENTINEL-never-read'

export interface CaseExpectation {
  currentness: 'current' | 'stale' | 'ambiguous' | 'unreadable'
  structured?: 'valid' | 'absent' | 'invalid'
  verdict?: string
  /** Found in the row's reason (unreadable) or its structured reasons (invalid). */
  reason?: string
}

export interface HostileCase {
  id: string
  title: string
  /** File name inside `<DIR>/<id>/`. */
  name: string
  file?: string
  generate?: { recipe: string; bytes?: number; count?: number; depth?: number }
  /** A symlink target instead of a file (`@OUTSIDE@`: the outside receipt). */
  link?: string
  /** The receipt is a file but one history generation is a symlink to this target. */
  historyLink?: string
  submodule?: boolean
  expect: CaseExpectation
}

export interface Manifest {
  placeholders: { reviewed: string; base: string }
  hostileText: Record<string, string>
  deferralFile: string
  prBody: string
  cases: HostileCase[]
}

export const manifest = JSON.parse(
  readFileSync(join(HOSTILE, 'manifest.json'), 'utf8')
) as Manifest

/** The repository path of a case's receipt. */
export function casePath(c: HostileCase): string {
  return `${DIR}/${c.id}/${c.name}`
}

/** Every byte sequence hostile text can reach an output with: none may survive un-neutralised. */
export const HOSTILE_TEXT = manifest.hostileText

/** Replaces the 40-character placeholders, byte for byte, leaving every other byte alone. */
function fill(bytes: Buffer, reviewed: string, base: string): Buffer {
  let text = bytes.toString('latin1')
  text = text
    .split(manifest.placeholders.reviewed)
    .join(reviewed)
    .split(manifest.placeholders.base)
    .join(base)
  return Buffer.from(text, 'latin1')
}

function validText(reviewed: string, base: string, extra = ''): string {
  const receipt = jsonText(
    buildReceipt({
      id: 'fn-9.1',
      verdict: 'SHIP',
      mode: 'codex',
      findings: buildContainer({
        sourceReceiptId: 'review-generated',
        headSha: reviewed,
        baseSha: base,
        items: [
          buildItem({
            sourceReceiptId: 'review-generated',
            anchor: { headSha: reviewed, baseSha: base }
          })
        ]
      })
    })
  )
  return extra ? receipt.replace(/\n}$/, `,\n  ${extra}\n}`) : receipt
}

/** Builds a `generate` case (too large to commit). */
export function generated(c: HostileCase, reviewed: string, base: string): string {
  const g = c.generate!
  switch (g.recipe) {
    case 'padded-review': {
      const head = validText(reviewed, base, '"review": "')
      return `${head.replace(/\n}$/, '')}${'x'.repeat(g.bytes! - head.length)}"\n}\n`
    }
    case 'items-array':
      return validText(reviewed, base).replace(
        /"items": \[[\s\S]*?\n {4}\]/,
        `"items": [${Array.from({ length: g.count! }, () => '0').join(',')}]`
      )
    case 'envelope-array':
      return validText(
        reviewed,
        base,
        `"unaddressed": [${Array.from({ length: g.count! }, (_, i) => `"R${i}"`).join(',')}]`
      )
    case 'deep-array':
      return `${'['.repeat(g.depth!)}${']'.repeat(g.depth!)}`
    case 'deep-object':
      return validText(
        reviewed,
        base,
        `"nested": ${'{"a":'.repeat(g.depth!)}1${'}'.repeat(g.depth!)}`
      )
    default:
      throw new Error(`unknown recipe ${g.recipe}`)
  }
}

export interface CorpusRepo {
  repo: GitRepo
  base: string
  reviewed: string
  head: string
  /** Folder outside the repository holding the receipt symlinks point at. */
  outside: string
  /** The hostile PR body, written to a file for `--body-file`. */
  bodyFile: string
  body: string
  cleanup(): void
}

/** A valid, current, SHIP control receipt with one anchored P2 finding. */
export function controlReceipt(reviewed: string, base: string): string {
  return jsonText(
    buildReceipt({
      id: 'fn-7.1',
      verdict: 'SHIP',
      findings: buildContainer({
        sourceReceiptId: 'review-control',
        headSha: reviewed,
        baseSha: base,
        items: [
          buildItem({
            sourceReceiptId: 'review-control',
            anchor: { headSha: reviewed, baseSha: base },
            with: { severity: 'P2', title: 'Control finding' }
          })
        ]
      })
    })
  )
}

/** Builds the corpus repository (a few hundred ms). `only` limits the cases. */
export function buildCorpusRepo(
  cases: readonly HostileCase[] = manifest.cases
): CorpusRepo {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'rg-outside-')))
  const outsideReceipt = join(outside, 'impl-fn-7.1.json')
  writeFileSync(
    outsideReceipt,
    JSON.stringify({
      type: 'impl_review',
      id: 'fn-7.1',
      mode: 'codex',
      verdict: 'SHIP',
      review: OUTSIDE_MARKER
    })
  )
  const repo = GitRepo.init()
  repo.write({
    'src/app.ts': `${Array.from({ length: 50 }, (_, i) => `export const v${i} = ${i}`).join('\n')}\n`,
    '.flow/config.json': '{}\n'
  })
  const base = repo.commit('initial')
  repo.branch(BRANCH)
  repo.write({ 'src/app.ts': 'export const changed = true\n' })
  const reviewed = repo.commit('fn-7.1: change')
  const files: Record<string, string | Uint8Array> = {
    [CONTROL]: controlReceipt(reviewed, base),
    [`.flow/review-deferred/${BRANCH.replace('/', '-')}.md`]: readFileSync(
      join(HOSTILE, manifest.deferralFile)
    )
  }
  const target = (link: string): string => (link === '@OUTSIDE@' ? outsideReceipt : link)
  for (const c of cases) {
    const path = casePath(c)
    if (c.file)
      files[path] = fill(readFileSync(join(HOSTILE, 'files', c.file)), reviewed, base)
    else if (c.generate) files[path] = generated(c, reviewed, base)
    if (c.link) repo.symlink(path, target(c.link))
    if (c.historyLink)
      repo.symlink(`${path}.history/${'0'.repeat(64)}.json`, target(c.historyLink))
    if (c.submodule) repo.submodule(path, base)
  }
  repo.write(files)
  const head = repo.commit('chore(flow): record hostile reviews')
  const body = readFileSync(join(HOSTILE, manifest.prBody), 'utf8')
  const bodyFile = join(outside, 'pr-body.md')
  writeFileSync(bodyFile, body)
  return {
    repo,
    base,
    reviewed,
    head,
    outside,
    bodyFile,
    body,
    cleanup: () => {
      repo.cleanup()
      rmSync(outside, { recursive: true, force: true })
    }
  }
}
