/** The first 7 hex digits, as git shows a commit; anything else is cut at 40 characters. */
export function shortSha(sha: string): string {
  return /^[0-9a-f]{8,}$/i.test(sha) ? sha.slice(0, 7) : sha.slice(0, 40)
}
