/** The `bookkeeping-paths` and `select` globs as one matcher. */
import picomatch from 'picomatch'

/** Is this path bookkeeping? Built once from the `bookkeeping-paths` globs. */
export type BookkeepingMatcher = (path: string) => boolean

/** A glob that excludes: `!` not followed by `(` (`!(src)/**` is picomatch's negated extglob). */
export const isExclusion = (glob: string): boolean => /^!(?!\()/.test(glob)

/** The globs that include, and those that exclude without their `!`. */
export function splitGlobs(globs: readonly string[]): {
  include: string[]
  exclude: string[]
} {
  return {
    include: globs.filter((glob) => !isExclusion(glob)),
    exclude: globs.filter(isExclusion).map((glob) => glob.slice(1))
  }
}

/**
 * A list of picomatch globs (dot files included) where a leading `!` excludes: a path
 * matches when some positive glob takes it and no `!` glob does. (picomatch's own `!`
 * negates one pattern, which in a list would match nearly everything.) An exclusion
 * matches whatever the letter case, an inclusion only as written: on a case-insensitive
 * checkout (macOS, Windows) `.flow/BIN/x` is `.flow/bin/x`, so it must stay code, and
 * reading a path as code is the side that cannot let unreviewed code through.
 */
export function globMatcher(globs: readonly string[]): BookkeepingMatcher {
  const { include, exclude } = splitGlobs(globs)
  const yes = include.length > 0 ? picomatch(include, { dot: true }) : () => false
  const no =
    exclude.length > 0 ? picomatch(exclude, { dot: true, nocase: true }) : () => false
  return (path) => {
    // picomatch's `.` never matches a line terminator, so `.flow/x\n.json` would count as
    // code; globs cannot hold a line break (inputs split on newlines): NUL changes no match.
    const safe = path.replace(/[\n\r\u2028\u2029]/g, '\u0000')
    return yes(safe) && !no(safe)
  }
}
