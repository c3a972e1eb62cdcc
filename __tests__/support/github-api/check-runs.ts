/**
 * Check runs as GitHub stores them: create, PATCH (fields replace, annotations append), list.
 * Request bodies reaching this store have already passed the contract checks.
 */
import {
  GITHUB_ACTIONS_APP_ID,
  stableId,
  type StoredAnnotation,
  type StoredCheckRunView
} from './objects.js'

export interface StoredCheckRun extends StoredCheckRunView {
  /** Every accepted write, in order: the create body, then each PATCH body. */
  writes: { method: 'POST' | 'PATCH'; body: Record<string, unknown> }[]
}

/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies are JSON */
type Body = Record<string, any>

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')

export class CheckRunStore {
  private nextId = 4_000_000_001
  readonly runs: StoredCheckRun[] = []

  constructor(private readonly appId = GITHUB_ACTIONS_APP_ID) {}

  get(id: number): StoredCheckRun | undefined {
    return this.runs.find((r) => r.id === id)
  }

  create(body: Body, appId = this.appId): StoredCheckRun {
    const run: StoredCheckRun = {
      id: this.nextId++,
      name: String(body.name),
      head_sha: String(body.head_sha),
      external_id: typeof body.external_id === 'string' ? body.external_id : null,
      details_url: typeof body.details_url === 'string' ? body.details_url : null,
      status: 'queued',
      conclusion: null,
      started_at: now(),
      completed_at: null,
      output: { title: null, summary: null, text: null },
      annotations: [],
      check_suite_id: stableId(`suite:${appId}:${String(body.head_sha)}`),
      app_id: appId,
      writes: []
    }
    this.apply(run, body, 'POST')
    this.runs.push(run)
    return run
  }

  update(run: StoredCheckRun, body: Body): StoredCheckRun {
    this.apply(run, body, 'PATCH')
    return run
  }

  /** Runs on a commit, GitHub's `filter=latest` keeping the newest run per name. */
  forRef(
    sha: string,
    q: { checkName?: string; status?: string; filter?: string; appId?: number }
  ): StoredCheckRun[] {
    let list = this.runs.filter((r) => r.head_sha === sha)
    if (q.checkName !== undefined) list = list.filter((r) => r.name === q.checkName)
    if (q.status !== undefined) list = list.filter((r) => r.status === q.status)
    if (q.appId !== undefined) list = list.filter((r) => r.app_id === q.appId)
    if ((q.filter ?? 'latest') === 'latest') {
      const newest = new Map<string, StoredCheckRun>()
      for (const r of list) {
        const key = `${r.app_id}:${r.name}`
        const prev = newest.get(key)
        if (!prev || prev.id < r.id) newest.set(key, r)
      }
      list = [...newest.values()]
    }
    return [...list].sort((a, b) => b.id - a.id)
  }

  private apply(run: StoredCheckRun, body: Body, method: 'POST' | 'PATCH'): void {
    run.writes.push({ method, body })
    if (method === 'PATCH' && typeof body.name === 'string') run.name = body.name
    if (typeof body.external_id === 'string') run.external_id = body.external_id
    if (typeof body.details_url === 'string') run.details_url = body.details_url
    if (typeof body.started_at === 'string') run.started_at = body.started_at
    if (typeof body.status === 'string') run.status = body.status
    if (typeof body.conclusion === 'string') {
      // "Providing conclusion will automatically set the status parameter to completed."
      run.conclusion = body.conclusion
      run.status = 'completed'
    }
    if (typeof body.completed_at === 'string') run.completed_at = body.completed_at
    if (run.status === 'completed' && run.completed_at === null) run.completed_at = now()
    const output = body.output as Body | undefined
    if (output) {
      if (typeof output.title === 'string') run.output.title = output.title
      if (typeof output.summary === 'string') run.output.summary = output.summary
      if (typeof output.text === 'string') run.output.text = output.text
      if (Array.isArray(output.annotations)) {
        // "Each time you update the check run, annotations are appended."
        for (const a of output.annotations as StoredAnnotation[])
          run.annotations.push({ ...a })
      }
    }
  }
}
