/**
 * The chain verdict cache: a smart wallet signature judged at a fixed block has one
 * verdict (IDENT-060), so it is asked of the chain once. Keyed by chain, block,
 * account, hash and signature; bounded LRU (default 10,000 entries). Only 'valid' and
 * 'invalid' are kept; an unreachable chain (a thrown ChainUnreachableError, IDENT-061)
 * is never cached, so a retry asks the chain again. Concurrent identical requests share
 * one call.
 *
 * Keyed by block number, not block hash: a verdict at a block that is later reorganised
 * away is kept. Blocks named by stored updates are old; admission's freshness window is
 * the exposure.
 */
import { bytesToHex } from '../crypto/bytes'
import type { SmartWalletRequest, SmartWalletVerifier } from '../core/verify/port'

export type ChainVerdict = 'valid' | 'invalid'

const DEFAULT_CACHE_ENTRIES = 10_000

export function verdictKey(req: SmartWalletRequest): string {
  return `${req.chainId}:${req.blockNumber}:${req.account.toLowerCase()}:${bytesToHex(req.hash)}:${bytesToHex(req.signature)}`
}

export class VerdictCache {
  private readonly entries = new Map<string, ChainVerdict>()
  hits = 0
  misses = 0

  constructor(readonly maxEntries: number = DEFAULT_CACHE_ENTRIES) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`maxEntries ${maxEntries} is not a positive integer`)
  }

  get size(): number {
    return this.entries.size
  }

  /** The cached verdict, marking it most recently used; counts a hit or a miss. */
  get(req: SmartWalletRequest): ChainVerdict | undefined {
    const key = verdictKey(req)
    const v = this.entries.get(key)
    if (v === undefined) {
      this.misses++
      return undefined
    }
    this.hits++
    this.entries.delete(key)
    this.entries.set(key, v)
    return v
  }

  set(req: SmartWalletRequest, verdict: ChainVerdict): void {
    if (verdict !== 'valid' && verdict !== 'invalid') return
    const key = verdictKey(req)
    this.entries.delete(key)
    this.entries.set(key, verdict)
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value
      if (oldest === undefined) break
      this.entries.delete(oldest)
    }
  }

  clear(): void {
    this.entries.clear()
    this.hits = 0
    this.misses = 0
  }
}

export interface CachedVerifier extends SmartWalletVerifier {
  readonly cache: VerdictCache
  readonly inner: SmartWalletVerifier
}

export interface CachedVerifierOptions {
  /** A cache to use (shared between verifiers); default a new one of maxEntries. */
  readonly cache?: VerdictCache
  readonly maxEntries?: number
}

/** Wraps any SmartWalletVerifier with a verdict cache and in-flight de-duplication. */
export function cachedVerifier(inner: SmartWalletVerifier, options: CachedVerifierOptions = {}): CachedVerifier {
  const cache = options.cache ?? new VerdictCache(options.maxEntries ?? DEFAULT_CACHE_ENTRIES)
  const inflight = new Map<string, Promise<ChainVerdict>>()
  return {
    cache,
    inner,
    async verify(req) {
      const hit = cache.get(req)
      if (hit !== undefined) return hit
      const key = verdictKey(req)
      let p = inflight.get(key)
      if (!p) {
        p = inner.verify(req).then(
          (v) => {
            inflight.delete(key)
            cache.set(req, v)
            return v
          },
          (e: unknown) => {
            inflight.delete(key) // unreachable: never cached, the next call asks again
            throw e
          },
        )
        inflight.set(key, p)
      }
      return p
    },
  }
}
