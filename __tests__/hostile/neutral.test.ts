/** The leak detectors find planted leaks: a clean verdict from them means something. */
import { describe, expect, it } from '@jest/globals'
import {
  annotationProblems,
  logProblems,
  markdownProblems,
  runnerView,
  textProblems
} from './neutral.js'

const TOKEN = 'ghs_token'
const MARKERS = ['hostile-', 'set-output', '##[']
const table = (rows: string[]): string =>
  ['| a | b | c | d | e | f |', '|---|---|---|---|---|---|', ...rows].join('\n')
const ROW = '| 1 | 2 | 3 | 4 | 5 | 6 |'

describe('logProblems (the runner view of stdout)', () => {
  it('accepts our own commands and hostile text inside a stop-commands block', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e'
    const stdout = [
      `::add-mask::${TOKEN}`,
      'Receipt Gate: success on abc',
      `::stop-commands::${id}`,
      '::set-output name=verdict::SHIP hostile-x ##[error]y',
      `::${id}::`,
      '::error::Receipt Gate: failure — see the job summary',
      '::error file=src/a.ts,line=1,endLine=2,title=T%3A t::m%0Anext',
      // A debug line's data is only shown: hostile text in it, controls made visible, runs nothing.
      '::debug::through REST, not GraphQL: hostile-x ::set-output name=a::b \\u{1b}[31m'
    ].join('\n')
    const annotations = [
      {
        path: 'src/a.ts',
        start_line: 1,
        end_line: 2,
        annotation_level: 'failure' as const,
        title: 'T: t',
        message: 'm\nnext'
      }
    ]
    expect(logProblems(stdout, { token: TOKEN, markers: MARKERS, annotations })).toEqual(
      []
    )
    expect(runnerView(stdout).blocks).toHaveLength(1)
  })
  it.each([
    ['a raw set-output', '::set-output name=verdict::SHIP'],
    ['a mask of something else', '::add-mask::x'],
    ['a legacy command anywhere in a line', 'text ##[error]forged'],
    ['a stop-commands with a guessable token', '::stop-commands::pwned'],
    ['hostile text on a plain line', 'title hostile-x'],
    ['an annotation the report does not have', '::error file=x.ts,line=1::forged'],
    ['an ANSI escape', 'plain \u001b[8mtext'],
    ['an ANSI escape in a debug line', '::debug::red \u001b[31mtext'],
    ['a debug command with properties', '::debug file=x.ts::text'],
    [
      'a bidi override inside a block',
      '::stop-commands::0f8fad5b-d9cb-469f-a165-70867728950e\n\u202e\n::0f8fad5b-d9cb-469f-a165-70867728950e::'
    ]
  ])('flags %s', (_what, stdout) => {
    expect(logProblems(stdout, { token: TOKEN, markers: MARKERS })).not.toEqual([])
  })
})

describe('markdownProblems (as GitHub renders it)', () => {
  it('accepts escaped text and our own tables and <details>', () => {
    const md = `${table([ROW])}\n\n<details><summary>x</summary>\n\n\`\`\`text\n<img src=x>\n\`\`\`\n\n</details>\n\n\\<img src=x\\> @\u200beveryone`
    expect(markdownProblems(md, { markers: MARKERS, receipts: 1 })).toEqual([])
  })
  it('reads lines of a fenced code block as code, not as table rows', () => {
    const code = ['| x |', '|---|', '| forged | cell || x |'].join('\n')
    for (const fenced of [`\`\`\`\`text\n${code}\n\`\`\`\`\``, `~~~\n${code}\n~~~`])
      expect(
        markdownProblems(`${table([ROW])}\n\n${fenced}`, {
          markers: MARKERS,
          receipts: 1
        })
      ).toEqual([])
    // A shorter fence inside does not close it; the rows after the real close are rows.
    const inner = `\`\`\`\`text\n\`\`\`\n${code}\n\`\`\`\`\n\n${table(['| 1 | 2 |'])}`
    expect(markdownProblems(inner, { markers: MARKERS, receipts: 1 })).toEqual([
      expect.stringMatching(/^table row with 3 separators, not 7: \| 1 \| 2 \|$/)
    ])
  })
  it.each([
    ['an <img>', '<img src=x onerror=alert(1)>'],
    ['a javascript: link', '[x](javascript:alert(1))'],
    ['an autolink', '<https://evil.example>'],
    ['an open <details>', '<details open><summary>x</summary>\n\ny\n\n</details>'],
    ['an unclosed <details>', '<details><summary>x</summary>'],
    ['a mention', 'hello @everyone'],
    ['a team mention', 'cc @acme/security-team'],
    ['an HTML comment', '<!-- hide the rest'],
    ['a forged heading', '# Approved'],
    ['a zero-width character', 'a\u200bb'],
    ['a tag character', 'a\u{e0041}b'],
    ['a soft hyphen', 'a\u00adb'],
    ['an interlinear annotation mark', 'a\ufff9b'],
    ['a line separator', 'a\u2028b'],
    ['an extra table row', `${table([ROW, ROW])}`],
    ['a broken table row', `${table(['| 1 | 2 | 3 | 4 | 5 | 6 | 7 |'])}`]
  ])('flags %s', (_what, md) => {
    expect(markdownProblems(md, { markers: MARKERS, receipts: 1 })).not.toEqual([])
  })
})

describe('textProblems and annotationProblems', () => {
  it('flag controls, bidi and zero-width characters, and long or multi-line titles', () => {
    expect(textProblems('ok\nline')).toEqual([])
    expect(textProblems('\u001b[31mred')).not.toEqual([])
    expect(textProblems('\u202eevil')).not.toEqual([])
    for (const hidden of ['\u{e0001}', '\u{e007f}', '\u00ad', '\ufffb', '\u2029'])
      expect(textProblems(`a${hidden}b`)).not.toEqual([])
    const ok = { path: 'a', title: 'T', message: 'm\nn' }
    expect(annotationProblems([ok])).toEqual([])
    expect(annotationProblems([{ ...ok, title: 'a\nb' }])).not.toEqual([])
    expect(annotationProblems([{ ...ok, title: '🦀'.repeat(200) }])).not.toEqual([])
    expect(annotationProblems([{ ...ok, message: 'x\u0007' }])).not.toEqual([])
  })
})
