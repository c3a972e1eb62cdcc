/**
 * YAML for tests that read `action.yml` and the workflows. js-yaml 4 (YAML 1.2 core
 * schema, so `on:` stays a string key) comes with the lint toolchain; it is loaded
 * through `createRequire` so no type package is needed.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const jsYaml = createRequire(import.meta.url)('js-yaml') as {
  load(text: string, options?: { filename?: string }): unknown
}

/** A YAML mapping, as plain data. */
export type YamlMap = { [key: string]: unknown }

/** Parses one YAML document; throws on a syntax error. */
export function parseYaml(text: string, filename?: string): unknown {
  return jsYaml.load(text, { filename })
}

/** Reads a YAML file whose top level must be a mapping. */
export function readYamlMap(path: string): YamlMap {
  const value = parseYaml(readFileSync(path, 'utf8'), path)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${path}: the top level is not a mapping`)
  }
  return value as YamlMap
}

/** `value` as a mapping, or an empty one. */
export function mapOf(value: unknown): YamlMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as YamlMap)
    : {}
}

/** A scalar as text (YAML may read `1000` or `true` as a number or a boolean); '' otherwise. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
    ? String(value)
    : ''
}
