/**
 * The stale-bundle check of scripts/cli.cjs, apart so it can be tested: why the command
 * line's bundle in `out` must be rebuilt before it runs, or null when it is current.
 * Current means: `out`/cli.mjs, `out`/cli.cjs and `out`/inputs.json exist, the bundle was
 * built by this Node (its code cache is this V8's), and no file listed in inputs.json (paths
 * relative to `root`: the src/ files esbuild read, package-lock.json, the loader) is missing
 * or newer than the bundle.
 */
const { readFileSync, statSync } = require('node:fs')
const { join } = require('node:path')

/** @returns {string | null} */
function staleReason(root, out) {
  let built
  let inputs
  let node
  try {
    built = Math.min(statSync(join(out, 'cli.mjs')).mtimeMs, statSync(join(out, 'cli.cjs')).mtimeMs)
    ;({ inputs, node } = JSON.parse(readFileSync(join(out, 'inputs.json'), 'utf8')))
  } catch {
    return 'there is no bundle'
  }
  if (!Array.isArray(inputs)) return 'inputs.json lists no inputs'
  if (node !== process.version)
    return `it was built by Node ${node ?? 'of another version'}, this is ${process.version}`
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

exports.staleReason = staleReason
