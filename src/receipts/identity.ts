/** Finding identities as flowctl derives them (`_review_finding_lineage_id`, flowctl.py:5268). */
import * as crypto from 'node:crypto'

// Performance (issue 7): the one-shot `crypto.hash` (Node 20.12+) is three times faster
// than a Hash object for these short inputs (one per finding); older Node falls back.
// A namespace import: a named import of a missing export would fail to load there.
const oneShot = (crypto as { hash?: typeof crypto.hash }).hash

function sha256Hex(text: string): string {
  return oneShot
    ? oneShot('sha256', text, 'hex')
    : crypto.createHash('sha256').update(text, 'utf8').digest('hex')
}

/** `finding-` + the first 32 hex digits of sha256("flow-next-finding-v1\0<firstSeen>\0<ordinal>"). */
export function lineageId(firstSeenReceiptId: string, ordinal: number): string {
  return `finding-${sha256Hex(`flow-next-finding-v1\0${firstSeenReceiptId}\0${ordinal}`).slice(0, 32)}`
}

/** History file name of a generation: sha256 hex of its `sourceReceiptId`, plus `.json`. */
export function historyFileName(sourceReceiptId: string): string {
  return `${sha256Hex(sourceReceiptId)}.json`
}
