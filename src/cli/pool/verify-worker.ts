/**
 * A verification worker thread of the command line's pool (./node-pool.ts): runs the
 * core's worker handler (src/core/verify/worker-handler.ts) over worker_threads
 * messages, with the crypto backend loaded once (src/core/verify/fast.ts).
 */
import { parentPort } from 'node:worker_threads'
import { performance } from 'node:perf_hooks'
import type { FromVerifyWorker, ToVerifyWorker } from '../../core/verify/transfer'
import { verifyWorkerHandler } from '../../core/verify/worker-handler'
import { fastContext } from '../../core/verify/fast'

if (!parentPort) throw new Error('src/cli/pool/verify-worker.ts runs only as a worker thread')
const port = parentPort
const handle = verifyWorkerHandler(
  { post: (m: FromVerifyWorker) => port.postMessage(m), now: () => performance.now() },
  fastContext(),
)
port.on('message', (m: ToVerifyWorker) => void handle(m))
