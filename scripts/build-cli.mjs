#!/usr/bin/env node
/**
 * Builds the command line's bundle (the `prepare` script, so `npm ci` builds it; contract:
 * ../shared/contracts/cli.md allows this): esbuild bundles src/cli/bin.ts and the pool's
 * worker (src/cli/pool/verify-worker.ts) with every dependency into dist-cli/cli.mjs and
 * dist-cli/verify-worker.mjs, copies the fast backend's WebAssembly (src/crypto/wasm/*.wasm)
 * to dist-cli/wasm/, builds its native addon (src/crypto/native/build.mjs: when there is a C
 * compiler; without one a note says so and the WebAssembly serves) and copies it to
 * dist-cli/native/, and writes dist-cli/inputs.json: the source files it read, which
 * scripts/cli.cjs compares with the bundle's time to rebuild a stale bundle.
 *
 * Started from the command line it builds; scripts/cli.cjs imports `buildCli` to rebuild
 * in-process. Files are written to a temporary directory and renamed into place, so a
 * process already running the old bundle, or starting meanwhile, never reads half a file.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildNative, NATIVE_INPUTS } from '../src/crypto/native/build.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const OUT = join(ROOT, 'dist-cli')
/** The warm-up log of the code cache: every kind of signature, a revocation, a handle claim. */
const WARM_UP = join(ROOT, 'test', 'fixtures', 'valid-full-life.json')

/**
 * V8's code cache of cli.cjs (./cli-loader.cjs), written by a warm-up replay of a fixture by
 * the bundle in its place, in a child process of this same Node with no flags (V8 rejects a
 * cache made under others), so the cache holds what a replay compiles. Without it the command
 * line still runs, compiling.
 */
