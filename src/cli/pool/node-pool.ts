/**
 * The command line's verification pool: worker_threads running ./verify-worker.ts,
 * behind the core's VerifyPool (src/core/verify/pool.ts). In the command line's bundle
 * (scripts/build-cli.mjs) each worker loads the bundled worker (dist-cli/verify-worker.mjs);
 * run from TypeScript (tests, tsx) it loads its TypeScript entry through tsx's ESM API
 * (resolved from this file, so it works from any directory).
 *
 * A pool costs its start-up (each worker loads the bundle's worker and its backend: measured
 * by bench/cli.bench.mjs), so logs below POOL_THRESHOLD updates are verified on the
 * main thread, as before. A worker that cannot start falls back to the main thread.
 */
import { availableParallelism } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ReplayOptions } from '../../core/replay'
import type { InboxLog } from '../../core/types'
import type { VerdictCache } from '../../core/verify/cache'
import { poolAhead, VerifyPool, type SpawnVerifyWorker } from '../../core/verify/pool'
import type { FromVerifyWorker } from '../../core/verify/transfer'
import { verifyUpdate, type UpdateVerifyOptions } from '../../core/verify/update'

/**
 * Logs with at least this many updates are verified on the pool (see the module comment).
 * Measured on 2 shared cores (npm run bench, load 11.6): with the WASM primitives one thread
 * verifies a 1,024-update log in about 0.35 CPU-s, less than a bundled worker's start-up and
 * its share of the cores, so the pool waits for logs several times longer.
 */
export const POOL_THRESHOLD = 4096
/**
 * Nor on fewer cores than this: with two, the pool is one worker beside the main thread, and
 * a 10,000-update replay took ×1.18 the wall time with it than without (npm run bench
 * figures in README "Native speed", farm-bench, 4 pairs, load 2.4-3.4): V8's own compiler
 * and collector threads already use much of the second core.
 */
export const POOL_MIN_CORES = 3
/** The most workers a pool starts, whatever the core count. */
const POOL_CAP = 8

const WORKER_URL = new URL('./verify-worker.ts', import.meta.url)

/**
 * The bootstrap script of a worker whose entry is TypeScript: Node 20 does not apply
 * `--import` loader hooks to a worker's own entry module, so the worker registers tsx's
 * ESM hooks itself (tsx/esm/api) and then imports the TypeScript entry.
 */
function bootstrapScript(entry: URL): string {
  const api = pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs'),
  ).href
  return `import(${JSON.stringify(api)}).then((t) => t.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)})).catch((e) => { throw e })`
}

/** A worker thread running a TypeScript entry through tsx (also the local node's judge worker). */
export function startTsWorker(entry: URL, name: string): Worker {
  return new Worker(bootstrapScript(entry), { eval: true, execArgv: [], name })
}

/** Defined (true) by scripts/build-cli.mjs in the command line's bundle. */
declare const __INBOX_CLI_BUNDLE__: boolean | undefined
/** In the bundle, the worker is the bundled dist-cli/verify-worker.mjs beside it: no tsx, no TypeScript. */
const BUNDLED = typeof __INBOX_CLI_BUNDLE__ !== 'undefined' && __INBOX_CLI_BUNDLE__

function startWorker(index: number): Worker {
  const name = `verify-${index}`
  if (BUNDLED) return new Worker(new URL('./verify-worker.mjs', import.meta.url), { execArgv: [], name })
  return startTsWorker(WORKER_URL, name)
}

/** Starts one worker thread; its load failures and exits reach the pool as errors. */
export const spawnNodeWorker: SpawnVerifyWorker = (index, events) => {
  const w = startWorker(index)
  let stopped = false
  w.on('message', (m: FromVerifyWorker) => events.message(m))
  w.on('error', (e) => events.error(`worker ${index} failed: ${e.message}`))
  w.on('messageerror', (e) => events.error(`worker ${index} sent an unreadable message: ${e.message}`))
  w.on('exit', (code) => {
    if (!stopped) events.error(`worker ${index} exited with status ${code}`)
  })
  return {
    post: (m) => w.postMessage(m),
    terminate: () => {
      stopped = true
      void w.terminate()
    },
  }
}

