// Bundles each entry with ncc into its own folder, then moves it into place:
// ncc always names its output index.js, and dist/ holds the entries side by side.
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'

// The action is three bundles (issue 7: load what a run needs, when it needs it):
// dist/index.js, the light entry that answers an event with nothing to gate;
// dist/main.js, the action proper, which the entry imports when there is something to
// gate; dist/octokit.js, `@actions/github`, which the REST client imports only when a
// proxy is configured. Each is imported with `webpackIgnore`, so ncc leaves them apart.
const ENTRIES = [
  { src: 'src/main.ts', out: 'main.js' },
  { src: 'src/index.ts', out: 'index.js' },
  { src: 'src/github/octokit.ts', out: 'octokit.js' },
  { src: 'src/cli.ts', out: 'cli.js' }
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
  renameSync(join(tmp, 'index.js'), join('dist', entry.out))
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
    text.trim().split(/\n\n(?=(?:@[\w.-]+\/)?[\w.-]+\n[^\n]{1,60}\n)/)
  )
)
writeFileSync(join('dist', 'licenses.txt'), `${[...blocks].join('\n\n')}\n`)
// Node must read dist/*.js as ES modules.
writeFileSync(join('dist', 'package.json'), '{\n  "type": "module"\n}\n')
