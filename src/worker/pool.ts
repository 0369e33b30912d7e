/**
 * The browser's verification pool: N = navigator.hardwareConcurrency - 1 (at least 1, at
 * most POOL_CAP: the replay worker verifies too, as the pool's helper)
 * verification Web Workers (./verify.worker.ts), started by the replay worker itself
 * (nested dedicated workers), behind the core's VerifyPool (src/core/verify/pool.ts).
 * Each worker is sent the WebAssembly modules this thread compiled, as its first message
 * (./protocol.ts WasmModulesMessage): compiled once per page session, not once per worker.
 * Terminating the replay worker (the app's cancel) ends them with it. A worker that
 * cannot start (a failed load, a CSP refusal) reaches the pool as an error and its jobs
 * fall back to the replay worker's own thread. The replay worker imports this module (and
 * the core's pool with it) when it starts the pool, not with its own script: the demo log
 * at load is verified on its thread alone.
 */
import type { VerdictCache } from '../core/verify/cache'
import { VerifyPool, type SpawnVerifyWorker, type VerifyPoolOptions } from '../core/verify/pool'
import type { FromVerifyWorker, VerifyJob } from '../core/verify/transfer'
import { wasmModule, type WasmName } from '../crypto/wasm-module'
import type { PrimitiveTimings } from './backend-report'
import type { WarmJobsMessage, WasmModulesMessage } from './protocol'

/** The most verification workers a pool starts, whatever the core count. */
const POOL_CAP = 8
/** The latest time per primitive each verification worker reported, by worker index (./verify.worker.ts). */
export const workerTimings = new Map<number, PrimitiveTimings>()

/** The verification workers of this realm not yet terminated. */
const live = new Set<Worker>()

/** The latest warm-up jobs, for the verification workers started after they were posted. */
let warmJobs: readonly VerifyJob[] | null = null

/**
 * Sends every verification worker the jobs of its idle warm-up (./warm-log.ts), and keeps
 * them for the workers started later (the pool starts after the demo log's replay).
 */
export function postWarmJobs(jobs: readonly VerifyJob[]): void {
  warmJobs = jobs
  for (const w of live) w.postMessage({ type: 'warm', jobs } satisfies WarmJobsMessage)
}

/** The compiled WebAssembly modules of this realm, for the verification workers (a module that fails to compile is left out). */
function compiledModules(): Promise<WasmModulesMessage['modules']> {
  const names: WasmName[] = ['secp256k1', 'ed25519', 'hashes']
  return Promise.all(
    names.map((n) =>
      wasmModule(n).then(
        (m) => [n, m] as const,
        () => null,
      ),
    ),
  ).then((pairs) => Object.fromEntries(pairs.filter((p) => p !== null)))
}

/** Starts verification Web Workers, each sent `modules` as its first message once they are compiled. */
function webWorkerSpawner(
  modules: Promise<WasmModulesMessage['modules']>,
  onReady: (index: number) => void,
): SpawnVerifyWorker {
  return (index, events) => {
    const w = new Worker(new URL('./verify.worker.ts', import.meta.url), { type: 'module', name: `verify-${index}` })
    live.add(w)
    w.onmessage = (ev: MessageEvent<FromVerifyWorker | { type: 'profile'; timings: PrimitiveTimings }>) => {
      if (ev.data.type === 'profile') workerTimings.set(index, ev.data.timings)
      else {
        events.message(ev.data)
        if (ev.data.type === 'ready') onReady(index)
      }
    }
    w.onerror = (ev) => {
      ev.preventDefault()
      events.error(`verification worker ${index} stopped: ${ev.message || 'it could not be started'}`)
    }
    w.onmessageerror = () => events.error(`verification worker ${index} sent a message that could not be read`)
    void modules.then((m) => {
      w.postMessage({ type: 'wasm', modules: m } satisfies WasmModulesMessage)
      if (warmJobs && live.has(w)) w.postMessage({ type: 'warm', jobs: warmJobs } satisfies WarmJobsMessage)
    })
    return {
      post: (m) => w.postMessage(m),
      terminate: () => {
        live.delete(w)
        w.terminate()
      },
    }
  }
}

/** A zero-delay yield to the event loop (setTimeout clamps nested calls to 4 ms). */
function deferrer(): (f: () => void) => void {
  const queue: (() => void)[] = []
  const ch = new MessageChannel()
  ch.port1.onmessage = () => queue.shift()?.()
  return (f) => {
    queue.push(f)
    ch.port2.postMessage(null)
  }
}

export interface BrowserPoolOptions {
  /** The WebAssembly modules to send each worker (default: this realm's, compiled once: `compiledModules`). */
  readonly modules?: Promise<WasmModulesMessage['modules']>
  readonly size?: number
  /** Called after each worker has reported ready (the pool's stats count it). */
  readonly onReady?: (index: number) => void
  readonly verdicts?: VerdictCache
  readonly spawn?: SpawnVerifyWorker
}

function poolSize(): number {
  const cores =
    typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 1
  return Math.max(1, Math.min(cores - 1, POOL_CAP))
}

/** A pool of verification workers; `local` verifies on this thread (fallback, erc_6492, help). */
export function browserVerifyPool(local: VerifyPoolOptions['local'], options: BrowserPoolOptions = {}): VerifyPool {
  return new VerifyPool({
    spawn: options.spawn ?? webWorkerSpawner(options.modules ?? compiledModules(), options.onReady ?? (() => {})),
    size: options.size ?? poolSize(),
    local,
    defer: deferrer(),
    now: () => performance.now(),
    ...(options.verdicts ? { verdicts: options.verdicts } : {}),
  })
}
