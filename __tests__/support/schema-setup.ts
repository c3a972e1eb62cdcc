/**
 * Jest setup (every test file): the validators take the zod schemas from `schema.ts`, as
 * the CLI does. Bundles of the action load them from dist/schemas.js instead
 * (src/receipts/schema-source.ts); the bundle tests cover that path.
 */
import { receiptSchemas } from '../../src/receipts/schema.js'
import { useSchemaModule } from '../../src/receipts/schema-source.js'

useSchemaModule({ receiptSchemas })
