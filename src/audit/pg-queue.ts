/**
 * The distributed driver's job queue: pg-boss 10 (the newest major that runs on Node 20;
 * 11 and 12 need Node 22) in the same PostgreSQL as the results, schema `inbox_audit_boss`.
 * Chosen over graphile-worker 0.16 because a job's expiry is set per queue: a worker that
 * dies holding a job loses it only until `--job-timeout` passes, when pg-boss's supervisor
 * fails the job and retries it (with backoff) on another worker; graphile-worker 0.16 keeps
 * a crashed worker's job locked for four hours.
 *
 * A job is one shard of a run (an inbox-id prefix): `{ run, unit }`. Delivery is at least
 * once; the worker writes the shard's rows and marks it done in one transaction, keyed by
 * run and inbox (./pg-store.ts), so a job run twice is reported once.
 */
import { PgBoss } from './pg-boss'
import type { Queue, Run } from './run'
import { AuditPool, ThreadFailed } from './pool'
import type { AuditStore } from './store'
import { runBatch } from './work'
import { redact, StoreUnreachable } from './pg-store'

const QUEUE = 'inbox-audit-shard'
const SCHEMA = 'inbox_audit_boss'

interface ShardJob {
  readonly run: number
  readonly unit: string
}

async function startBoss(url: string, maintenanceSeconds: number): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    schema: SCHEMA,
    max: 4,
    maintenanceIntervalSeconds: maintenanceSeconds,
    monitorStateIntervalSeconds: 60,
  })
  boss.on('error', () => undefined) // maintenance errors are retried at its next interval
  try {
    await boss.start()
  } catch (e) {
    throw new StoreUnreachable(`--store ${redact(url)}: cannot start the job queue: ${(e as Error).message}`)
  }
  return boss
}

/** The coordinator's side: creates the queue and enqueues shards. */
export async function pgQueue(url: string, o: { jobTimeoutSeconds: number }): Promise<Queue> {
  const boss = await startBoss(url, Math.max(1, Math.min(30, Math.floor(o.jobTimeoutSeconds / 2))))
  if (!(await boss.getQueue(QUEUE)))
    await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 8, retryDelay: 1, retryBackoff: true })
  return {
    async enqueue(run: Run, units: readonly string[]) {
      for (let i = 0; i < units.length; i += 1000)
        await boss.insert(
          units.slice(i, i + 1000).map((unit) => ({
            name: QUEUE,
            data: { run: run.id, unit } satisfies ShardJob,
            singletonKey: `${run.id}:${unit}`,
            expireInSeconds: o.jobTimeoutSeconds,
            retryLimit: 8,
            retryDelay: 1,
            retryBackoff: true,
          })),
        )
    },
    live: () => boss.getQueueSize(QUEUE, { before: 'completed' }),
    close: () => boss.stop({ graceful: false, wait: true }),
  }
}

export interface WorkerOptions {
  readonly url: string
  readonly store: AuditStore
  readonly jobs: number
  readonly chains: readonly string[]
  readonly signal: AbortSignal
  readonly log: (s: string) => void
}

/** `audit-worker`: takes shard jobs until stopped; each job's rows and its done mark in one transaction. */
export async function runWorker(o: WorkerOptions): Promise<void> {
  const boss = await startBoss(o.url, 5)
  if (!(await boss.getQueue(QUEUE)))
    await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 8, retryDelay: 1, retryBackoff: true })
  const pool = new AuditPool(o.jobs, o.chains)
  let done = 0
  const handle = async (jobs: { id: string; data: ShardJob }[]): Promise<void> => {
    for (const job of jobs) {
      const { run: id, unit } = job.data
      const run: Run = { id, resumed: true, meta: { sources: [], chains: [] } }
      const logs = await o.store.shard(run, unit)
      let outcomes
      try {
        outcomes = await pool.run({ kind: 'logs', logs })
      } catch (e) {
        if (!(e instanceof ThreadFailed)) throw e
        outcomes = await runBatch({ kind: 'logs', logs }, o.chains)
      }
      await o.store.commit(
        run,
        [unit],
        outcomes.map((outcome) => ({ unit, outcome })),
      )
      done++
      o.log(`run ${id} shard ${JSON.stringify(unit)}: ${outcomes.length} inboxes (${done} jobs done)`)
    }
  }
  // One fetch loop per thread: each takes one shard at a time.
  for (let i = 0; i < o.jobs; i++)
    await boss.work<ShardJob>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, handle)
  o.log(`taking jobs from ${redact(o.url)} with ${o.jobs} threads`)
  await new Promise<void>((resolve) => {
    if (o.signal.aborted) resolve()
    else o.signal.addEventListener('abort', () => resolve(), { once: true })
  })
  o.log('stopping: finishing the jobs in hand')
  await boss.stop({ graceful: true, wait: true, timeout: 30_000 })
  pool.close()
}
