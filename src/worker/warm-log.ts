/**
 * Warm-up on a real log, while the worker is idle: throw-away replays of a few updates of
 * the last log this worker replayed (the app opens its demo log when it loads), so a log
 * opened later meets optimized code.
 *
 * ./warm-up.ts warms the crypto primitives, but a first replay spends most of its time
 * elsewhere: the signature text, the verification around the primitives, apply and its
 * persistent state, the transfer steps. V8 starts all that JavaScript in its interpreter
 * and optimizes a function only after it has run many times: a first replay of 256
 * updates took about 1.4 times the CPU of the same replay run three more times after it
 * (docs/performance.md, the load path).
 *
 * Nothing here is kept or shown: no verdict cache, no smart wallet port (an erc_6492
 * signature is judged unreachable without a request), no message to the app. The replay
 * worker replays (./replay.worker.ts); each verification worker verifies the same updates
 * as jobs of the transfer format (./verify.worker.ts), the replay worker posting them once.
 */
import { replay } from '../core/replay'
import type { InboxLog } from '../core/types'
import { toJob, type VerifyJob } from '../core/verify/transfer'
import { verifyUpdate, type UpdateVerifyOptions } from '../core/verify/update'
import { toTransferStep } from './transfer'
import type { WarmLogOptions } from './warm-jobs'

/** The most updates of a log a warm-up round replays (a round stays short: real work waits for it to stop). */
export const WARM_LOG_UPDATES = 32

/**
 * Warm-up rounds done once a replay of `updates` updates is added to `rounds` (at most
 * `max`): a real replay warms what the rounds would, WARM_LOG_UPDATES updates a round, so a
 * large log leaves none to run while the user steps through it.
 */
export function roundsAfterReplay(rounds: number, updates: number, max: number): number {
  return Math.min(max, rounds + Math.floor(updates / WARM_LOG_UPDATES))
}

/** The first WARM_LOG_UPDATES entries of `log`, in its order (a shorter log of the same inbox). */
export function warmLogOf(log: InboxLog): InboxLog {
  return log.entries.length <= WARM_LOG_UPDATES ? log : { ...log, entries: log.entries.slice(0, WARM_LOG_UPDATES) }
}

/** The jobs of the decoded updates of `log`, for the verification workers' warm-up. */
export function warmJobsOf(log: InboxLog): VerifyJob[] {
  const jobs: VerifyJob[] = []
  log.entries.forEach((e, i) => {
    if (!('error' in e.update)) jobs.push(toJob(i, e.update))
  })
  return jobs
}

/** Why a warm-up replay stopped early (never shown: the warm-up swallows it). */
class WarmUpStopped extends Error {}

/**
 * Up to `rounds` replays of `log` on this thread, as the replay worker replays a log on
 * its own (verifyUpdate with `ctx`, every step converted to the transfer format and
 * dropped). Returns the rounds completed. Never throws.
 */
export async function warmReplay(log: InboxLog, ctx: UpdateVerifyOptions, o: WarmLogOptions): Promise<number> {
  const stop = new AbortController()
  const verify = (u: Parameters<typeof verifyUpdate>[0]): ReturnType<typeof verifyUpdate> => {
    if (o.stop()) stop.abort(new WarmUpStopped())
    return verifyUpdate(u, ctx)
  }
  let rounds = 0
  try {
    while (rounds < o.rounds && !o.stop()) {
      await replay(log, { verifyAfterStop: true, verify, signal: stop.signal, onStep: (s) => void toTransferStep(s) })
      rounds++
      await o.pause()
    }
  } catch {
    // Stopped for real work, or a log this path cannot replay: either way, warm enough.
  }
  return rounds
}
