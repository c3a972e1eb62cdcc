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
  // The CLI: its bundle and the chunks of its dynamic imports.
  { src: 'src/cli.ts', out: 'cli.js', chunks: true }
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
  // ncc's mode kept (dist/cli.js, with its #!, is executable).
  chmodSync(join('dist', entry.out), statSync(join(tmp, 'index.js')).mode)
  rmSync(join(tmp, 'index.js'))
  if (existsSync(join(tmp, 'licenses.txt')))
    licenses.push(readFileSync(join(tmp, 'licenses.txt'), 'utf8'))
  for (const extra of readdirSync(tmp)) {
    if (extra === 'licenses.txt' || extra === 'package.json') continue
    // A dynamic import() is emitted as a chunk the bundle loads from beside itself (the
    // CLI's GitHub client, for --pr only); the action stays one file.
    const chunk = readFileSync(join(tmp, extra), 'utf8')
    const dest = join('dist', extra)
    if (!entry.chunks || !/^\d+\.index\.js$/.test(extra))
      throw new Error(`ncc emitted an unexpected file for ${entry.src}: ${extra}`)
    if (existsSync(dest) && readFileSync(dest, 'utf8') !== chunk)
      throw new Error(`two different chunks named ${extra}`)
    writeFileSync(dest, chunk)
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
