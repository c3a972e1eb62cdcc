/**
 * Fan-out receipts (newer Flow-Next): several reviewer draws merged by flowctl into
 * one verdict and one findings container, with the draws listed beside it in `draws[]`.
 * Only their number is reported; the merged container is validated as any other.
 */
import { own, type JsonObject } from './json.js'

/** How many draws a fan-out receipt lists, or null (not a fan-out, or no list). */
export function drawCount(data: JsonObject): number | null {
  const draws = own(data, 'draws')
  return Array.isArray(draws) && draws.length > 0 ? draws.length : null
}
