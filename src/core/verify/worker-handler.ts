/**
 * The inside of a verification worker (./pool.ts): verifies each job of a batch with
 * verifyUpdate under the worker's context (its crypto backend, loaded once) and answers
 * with the results in the transfer format of ./transfer.ts. Pure: the host (a Web
 * Worker, a worker_thread) wires `post` and its clock.
 */
import { jobUpdate, toResult, type FromVerifyWorker, type ToVerifyWorker, type VerifyResult } from './transfer'
import { verifyUpdate, type UpdateVerifyOptions } from './update'

export interface VerifyWorkerHost {
  post(m: FromVerifyWorker): void
  /** Milliseconds, for the time spent verifying (performance.now in both hosts). */
  now(): number
}

/**
 * Returns the worker's message handler. `context` is awaited once (it may load a fast
 * backend); `backendName` names it in the `ready` message.
 */
export function verifyWorkerHandler(
  host: VerifyWorkerHost,
  context: Promise<{ readonly ctx: UpdateVerifyOptions; readonly backend: string }>,
): (m: ToVerifyWorker) => Promise<void> {
  const ready = context.then((c) => {
    host.post({ type: 'ready', backend: c.backend })
    return c.ctx
  })
  return async (m) => {
    if (m.type !== 'verify') return
    try {
      const ctx = await ready
      const t0 = host.now()
      // All at once: an asynchronous backend (WebCrypto) overlaps its calls.
      const results: VerifyResult[] = await Promise.all(
        m.jobs.map(async (job) => toResult(job.seq, await verifyUpdate(jobUpdate(job), ctx))),
      )
      host.post({ type: 'verified', batch: m.batch, results, cpuMs: host.now() - t0 })
    } catch (e) {
      host.post({ type: 'failed', batch: m.batch, message: e instanceof Error ? e.message : String(e) })
    }
  }
}
