/** Builds pull requests in real git repositories for end-to-end runs of the bundled action. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GitRepo } from '../support/git-repo.js'
import {
  buildContainer,
  buildItem,
  buildReceipt,
  jsonText,
  type BuiltObject
} from '../support/receipt-builders.js'
import {
  startFakeGitHub,
  type FakeGitHub,
  type FakeGitHubOptions,
  type PullRequestSpec
} from '../support/github-api/server.js'
import { runAction, type ActionRun, type RunActionOptions } from '../support/runner.js'

export const DIR = '.flow/review-receipts'

export interface PrFixture {
  repo: GitRepo
  base: string
  reviewed: string
  fake: FakeGitHub
  /** An empty folder: the workspace does not hold the head, so the API source is used. */
  emptyWorkspace: string
}

/**
 * main + a `feature/fn-7` branch with one code commit (the reviewed head); `receipts`
 * builds the files of the `.flow/`-only commit that records the review.
 */
export function prRepo(
  receipts: (reviewed: string, base: string) => Record<string, string | Uint8Array>
): Pick<PrFixture, 'repo' | 'base' | 'reviewed'> {
  const repo = GitRepo.init()
  repo.write({
    'src/app.ts':
      Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i}`).join('\n') + '\n'
  })
  const base = repo.commit('initial')
  repo.branch('feature/fn-7')
  repo.write({ 'src/app.ts': 'export const changed = true\n' })
  const reviewed = repo.commit('fn-7.1: change')
  repo.write(receipts(reviewed, base))
  repo.commit('chore(flow): record review', { allowEmpty: true })
  return { repo, base, reviewed }
}

/** {@link prRepo} served by the local GitHub API as PR 1 (`pull` on top). */
export async function prFixture(
  receipts: (reviewed: string, base: string) => Record<string, string | Uint8Array>,
  pull: Partial<PullRequestSpec> = {},
  fakeOptions: Partial<
    Pick<
      FakeGitHubOptions,
      'treePaths' | 'rawBlobs' | 'blobTextLimit' | 'latencyMs' | 'graphqlAnswerLimit'
    >
  > = {}
): Promise<PrFixture> {
  const { repo, base, reviewed } = prRepo(receipts)
  const fake = await startFakeGitHub({
    // The schema is built before the first run, not inside its first request's deadline.
    preloadGraphql: true,
    ...fakeOptions,
    repo,
    pulls: [
      {
        number: 1,
        head: { ref: 'feature/fn-7' },
        base: { ref: 'main' },
        body: '## Summary\n',
        ...pull
      }
    ]
  })
  return {
    repo,
    base,
    reviewed,
    fake,
    emptyWorkspace: mkdtempSync(join(tmpdir(), 'rg-ws-'))
  }
}

/** A findings-bound receipt with `count` anchored findings (severity cycling P0..P3 unless given). */
export function receiptWith(
  reviewed: string,
  base: string,
  options: {
    verdict?: string
    id?: string
    count?: number
    source?: string
    item?: (i: number) => BuiltObject
  } = {}
): string {
  const source = options.source ?? `review-${options.id ?? 'fn-7.1'}`
  const items = Array.from({ length: options.count ?? 1 }, (_, i) =>
    buildItem({
      ordinal: i + 1,
      sourceReceiptId: source,
      anchor: { headSha: reviewed, baseSha: base },
      with: { severity: 'P1', ...(options.item?.(i) ?? {}) }
    })
  )
  const container = buildContainer({
    sourceReceiptId: source,
    headSha: reviewed,
    baseSha: base,
    items
  })
  return jsonText(
    buildReceipt({
      id: options.id ?? 'fn-7.1',
      verdict: options.verdict ?? 'SHIP',
      findings: container
    })
  )
}

/** Two NEEDS_WORK receipts of 115 anchored findings each: 230 annotations, 5 writes. */
export function receipts230(reviewed: string, base: string): Record<string, string> {
  const receipt = (id: string): string =>
    receiptWith(reviewed, base, { verdict: 'NEEDS_WORK', id, count: 115 })
  return {
    [`${DIR}/impl-fn-7.1.json`]: receipt('fn-7.1'),
    [`${DIR}/impl-fn-7.2.json`]: receipt('fn-7.2')
  }
}

/** Runs dist/index.js against the fake on PR 1 (API source unless `workspace` is given). */
export async function runOnPr(
  fixture: Pick<PrFixture, 'fake' | 'emptyWorkspace'>,
  options: Partial<RunActionOptions> = {}
): Promise<ActionRun> {
  return runAction({
    fake: fixture.fake,
    event: { name: 'pull_request', pull: 1 },
    workspace: fixture.emptyWorkspace,
    runId: 4242,
    runAttempt: 1,
    ...options,
    env: { RECEIPT_GATE_TIME_SCALE: '0.001', ...(options.env ?? {}) }
  })
}

/** Every PATCH of annotations that holds `marker` is refused (422): that annotation is dropped. */
export function rejectAnnotationsWith(fixture: PrFixture, marker: string): void {
  fixture.fake.faults.add({
    kind: 'reject',
    route: 'checks/update',
    times: Infinity,
    when: (call) =>
      JSON.stringify(
        (call.body as { output?: { annotations?: unknown } }).output?.annotations ?? []
      ).includes(marker)
  })
}

/** GraphQL refused for this token from now on, as GitHub answers it: the action reads through REST. */
export function refuseGraphql(fixture: Pick<PrFixture, 'fake'>): void {
  fixture.fake.faults.add({
    kind: 'graphql-error',
    route: 'graphql',
    type: 'FORBIDDEN',
    message: 'Resource not accessible by integration',
    times: Infinity
  })
}

/**
 * The fixtures and action runs of one test file, cleaned up by `after` (jest's afterEach
 * or afterAll): every fixture's requests checked against GitHub's OpenAPI description.
 */
export function trackedPrs(after: (fn: () => Promise<void>) => void): {
  fixture: typeof prFixture
  run: typeof runOnPr
} {
  const open: PrFixture[] = []
  const runs: ActionRun[] = []
  after(async () => {
    runs.splice(0).forEach((run) => run.cleanup())
    for (const fixture of open.splice(0)) {
      try {
        fixture.fake.assertNoViolations()
      } finally {
        await fixture.fake.close()
        fixture.repo.cleanup()
        rmSync(fixture.emptyWorkspace, { recursive: true, force: true })
      }
    }
  })
  return {
    fixture: async (...args) => {
      const made = await prFixture(...args)
      open.push(made)
      return made
    },
    run: async (...args) => {
      const result = await runOnPr(...args)
      runs.push(result)
      return result
    }
  }
}
