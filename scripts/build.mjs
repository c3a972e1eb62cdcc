// Bundles each entry with ncc into its own folder, then moves it into place:
// ncc always names its output index.js, and dist/ holds the entries side by side.
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'

const ENTRIES = [
  // The action: one bundle.
  { src: 'src/index.ts', out: 'index.js' },
  // zod and the receipt schemas, which dist/index.js requires only when a receipt is not
  // plainly valid (src/receipts/schema-source.ts).
  { src: 'src/receipts/schema.ts', out: 'schemas.js' },
  { src: 'src/cli.ts', out: 'cli.js' },
  // The CLI proper, run by dist/cli.js through V8's code cache (src/cli/compile-cache.ts).
  { src: 'src/cli/entry.ts', out: 'cli-body.js', script: true }
].filter((entry) => existsSync(entry.src))

/**
 * ncc's ES module output as the classic script `vm.Script` compiles (it has no code cache
 * for modules on Node 20): one `async function (createRequire, url)`. The module's only
 * import is `createRequire` (node built-ins are required through it), `import.meta.url`
 * becomes the `url` argument and its top-level await stays inside the async function.
 * Anything else module-only would be a syntax error in a script: refused here, and the
 * bundle tests run the result.
 */
function asScript(code) {
  const body = code.replace(/^#!.*\n/, '')
  const preamble = /^import\{createRequire as ([\w$]+)\}from"module";/.exec(body)
  if (!preamble)
    throw new Error('cli body: ncc output does not start with its createRequire import')
  const rest = body.slice(preamble[0].length).replaceAll('import.meta.url', '__rg_url')
  if (/\bimport\s*[({*]|\bimport\.meta\b|\bexport\s*[{*]/.test(rest))
    throw new Error('cli body: module syntax left that a classic script cannot hold')
  const script = `(async function (${preamble[1]}, __rg_url) {"use strict";${rest}\n})\n`
  const hash = createHash('sha256').update(script).digest('hex')
  return `/*! receipt-gate cli body sha256:${hash} */\n${script}`
}

const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
rmSync('dist', { recursive: true, force: true })
mkdirSync('dist')
const licenses = []
for (const entry of ENTRIES) {
  const tmp = join('build', 'ncc', entry.out)
  rmSync(tmp, { recursive: true, force: true })
  execFileSync(
    process.execPath,
    [
      ncc,
      'build',
      entry.src,
      '-o',
      tmp,
      '--minify',
      '--license',
      'licenses.txt',
      '--quiet'
    ],
    {
      stdio: 'inherit'
    }
  )
  const code = readFileSync(join(tmp, 'index.js'), 'utf8')
  writeFileSync(join('dist', entry.out), entry.script ? asScript(code) : code)
  // ncc's mode kept (dist/cli.js, with its #!, is executable).
  chmodSync(join('dist', entry.out), statSync(join(tmp, 'index.js')).mode)
  rmSync(join(tmp, 'index.js'))
  if (existsSync(join(tmp, 'licenses.txt')))
    licenses.push(readFileSync(join(tmp, 'licenses.txt'), 'utf8'))
  for (const extra of readdirSync(tmp)) {
    if (extra !== 'licenses.txt' && extra !== 'package.json') {
      throw new Error(`ncc emitted an unexpected file for ${entry.src}: ${extra}`)
    }
  }
}
// One licenses file for all bundles: each package's block (name, license id, text)
// once, in the order first seen.
const blocks = new Set(
  licenses.flatMap((text) =>
    text
      .trim()
      .split(/\n\n(?=(?:@[\w.-]+\/)?[\w.-]+\n[^\n]{1,60}\n)/)
      // ncc leaves a blank line more after some texts: the same block must compare equal.
      .map((block) => block.trim())
  )
)
writeFileSync(join('dist', 'licenses.txt'), `${[...blocks].join('\n\n')}\n`)
// Node must read dist/*.js as ES modules.
writeFileSync(join('dist', 'package.json'), '{\n  "type": "module"\n}\n')
