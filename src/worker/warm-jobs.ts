/**
 * The verification workers' half of the warm-up on a log (./warm-log.ts): the jobs the
 * replay worker posted once, verified again and again while idle. Its own module so that
 * the verification worker's bundle carries no replay, apply or state code.
 */
import { jobUpdate, toResult, type VerifyJob } from '../core/verify/transfer'
import { verifyUpdate, type UpdateVerifyOptions } from '../core/verify/update'

/** Warm-up rounds on a log, in a worker's life: enough for V8 to optimize what a replay runs (measured: docs/performance.md). */
export const WARM_LOG_ROUNDS = 24

export interface WarmLogOptions {
  readonly rounds: number
  /** True once real work has arrived: the warm-up stops between updates. */
  readonly stop: () => boolean
  /** Yields to the event loop between rounds. */
  readonly pause: () => Promise<void>
}

/**
 * Up to `rounds` passes over `jobs` on a verification worker, each job verified as a
 * real one is (./worker-handler.ts) and its result dropped. Returns the passes completed.
 * Never throws.
 */
export async function warmJobs(
  jobs: readonly VerifyJob[],
  ctx: UpdateVerifyOptions,
  o: WarmLogOptions,
): Promise<number> {
  let rounds = 0
  try {
    while (rounds < o.rounds && !o.stop()) {
      for (const job of jobs) {
        if (o.stop()) return rounds
        toResult(job.seq, await verifyUpdate(jobUpdate(job), ctx))
      }
      rounds++
      await o.pause()
    }
  } catch {
    // A job this path cannot verify: warm enough.
  }
  return rounds
}
