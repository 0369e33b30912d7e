/**
 * The stale-bundle check of scripts/cli.mjs, apart so it can be tested: why the command
 * line's bundle in `out` must be rebuilt before it runs, or null when it is current.
 * Current means: `out`/cli.mjs and `out`/inputs.json exist, and no file listed in
 * inputs.json (paths relative to `root`: the src/ files esbuild read, and package-lock.json)
 * is missing or newer than the bundle.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** @returns {string | null} */
export function staleReason(root, out) {
  let built
  let inputs
  try {
    built = statSync(join(out, 'cli.mjs')).mtimeMs
    inputs = JSON.parse(readFileSync(join(out, 'inputs.json'), 'utf8')).inputs
  } catch {
    return 'there is no bundle'
  }
  if (!Array.isArray(inputs)) return 'inputs.json lists no inputs'
  for (const f of inputs) {
    let m
    try {
      m = statSync(join(root, f)).mtimeMs
    } catch {
      return `${f} is gone`
    }
    if (m > built) return `${f} changed`
  }
  return null
}
