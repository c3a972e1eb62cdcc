/** The real bundled `dist/receipt-gate.mjs`, run as a user runs it, on the demo repository and the corpus. */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
// @ts-expect-error: a plain ES module script shared with `npm run demo`
import { buildDemoRepo } from '../../scripts/demo-repo.mjs'
import { CORPUS, FIXTURES } from '../support/corpus.js'
import { GitRepo } from '../support/git-repo.js'

const ROOT = join(FIXTURES, '..', '..')
const CLI = join(ROOT, 'dist', 'receipt-gate.mjs')
const demo = buildDemoRepo() as { root: string; bodyFile: string; head: string }
afterAll(() => {
  rmSync(demo.root, { recursive: true, force: true })
  rmSync(demo.bodyFile, { force: true })
})

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    // Jest's NODE_OPTIONS are not a user's.
    env: { ...process.env, NODE_OPTIONS: '' }
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('dist/receipt-gate.mjs', () => {
  /** `check` on the demo PR, JSON out. */
  const check = ['check', '--repo', demo.root, '--base', 'main', '--format', 'json']
  it('check on the demo PR: success, JSON report as documented', () => {
    const run = cli(
      'check',
      '--repo',
      demo.root,
      '--base',
      'main',
      '--body-file',
      demo.bodyFile,
      '--format',
      'json'
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report).toMatchObject({
      conclusion: 'success',
      head: demo.head,
      verdict: 'SHIP',
      missing: [],
      deferred: { expected: 1, named: 1, unnamed: [] }
    })
    expect(
      report.receipts.map((r: { currentness: string; headSource: string }) => [
        r.currentness,
        r.headSource
      ])
    ).toEqual([
      ['stale', 'history'],
      ['current', 'findings']
    ])
    expect(
      report.annotations.map((a: { annotation_level: string }) => a.annotation_level)
    ).toEqual(['warning', 'notice', 'notice'])
  })
  it('is one file: no chunk beside it to copy when it is vendored', () => {
    // The GitHub client (Octokit, undici: ~130 ms of every start to evaluate) is inside it,
    // evaluated only when an API read needs it (`webpackMode: "eager"` imports).
    const bundles = readdirSync(dirname(CLI)).filter((name) => /\.m?js$/.test(name))
    expect(bundles.sort()).toEqual(['index.js', 'receipt-gate.mjs'])
  })
  it('the npm package: its bin is the one file, which runs alone from the unpacked package', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rg-pack-'))
    try {
      const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', dir], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' }
      })
      expect(packed.status).toBe(0)
      const [info] = JSON.parse(packed.stdout) as Array<{
        filename: string
        files: Array<{ path: string }>
      }>
      expect(info?.files.map((file) => file.path).sort()).toEqual([
        'LICENSE',
        'README.md',
        'dist/licenses.txt',
        'dist/receipt-gate.mjs',
        'package.json',
        'schema/receipt.schema.json'
      ])
      spawnSync('tar', ['-xzf', join(dir, info?.filename ?? ''), '-C', dir])
      const pkg = JSON.parse(
        readFileSync(join(dir, 'package', 'package.json'), 'utf8')
      ) as {
        private?: boolean
        version: string
        bin: Record<string, string>
      }
      expect(pkg.private).toBeUndefined()
      const bin = join(dir, 'package', pkg.bin['receipt-gate'] ?? '')
      const run = spawnSync(process.execPath, [bin, '--version'], {
        cwd: dir,
        encoding: 'utf8'
      })
      expect(run.stdout).toBe(`${pkg.version}\n`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
  it('a base that names nothing: one line and exit 2', () => {
    // Resolved through the object reader: its failure ends the run with the usage-error
    // code and git's words turned into one line, never as an unhandled rejection.
    for (const base of ['nope', 'main~99']) {
      const run = cli('check', '--repo', demo.root, '--base', base)
      expect(run).toEqual({
        code: 2,
        stdout: '',
        stderr: `receipt-gate check: unknown revision ${JSON.stringify(base)}\n`
      })
    }
  })

  it('a base that moved on after the branch: git finds the merge base, the report is the same', () => {
    const who = { NAME: 'Base Dev', EMAIL: 'base@example.com' }
    const git = (...args: string[]) =>
      spawnSync('git', ['-C', demo.root, ...args], {
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: who.NAME,
          GIT_AUTHOR_EMAIL: who.EMAIL,
          GIT_COMMITTER_NAME: who.NAME,
          GIT_COMMITTER_EMAIL: who.EMAIL
        }
      }).stdout.trim()
    const moved = git('commit-tree', 'main^{tree}', '-p', 'main', '-m', 'moved on')
    expect(moved).toMatch(/^[0-9a-f]{40}$/)
    git('branch', '-f', 'moved-base', moved)
    const run = (base: string) =>
      cli(...check.slice(0, 3), '--base', base, '--format', 'json')
    const onMain = run('main')
    const onMoved = run('moved-base')
    // Both count changes from the same merge base (main's commit): the same report.
    expect(onMoved).toEqual(onMain)
    expect(onMain.code).toBe(0)
  })
  it('check prints the text and markdown forms', () => {
    expect(cli('check', '--repo', demo.root, '--base', 'main').stdout).toMatch(
      /^✓ success — SHIP/
    )
    const markdown = cli(
      'check',
      '--repo',
      demo.root,
      '--base',
      'main',
      '--format',
      'markdown'
    ).stdout
    expect(markdown).toContain('### 1. Verdict')
  })
  it('validate accepts committed real receipts and refuses an invalid projection', () => {
    const real = join(
      CORPUS,
      'real',
      'committed',
      'review-receipts',
      'impl-fn-136-structured-review-artifact-schema-in.1.json'
    )
    expect(cli('validate', real)).toMatchObject({ code: 0 })
    const bad = cli(
      'validate',
      '--format',
      'json',
      join(CORPUS, 'generated', 'invalid', 'confidence-float.json')
    )
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout)[0]).toMatchObject({
      readable: true,
      structured: 'invalid',
      structuredReasons: [expect.stringContaining('confidence')]
    })
  })
  it('--version, --help, and usage errors', () => {
    expect(cli('--version').stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
    expect(cli('check', '--help').stdout).toContain('--body-file FILE')
    expect(cli('frobnicate')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command')
    })
  })

  it('a reader that closes the pipe early ends the output quietly; a full disk is one line and exit 2', async () => {
    const env = { ...process.env, NODE_OPTIONS: '' }
    // `… | head -c 0`: the read end is gone before the first write (EPIPE).
    const child = spawn(process.execPath, [CLI, ...check], {
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise((resolve) => child.once('close', resolve))
    expect(stderr).toBe('')
    expect(code).toBe(0) // the gate's exit code: the demo PR passes
    if (existsSync('/dev/full')) {
      const full = openSync('/dev/full', 'w')
      try {
        const run = spawnSync(process.execPath, [CLI, ...check], {
          env,
          stdio: ['ignore', full, 'pipe'],
          encoding: 'utf8'
        })
        expect(run.status).toBe(2)
        expect(run.stderr).toMatch(
          /^receipt-gate: cannot write the output: ENOSPC\b.*\n$/
        )
      } finally {
        closeSync(full)
      }
    }
  })
})

describe("dist/receipt-gate.mjs: the PR's diff in bounded memory", () => {
  it('reads three 20 MB files within a 64 MB heap (held whole, the diff took over 128 MB)', () => {
    const repo = GitRepo.init()
    try {
      repo.write({ 'README.md': '# x\n' }).commit('base')
      repo.branch('feature')
      const line = (n: number) => `export const value${n} = "${'x'.repeat(40)}"\n`
      const big = (n: number) => line(n).repeat(Math.ceil(20e6 / line(n).length))
      repo.write({ 'a.ts': big(1), 'b.ts': big(2), 'c.ts': big(3) }).commit('big files')
      const run = spawnSync(
        process.execPath,
        [
          '--max-old-space-size=64',
          CLI,
          ...['check', '--repo', repo.path],
          '--base',
          'main',
          '--format',
          'json'
        ],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }
      )
      // No receipt: the gate fails (exit 1), but it ran and read the diff.
      expect(run.signal).toBeNull()
      expect(run.status).toBe(1)
      expect(JSON.parse(run.stdout).diff).toMatchObject({ known: true, note: null })
    } finally {
      repo.cleanup()
    }
  })
})
