/**
 * Markdown for hostile text. Inline text has every Markdown and HTML metacharacter
 * escaped, line breaks folded, @-mentions defused and controls made visible; blocks of
 * prose go into fenced code blocks whose fence is longer than any backtick run inside,
 * so nothing can close the fence, open HTML, ping anyone or break a table.
 */
import { CONTROL_CHARS, visibleEscape } from '../util/safe-text.js'

// Backslash-escapable ASCII punctuation that can start Markdown syntax (`>` is `&gt;` by then).
const MARKDOWN_META = /[\\`*_{}[\]()#+\-.!|~]/g

/** Controls made visible, lines folded (`\r` is a control), HTML escaped, mentions defused. */
function oneLine(text: string): string {
  return text
    .replace(CONTROL_CHARS, visibleEscape)
    .replace(/\n/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '@\u200b')
}

/** Escapes text for one line of Markdown (a paragraph, list item or table cell). */
export function mdInline(text: string): string {
  return oneLine(text)
    .replace(MARKDOWN_META, '\\$&')
    .replace(/:(\/\/)/g, ':\u200b$1') // no bare autolinks from receipt text
}

/** Escapes text and puts it in inline code when short and single-line, for paths and ids. */
export function mdCode(text: string): string {
  const clean = text
    .replace(CONTROL_CHARS, visibleEscape)
    .replace(/\n/g, ' ')
    .replace(/@/g, '@\u200b')
  if (clean.includes('`') || clean.includes('|')) return mdInline(text)
  return `\`${clean}\``
}

/** A fenced code block that the content cannot close. */
export function mdFence(text: string): string {
  const clean = text.replace(CONTROL_CHARS, visibleEscape).replace(/@/g, '@\u200b')
  const longest = Math.max(
    0,
    ...[...clean.matchAll(/`+/g)].map((match) => match[0].length)
  )
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}text\n${clean}\n${fence}`
}

/**
 * Text inside our own raw HTML (a `<summary>`): Markdown escapes are not processed
 * there, so HTML escaping applies, quotes too.
 */
export function htmlText(text: string): string {
  return oneLine(text).replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}
