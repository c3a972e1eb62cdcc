// `npm run demo`: builds a small example repository in a temp folder and runs the real
// bundled CLI (`dist/cli.js check`) on it, printing the text report.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildDemoRepo } from './demo-repo.mjs'

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js')
const demo = buildDemoRepo()
const format = process.argv[2] ?? 'text'
console.log(`Demo repository: ${demo.root}`)
console.log(
  `PR: ${demo.branch} → main (head ${demo.head.slice(0, 7)}), body: ${demo.bodyFile}\n`
)
const args = [
  cli,
  'check',
  '--repo',
  demo.root,
  '--base',
  'main',
  '--body-file',
  demo.bodyFile,
  '--format',
  format
]
console.log(`$ receipt-gate ${args.slice(1).join(' ')}\n`)
let code = 0
try {
  execFileSync(process.execPath, args, { stdio: 'inherit' })
} catch (error) {
  code = error.status ?? 1
}
if (!process.env.KEEP_DEMO) {
  rmSync(demo.root, { recursive: true, force: true })
  rmSync(demo.bodyFile, { force: true })
}
console.log(`\nexit code ${code} (0 = the gate passes)`)
