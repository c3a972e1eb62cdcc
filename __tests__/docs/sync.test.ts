/**
 * action.yml, README.md and the code say the same thing: every input and output is in
 * all three (README's `## Inputs` / `## Outputs` tables, `INPUT_NAMES`, the `Outputs`
 * keys), in the same order, described, with one default everywhere (action.yml,
 * README, and the parser when an input is not set).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { INPUT_NAMES, readInputs } from '../../src/action/inputs.js'
import { emptyOutputs } from '../../src/action/outputs.js'
import { parseList } from '../../src/gate/options.js'
import { mapOf, readYamlMap, textOf } from '../support/yaml.js'
// @ts-expect-error: a plain ES module script, `npm run docs`
import { readmeWithTables } from '../../scripts/readme-tables.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const action = readYamlMap(join(ROOT, 'action.yml'))
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')

const inputs = mapOf(action.inputs)
const outputs = mapOf(action.outputs)

/** Splits a Markdown table row into trimmed cells (`|` inside code spans or escaped stays). */
function cellsOf(row: string): string[] {
  const cells: string[] = []
  let cell = ''
  let inCode = false
  const body = row.trim().replace(/^\|/, '').replace(/\|$/, '')
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!
    if (ch === '\\' && body[i + 1] === '|') {
      cell += '|'
      i++
    } else if (ch === '`') {
      inCode = !inCode
      cell += ch
    } else if (ch === '|' && !inCode) {
      cells.push(cell.trim())
      cell = ''
    } else cell += ch
  }
  cells.push(cell.trim())
  return cells
}

/** The rows of the first table under `## heading`, which must have `header`. */
function tableUnder(heading: string, header: string): string[][] {
  const lines = readme.split('\n')
  const start = lines.indexOf(`## ${heading}`)
  if (start === -1) throw new Error(`README.md has no "## ${heading}" section`)
  let at = start + 1
  while (at < lines.length && !lines[at]!.startsWith('|')) {
    if (lines[at]!.startsWith('## ')) throw new Error(`"## ${heading}" has no table`)
    at++
  }
  expect(lines[at]).toBe(header)
  expect(lines[at + 1]).toMatch(/^\|(\s*:?-+:?\s*\|)+$/)
  const rows: string[][] = []
  for (at += 2; lines[at]?.startsWith('|'); at++) rows.push(cellsOf(lines[at]!))
  return rows
}

/** `name` from a first cell written as `` `name` ``. */
function nameOf(cell: string | undefined): string {
  const match = /^`([^`]+)`$/.exec(cell ?? '')
  if (!match) throw new Error(`a README table row starts with ${cell}, not \`name\``)
  return match[1]!
}

/** A README default cell as a list: `''` is empty, otherwise one item per code span. */
function readmeDefault(cell: string): string[] {
  if (cell === "''" || cell === "`''`") return []
  const spans = [...cell.matchAll(/`([^`]*)`/g)].map((match) => match[1]!)
  if (spans.length === 0 || cell.replace(/`[^`]*`/g, '').replace(/[,\s]/g, '') !== '') {
    throw new Error(`README default ${cell} is not comma-separated code (or '')`)
  }
  return spans
}

/** An action.yml default as a list (list inputs hold one item per line). */
function actionDefault(name: string): string[] {
  const value = mapOf(inputs[name]).default
  return parseList(textOf(value))
}

const readmeInputs = tableUnder('Inputs', '| Input | Description | Default |')
const readmeOutputs = tableUnder('Outputs', '| Output | Description |')

