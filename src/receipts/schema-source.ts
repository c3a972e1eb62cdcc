/**
 * Where the validators get the zod schemas (`schema.ts`) from.
 *
 * Performance (issue 7): zod and the schemas are half of the action's code, and a run
 * whose receipts are all plainly valid (`plain.ts`) never uses them. So the action's
 * bundle does not hold them: they are a bundle of their own, `dist/schemas.js`, loaded
 * the first time a receipt needs them, synchronously (the validators are synchronous), by
 * `require` of that ES module (Node 20.19 and later; the action runs on node24).
 *
 * The CLI, the tests and the bench run the same validators with the schemas they import
 * themselves ({@link useSchemaModule}), so they need no such bundle.
 */
import { createRequire } from 'node:module'
import type { ReceiptSchemas } from './schema.js'

/** What `schema.ts` (and so `dist/schemas.js`) exports that the validators use. */
export interface SchemaModule {
  receiptSchemas(): ReceiptSchemas
}

/** The bundle of the schemas, next to the bundle that runs this code. */
export const SCHEMA_BUNDLE = './schemas.js'

let schemaModule: SchemaModule | undefined

/** Uses `module` for the schemas (code that imports `schema.ts` itself). */
export function useSchemaModule(module: SchemaModule): void {
  schemaModule = module
}

/** The receipt schemas: from the module set, else from the schema bundle, on first use. */
export function receiptSchemas(): ReceiptSchemas {
  schemaModule ??= loadBundle()
  return schemaModule.receiptSchemas()
}

function loadBundle(): SchemaModule {
  try {
    return createRequire(import.meta.url)(SCHEMA_BUNDLE) as SchemaModule
  } catch (error) {
    // Not a receipt's fault but the install's (no dist/schemas.js, or a Node without
    // require() of ES modules): the run fails with this message, never passes.
    throw new Error(
      `cannot load the receipt schemas (${SCHEMA_BUNDLE}): ${error instanceof Error ? error.message : String(error)}`
    )
  }
}