export interface NodePoolOptions {
  /**
   * Workers to start. Default: one per core but one, at most POOL_CAP, at least one: the
   * main thread verifies too (the pool's helper) besides decoding and applying.
   */
  readonly size?: number
  readonly verdicts?: VerdictCache
  /** How workers are started (tests inject failures). */
  readonly spawn?: SpawnVerifyWorker
  /** The machine's cores (default availableParallelism(); tests give their own). */
  readonly cores?: number
}

/** The pool's worker count: `size`, or one fewer than the cores (the main thread verifies too), at most POOL_CAP. */
const poolSize = (options: NodePoolOptions): number =>
  options.size ?? Math.max(1, Math.min(availableParallelism() - 1, POOL_CAP))

/** A pool of worker threads; `ctx` verifies on the main thread (fallback, erc_6492). */
export function nodeVerifyPool(ctx: UpdateVerifyOptions, options: NodePoolOptions = {}): VerifyPool {
  return new VerifyPool({
    spawn: options.spawn ?? spawnNodeWorker,
    size: poolSize(options),
    local: (u) => verifyUpdate(u, ctx),
    defer: (f) => void setImmediate(f),
    now: () => performance.now(),
    ...(options.verdicts ? { verdicts: options.verdicts } : {}),
  })
}

/** The entries of the logs that would be verified (decoded updates). */
const decodedCount = (logs: readonly InboxLog[]): number =>
  logs.reduce((n, l) => n + l.entries.filter((e) => !('error' in e.update)).length, 0)

/**
 * The environment's say, for tests and benchmarks of whole processes:
 * INBOX_CLI_POOL_THRESHOLD=N starts the pool from N updates instead of POOL_THRESHOLD, and
 * INBOX_CLI_POOL_STATS=1 prints the pool's use on stderr when the command finishes.
 */
function envThreshold(): number | undefined {
  const v = process.env.INBOX_CLI_POOL_THRESHOLD
  return v !== undefined && /^[0-9]+$/.test(v) ? Number(v) : undefined
}

function reportPool(pool: VerifyPool): void {
  if (process.env.INBOX_CLI_POOL_STATS !== '1') return
  const s = pool.stats()
  process.stderr.write(
    `pool: ${s.ready}/${s.size} workers ready (${s.backends.join(', ') || 'none'}), ${s.remote} updates verified by workers, ${s.local} on the main thread, start-up ${s.startupMs.map(Math.round).join(', ')} ms${s.failures.length ? `; failures: ${s.failures.join('; ')}` : ''}\n`,
  )
}

/**
 * The replay options of the fast path for a set of logs: a pool when they hold at least
 * `threshold` updates in all (default: POOL_THRESHOLD on POOL_MIN_CORES cores or more,
 * never on fewer), else main-thread verification. `close()` stops the pool.
 */
export function fastReplayOptions(
  logs: readonly InboxLog[],
  ctx: UpdateVerifyOptions,
  options: NodePoolOptions & { readonly threshold?: number } = {},
): { readonly replay: ReplayOptions; readonly pool: VerifyPool | null; close(): void } {
  const threshold =
    options.threshold ??
    envThreshold() ??
    ((options.cores ?? availableParallelism()) >= POOL_MIN_CORES ? POOL_THRESHOLD : Number.POSITIVE_INFINITY)
  if (decodedCount(logs) < threshold) {
    return {
      replay: { ...ctx, ...(options.verdicts ? { verdicts: options.verdicts } : {}) },
      pool: null,
      close: () => undefined,
    }
  }
  // Started on the first update replay verifies (issue #14, finding 8): a log that stops
  // at its first update (a million tiny updates) never pays for worker threads.
  let pool: VerifyPool | null = null
  const start = (): VerifyPool => (pool ??= nodeVerifyPool(ctx, options))
  return {
    replay: {
      ...ctx,
      verify: (u, i) => start().verify(u, i),
      verifyAhead: poolAhead(poolSize(options)),
    },
    get pool() {
      return pool
    },
    close: () => {
      if (!pool) return
      reportPool(pool)
      pool.close('the command finished')
    },
  }
}
