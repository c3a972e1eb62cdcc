/**
 * `npm run schema`: writes `schema/receipt.schema.json` from the zod schemas. Run
 * through ncc (TypeScript in, one ES module out under build/), since the zod sources
 * are TypeScript; `__tests__/schema` fails when the committed file is not current.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { renderReceiptSchema, SCHEMA_FILE } from './receipt-schema.js'

mkdirSync(dirname(SCHEMA_FILE), { recursive: true })
writeFileSync(SCHEMA_FILE, renderReceiptSchema())
console.log(`wrote ${SCHEMA_FILE}`)
