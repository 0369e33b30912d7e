/**
 * dist-cli/load.cjs (scripts/build-cli.mjs copies this file there), which scripts/cli.cjs
 * (`npm run cli`) and dist-cli/cli.mjs require: runs the bundle dist-cli/cli.cjs from V8's
 * code cache dist-cli/cli.cjs.cache. CommonJS all the way from the launcher: an ES module
 * entry costs Node 20 about 9 ms more of a start (farm-bench, an empty .mjs against .cjs).
 *
 * Node 20 has no compile cache for ES modules (module.enableCompileCache is Node 22), so the
 * bundle is one CommonJS script compiled with `vm.Script` and `cachedData`: V8 then skips
 * parsing and compiling the functions the cache holds (measured: a one-update call's wall
 * time ×0.79, bench/cli.bench.mjs). The cache is written at build time, by a warm-up replay
 * (INBOX_CLI_CODE_CACHE=write) of the bundle in its final place (V8 keeps the script name
 * it was made under, which stack traces show), so it holds the replay path's functions.
 *
 * V8 checks a cache against its own version and flags, but of the source only its length:
 * a cache made for another bundle of the same length would run that bundle's code. So the
 * cache starts with the size and modification time of the cli.cjs it was made from, and is
 * used only when both match. A cache that is missing, stale or rejected only costs the
 * compile it would have saved (INBOX_CLI_CODE_CACHE=report says which); nothing else
 * depends on it.
 */
const { closeSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync } = require('node:fs')
const { createRequire } = require('node:module')
const { join } = require('node:path')
const { Script } = require('node:vm')

const here = __dirname
const file = join(here, 'cli.cjs')
const cacheFile = `${file}.cache`
const HEADER = 16

const fd = openSync(file, 'r')
const { size, mtimeMs } = fstatSync(fd)
const source = readFileSync(fd, 'utf8')
closeSync(fd)
let cachedData
let state = 'none'
try {
  const c = readFileSync(cacheFile)
  const made = c.length > HEADER ? new Float64Array(c.buffer.slice(c.byteOffset, c.byteOffset + HEADER)) : []
  if (made[0] === size && made[1] === mtimeMs) cachedData = c.subarray(HEADER)
  else state = 'stale'
} catch {
  // No cache (not built yet, or a build that could not write one): compile as usual.
}
const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`
const script = new Script(wrapper, { filename: file, ...(cachedData ? { cachedData } : {}) })
if (cachedData) state = script.cachedDataRejected ? 'rejected' : 'used'
if (process.env.INBOX_CLI_CODE_CACHE === 'report') process.stderr.write(`code cache: ${state}\n`)
if (process.env.INBOX_CLI_CODE_CACHE === 'write') {
  // At exit, when the warm-up has compiled what a replay runs; renamed into place, so a
  // process starting meanwhile reads the old cache (refused: stale) or the new one.
  process.once('exit', () => {
    const header = Buffer.from(new Float64Array([size, mtimeMs]).buffer)
    writeFileSync(`${cacheFile}.tmp`, Buffer.concat([header, script.createCachedData()]))
    renameSync(`${cacheFile}.tmp`, cacheFile)
  })
}
const bundle = { exports: {} }
script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, here)
