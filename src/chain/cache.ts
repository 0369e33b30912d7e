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
import { Lru } from '../core/lru'
import { bytesToHex } from '../crypto/bytes'
import type { SmartWalletRequest, SmartWalletVerifier } from '../core/verify/port'

export type ChainVerdict = 'valid' | 'invalid'

const DEFAULT_CACHE_ENTRIES = 10_000

export function chainVerdictKey(req: SmartWalletRequest): string {
  return `${req.chainId}:${req.blockNumber}:${req.account.toLowerCase()}:${bytesToHex(req.hash)}:${bytesToHex(req.signature)}`
}

/** The chain's verdicts by request (not the core's VerdictCache of signature checks). */
export class ChainVerdictCache {
  private readonly lru: Lru<string, ChainVerdict>

  constructor(readonly maxEntries: number = DEFAULT_CACHE_ENTRIES) {
    this.lru = new Lru(maxEntries, 'maxEntries')
  }

  get size(): number {
    return this.lru.size
  }
  get hits(): number {
    return this.lru.hits
  }
  get misses(): number {
    return this.lru.misses
  }

  /** The cached verdict, marking it most recently used; counts a hit or a miss. */
  get(req: SmartWalletRequest): ChainVerdict | undefined {
    return this.lru.get(chainVerdictKey(req))
  }

  set(req: SmartWalletRequest, verdict: ChainVerdict): void {
    if (verdict !== 'valid' && verdict !== 'invalid') return
    this.lru.set(chainVerdictKey(req), verdict)
  }

  clear(): void {
    this.lru.clear()
  }
}

export interface CachedVerifier extends SmartWalletVerifier {
  readonly cache: ChainVerdictCache
  readonly inner: SmartWalletVerifier
}

export interface CachedVerifierOptions {
  /** A cache to use (shared between verifiers); default a new one of maxEntries. */
  readonly cache?: ChainVerdictCache
  readonly maxEntries?: number
}

/** Wraps any SmartWalletVerifier with a verdict cache and in-flight de-duplication. */
export function cachedVerifier(inner: SmartWalletVerifier, options: CachedVerifierOptions = {}): CachedVerifier {
  const cache = options.cache ?? new ChainVerdictCache(options.maxEntries ?? DEFAULT_CACHE_ENTRIES)
  const inflight = new Map<string, Promise<ChainVerdict>>()
  return {
    cache,
    inner,
    async verify(req) {
      const hit = cache.get(req)
      if (hit !== undefined) return hit
      const key = chainVerdictKey(req)
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
