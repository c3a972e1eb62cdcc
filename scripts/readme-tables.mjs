// `npm run docs`: writes README.md's Inputs and Outputs tables from action.yml, so the
// two cannot drift (`npm run docs -- --check` fails when README.md is not current;
// __tests__/docs/sync.test.ts checks the same).
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import yaml from 'js-yaml'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** A table cell: one line, pipes escaped. */
const cell = (text) =>
  String(text)
    .trim()
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')

/** A default as README shows it: `''` when empty, else each line as code, comma-separated. */
function defaultCell(value) {
  const lines = String(value ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  return lines.length === 0 ? "`''`" : lines.map((line) => `\`${line}\``).join(', ')
}

/** The Markdown tables of action.yml's inputs and outputs. */
export function tablesOf(actionYml) {
  const action = yaml.load(actionYml)
  const inputs = Object.entries(action.inputs ?? {}).map(
    ([name, input]) =>
      `| \`${name}\` | ${cell(input.description)} | ${defaultCell(input.default)} |`
  )
  const outputs = Object.entries(action.outputs ?? {}).map(
    ([name, output]) => `| \`${name}\` | ${cell(output.description)} |`
  )
  return {
    Inputs: ['| Input | Description | Default |', '|---|---|---|', ...inputs],
    Outputs: ['| Output | Description |', '|---|---|', ...outputs]
  }
}

/** `readme` with the first table under `## Inputs` and `## Outputs` replaced. */
export function readmeWithTables(readme, actionYml) {
  const lines = readme.split('\n')
  for (const [heading, table] of Object.entries(tablesOf(actionYml))) {
    const start = lines.indexOf(`## ${heading}`)
    if (start === -1) throw new Error(`README.md has no "## ${heading}" section`)
    const first = lines.findIndex((line, at) => at > start && line.startsWith('|'))
    const next = lines.findIndex((line, at) => at > start && line.startsWith('## '))
    if (first === -1 || (next !== -1 && first > next))
      throw new Error(`README.md's "## ${heading}" has no table`)
    let end = first
    while (lines[end]?.startsWith('|')) end++
    lines.splice(first, end - first, ...table)
  }
  return lines.join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = join(ROOT, 'README.md')
  const readme = readFileSync(path, 'utf8')
  const current = readmeWithTables(readme, readFileSync(join(ROOT, 'action.yml'), 'utf8'))
  if (current === readme) console.log('README.md: the tables are current')
  else if (process.argv.includes('--check')) {
    console.error(
      'README.md: the Inputs/Outputs tables differ from action.yml: run npm run docs'
    )
    process.exitCode = 1
  } else {
    writeFileSync(path, current)
    console.log('README.md: tables written from action.yml')
  }
}
