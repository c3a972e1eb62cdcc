/** Reads the envelope facts the summary shows, defensively: any field may be hostile. */
import { isJsonObject, own, type JsonObject, type JsonValue } from '../receipts/json.js'
import { safePath } from '../receipts/paths.js'
import { sortItems } from '../receipts/lineage.js'
import type { FindingItem, FindingsContainer } from '../receipts/schema.js'
import type { ReceiptDetails, ReportFinding } from './report.js'

/** A non-negative safe integer, or null. */
function count(value: JsonValue | undefined): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? value
    : null
}

function str(value: JsonValue | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null
}

/** The facts of one receipt's envelope. */
export function receiptDetails(data: JsonObject): ReceiptDetails {
  const suppressedRaw = own(data, 'suppressed_count')
  let suppressed: Record<string, number> | null = null
  if (isJsonObject(suppressedRaw)) {
    suppressed = {}
    for (const key of Object.keys(suppressedRaw)) {
      const n = count(suppressedRaw[key])
      if (n !== null && /^(0|25|50|75|100)$/.test(key)) suppressed[key] = n
    }
  }
  const walkthrough = own(data, 'walkthrough')
  const validatorRaw = own(data, 'validator')
  const validator = isJsonObject(validatorRaw)
    ? {
        dispatched: count(own(validatorRaw, 'dispatched')),
        dropped: count(own(validatorRaw, 'dropped')),
        kept: count(own(validatorRaw, 'kept'))
      }
    : null
  const changes: string[] = []
  const beforeValidate = str(own(data, 'verdict_before_validate'))
  if (beforeValidate) changes.push(`validator changed the verdict from ${beforeValidate}`)
  const beforeDeep = str(own(data, 'verdict_before_deep'))
  if (beforeDeep) changes.push(`deep pass changed the verdict from ${beforeDeep}`)
  const unaddressed = own(data, 'unaddressed')
  return {
    suppressed,
    deferred: isJsonObject(walkthrough) ? count(own(walkthrough, 'deferred')) : null,
    validator,
    verdictChanges: changes,
    introducedCount: count(own(data, 'introduced_count')),
    preExistingCount: count(own(data, 'pre_existing_count')),
    prose: str(own(data, 'review')),
    unaddressed: Array.isArray(unaddressed)
      ? unaddressed.filter((v): v is string => typeof v === 'string').slice(0, 100)
      : []
  }
}

/** The report form of a container's items, in canonical order. */
export function reportFindings(container: FindingsContainer): ReportFinding[] {
  return sortItems(container.items).map(reportFinding)
}

function reportFinding(item: FindingItem): ReportFinding {
  const anchor = item.anchor
  const path = anchor ? safePath(anchor.path) : null
  return {
    id: item.id,
    ordinal: item.ordinal,
    severity: item.severity,
    confidence: item.confidence,
    classification: item.classification,
    status: item.status,
    title: item.title,
    body: item.body,
    suggestion: item.suggestion ?? null,
    rIds: item.rIds,
    anchor:
      anchor && path !== null
        ? {
            path,
            side: anchor.side,
            startLine: anchor.startLine,
            endLine: anchor.endLine ?? anchor.startLine
          }
        : null
  }
}
