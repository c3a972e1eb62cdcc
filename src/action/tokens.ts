/**
 * Tokens for the runner's protocols that untrusted text must not be able to spell: the
 * `::stop-commands::<token>` block around receipt text, and the `name<<delimiter`
 * blocks of GITHUB_OUTPUT.
 *
 * Safety comes from the check, not from the randomness: a token is handed out only when
 * none of the texts it will enclose contains it, so no text can end its block early,
 * however that text was chosen. The randomness only keeps the check from ever having to
 * draw twice. Performance (issue 7): `node:crypto`'s `randomUUID`, which `@actions/core`
 * uses here, costs 7–9 ms to load on Node 20 and 12–16 ms on Node 24 (the action's
 * runtime) — the dearest module of the action's start-up, for 122 random bits.
 */

/** A UUID-shaped token (version 4 layout) that no text in `texts` contains. */
export function unusedToken(texts: readonly string[]): string {
  for (;;) {
    const token = uuidShaped()
    if (!texts.some((text) => text.includes(token))) return token
  }
}

/** `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx` from V8's Math.random (seeded per process from the OS). */
function uuidShaped(): string {
  const hex = (digits: number): string =>
    Math.floor(Math.random() * 16 ** digits)
      .toString(16)
      .padStart(digits, '0')
  const variant = (8 + Math.floor(Math.random() * 4)).toString(16)
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(6)}${hex(6)}`
}
