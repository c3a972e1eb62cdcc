/**
 * A fault of the code itself (a `TypeError`, a `ReferenceError`), never of what it read:
 * a fallback that swallowed it would hide the bug behind a slower, quieter path. (Network
 * failures reach the code as Octokit's `RequestError`, not as fetch's `TypeError`.)
 */
export function isBug(error: unknown): boolean {
  return error instanceof TypeError || error instanceof ReferenceError
}
