#!/usr/bin/env node
// Regenerates __tests__/support/github-api/openapi-operations.json: the operations the fake
// GitHub API serves, cut out of GitHub's own OpenAPI description (npm `@octokit/openapi`),
// with every component they reference and OpenAPI 3.0 `nullable` rewritten for Ajv.
//
//   npm run openapi:extract                       # installs @octokit/openapi into a temp dir
//   npm run openapi:extract -- --from FILE.json   # uses an already unpacked description
//   npm run openapi:extract -- --version 23.0.2   # another package version
//
// The package unpacks to ~385 MB, so it is never a dependency of the project: it is installed
// with --no-save into a temporary prefix that is removed afterwards.
import { Buffer } from 'node:buffer'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, '__tests__/support/github-api/openapi-operations.json')
const PACKAGE = '@octokit/openapi'
const DEFAULT_VERSION = '23.0.2'

/** The operations the fake serves (operationId). Add one here, then re-run the script. */
export const OPERATIONS = [
  'pulls/get',
  'pulls/list',
  'pulls/list-files',
  'pulls/list-commits',
  'repos/list-pull-requests-associated-with-commit',
  'repos/compare-commits-with-basehead',
  'repos/list-commits',
  'repos/get-commit',
  'repos/get-content',
  'git/get-tree',
  'git/get-blob',
  'git/get-commit',
  'checks/create',
  'checks/update',
  'checks/get',
  'checks/list-for-ref',
  'checks/list-annotations'
]
/** Components the fake uses for its own error bodies. */
const EXTRA_COMPONENTS = [
  '#/components/schemas/basic-error',
  '#/components/schemas/validation-error'
]
/** Keys holding prose or samples only; dropped unless they are a property name. */
const DROP = new Set([
  'description',
  'example',
  'examples',
  'x-github',
  'x-octokit',
  'tags'
])
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options']

function args(argv) {
  const out = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--from' || a === '--version' || a === '--out') out[a.slice(2)] = argv[++i]
    else throw new Error(`unknown argument ${a}`)
  }
  return out
}

function loadDescription(opts) {
  if (opts.from) return { doc: JSON.parse(readFileSync(opts.from, 'utf8')), pkg: 'file' }
  const version = opts.version ?? DEFAULT_VERSION
  const dir = mkdtempSync(join(tmpdir(), 'openapi-extract-'))
  try {
    process.stderr.write(`installing ${PACKAGE}@${version} into ${dir} (--no-save)…\n`)
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--prefix',
        dir,
        `${PACKAGE}@${version}`
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], cwd: dir }
    )
    const base = join(dir, 'node_modules', PACKAGE)
    const pkg = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'))
    // Only the one file: requiring the package's index loads all ten descriptions (~8 s).
    const doc = JSON.parse(
      readFileSync(join(base, 'generated/api.github.com.json'), 'utf8')
    )
    return { doc, pkg: `${PACKAGE}@${pkg.version}` }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Deep copy without prose; `properties` maps keep their (property-name) keys. */
function strip(node, inProperties = false) {
  if (Array.isArray(node)) return node.map((n) => strip(n))
  if (!node || typeof node !== 'object') return node
  const out = {}
  for (const [k, v] of Object.entries(node)) {
    if (!inProperties && DROP.has(k)) continue
    out[k] = strip(v, !inProperties && k === 'properties')
  }
  return out
}

function lookup(doc, ref) {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((o, k) => (o == null ? undefined : o[k]), doc)
}

function collectRefs(node, into) {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, into))
  else if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string') into.push(node.$ref)
    Object.values(node).forEach((n) => collectRefs(n, into))
  }
}

