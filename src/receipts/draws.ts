/**
 * Fan-out receipts (newer Flow-Next) merge several reviewer draws, listed in `draws[]`, into
 * one verdict and container: only their number is reported, the container checked as any.
 */
import { own, type JsonObject } from './json.js'

/** How many draws a fan-out receipt lists, or null (not a fan-out, or no list). */
export function drawCount(data: JsonObject): number | null {
  const draws = own(data, 'draws')
  return Array.isArray(draws) && draws.length > 0 ? draws.length : null
}
