// Bundles a TypeScript harness entry (test support: the local GitHub API, the runner
// emulation) into build/harness/<name>/index.js with ncc, so plain node scripts (the
// demo, the benchmark) can run it. Returns the bundle's path.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Builds `__tests__/support/harness/<name>.ts`; returns the path of the bundle. */
export function buildHarness(name) {
  const out = join(ROOT, 'build', 'harness', name)
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
  return join(out, 'index.js')
}

export { ROOT }
