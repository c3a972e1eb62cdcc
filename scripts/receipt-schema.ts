/**
 * The JSON Schema of a review receipt (draft 2020-12), generated from the zod schemas
 * of `src/receipts/schema.ts`: they stay the single source of the per-field rules.
 * This module adds what zod cannot say per field but JSON Schema can, from the same
 * constants: the receipt type ↔ `reviewKind` binding, criteria on completion reviews
 * only, the round ↔ `supersedesReceiptId` rule, and anchors needing a container
 * `baseSha`. The rules neither can express (ids, equalities between fields, the byte
 * bound, float tokens) are listed in `INEXPRESSIBLE`; `__tests__/schema` checks that
 * these are the only receipts the schema accepts and flowctl refuses.
 *
 * `npm run schema` writes it to `schema/receipt.schema.json` (see `generate-schema.ts`).
 */
import { z } from 'zod'
import {
  CriteriaSchema,
  EnvelopeSchema,
  FindingsContainerSchema,
  TYPE_TO_KIND
} from '../src/receipts/schema.js'

/** Where the committed schema lives, relative to the repository root. */
export const SCHEMA_FILE = 'schema/receipt.schema.json'

/** The schema's `$id`: the committed file on the default branch. */
export const SCHEMA_ID =
  'https://raw.githubusercontent.com/receipt-gate/receipt-gate/main/schema/receipt.schema.json'

/** A JSON Schema object, as plain data. */
export type JsonSchema = { [key: string]: unknown }

/** Rules of flowctl that a JSON Schema cannot state, and why. */
export const INEXPRESSIBLE = {
  'id derivation':
    'an item id is a SHA-256 digest of firstSeenReceiptId and ordinal; JSON Schema has no hashing',
  'lastSeen equals source':
    "every item's lastSeenReceiptId equals the container's sourceReceiptId: an equality between two values",
  'anchor SHAs':
    "an anchor's headSha and baseSha equal the container's: equalities between values",
  'mode equals backend': "the receipt's mode equals findings.backend: an equality",
  'distinct from itself':
    'priorFindingId differs from the item id, supersedesReceiptId from sourceReceiptId: inequalities between values',
  'unique ids':
    'item ids, item ordinals and criterion ids are unique: uniqueItems compares whole items, not one key',
  'line order': 'endLine is not below startLine: a comparison between two values',
  'anchor paths':
    'anchor paths are judged after flowctl strips backticks, stars and spaces; a pattern cannot undo that cleaning',
  'byte bound':
    'the container is at most 262144 bytes as compact UTF-8 JSON; JSON Schema measures no encoding',
  'float tokens':
    'JSON Schema sees numbers, not tokens: "integer" accepts 100.0 and 1e2, which flowctl refuses',
  'unpaired surrogates':
    'a string with an unpaired surrogate cannot be UTF-8 encoded; no JSON Schema keyword tests encodability',
  'reader limits':
    'nesting deeper than 900 levels and integers of more than 4300 digits are refused by the reader',
  'guard file name':
    "the guard checks type and id against the receipt's file name, which the document does not contain"
} as const

export type Inexpressible = keyof typeof INEXPRESSIBLE

/** A zod schema as JSON Schema (input side: the envelope stays open), without `$schema`. */
function fromZod(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'throw'
  }) as JsonSchema
  delete json.$schema
  return json
}

/** The definition at `ref`, or null (flowctl reads null as absent). */
function orNull(ref: string, description: unknown): JsonSchema {
  return { description, anyOf: [{ $ref: ref }, { type: 'null' }] }
}

/** Cross-field rules of the findings container that JSON Schema can state. */
function containerRules(): JsonSchema[] {
  return [
    {
      // A root generation is round 1; one with a parent is round 2 or more.
      if: {
        required: ['supersedesReceiptId'],
        properties: { supersedesReceiptId: { type: 'string' } }
      },
      then: { properties: { round: { type: 'integer', minimum: 2 } } },
      else: { properties: { round: { const: 1 } } }
    },
    {
      // An anchor's baseSha must equal the container's, so anchors need one.
      if: {
        required: ['items'],
        properties: {
          items: { type: 'array', contains: { type: 'object', required: ['anchor'] } }
        }
      },
      then: { required: ['baseSha'] }
    }
  ]
}

/** Cross-field rules between the envelope and its projection. */
function envelopeRules(): JsonSchema[] {
  const hasFindings = {
    required: ['findings'],
    properties: { findings: { type: 'object' } }
  }
  const types = Object.keys(TYPE_TO_KIND)
  return [
    {
      // Only these types carry findings, and findings.backend must equal a string mode
      // (the equality itself is inexpressible; that there is a mode is not).
      if: hasFindings,
      then: {
        required: ['mode'],
        properties: { type: { enum: types }, mode: { type: 'string', minLength: 1 } }
      }
    },
    ...types.map((type) => ({
      if: { required: ['type', 'findings'], properties: { type: { const: type } } },
      then: {
        properties: {
          findings: {
            anyOf: [
              { type: 'null' },
              {
                type: 'object',
                properties: { reviewKind: { const: TYPE_TO_KIND[type] } }
              }
            ]
          }
        }
      }
    })),
    {
      // Only a completion review may carry criteria.
      if: {
        required: ['criteria'],
        properties: { criteria: { not: { type: 'null' } } }
      },
      then: { properties: { type: { const: 'completion_review' } } }
    }
  ]
}

/** The receipt schema, as data. */
export function receiptJsonSchema(): JsonSchema {
  const envelope = fromZod(EnvelopeSchema)
  const findings = fromZod(FindingsContainerSchema)
  const criteria = fromZod(CriteriaSchema)
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: SCHEMA_ID,
    title: 'Flow-Next review receipt',
    description:
      'A review receipt as flowctl (flow-next 4.4) and Receipt Gate accept it. The envelope is open: keys other than these are allowed. Generated from the zod schemas of Receipt Gate (npm run schema); it cannot state every rule (item ids, equalities between fields, the byte bound, float tokens): receipt-gate validate checks them all.',
    type: 'object',
    required: envelope.required,
    properties: {
      ...(envelope.properties as JsonSchema),
      findings: orNull(
        '#/$defs/findings',
        'Structured findings (v1); null counts as absent.'
      ),
      criteria: orNull('#/$defs/criteria', criteria.description)
    },
    allOf: envelopeRules(),
    $defs: {
      findings: { ...findings, allOf: containerRules() },
      criteria
    }
  }
}

/** The committed text: two-space JSON with a final newline. */
export function renderReceiptSchema(): string {
  return `${JSON.stringify(receiptJsonSchema(), null, 2)}\n`
}
