#!/usr/bin/env node
/**
 * `npm run cli`: runs the command line's bundle (dist-cli/cli.mjs, built by `npm ci`'s
 * `prepare`: scripts/build-cli.mjs). Before it, a guard against a stale bundle
 * (./cli-stale.mjs): when the bundle is missing, or a source file it was built from is newer
 * than it (a developer edited src/ and did not rebuild), it is rebuilt in-process with
 * esbuild first, with a note on stderr. The check stats the bundle's own inputs (about 150
 * files; its cost is printed by `npm run bench`).
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { staleReason } from './cli-stale.mjs'

const ROOT = join(import.meta.dirname, '..')
const OUT = join(ROOT, 'dist-cli')

const why = staleReason(ROOT, OUT)
if (why) {
  const { buildCli } = await import('./build-cli.mjs')
  const ms = await buildCli()
  process.stderr.write(`cli: rebuilt the bundle (${why}) in ${Math.round(ms)} ms\n`)
}
await import(pathToFileURL(join(OUT, 'cli.mjs')).href)
