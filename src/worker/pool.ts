/**
 * The browser's verification pool: N = navigator.hardwareConcurrency - 1 (at least 1, at
 * most POOL_CAP: the replay worker verifies too, as the pool's helper)
 * verification Web Workers (./verify.worker.ts), started by the replay worker itself
 * (nested dedicated workers), behind the core's VerifyPool (src/core/verify/pool.ts).
 * Terminating the replay worker (the app's cancel) ends them with it. A worker that
 * cannot start (a failed load, a CSP refusal) reaches the pool as an error and its jobs
 * fall back to the replay worker's own thread.
 */
import type { VerdictCache } from '../core/verify/cache'
import { VerifyPool, type SpawnVerifyWorker } from '../core/verify/pool'
import type { FromVerifyWorker } from '../core/verify/transfer'
import type { PrimitiveTimings } from './backend-report'
import { verifyUpdate, type UpdateVerifyOptions } from '../core/verify/update'

/** The most verification workers a pool starts, whatever the core count. */
const POOL_CAP = 8
/** Logs with fewer decoded updates are verified in the replay worker alone (see bench). */
export const POOL_THRESHOLD = 32

/** The latest time per primitive each verification worker reported, by worker index (./verify.worker.ts). */
export const workerTimings = new Map<number, PrimitiveTimings>()

const spawnWebWorker: SpawnVerifyWorker = (index, events) => {
  const w = new Worker(new URL('./verify.worker.ts', import.meta.url), { type: 'module', name: `verify-${index}` })
  w.onmessage = (ev: MessageEvent<FromVerifyWorker | { type: 'profile'; timings: PrimitiveTimings }>) => {
    if (ev.data.type === 'profile') workerTimings.set(index, ev.data.timings)
    else events.message(ev.data)
  }
  w.onerror = (ev) => {
    ev.preventDefault()
    events.error(`verification worker ${index} stopped: ${ev.message || 'it could not be started'}`)
  }
  w.onmessageerror = () => events.error(`verification worker ${index} sent a message that could not be read`)
  return { post: (m) => w.postMessage(m), terminate: () => w.terminate() }
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
  readonly size?: number
  readonly verdicts?: VerdictCache
  readonly spawn?: SpawnVerifyWorker
}

function poolSize(): number {
  const cores =
    typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 1
  return Math.max(1, Math.min(cores - 1, POOL_CAP))
}

/** A pool of verification workers; `ctx` verifies on this thread (fallback, erc_6492, help). */
export function browserVerifyPool(ctx: UpdateVerifyOptions, options: BrowserPoolOptions = {}): VerifyPool {
  return new VerifyPool({
    spawn: options.spawn ?? spawnWebWorker,
    size: options.size ?? poolSize(),
    local: (u) => verifyUpdate(u, ctx),
    defer: deferrer(),
    now: () => performance.now(),
    ...(options.verdicts ? { verdicts: options.verdicts } : {}),
  })
}
