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
import { join } from 'node:path'

const ENTRIES = [
  // The action: one bundle.
  { src: 'src/index.ts', out: 'index.js' },
  // The CLI: one self-contained file that runs from any folder (vendored into a
  // repository, or from npm); `.mjs`, so no package.json's `type` decides how node reads it.
  { src: 'src/cli.ts', out: 'receipt-gate.mjs' }
].filter((entry) => existsSync(entry.src))

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
  writeFileSync(join('dist', entry.out), code)
  // ncc's mode kept (dist/receipt-gate.mjs, with its #!, is executable).
  chmodSync(join('dist', entry.out), statSync(join(tmp, 'index.js')).mode)
  rmSync(join(tmp, 'index.js'))
  if (existsSync(join(tmp, 'licenses.txt')))
    licenses.push(readFileSync(join(tmp, 'licenses.txt'), 'utf8'))
  for (const extra of readdirSync(tmp)) {
    if (extra === 'licenses.txt' || extra === 'package.json') continue
    // A dynamic import() ncc made a chunk of: each bundle must be one file (the CLI's
    // lazy imports are `webpackMode: "eager"`: in the bundle, evaluated when first used).
    throw new Error(`ncc emitted an unexpected file for ${entry.src}: ${extra}`)
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
// Node must read dist/index.js (the action) as an ES module.
writeFileSync(join('dist', 'package.json'), '{\n  "type": "module"\n}\n')
