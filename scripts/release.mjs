// What the release workflow (.github/workflows/release.yml) asks of the repository, kept
// here so that it runs, and is tested, outside GitHub:
//
//   node scripts/release.mjs notes vX.Y.Z   prints CHANGELOG.md's `## vX.Y.Z` section (the
//                                          release notes); fails unless the tag is
//                                          package.json's version and the section exists
//   node scripts/release.mjs major vX.Y.Z   prints `vX`, the major tag to move to this
//                                          release, or nothing when a newer vX.*.* tag
//                                          exists (a fix released for an older minor
//                                          must not move users back)
//
// Both read the repository in the current folder. Exit 1 with one line on stderr when
// the release must not go on, 2 on a usage error.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

const TAG = /^v(\d+)\.(\d+)\.(\d+)$/
const USAGE = 'usage: node scripts/release.mjs notes|major vX.Y.Z'

class Refusal extends Error {}

/** The section of `changelog` under `## <tag>` (up to the next `## `), trimmed. */
function releaseNotes(changelog, tag) {
  const lines = changelog.split('\n')
  // A heading may carry more after the version (a date): `## v1.2.3 — 2027-01-05`.
  const start = lines.findIndex(
    (line) => line.split(/\s+/)[0] === '##' && line.split(/\s+/)[1] === tag
  )
  if (start === -1) throw new Refusal(`CHANGELOG.md has no "## ${tag}" section`)
  const end = lines.findIndex((line, at) => at > start && line.startsWith('## '))
  const notes = lines
    .slice(start + 1, end === -1 ? undefined : end)
    .join('\n')
    .trim()
  if (!notes) throw new Refusal(`CHANGELOG.md's "## ${tag}" section is empty`)
  return notes
}

/** Version numbers of a `vX.Y.Z` tag, compared as numbers. */
function versionOf(tag) {
  return TAG.exec(tag).slice(1).map(Number)
}

function newer(a, b) {
  const [x, y] = [versionOf(a), versionOf(b)]
  const at = x.findIndex((part, i) => part !== y[i])
  return at !== -1 && x[at] > y[at]
}

/** `vX` when no `vX.*.*` tag of the repository is newer than `tag`, else null. */
function majorToMove(tag, tags) {
  const major = `v${versionOf(tag)[0]}`
  const later = tags.filter(
    (other) => TAG.test(other) && other.startsWith(`${major}.`) && newer(other, tag)
  )
  return later.length === 0 ? major : null
}

function notes(tag) {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8'))
  if (`v${version}` !== tag)
    throw new Refusal(
      `the tag ${tag} is not package.json's version (${version}): bump it with npm version first`
    )
  return `${releaseNotes(readFileSync('CHANGELOG.md', 'utf8'), tag)}\n`
}

function major(tag) {
  const tags = execFileSync('git', ['tag', '--list', 'v*'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
  const moved = majorToMove(tag, tags)
  if (moved === null)
    process.stderr.write(
      `a newer v${versionOf(tag)[0]}.*.* tag exists: no major tag moves\n`
    )
  return moved === null ? '' : `${moved}\n`
}

const [command, tag] = process.argv.slice(2)
const commands = { notes, major }
if (!Object.hasOwn(commands, command) || !TAG.test(tag ?? '')) {
  process.stderr.write(`${USAGE}\n`)
  process.exitCode = 2
} else {
  try {
    process.stdout.write(commands[command](tag))
  } catch (error) {
    if (!(error instanceof Refusal)) throw error
    process.stderr.write(`release: ${error.message}\n`)
    process.exitCode = 1
  }
}