function writeCodeCache(dir) {
  const r = spawnSync(process.execPath, [join(dir, 'cli.mjs'), 'replay', '--json', WARM_UP], {
    // Not `execArgv`: a cache made under the builder's flags would be rejected without them.
    cwd: ROOT,
    env: { ...process.env, INBOX_CLI_CODE_CACHE: 'write' },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`the code cache's warm-up replay failed (${r.status ?? r.signal}): ${r.stderr}`)
}

/**
 * The native addon, built if it is not current (src/crypto/native/build.mjs), or null with a
 * note on stderr when it cannot be: the command line then uses the WebAssembly modules.
 * INBOX_NATIVE=0 leaves it out (the WebAssembly path, as on a machine without a compiler).
 */
function nativeAddon() {
  if (process.env.INBOX_NATIVE === '0') return null
  try {
    const r = buildNative()
    if (r.built) process.stderr.write(`build-cli: built the native addon in ${r.ms.toFixed(0)} ms\n`)
    return existsSync(r.file) ? r.file : null
  } catch (e) {
    process.stderr.write(
      `build-cli: no native addon (${e?.message ?? e}); the command line uses the WebAssembly modules\n`,
    )
    return null
  }
}

/** Builds the bundle into dist-cli/; returns the milliseconds it took. */
export async function buildCli(options = {}) {
  const t0 = performance.now()
  const native = nativeAddon()
  const { build } = await import('esbuild')
  const tmp = `${OUT}.tmp-${process.pid}-${Date.now()}`
  rmSync(tmp, { recursive: true, force: true })
  const shared = {
    absWorkingDir: ROOT,
    outdir: tmp,
    bundle: true,
    platform: 'node',
    // ES module builds first (hash-wasm's UMD main would hide its named exports behind `default`).
    mainFields: ['module', 'main'],
    target: 'node20',
    // Loaded from node_modules when used: the native SQLite binding, and PostgreSQL's client and
    // job queue (only `audit --store` and `audit-worker` need them; bundled, they were a fifth
    // of the script every command parses).
    external: ['better-sqlite3', 'pg', 'pg-boss'],
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
    // Less to parse at every start; identifiers kept, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
  }
  // The command line: ONE CommonJS script (cli.cjs), which ./cli-loader.cjs (copied to
  // load.cjs) compiles with V8's code cache; viem and Connect-ES are in it but evaluated only
  // on use (esbuild's lazy module wrappers: --chain, fetch).
  const main = await build({
    ...shared,
    entryPoints: { cli: 'src/cli/bin.ts' },
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // The bundle's worker spawner loads ./verify-worker.mjs instead of TypeScript through tsx;
    // import.meta.url (the wasm and the worker beside the bundle) is the script's own URL.
    define: { __INBOX_CLI_BUNDLE__: 'true', 'import.meta.url': '__inboxScriptUrl' },
    banner: { js: "const __inboxScriptUrl = require('node:url').pathToFileURL(__filename).href;" },
  })
  // The verification worker (and the benchmarks): ES modules sharing chunks.
  const rest = await build({
    ...shared,
    entryPoints: {
      'verify-worker': 'src/cli/pool/verify-worker.ts',
      'audit-thread': 'src/audit/thread.ts',
      // `npm run bench` only (bench/cli.bench.mjs): the plain reference and the in-process comparison.
      ...(options.bench
        ? {
            'bench-plain': 'bench/plain-replay.ts',
            'bench-verify': 'bench/verify.bench.ts',
            'bench-profile': 'bench/profile-replay.ts',
          }
        : {}),
    },
    outExtension: { '.js': '.mjs' },
    splitting: true,
    // Flat: chunks sit beside the entries, so new URL('./wasm/…' / './verify-worker.mjs', import.meta.url) resolves the same from any of them.
    chunkNames: '[name]-[hash]',
    format: 'esm',
    define: { __INBOX_CLI_BUNDLE__: 'true' },
    // Packages written for CommonJS call require(): give the ESM bundle one.
    banner: {
      js: "import { createRequire as __inboxRequire } from 'node:module'; const require = __inboxRequire(import.meta.url);",
    },
  })
  copyFileSync(join(ROOT, 'scripts', 'cli-loader.cjs'), join(tmp, 'load.cjs'))
  // `node dist-cli/cli.mjs` runs the bundle too (no stale check: that is scripts/cli.cjs's).
  writeFileSync(join(tmp, 'cli.mjs'), "import './load.cjs'\n")
  mkdirSync(join(tmp, 'wasm'), { recursive: true })
  const wasmDir = join(ROOT, 'src', 'crypto', 'wasm')
  for (const f of readdirSync(wasmDir)) if (f.endsWith('.wasm')) copyFileSync(join(wasmDir, f), join(tmp, 'wasm', f))
  if (native) {
    mkdirSync(join(tmp, 'native'), { recursive: true })
    copyFileSync(native, join(tmp, 'native', 'inbox-crypto.node'))
  }
  const read = new Set([...Object.keys(main.metafile.inputs), ...Object.keys(rest.metafile.inputs)])
  const inputs = [...read].filter((p) => !p.startsWith('node_modules/'))
  writeFileSync(
    join(tmp, 'inputs.json'),
    `${JSON.stringify({ inputs: [...inputs, 'package-lock.json', 'scripts/cli-loader.cjs', ...NATIVE_INPUTS], node: process.version })}\n`,
  )
  // Into place file by file: chunks first (content-hashed names, so an old bundle still
  // running keeps finding its own), then the wasm, the entries (each rename atomic), and
  // inputs.json last. Chunks of earlier builds are left (small; `rm -rf dist-cli` clears them).
  mkdirSync(join(OUT, 'wasm'), { recursive: true })
  const entries = new Set([
    'cli.mjs',
    'cli.cjs',
    'load.cjs',
    'verify-worker.mjs',
    'audit-thread.mjs',
    'bench-plain.mjs',
    'bench-verify.mjs',
    'bench-profile.mjs',
    'inputs.json',
  ])
  const files = readdirSync(tmp).filter((f) => f !== 'wasm' && f !== 'native')
  for (const f of files.filter((f) => !entries.has(f))) renameSync(join(tmp, f), join(OUT, f))
  for (const f of readdirSync(join(tmp, 'wasm'))) renameSync(join(tmp, 'wasm', f), join(OUT, 'wasm', f))
  // The addon by a new name, never over the file a running process has mapped; an old one is
  // removed, so a bundle built without a compiler does not keep a stale addon.
  mkdirSync(join(OUT, 'native'), { recursive: true })
  if (native) renameSync(join(tmp, 'native', 'inbox-crypto.node'), join(OUT, 'native', 'inbox-crypto.node'))
  else rmSync(join(OUT, 'native', 'inbox-crypto.node'), { force: true })
  for (const f of files.filter((f) => entries.has(f) && f !== 'inputs.json')) renameSync(join(tmp, f), join(OUT, f))
  renameSync(join(tmp, 'inputs.json'), join(OUT, 'inputs.json'))
  rmSync(tmp, { recursive: true, force: true })
  writeCodeCache(OUT)
  return performance.now() - t0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ms = await buildCli({ bench: process.argv.includes('--bench') })
  console.log(`built ${relative(process.cwd(), OUT)}/cli.mjs in ${ms.toFixed(0)} ms`)
}
