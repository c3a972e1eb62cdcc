// Bundles a TypeScript harness entry (test support: the local GitHub API, the runner
// emulation) into build/harness/<name>/index.js with ncc, so plain node scripts (the
// demo, the benchmark) can run it. Returns the bundle's path.
//
// ncc takes 30–40 s here, so a bundle is built once and reused while what it is built
// from is unchanged: its key, a hash of every file it can include (the test support,
// src/, the scripts it imports, the lockfile), is kept beside it.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** What a harness bundle is made of: any change here means a rebuild. */
const SOURCES = [
  '__tests__/support',
  'src',
  'scripts/demo-repo.mjs',
  'scripts/harness.mjs',
  'package-lock.json'
]

function files(path) {
  const abs = join(ROOT, path)
  if (!existsSync(abs)) return []
  try {
    return readdirSync(abs, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .flatMap((entry) => files(join(path, entry.name)))
  } catch {
    return [path]
  }
}

/** The hash of every source file's path and bytes. */
export function harnessKey(name) {
  const hash = createHash('sha256').update(`${name}\0${process.version}\0`)
  for (const file of SOURCES.flatMap(files))
    hash
      .update(`${relative(ROOT, join(ROOT, file))}\0`)
      .update(readFileSync(join(ROOT, file)))
  return hash.digest('hex')
}

/** Builds `__tests__/support/harness/<name>.ts` unless built from the same sources. */
export function buildHarness(name, log = (line) => process.stderr.write(`${line}\n`)) {
  const out = join(ROOT, 'build', 'harness', name)
  const bundle = join(out, 'index.js')
  const keyFile = join(out, 'key')
  const key = harnessKey(name)
  if (existsSync(bundle) && existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key)
    return bundle
  log(
    `Bundling the ${name} harness with ncc (about 30 s, once: reused until its sources change)…`
  )
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const ncc = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
  execFileSync(
    process.execPath,
    [
      ncc,
      'build',
      join(ROOT, '__tests__', 'support', 'harness', `${name}.ts`),
      '-o',
      out,
      '--quiet'
    ],
    { stdio: 'inherit', cwd: ROOT }
  )
  // The fake API reads its OpenAPI subset next to its module; in the bundle, that is here.
  copyFileSync(
    join(ROOT, '__tests__', 'support', 'github-api', 'openapi-operations.json'),
    join(out, 'openapi-operations.json')
  )
  // Written last: a build that stopped half-way has no key and is built again.
  writeFileSync(keyFile, key)
  log(`Bundled: ${relative(ROOT, bundle)}`)
  return bundle
}

export { ROOT }
