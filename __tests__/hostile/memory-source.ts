/**
 * A {@link ReceiptSource} held in memory, for properties that run the whole pipeline
 * thousands of times: files under the receipts folder, and a table saying how each
 * reviewed SHA relates to the head (unknown SHAs are unknown commits).
 */
import { createHash } from 'node:crypto'
import type { Ancestry, ReceiptSource, TreeEntry } from '../../src/gate/source.js'

export const MEMORY_HEAD = 'f00dfacef00dfacef00dfacef00dfacef00dface'
/** The reviewed SHA the history rule infers for every unbound receipt. */
export const MEMORY_PARENT = 'beefbeefbeefbeefbeefbeefbeefbeefbeefbeef'

export interface MemoryFile {
  /** Path under the receipts folder (`impl-fn-1.1.json`, `x.json.history/<sha>.json`). */
  path: string
  bytes: Uint8Array
  /** Git mode (default 100644); 120000 for a symlink, 160000 for a submodule. */
  mode?: string
}

export interface MemorySourceOptions {
  dir: string
  files: readonly MemoryFile[]
  /** How reviewed SHAs relate to the head; `MEMORY_HEAD` is always identical. */
  ancestry: ReadonlyMap<string, Ancestry>
  /** Paths the receipt commit of an unbound receipt changed (bookkeeping by default). */
  receiptCommitPaths?: string[]
  /** The deferral file, if any. */
  sink?: Uint8Array | null
  truncated?: boolean
}

const blobSha = (bytes: Uint8Array): string =>
  createHash('sha1').update(bytes).digest('hex')

export function memorySource(options: MemorySourceOptions): ReceiptSource {
  const blobs = new Map<string, Uint8Array>()
  const entries: TreeEntry[] = options.files.map((file) => {
    const sha = blobSha(file.bytes)
    blobs.set(sha, file.bytes)
    const mode = file.mode ?? '100644'
    return {
      path: `${options.dir}/${file.path}`,
      type: mode === '160000' ? 'commit' : 'blob',
      mode,
      sha,
      size: file.bytes.length
    }
  })
  return {
    head: MEMORY_HEAD,
    listTree: async () =>
      Promise.resolve({ entries, truncated: options.truncated ?? false }),
    readBlobs: async (shas) =>
      Promise.resolve(
        new Map(shas.map((sha) => [sha, blobs.get(sha) ?? 'no such object']))
      ),
    readFile: async () => Promise.resolve(options.sink ?? null),
    changedPaths: async () => Promise.resolve({ paths: entries.map((e) => e.path) }),
    changedFiles: async () =>
      Promise.resolve({ files: null, note: 'the source lists no patches' }),
    prCommits: async () =>
      Promise.resolve({
        commits: null,
        note: 'this source does not list the PR commits'
      }),
    commitsBetween: async () => Promise.resolve(null),
    ancestry: async (reviewed) =>
      Promise.resolve(
        reviewed === MEMORY_HEAD
          ? { kind: 'identical' }
          : (options.ancestry.get(reviewed) ?? { kind: 'unknown-commit' })
      ),
    receiptCommits: async (receipts) =>
      Promise.resolve(
        new Map(
          receipts.map(({ path }) => [
            path,
            {
              sha: '1234567890123456789012345678901234567890',
              parent: MEMORY_PARENT,
              changedPaths: options.receiptCommitPaths ?? ['.flow/review-receipts/x.json']
            }
          ])
        )
      )
  }
}