/** OpenAPI 3.0 `nullable` -> JSON Schema Ajv understands (github-contract.md §6.3). */
export function normalizeNullable(doc) {
  let enums = 0
  let typeless = 0
  const walk = (n) => {
    if (Array.isArray(n)) return n.forEach(walk)
    if (!n || typeof n !== 'object') return
    Object.values(n).forEach(walk)
    if (n.nullable === true) {
      if (Array.isArray(n.enum) && !n.enum.includes(null)) {
        n.enum.push(null)
        enums++
      }
      if (n.type === undefined) {
        const inner = { ...n }
        delete inner.nullable
        for (const k of Object.keys(n)) delete n[k]
        n.anyOf = [inner, { type: 'null' }]
        typeless++
      }
    }
  }
  walk(doc)
  return { enums, typeless }
}

function extract(full, pkg) {
  const paths = {}
  const found = new Set()
  for (const [tpl, item] of Object.entries(full.paths)) {
    for (const m of METHODS) {
      const op = item[m]
      if (!op || !OPERATIONS.includes(op.operationId)) continue
      found.add(op.operationId)
      const responses = {}
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const resp = r.$ref ? { $ref: r.$ref } : { ...r }
        // The fake answers JSON only; other media types would just bloat the file.
        if (resp.content) {
          resp.content = resp.content['application/json']
            ? { 'application/json': resp.content['application/json'] }
            : undefined
        }
        responses[status] = resp
      }
      paths[tpl] ??= {}
      paths[tpl][m] = strip({
        operationId: op.operationId,
        summary: op.summary,
        externalDocs: op.externalDocs,
        parameters: op.parameters,
        requestBody: op.requestBody,
        responses
      })
    }
  }
  const missing = OPERATIONS.filter((o) => !found.has(o))
  if (missing.length)
    throw new Error(`operations not in the description: ${missing.join(', ')}`)

  const components = {}
  const queue = []
  collectRefs(paths, queue)
  queue.push(...EXTRA_COMPONENTS)
  const seen = new Set()
  while (queue.length) {
    const ref = queue.pop()
    if (seen.has(ref)) continue
    seen.add(ref)
    if (!ref.startsWith('#/components/')) throw new Error(`external $ref ${ref}`)
    const [, , kind, name] = ref.split('/')
    const value = lookup(full, ref)
    if (value === undefined) throw new Error(`dangling $ref ${ref}`)
    const copy = strip(value)
    if (kind === 'responses' && copy.content) {
      copy.content = copy.content['application/json']
        ? { 'application/json': copy.content['application/json'] }
        : undefined
    }
    components[kind] ??= {}
    components[kind][name] = copy
    collectRefs(copy, queue)
  }
  for (const kind of Object.keys(components)) {
    components[kind] = Object.fromEntries(
      Object.entries(components[kind]).sort(([a], [b]) => a.localeCompare(b))
    )
  }
  const doc = {
    openapi: full.openapi,
    info: { title: full.info.title, version: full.info.version },
    'x-extract': {
      source: `${pkg} generated/api.github.com.json`,
      script: 'scripts/openapi-extract.mjs',
      operations: [...OPERATIONS].sort(),
      fixes: {}
    },
    paths,
    components
  }
  doc['x-extract'].fixes = normalizeNullable(doc)
  return doc
}

async function main() {
  const opts = args(process.argv.slice(2))
  const { doc: full, pkg } = loadDescription(opts)
  const doc = extract(full, pkg)
  let text = JSON.stringify(doc, null, 2) + '\n'
  try {
    const prettier = await import('prettier')
    const config = (await prettier.resolveConfig(OUT)) ?? {}
    text = await prettier.format(text, { ...config, parser: 'json' })
  } catch {
    // prettier is a devDependency; without it the file is still valid JSON.
  }
  const out = opts.out ? resolve(opts.out) : OUT
  writeFileSync(out, text)
  const fixes = doc['x-extract'].fixes
  process.stderr.write(
    `wrote ${out}: ${Buffer.byteLength(text)} bytes, ${OPERATIONS.length} operations, ` +
      `${Object.values(doc.components).reduce((n, c) => n + Object.keys(c).length, 0)} components, ` +
      `nullable fixes: ${fixes.typeless} typeless, ${fixes.enums} enums (${doc.info.version})\n`
  )
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`)
    process.exit(1)
  })
}
