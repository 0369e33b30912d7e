/**
 * Verification off the request path (issue #14, finding 1). An update with many
 * signatures is verified on a worker thread (the command line's worker pool,
 * src/cli/pool/node-pool.ts, behind the core's VerifyPool), so the node's one JavaScript
 * thread keeps answering other requests while it judges: a 4,000-action update held
 * every request for 15 s when its 8,000 signatures were verified on the request's thread.
 *
 * An update with at most MAIN_THREAD_SIGNATURES signatures (every ordinary one) is
 * verified on the main thread, as before: a few milliseconds, and no worker is started
 * for a node that never sees a large update. The pool starts on the first large update and
 * lives until close(). A worker that cannot start leaves the pool verifying on the main
 * thread (its fallback), so the node still answers, only not concurrently.
 */
import { spawnNodeWorker } from '../cli/pool/node-pool'
import type { UnverifiedUpdate } from '../core/types'
import { VerifyPool, type SpawnVerifyWorker } from '../core/verify/pool'
import type { SmartWalletVerifier } from '../core/verify/port'
import { signaturesOf, verifyUpdate, type VerifiedUpdate } from '../core/verify/update'
import { NODE_VERDICTS, nodeVerifyOptions } from './verify-context'

/** Updates with more signatures than this are verified on a worker thread. */
export const MAIN_THREAD_SIGNATURES = 32

export type UpdateVerifier = (update: UnverifiedUpdate) => Promise<VerifiedUpdate>

export interface OffThreadVerifier {
  readonly verify: UpdateVerifier
  /** Terminates the worker, if one started. */
  close(): void
}

function signatureCount(update: UnverifiedUpdate): number {
  let n = 0
  for (const a of update.actions) n += signaturesOf(a).length
  return n
}

export function offThreadVerifier(
  smartWallets: SmartWalletVerifier | undefined,
  options: { readonly spawn?: SpawnVerifyWorker; readonly threshold?: number } = {},
): OffThreadVerifier {
  const local: UpdateVerifier = async (u) => verifyUpdate(u, await nodeVerifyOptions(smartWallets))
  let pool: VerifyPool | null = null
  let jobs = 0
  return {
    verify(update) {
      if (signatureCount(update) <= (options.threshold ?? MAIN_THREAD_SIGNATURES)) return local(update)
      // No `defer`: the main thread never helps, it only answers requests.
      pool ??= new VerifyPool({ spawn: options.spawn ?? spawnNodeWorker, size: 1, local, verdicts: NODE_VERDICTS })
      return pool.verify(update, jobs++)
    },
    close() {
      pool?.close('the node is closing')
      pool = null
    },
  }
}
