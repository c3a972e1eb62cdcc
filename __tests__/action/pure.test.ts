/** Pure parts of the action: event routing, workflow-command escaping, stop-commands. */
import { describe, expect, it, jest } from '@jest/globals'
import { routeEvent } from '../../src/action/event.js'
import { logUntrusted } from '../../src/action/log.js'
import { annotate } from '../../src/action/publish.js'
import { readJsonBytes, type JsonObject } from '../../src/receipts/json.js'

const payload = (value: unknown): JsonObject => {
  const read = readJsonBytes(new TextEncoder().encode(JSON.stringify(value)))
  if (!read.ok) throw new Error(read.reason)
  return read.value as JsonObject
}

describe('routeEvent', () => {
  const pr = { pull_request: { number: 7, head: { sha: 'h1', ref: 'feat' } } }
  it('gates pull_request and pull_request_target on the PR head', () => {
    expect(routeEvent('pull_request', payload(pr), null)).toEqual({
      kind: 'pull',
      number: 7,
      headSha: 'h1',
      headBranch: 'feat'
    })
    expect(routeEvent('pull_request_target', payload(pr), null)).toEqual({
      kind: 'pull',
      number: 7,
      headSha: 'h1',
      headBranch: 'feat'
    })
  })
  it('workflow_run takes the PR from the payload, or leaves it to be found', () => {
    const run = {
      workflow_run: {
        head_sha: 'h2',
        head_branch: 'feat',
        head_repository: { owner: { login: 'fork' } },
        pull_requests: []
      }
    }
    expect(routeEvent('workflow_run', payload(run), null)).toEqual({
      kind: 'workflow-run',
      number: null,
      headSha: 'h2',
      headBranch: 'feat',
      headOwner: 'fork'
    })
    const withPr = {
      workflow_run: { ...run.workflow_run, pull_requests: [{ number: 9 }] }
    }
    expect(routeEvent('workflow_run', payload(withPr), null)).toMatchObject({ number: 9 })
    expect(routeEvent('workflow_run', payload(run), 12)).toMatchObject({ number: 12 })
  })
  it('merge_group reports on its head; other events gate nothing unless pull-number is set', () => {
    expect(
      routeEvent('merge_group', payload({ merge_group: { head_sha: 'mg' } }), null)
    ).toEqual({ kind: 'merge-group', headSha: 'mg' })
    expect(routeEvent('push', payload({}), null).kind).toBe('nothing')
    expect(routeEvent('workflow_dispatch', payload({}), 5)).toEqual({
      kind: 'pull',
      number: 5,
      headSha: null,
      headBranch: null
    })
  })
  it('does not trust a hostile payload shape', () => {
    expect(
      routeEvent(
        'pull_request',
        payload({ pull_request: { number: '7; rm -rf', head: { sha: ['x'] } } }),
        null
      ).kind
    ).toBe('nothing')
    expect(
      routeEvent('pull_request', payload({ pull_request: { number: 1.5 } }), null).kind
    ).toBe('nothing')
  })
})

describe('workflow commands', () => {
  it('fallback annotations: data and properties escaped by the toolkit, one line each', () => {
    const written: string[] = []
    const write = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk))
        return true
      })
    try {
      annotate({
        path: 'src/a,b:c.ts',
        start_line: 3,
        end_line: 4,
        annotation_level: 'failure',
        title: 'P1 · x, y: z',
        message: '100%\nnext ::set-output name=a::b\r'
      })
    } finally {
      write.mockRestore()
    }
    expect(written.join('')).toBe(
      '::error title=P1 · x%2C y%3A z,file=src/a%2Cb%3Ac.ts,line=3,endLine=4::100%25%0Anext ::set-output name=a::b%0D\n'
    )
  })
  it('wraps untrusted lines in a stop-commands block with a fresh token', () => {
    const lines: string[] = []
    logUntrusted((line) => lines.push(line), ['::set-output name=x::1', 'two\nlines'])
    const token = lines[0]?.replace('::stop-commands::', '') ?? ''
    expect(token).toMatch(/^[0-9a-f-]{36}$/)
    expect(lines).toEqual([
      `::stop-commands::${token}`,
      '::set-output name=x::1',
      'two lines',
      `::${token}::`
    ])
  })
})
