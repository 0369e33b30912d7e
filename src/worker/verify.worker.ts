/**
 * A verification Web Worker, started by the replay worker's pool (./pool.ts): runs the
 * core's worker handler (src/core/verify/worker-handler.ts) with the fast crypto backend,
 * loaded once per worker. Its `ready` message names the backend with what it could not
 * load and how long loading took (./backend-report.ts), so the pool's stats (and the
 * benchmark) show a worker that runs noble where a fast path was expected.
 *
 * Start-up is what a cold replay waits for, so this worker loads nothing over the network
 * before it is ready: the fast paths are imported statically (./browser-loaders.ts: one
 * chunk), and the WebAssembly modules come compiled from the replay worker (its first
 * message, ./protocol.ts WasmModulesMessage). Before `ready` it
 * checks the backend on known answers, and warms up while idle after it (./warm-up.ts).
 */
import type { VerifyBackend } from '../crypto/backend'
import { provideWasmModule, type WasmName } from '../crypto/wasm-module'
import type { FromVerifyWorker, ToVerifyWorker, VerifyJob } from '../core/verify/transfer'
import { verifyWorkerHandler } from '../core/verify/worker-handler'
import { describeBackend, timedBackend, type PrimitiveTimings } from './backend-report'
import { loadBrowserBackend, loadNobleBackendInstalled } from './browser-loaders'
import type { WarmJobsMessage, WasmModulesMessage } from './protocol'
import { describeWarmUp, nextTask, WARM_ROUNDS, warmUp } from './warm-up'
import { WARM_LOG_ROUNDS, warmJobs } from './warm-jobs'

/** The worker scope, typed without the WebWorker lib (the app's tsconfig has the DOM lib). */
const scope = self as unknown as {
  postMessage(message: FromVerifyWorker | { readonly type: 'profile'; readonly timings: PrimitiveTimings }): void
  onmessage: ((ev: MessageEvent<ToVerifyWorker | WasmModulesMessage | WarmJobsMessage>) => void) | null
}

/** Milliseconds from the worker's creation (its time origin) to this module's evaluation: thread, fetch, compile. */
const t0 = performance.now()
const timings: PrimitiveTimings = {}

let modulesArrived: () => void = () => {}
/** Settles when the replay worker's modules are provided (or when a job comes first: then this worker compiles its own). */
const modules = new Promise<void>((resolve) => (modulesArrived = resolve))
const now = (): number => performance.now()
/** Set by the first job: the warm-up rounds after `ready` end there. */
let working = false

/** The fast backend once it passed its known-answer round (untimed: the idle warm-ups use it). */
let toWarm: VerifyBackend | null = null
/** Rounds of warm-up on jobs so far, and whether a run of them is under way. */
let jobRounds = 0
let warmingJobs = false
/** The latest warm-up jobs, verified while no real job has come (./warm-log.ts). */
let warmMaterial: readonly VerifyJob[] = []
async function warmOnJobs(): Promise<void> {
  await context
  if (!toWarm || working || warmingJobs || jobRounds >= WARM_LOG_ROUNDS || warmMaterial.length === 0) return
  warmingJobs = true
  jobRounds += await warmJobs(
    warmMaterial,
    { crypto: toWarm },
    {
      rounds: WARM_LOG_ROUNDS - jobRounds,
      stop: () => working,
      pause: nextTask,
    },
  )
  warmingJobs = false
}

const context = loadBrowserBackend(modules).then(async (fast) => {
  const loadMs = now() - t0
  // Before `ready`: one round of known answers (./warm-up.ts), which also compiles and runs
  // each path once; a backend that fails it is not used.
  const test = await warmUp(fast, { rounds: 1, pause: nextTask, now })
  if (test.mismatch) {
    return {
      ctx: { crypto: timedBackend(await loadNobleBackendInstalled(), timings, now) },
      backend: `noble: the fast backend ${describeWarmUp(test)}`,
    }
  }
  toWarm = fast
  // After `ready` (posted when this resolves), more rounds while no job has come, then the
  // warm-up jobs when the replay worker has sent some.
  void nextTask()
    .then(() => (working ? null : warmUp(fast, { rounds: WARM_ROUNDS - 1, stop: () => working, pause: nextTask, now })))
    .then(warmOnJobs)
  return {
    ctx: { crypto: timedBackend(fast, timings, now) },
    backend: `${describeBackend(fast, loadMs)} (script evaluated ${Math.round(t0)} ms after the worker was created), ${describeWarmUp(test)}`,
  }
})
const handle = verifyWorkerHandler({ post: (m) => scope.postMessage(m), now: () => performance.now() }, context)
scope.onmessage = (ev) => {
  const m = ev.data
  if (m.type === 'wasm') {
    for (const [name, module] of Object.entries(m.modules)) provideWasmModule(name as WasmName, module)
    modulesArrived()
    return
  }
  if (m.type === 'warm') {
    warmMaterial = m.jobs
    void warmOnJobs()
    return
  }
  modulesArrived()
  working = true
  // After each batch, the time per primitive so far (the pool's host reads it: ./pool.ts).
  void handle(m).then(() => scope.postMessage({ type: 'profile', timings }))
}
