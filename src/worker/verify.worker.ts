/**
 * A verification Web Worker, started by the replay worker's pool (./pool.ts): runs the
 * core's worker handler (src/core/verify/worker-handler.ts) with the fast crypto backend,
 * loaded once per worker. Its `ready` message names the backend with what it could not
 * load and how long loading took (./backend-report.ts), so the pool's stats (and the
 * benchmark) show a worker that runs noble where a fast path was expected.
 */
import { fastContext } from '../core/verify/fast'
import type { FromVerifyWorker, ToVerifyWorker } from '../core/verify/transfer'
import { verifyWorkerHandler } from '../core/verify/worker-handler'
import { describeBackend, timedBackend, type PrimitiveTimings } from './backend-report'

/** The worker scope, typed without the WebWorker lib (the app's tsconfig has the DOM lib). */
const scope = self as unknown as {
  postMessage(message: FromVerifyWorker | { readonly type: 'profile'; readonly timings: PrimitiveTimings }): void
  onmessage: ((ev: MessageEvent<ToVerifyWorker>) => void) | null
}

const t0 = performance.now()
const timings: PrimitiveTimings = {}
const context = fastContext().then(({ ctx }) => ({
  ctx: ctx.crypto ? { ...ctx, crypto: timedBackend(ctx.crypto, timings, () => performance.now()) } : ctx,
  backend: describeBackend(ctx.crypto, performance.now() - t0),
}))
const handle = verifyWorkerHandler({ post: (m) => scope.postMessage(m), now: () => performance.now() }, context)
// After each batch, the time per primitive so far (the pool's host reads it: ./pool.ts).
scope.onmessage = (ev) => void handle(ev.data).then(() => scope.postMessage({ type: 'profile', timings }))
