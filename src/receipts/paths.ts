/**
 * Anchor paths, cleaned and checked exactly as flowctl's `_review_finding_safe_path`
 * (`flowctl.py:5359`): strip, drop one pair of backticks, drop a leading and a trailing
 * `*`/`**`, strip again, turn `\` into `/`; then refuse empty, over-long, absolute,
 * drive-letter, and empty/`.`/`..` segments. The stored value need not be clean.
 */
import { LIMITS } from './limits.js'
import { withinCodePoints } from './text.js'

/** Python's `str.isspace()` set: wider than JS `trim()` at \x1c-\x1f and \x85, narrower at U+FEFF. */
const PY_SPACE =
  '[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+'
/** Python's `str.strip()` with no argument. */
const PY_STRIP = new RegExp(`^${PY_SPACE}|${PY_SPACE}$`, 'g')
// Python's `$` also matches before a final newline; the lookahead keeps that quirk.
const EDGE_STARS = /^\*{1,2}|\*{1,2}(?=\n?$)/g

/** flowctl's `_review_finding_clean_markdown`. */
function cleanMarkdown(value: string): string {
  let cleaned = value.replace(PY_STRIP, '')
  if (cleaned.length >= 2 && cleaned.startsWith('`') && cleaned.endsWith('`')) {
    cleaned = cleaned.slice(1, -1)
  }
  return cleaned.replace(EDGE_STARS, '').replace(PY_STRIP, '')
}

// Performance: cleaning leaves a plain path (`src/a/b.ts`) as it is, so only the
// segment rule can refuse it; skipping the cleaning saved a third of zod's time.
const PLAIN_PATH = /^[\w.-]+(?:\/[\w.-]+)*$/
/** An empty, `.` or `..` segment (the empty path is one). */
const BAD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/

/** The cleaned path, or `null` when flowctl would refuse it. */
export function safePath(value: string): string | null {
  const path =
    value.length <= LIMITS.path && PLAIN_PATH.test(value)
      ? value
      : cleanMarkdown(value).replaceAll('\\', '/')
  const refused =
    !withinCodePoints(path, LIMITS.path) ||
    path.startsWith('/') ||
    /^[A-Za-z]:\//.test(path) ||
    BAD_SEGMENT.test(path)
  return refused ? null : path
}
