/**
 * A verification Web Worker, started by the replay worker's pool (./pool.ts): runs the
 * core's worker handler (src/core/verify/worker-handler.ts) with the fast crypto backend,
 * loaded once per worker.
 */
import { fastContext } from '../core/verify/fast'
import type { FromVerifyWorker, ToVerifyWorker } from '../core/verify/transfer'
import { verifyWorkerHandler } from '../core/verify/worker-handler'

/** The worker scope, typed without the WebWorker lib (the app's tsconfig has the DOM lib). */
const scope = self as unknown as {
  postMessage(message: FromVerifyWorker): void
  onmessage: ((ev: MessageEvent<ToVerifyWorker>) => void) | null
}

const handle = verifyWorkerHandler({ post: (m) => scope.postMessage(m), now: () => performance.now() }, fastContext())
scope.onmessage = (ev) => void handle(ev.data)
