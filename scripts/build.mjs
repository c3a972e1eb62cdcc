// Bundles each entry with ncc into its own folder, then moves it into place:
// ncc always names its output index.js, and dist/ holds both entries side by side.
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'

const ENTRIES = [
  { src: 'src/index.ts', out: 'index.js' },
  { src: 'src/cli.ts', out: 'cli.js' }
].filter((entry) => existsSync(entry.src))

const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
rmSync('dist', { recursive: true, force: true })
mkdirSync('dist')
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
  renameSync(join(tmp, 'index.js'), join('dist', entry.out))
  // One licenses file is enough: the action's bundle is a superset of the CLI's deps.
  if (!existsSync(join('dist', 'licenses.txt')))
    cpSync(join(tmp, 'licenses.txt'), join('dist', 'licenses.txt'))
  for (const extra of readdirSync(tmp)) {
    if (extra !== 'licenses.txt' && extra !== 'package.json') {
      throw new Error(`ncc emitted an unexpected file for ${entry.src}: ${extra}`)
    }
  }
}
// Node must read dist/*.js as ES modules.
writeFileSync(join('dist', 'package.json'), '{\n  "type": "module"\n}\n')
