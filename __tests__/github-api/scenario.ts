/** A small repository with every tree entry kind, and a diverged PR branch, for the fake's tests. */
import { afterAll, beforeAll } from '@jest/globals'
import { GitRepo } from '../support/git-repo.js'
import { startFakeGitHub, type FakeGitHub } from '../support/github-api/server.js'

export interface Scenario {
  repo: GitRepo
  /** First commit on main. */
  root: string
  /** Tip of main (one commit after the branch point). */
  main: string
  /** Tip of `feature`. */
  feature: string
  /** Commit on `feature` that only touches receipts, and its parent. */
  receiptCommit: string
  featureWork: string
  /** Merge base of main and feature. */
  mergeBase: string
}

export function buildScenario(): Scenario {
  const repo = GitRepo.init()
  repo.write({
    'README.md': '# widgets\n',
    'src/a.ts': 'export const a = 1\n',
    'src/util/deep.ts': 'export const deep = true\n',
    'docs/guide.md': 'line 1\nline 2\nline 3\n',
    'assets/logo.bin': Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]),
    '.flow/review-receipts/impl-fn-1.1.json':
      '{"type":"impl_review","id":"fn-1.1","verdict":"SHIP"}\n'
  })
  repo.symlink('link-to-a', 'src/a.ts')
  repo.symlink('dangling', '../outside')
  const root = repo.commit('initial')
  repo.submodule('vendor/lib', root)
  const mergeBase = repo.commit('add submodule')

  repo.branch('feature')
  repo.write({
    'src/a.ts': 'export const a = 2\nexport const b = 3\n',
    'src/new.ts': 'export {}\n',
    'docs/guide.md': null,
    'assets/logo.bin': Buffer.from([9, 9, 0, 9])
  })
  repo.git('mv', 'src/util/deep.ts', 'src/util/renamed.ts')
  const featureWork = repo.commit('feature work')
  repo.write({
    '.flow/review-receipts/impl-fn-1.2.json':
      '{"type":"impl_review","id":"fn-1.2","verdict":"NEEDS_WORK"}\n'
  })
  const receiptCommit = repo.commit('receipt')
  const feature = repo.head()

  repo.checkout('main')
  repo.write({ 'CHANGELOG.md': '- main moved on\n' })
  const main = repo.commit('main moves')
  return { repo, root, main, feature, receiptCommit, featureWork, mergeBase }
}

/**
 * The scenario behind the local GitHub API, `feature` as PR #7 against `main`, for the
 * tests of the enclosing `describe` (built before them, removed after them). Read `s`
 * and `fake` inside the tests.
 */
export function servedScenario(): { readonly s: Scenario; readonly fake: FakeGitHub } {
  let served: { s: Scenario; fake: FakeGitHub } | undefined
  beforeAll(async () => {
    const s = buildScenario()
    try {
      const fake = await startFakeGitHub({
        repo: s.repo,
        pulls: [{ number: 7, head: { ref: 'feature' }, base: { ref: 'main' } }]
      })
      served = { s, fake }
    } catch (error) {
      s.repo.cleanup()
      throw error
    }
  })
  afterAll(async () => {
    await served?.fake.close()
    served?.s.repo.cleanup()
  })
  const get = (): { s: Scenario; fake: FakeGitHub } => {
    if (!served) throw new Error('servedScenario: read inside a test')
    return served
  }
  return {
    get s() {
      return get().s
    },
    get fake() {
      return get().fake
    }
  }
}
