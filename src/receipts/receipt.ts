/** One receipt file: bytes → JSON → envelope (guard) → projection. Never throws on bad input. */
import { checkEnvelope, type Envelope } from './envelope.js'
import { checkCriteria, checkFindings } from './findings.js'
import { isJsonObject, readJsonBytes, type JsonObject } from './json.js'
import type { Criterion, FindingsContainer } from './schema.js'

/** The projection of a readable receipt. */
export interface Projection {
  /** `absent` means a legacy receipt (verdict + prose). */
  state: 'valid' | 'absent' | 'invalid'
  findings: FindingsContainer | null
  criteria: Criterion[] | null
  /** Why the projection is invalid; empty otherwise. */
  reasons: string[]
}

/** A receipt that passed the reader and the guard. */
export interface ReadableReceipt {
  readable: true
  path: string
  envelope: Envelope
  projection: Projection
  /** The whole parsed receipt (null-prototype objects): other envelope fields live here. */
  data: JsonObject
}

/** A receipt that could not be read, or failed the guard: the gate's unknown state. */
interface UnreadableReceipt {
  readable: false
  path: string
  reason: string
  /** The parsed value when the JSON itself was fine (the guard refused it). */
  data: JsonObject | null
}

export type InspectedReceipt = ReadableReceipt | UnreadableReceipt

/** Reads and judges one receipt file. */
export function inspectReceipt(path: string, bytes: Uint8Array): InspectedReceipt {
  const read = readJsonBytes(bytes)
  if (!read.ok) return { readable: false, path, reason: read.reason, data: null }
  const envelope = checkEnvelope(read.value, path)
  const data = isJsonObject(read.value) ? read.value : null
  if (!envelope.ok) return { readable: false, path, reason: envelope.reason, data }
  const object = data as JsonObject // the guard passes only objects
  return {
    readable: true,
    path,
    envelope: envelope.envelope,
    projection: project(object),
    data: object
  }
}

/** The structured projection of a parsed receipt object: findings and criteria together. */
export function project(data: JsonObject): Projection {
  const findings = checkFindings(data)
  const criteria = checkCriteria(data)
  if (findings.ok && criteria.ok) {
    const state = findings.value === null ? 'absent' : 'valid'
    return { state, findings: findings.value, criteria: criteria.value, reasons: [] }
  }
  const reasons = [findings, criteria].flatMap((check) => (check.ok ? [] : check.reasons))
  return { state: 'invalid', findings: null, criteria: null, reasons }
}
