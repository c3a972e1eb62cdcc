/** The real bundled `dist/cli.js`, run as a user runs it, on the demo repository and the corpus. */
import { afterAll, describe, expect, it } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// @ts-expect-error: a plain ES module script shared with `npm run demo`
import { buildDemoRepo } from '../../scripts/demo-repo.mjs'
import { CORPUS, FIXTURES } from '../support/corpus.js'
import { gitCommands } from '../support/git-trace.js'

const CLI = join(FIXTURES, '..', '..', 'dist', 'cli.js')
const demo = buildDemoRepo() as { root: string; bodyFile: string; head: string }
// The compile cache of these runs: a folder of their own, not the user's.
const CACHE = mkdtempSync(join(tmpdir(), 'rg-cli-cache-'))
afterAll(() => {
  rmSync(demo.root, { recursive: true, force: true })
  rmSync(demo.bodyFile, { force: true })
  rmSync(CACHE, { recursive: true, force: true })
})

function cli(...args: string[]) {
  return cliWith({ RECEIPT_GATE_CACHE_DIR: CACHE }, ...args)
}

function cliWith(env: NodeJS.ProcessEnv, ...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    // Jest's NODE_OPTIONS are not a user's: the CLI's cache is keyed by node's flags.
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '', NODE_OPTIONS: '', ...env }
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('dist/cli.js', () => {
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
    const processes = (base: string) => {
      const trace = join(CACHE, `trace-${base}.log`)
      const run = cliWith(
        { RECEIPT_GATE_CACHE_DIR: CACHE, GIT_TRACE2: trace },
        ...check.slice(0, 3),
        '--base',
        base,
        '--format',
        'json'
      )
      return { run, started: gitCommands(readFileSync(trace, 'utf8')) }
    }
    const onMain = processes('main')
    const onMoved = processes('moved-base')
    // Which processes run is the source's business; both bases ask git for the merge base.
    expect(onMoved.started).toContain('merge-base')
    expect(onMoved.run).toEqual(onMain.run)
    expect(onMain.run.code).toBe(0)
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
    const env = { ...process.env, RECEIPT_GATE_CACHE_DIR: CACHE }
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

  describe('compile cache (src/cli/compile-cache.ts)', () => {
    const fresh = () => mkdtempSync(join(tmpdir(), 'rg-cli-cache-'))
    const only = (dir: string, kind = 'check') => {
      const files = readdirSync(dir)
      expect(files).toEqual([
        expect.stringMatching(new RegExp(`^cli-[0-9a-f]{32}-${kind}-v8-.+\\.bin$`))
      ])
      return join(dir, files[0] as string)
    }
    const stamp = (file: string) => {
      const { ino, mtimeMs, size } = statSync(file)
      return { ino, mtimeMs, size }
    }
    const expected = cliWith({ NODE_DISABLE_COMPILE_CACHE: '1' }, ...check)

    it('the first run writes the code, the next runs use it, with the same outcome', () => {
      expect(expected.code).toBe(0)
      const dir = fresh()
      try {
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)).toEqual(expected)
        const file = only(dir)
        const written = stamp(file)
        expect(written.size).toBeGreaterThan(10_000)
        // V8 took it: a refused cache would have been written again.
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)).toEqual(expected)
        expect(stamp(file)).toEqual(written)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('each command has a cache of its own: --version first does not stand in for check', () => {
      // A cache holds what the run that wrote it compiled; V8 would take --version's
      // for check, which would then compile the rest again on every run.
      const dir = fresh()
      try {
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, '--version').code).toBe(0)
        const version = only(dir, 'other')
        const small = stamp(version)
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)).toEqual(expected)
        const files = readdirSync(dir).sort()
        expect(files).toHaveLength(2)
        const checkFile = join(
          dir,
          files.find((name) => name.includes('-check-'))!
        )
        expect(stamp(checkFile).size).toBeGreaterThan(small.size)
        // Both kept: a new command's first write leaves this build's other caches alone.
        expect(stamp(version)).toEqual(small)
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, '--version').code).toBe(0)
        expect(stamp(version)).toEqual(small)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('runs under other node flags keep a cache of their own: neither throws the other away', () => {
      // V8 refuses code cached under other flags; with one file for both, each run of a
      // shell that sets NODE_OPTIONS would rewrite the cache the others use, and back.
      const dir = fresh()
      const flagged = {
        RECEIPT_GATE_CACHE_DIR: dir,
        NODE_OPTIONS: '--max-old-space-size=4096'
      }
      try {
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)).toEqual(expected)
        const plain = only(dir)
        const plainStamp = stamp(plain)
        expect(cliWith(flagged, ...check)).toEqual(expected)
        const other = readdirSync(dir).filter((name) => join(dir, name) !== plain)
        expect(other).toEqual([
          expect.stringMatching(/^cli-[0-9a-f]{32}-check-flags-[0-9a-f]{8}-v8-.+\.bin$/)
        ])
        const otherStamp = stamp(join(dir, other[0] as string))
        expect(stamp(plain)).toEqual(plainStamp)
        // Each taken by V8 on the next run under its flags: neither written again.
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)).toEqual(expected)
        expect(cliWith(flagged, ...check)).toEqual(expected)
        expect(stamp(plain)).toEqual(plainStamp)
        expect(stamp(join(dir, other[0] as string))).toEqual(otherStamp)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('a damaged cache changes nothing but is replaced', () => {
      const dir = fresh()
      try {
        cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)
        const file = only(dir)
        const good = readFileSync(file)
        for (const damage of [good.subarray(0, 1000), Buffer.alloc(good.length, 7)]) {
          writeFileSync(file, damage)
          expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)).toEqual(expected)
          expect(only(dir)).toBe(file)
          expect(readFileSync(file).equals(damage)).toBe(false)
          expect(statSync(file).size).toBeGreaterThan(10_000)
          const replaced = stamp(file)
          cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)
          expect(stamp(file)).toEqual(replaced)
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it("a new build's first run drops cache files of builds not written for 30 days", () => {
      const dir = fresh()
      try {
        const v8 = `v8-${process.versions.v8}-${process.arch}.bin`
        // Another build's caches (one named as before caches per command), old and recent.
        const stale = `cli-${'0'.repeat(32)}-${v8}`
        const staleCheck = `cli-${'2'.repeat(32)}-check-${v8}`
        const staleFlagged = `cli-${'3'.repeat(32)}-check-flags-0123abcd-${v8}`
        const recent = `cli-${'1'.repeat(32)}-check-${v8}`
        for (const name of [stale, staleCheck, staleFlagged, recent, 'notes.txt'])
          writeFileSync(join(dir, name), 'x')
        const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000)
        for (const name of [stale, staleCheck, staleFlagged, 'notes.txt'])
          utimesSync(join(dir, name), old, old)
        // This build's check cache, as old: still in use, kept.
        cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, ...check)
        const ours = readdirSync(dir).find(
          (name) => name.includes('-check-') && ![staleCheck, recent].includes(name)
        )!
        utimesSync(join(dir, ours), old, old)
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: dir }, '--version').code).toBe(0)
        const left = readdirSync(dir)
        expect(left).toHaveLength(4)
        expect(left).toEqual(expect.arrayContaining([recent, ours, 'notes.txt']))
        expect(left).not.toContain(stale)
        expect(left).not.toContain(staleCheck)
        expect(left).not.toContain(staleFlagged)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('no cache where none can be written, none when turned off: the same outcome', () => {
      const dir = fresh()
      try {
        const notAFolder = join(dir, 'file')
        writeFileSync(notAFolder, '')
        expect(cliWith({ RECEIPT_GATE_CACHE_DIR: notAFolder }, ...check)).toEqual(
          expected
        )
        expect(readdirSync(dir)).toEqual(['file'])
        for (const off of [
          { RECEIPT_GATE_CACHE_DIR: dir, NODE_DISABLE_COMPILE_CACHE: '1' },
          { RECEIPT_GATE_CACHE_DIR: '' }
        ]) {
          expect(cliWith(off, ...check)).toEqual(expected)
          expect(readdirSync(dir)).toEqual(['file'])
        }
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
})
