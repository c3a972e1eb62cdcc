/**
 * Which task bullets of a PR body a reader sees. The audit reads with commonmark.js;
 * markdown-it, another CommonMark renderer, is the independent oracle: a bullet the audit
 * counts must render as a list item that opens with its checkbox and text, never inside
 * a comment, an HTML block or code, and every such item must be counted.
 */
import { describe, expect, it } from '@jest/globals'
import MarkdownIt from 'markdown-it'
import { visibleTaskBullets } from '../../src/gate/visible-bullets.js'

const md = new MarkdownIt({ html: true })

/** The marks a reader sees as a task item's text, per markdown-it. */
function renderedMarks(body: string): Set<string> {
  const html = md.render(body)
  return new Set(
    [...html.matchAll(/<li>(?:\s*<p>)?\[ \] (M\d+)\b/g)].map((m) => m[1] ?? '')
  )
}

const countedMarks = (body: string): Set<string> =>
  new Set(
    visibleTaskBullets(body).flatMap((line) =>
      [...line.matchAll(/\bM\d+\b/g)].map((m) => m[0])
    )
  )

/** A seeded generator (mulberry32), so a failure names a body that can be rebuilt. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Lines that open, close or sit inside the blocks that hide text, at several indents.
const PIECES = [
  '',
  '',
  'text',
  '```',
  '````',
  '~~~',
  '``` `x`',
  '<!--',
  '-->',
  '<!-- one line -->',
  '<!-->',
  '<div>',
  '</div>',
  '<pre>',
  '</pre>',
  '<span>',
  '<?php',
  '?>',
  '> quoted',
  '> ```',
  '- item',
  '1. item',
  '2) item',
  '* * *',
  '---',
  '# heading',
  '-',
  '- ```',
  '- <!--',
  '\tx',
  '<script>',
  '</script>',
  'a <!-- b',
  'c --> d',
  '- [ ] <!-- M0 -->',
  '===',
  '>',
  '> - x',
  '<![CDATA[',
  ']]>',
  '<!DOCTYPE x'
]
const INDENTS = ['', '', '', ' ', '  ', '   ', '    ', '      ', '\t']
/**
 * A list marker's indents: none makes an item wider than 4 columns. Below such an item
 * markdown-it ends the item at an indented line where CommonMark (GitHub's renderer)
 * continues its paragraph lazily; the audit reads it as CommonMark does.
 */
const MARKER_INDENTS = ['', '', ' ', '  ', '    ', '      ']

function randomBody(next: () => number, marks: { n: number }): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const lines: string[] = []
  const length = 3 + Math.floor(next() * 14)
  for (let i = 0; i < length; i++) {
    if (next() < 0.35) {
      const bullet = pick(['-', '*', '+'])
      lines.push(
        `${pick(MARKER_INDENTS)}${bullet} [ ] M${marks.n++} — deferred from impl-review (x)`
      )
      continue
    }
    const piece = pick(PIECES)
    // An ordered marker is wider than a bullet: unindented it stays within 4 columns. A
    // `>` indented 4 or more continues a quote in markdown-it, never in CommonMark.
    const indent = /^\d/.test(piece)
      ? ''
      : /^[-*+](?: |$)/.test(piece)
        ? pick(MARKER_INDENTS)
        : pick(piece.startsWith('>') ? INDENTS.slice(0, 6) : INDENTS)
    lines.push(`${indent}${piece}`)
  }
  return lines.join('\n')
}

describe('visible task bullets', () => {
  it('names each hiding block (comment, HTML, fenced and indented code) and keeps the plain ones', () => {
    const body = [
      '- [ ] M1 visible',
      '<!--',
      '- [ ] M2 in a comment',
      '-->',
      '```',
      '- [ ] M3 fenced',
      '```',
      '',
      '    - [ ] M4 indented code',
      '',
      '- parent',
      '    - [ ] M5 nested, visible',
      '<div>',
      '- [ ] M6 in an HTML block',
      '',
      '- [ ] <!-- M7 --> hidden mark, visible box',
      '- [ ] M8 <!-- unclosed M9'
    ].join('\n')
    expect(countedMarks(body)).toEqual(new Set(['M1', 'M5', 'M8']))
    expect(countedMarks(body)).toEqual(
      new Set([...renderedMarks(body)].filter((m) => m !== 'M7'))
    )
  })

  it('counts exactly the bullets markdown-it shows (5,000 generated bodies)', () => {
    const next = random(20261206)
    const marks = { n: 0 }
    let shown = 0
    for (let i = 0; i < 5000; i++) {
      const body = randomBody(next, marks)
      const rendered = renderedMarks(body)
      const mine = countedMarks(body)
      const leaked = [...mine].filter((mark) => !rendered.has(mark))
      const missed = [...rendered].filter((mark) => !mine.has(mark))
      expect({ body, leaked, missed }).toEqual({ body, leaked: [], missed: [] })
      shown += rendered.size
    }
    // The generator is not blind: thousands of bullets are shown.
    expect(shown).toBeGreaterThan(5000)
  })

  it('stops at a line nesting past 100 containers: nothing from it on counts (the parse stays linear)', () => {
    const deep = `${'> - '.repeat(60)}x`
    const body = `- [ ] M1 a\n${deep}\n${'\n'.repeat(1000)}- [ ] M2 b`
    expect(countedMarks(body)).toEqual(new Set(['M1']))
    expect(countedMarks(`${'> - '.repeat(40)}x\n\n- [ ] M3 c`)).toEqual(new Set(['M3']))
    // Cutting keeps a block open, never shows a hidden line.
    expect(countedMarks(`<!--\n${deep}\n-->\n- [ ] M4 d`)).toEqual(new Set())
  })

  it('reads hostile inline text as text, whatever its size (the inline pass is skipped)', () => {
    const hostile = ['[a](b'.repeat(13_000), '*a **b'.repeat(10_000), '`'.repeat(30_000)]
    const body = [
      '- [ ] M1 a',
      ...hostile.map((text) => `- [ ] M2 ${text}`),
      '>'.repeat(65_536)
    ]
    expect(countedMarks(body.join('\n'))).toEqual(new Set(['M1', 'M2']))
    expect(visibleTaskBullets(body.join('\n'))).toHaveLength(4)
  })

  it('ends lines as GitHub does: a lone carriage return too', () => {
    expect(visibleTaskBullets('- [ ] M1 a\r```\r- [ ] M2 b\r```\r- [ ] M3 c')).toEqual([
      '- [ ] M1 a',
      '- [ ] M3 c'
    ])
  })
})
