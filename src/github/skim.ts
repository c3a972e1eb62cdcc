/**
 * Decodes a JSON answer with every `"patch"` string member's value replaced by `null`,
 * without decoding those values.
 *
 * Performance (issue 7): the PR files list and the comparison carry each file's patch,
 * a megabyte or more when the receipts changed, and the action reads only the file
 * names. Node decodes text that is not ASCII slowly (tens of milliseconds a megabyte on
 * a 2-core runner), then `JSON.parse` copies it again into strings nobody reads.
 *
 * Exact for any valid JSON in GitHub's compact form: a `"` that no odd run of
 * backslashes escapes opens or closes a string, and `"patch":` right after one can
 * only be a member name opening (a closing quote is never followed by a letter), so the
 * match is a member and its value runs to the next such quote. Spaced-out JSON does not
 * match and is decoded whole; broken JSON stays broken for `JSON.parse` to refuse.
 */
const MEMBER = Buffer.from('"patch":"')

export function decodeWithoutPatches(bytes: Buffer): string {
  let at = bytes.indexOf(MEMBER)
  if (at < 0) return bytes.toString('utf8')
  const parts: string[] = []
  let from = 0
  while (at >= 0) {
    if (escaped(bytes, at)) {
      at = bytes.indexOf(MEMBER, at + 1)
      continue
    }
    const valueQuote = at + MEMBER.length - 1
    const end = closingQuote(bytes, valueQuote + 1)
    if (end < 0) break // an unterminated string: left as it is
    parts.push(bytes.toString('utf8', from, valueQuote), 'null')
    from = end + 1
    at = bytes.indexOf(MEMBER, from)
  }
  parts.push(bytes.toString('utf8', from))
  return parts.join('')
}

/** Whether the quote at `at` follows an odd run of backslashes. */
function escaped(bytes: Buffer, at: number): boolean {
  let run = 0
  while (at - run - 1 >= 0 && bytes[at - run - 1] === 0x5c) run++
  return run % 2 === 1
}

/**
 * The index of the quote that closes a string whose text starts at `from`, or -1: one
 * pass, a backslash taking the byte after it (patches are full of escaped quotes; a
 * search per quote would cost more than the decoding it saves).
 */
function closingQuote(bytes: Buffer, from: number): number {
  for (let at = from; at < bytes.length; at++) {
    const byte = bytes[at]
    if (byte === 0x5c) at++
    else if (byte === 0x22) return at
  }
  return -1
}
