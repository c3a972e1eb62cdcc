/**
 * ESLint keeps the pure core pure: the project's own `eslint.config.mjs`, run through
 * ESLint's Node API on a copy of the layout with violations planted under the real
 * folder names (`src/gate/`, `src/receipts/`), reports each of them, and nothing in an
 * adapter (where I/O belongs). The config once named folders that did not exist, so
 * `process.env` in `src/gate/` passed lint.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { ESLint } from 'eslint'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { PROJECT_ROOT } from './support/runner.js'

const PLANTED: Record<string, string> = {
  'src/gate/reads-env.ts':
    'export const home = (): string | undefined => process.env.HOME\n',
  'src/gate/imports-adapter.ts':
    "export { git } from '../source/git.js'\nexport { getOctokit } from '@actions/github'\n",
  'src/receipts/reads-file.ts':
    "import { readFileSync } from 'node:fs'\n\nexport const read = (p: string): string => readFileSync(p, 'utf8')\n",
  // An adapter may do all of it.
  'src/source/git.ts':
    "import { readFileSync } from 'node:fs'\n\nexport const git = (): string => readFileSync(process.env.HOME ?? '.', 'utf8')\n"
}

let root: string
let results: Map<string, string[]>

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'rg-lint-'))
  copyFileSync(join(PROJECT_ROOT, 'eslint.config.mjs'), join(root, 'eslint.config.mjs'))
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'))
  writeFileSync(
    join(root, 'tsconfig.test.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        types: ['node'],
        skipLibCheck: true
      },
      include: ['src/**/*.ts']
    })
  )
  for (const [path, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  const linted = await new ESLint({ cwd: root }).lintFiles(['src'])
  results = new Map(
    linted.map((r) => [
      r.filePath.slice(root.length + 1),
      r.messages.map((m) => `${m.ruleId}: ${m.message}`)
    ])
  )
}, 60_000)

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('the purity rule of eslint.config.mjs', () => {
  it('refuses `process` in src/gate/', () => {
    expect(results.get('src/gate/reads-env.ts')).toContain(
      "no-restricted-globals: Unexpected use of 'process'. The core is pure: pass values in."
    )
  })

  it('refuses an adapter and @actions/* in src/gate/', () => {
    const messages = results.get('src/gate/imports-adapter.ts') ?? []
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^no-restricted-imports: '\.\.\/source\/git\.js' .*The core may not import adapters\./
      )
    )
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^no-restricted-imports: '@actions\/github' .*no GitHub here\./
      )
    )
  })

  it('refuses I/O in src/receipts/', () => {
    expect(results.get('src/receipts/reads-file.ts')).toContainEqual(
      expect.stringMatching(/^no-restricted-imports: 'node:fs' .*no I\/O here\./)
    )
  })

  it('leaves the adapters their I/O', () => {
    expect(results.get('src/source/git.ts')).toEqual([])
  })
})
