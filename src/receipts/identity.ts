/** Finding identities as flowctl derives them (`_review_finding_lineage_id`, flowctl.py:5268). */
import { hash } from 'node:crypto'

/** `finding-` + the first 32 hex digits of sha256("flow-next-finding-v1\0<firstSeen>\0<ordinal>"). */
export function lineageId(firstSeenReceiptId: string, ordinal: number): string {
  return `finding-${hash('sha256', `flow-next-finding-v1\0${firstSeenReceiptId}\0${ordinal}`).slice(0, 32)}`
}

/** History file name of a generation: sha256 hex of its `sourceReceiptId`, plus `.json`. */
export function historyFileName(sourceReceiptId: string): string {
  return `${hash('sha256', sourceReceiptId)}.json`
}
