/**
 * An audit worker thread (./pool.ts): runs batches of the job function (./work.ts) as the
 * main thread sends them, one at a time, and answers each with its outcomes.
 */
import { parentPort } from 'node:worker_threads'
import { type FromAuditThread, packOutcomes, runBatch, type ToAuditThread } from './work'

if (!parentPort) throw new Error('src/audit/thread.ts runs only as a worker thread')
const port = parentPort
port.on('message', (m: ToAuditThread) => {
  runBatch(m.batch, m.chains).then(
    (all) => {
      const { outcomes, transfer } = packOutcomes(all)
      port.postMessage({ id: m.id, ok: true, outcomes } satisfies FromAuditThread, transfer)
    },
    (e: unknown) =>
      port.postMessage({
        id: m.id,
        ok: false,
        error: e instanceof Error ? e.message : String(e),
      } satisfies FromAuditThread),
  )
})