describe('inputs', () => {
  it('are the same, in the same order, in action.yml, README and INPUT_NAMES', () => {
    expect(readmeInputs.map((row) => nameOf(row[0]))).toEqual(Object.keys(inputs))
    expect([...INPUT_NAMES]).toEqual(Object.keys(inputs))
  })

  it.each(Object.keys(inputs))('%s is described and optional', (name) => {
    const spec = mapOf(inputs[name])
    expect(textOf(spec.description).trim()).not.toBe('')
    expect(spec.required).toBe(false)
    expect(spec).toHaveProperty('default')
    const row = readmeInputs.find((cells) => nameOf(cells[0]) === name)
    expect(row).toHaveLength(3)
    expect(row![1]).not.toBe('')
  })

  describe('defaults', () => {
    const saved: Record<string, string | undefined> = {}
    beforeEach(() => {
      for (const key of Object.keys(process.env).filter((k) => k.startsWith('INPUT_'))) {
        saved[key] = process.env[key]
        delete process.env[key]
      }
    })
    afterEach(() => {
      for (const key of Object.keys(process.env).filter((k) => k.startsWith('INPUT_')))
        delete process.env[key]
      Object.assign(process.env, saved)
    })

    /** What the parser takes when an input is not set, per input. */
    function parserDefaults(): Record<string, string[]> {
      const read = readInputs()
      const gate = read.gate
      expect(gate.select).toEqual({ mode: 'changed' })
      return {
        // The runner substitutes the expression; unset, the parser sees ''.
        token: read.token === '' ? ['${{ github.token }}'] : [read.token],
        'receipts-dir': [gate.receiptsDir],
        select: [gate.select.mode],
        require: gate.require,
        'bookkeeping-paths': gate.bookkeepingPaths,
        'unbound-head': [gate.unboundHead],
        'needs-human-conclusion': [gate.needsHumanConclusion],
        'check-name': [read.checkName],
        'audit-deferred': [String(gate.auditDeferred)],
        'max-annotations': [String(gate.maxAnnotations)],
        coverage: [gate.coverage],
        'exempt-authors': gate.exemptAuthors,
        'exempt-labels': gate.exemptLabels,
        'fail-step': [String(read.failStep)],
        'pull-number': read.pullNumber === null ? [] : [String(read.pullNumber)]
      }
    }

    it('cover every input', () => {
      expect(Object.keys(parserDefaults())).toEqual([...INPUT_NAMES])
    })

    it.each(Object.keys(inputs))('%s: action.yml = README = parser', (name) => {
      const row = readmeInputs.find((cells) => nameOf(cells[0]) === name)!
      expect(readmeDefault(row[2]!)).toEqual(actionDefault(name))
      expect(parserDefaults()[name]).toEqual(actionDefault(name))
    })

    it('match the spec for token, check-name, fail-step and pull-number', () => {
      expect(actionDefault('token')).toEqual(['${{ github.token }}'])
      expect(actionDefault('check-name')).toEqual(['Review receipts'])
      expect(actionDefault('fail-step')).toEqual(['true'])
      expect(actionDefault('pull-number')).toEqual([])
      expect(actionDefault('max-annotations')).toEqual(['1000'])
    })

    it("give the parser's own defaults when action.yml's values are passed in", () => {
      const unset = readInputs()
      for (const name of INPUT_NAMES) {
        if (name === 'token') continue
        const value = mapOf(inputs[name]).default
        process.env[`INPUT_${name.toUpperCase()}`] = textOf(value)
      }
      expect(readInputs()).toEqual(unset)
    })
  })
})

describe('outputs', () => {
  it('are the same, in the same order, in action.yml, README and Outputs', () => {
    expect(readmeOutputs.map((row) => nameOf(row[0]))).toEqual(Object.keys(outputs))
    expect(Object.keys(emptyOutputs('neutral'))).toEqual(Object.keys(outputs))
  })

  it.each(Object.keys(outputs))('%s is described', (name) => {
    expect(textOf(mapOf(outputs[name]).description).trim()).not.toBe('')
    const row = readmeOutputs.find((cells) => nameOf(cells[0]) === name)
    expect(row).toHaveLength(2)
    expect(row![1]).not.toBe('')
  })
})

describe('action.yml', () => {
  it('has a name, a description and branding', () => {
    expect(textOf(action.name)).not.toBe('')
    expect(textOf(action.description)).not.toBe('')
    const branding = mapOf(action.branding)
    expect(textOf(branding.icon)).not.toBe('')
    expect(textOf(branding.color)).not.toBe('')
  })

  it('runs dist/index.js on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
  })
})

describe("README's tables", () => {
  const actionText = readFileSync(join(ROOT, 'action.yml'), 'utf8')
  const write = readmeWithTables as (readme: string, actionYml: string) => string

  it('are the ones npm run docs writes from action.yml', () => {
    expect(write(readme, actionText)).toBe(readme)
  })

  it('follow action.yml: a changed description, a new input', () => {
    const changed = actionText
      .replace('Number of receipts selected.', 'How many receipts were selected.')
      .replace(
        'outputs:\n',
        "  new-input:\n    description: A | B.\n    required: false\n    default: ''\n\noutputs:\n"
      )
    const written = write(readme, changed)
    expect(written).toContain('\n| `receipts` | How many receipts were selected. |\n')
    expect(written).toContain("\n| `new-input` | A \\| B. | `''` |\n\nInvalid values")
  })
})

describe('cellsOf', () => {
  it('keeps pipes inside code spans and escaped pipes', () => {
    expect(cellsOf('| `a|b` | c \\| d | `e` |')).toEqual(['`a|b`', 'c | d', '`e`'])
  })
})
