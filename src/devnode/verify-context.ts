/**
 * The local node's verification context: the fast crypto backend (loaded once) and one
 * bounded in-memory verdict cache (src/core/verify/cache.ts) shared by admission and the
 * head rebuilds, so a head rebuilt from the store (after a restart of the cache, another
 * process's write, head_moved) re-verifies nothing this process already verified.
 * Admission takes one update at a time, so a verification pool would buy nothing here.
 */
import { LruVerdictCache } from '../core/verify/cache'
import { fastContext } from '../core/verify/fast'
import type { SmartWalletVerifier } from '../core/verify/port'
import type { UpdateVerifyOptions } from '../core/verify/update'

/** Verdicts kept by this process (about 1 KiB each at most). */
export const NODE_VERDICTS = new LruVerdictCache(50_000)

export async function nodeVerifyOptions(smartWallets: SmartWalletVerifier | undefined): Promise<UpdateVerifyOptions> {
  const { ctx } = await fastContext()
  return { ...ctx, verdicts: NODE_VERDICTS, ...(smartWallets ? { smartWallets } : {}) }
}
