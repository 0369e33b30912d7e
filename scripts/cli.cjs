#!/usr/bin/env node
/**
 * `npm run cli`: runs the command line's bundle (dist-cli/cli.cjs through dist-cli/load.cjs,
 * ./cli-loader.cjs: V8's code cache; built by `npm ci`'s `prepare`: scripts/build-cli.mjs).
 * CommonJS, like the loader: an ES module entry costs a start about 9 ms more in Node 20.
 * Before it, a guard against a stale bundle (./cli-stale.cjs): when the bundle is missing, or a source file it was built from is newer
 * than it (a developer edited src/ and did not rebuild), it is rebuilt in-process with
 * esbuild first, with a note on stderr. The check stats the bundle's own inputs (about 150
 * files; its cost is printed by `npm run bench`).
 */
const { join } = require('node:path')
const { staleReason } = require('./cli-stale.cjs')

const ROOT = join(__dirname, '..')
const OUT = join(ROOT, 'dist-cli')

const why = staleReason(ROOT, OUT)
if (!why) require(join(OUT, 'load.cjs'))
else {
  import('./build-cli.mjs')
    .then(({ buildCli }) => buildCli())
    .then((ms) => {
      process.stderr.write(`cli: rebuilt the bundle (${why}) in ${Math.round(ms)} ms\n`)
      require(join(OUT, 'load.cjs'))
    })
    .catch((e) => {
      process.stderr.write(`cli: the bundle is stale (${why}) and could not be rebuilt: ${e?.message ?? e}\n`)
      process.exitCode = 1
    })
}
