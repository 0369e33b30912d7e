import { describe, expect, it } from 'vitest'
import { ChainUnreachableError } from '../core/errors'
import type { EthAddress } from '../core/types'
import type { SmartWalletRequest, SmartWalletVerifier } from '../core/verify/port'
import { cachedVerifier, ChainVerdictCache, chainVerdictKey } from './cache'

const req = (over: Partial<SmartWalletRequest> = {}): SmartWalletRequest => ({
  chainId: 1n,
  account: `0x${'ab'.repeat(20)}` as EthAddress,
  blockNumber: 10n,
  hash: new Uint8Array(32).fill(1),
  signature: Uint8Array.of(1, 2, 3),
  ...over,
})

/** Answers from a script; counts calls. */
function scripted(answers: (() => Promise<'valid' | 'invalid'>)[]): SmartWalletVerifier & { calls: number } {
  const v = {
    calls: 0,
    async verify() {
      const f = answers[Math.min(v.calls, answers.length - 1)]!
      v.calls++
      return f()
    },
  }
  return v
}

describe('cachedVerifier', () => {
  it('IDENT-060: asks once per (chain, block, account, hash, signature); any field changed is another key', async () => {
    const inner = scripted([async () => 'valid'])
    const v = cachedVerifier(inner)
    expect(await v.verify(req())).toBe('valid')
    expect(await v.verify(req())).toBe('valid')
    expect(inner.calls).toBe(1)
    for (const over of [
      { chainId: 2n },
      { blockNumber: 11n },
      { account: `0x${'cd'.repeat(20)}` as EthAddress },
      { hash: new Uint8Array(32).fill(2) },
      { signature: Uint8Array.of(1, 2, 4) },
    ])
      await v.verify(req(over))
    expect(inner.calls).toBe(6)
    expect(v.cache.size).toBe(6)
    // The account's case is not part of the key.
    expect(chainVerdictKey(req({ account: `0x${'AB'.repeat(20)}` as EthAddress }))).toBe(chainVerdictKey(req()))
  })

  it('IDENT-061: an unreachable chain is never cached; the next call asks again', async () => {
    const inner = scripted([
      async () => {
        throw new ChainUnreachableError(1n, 'down')
      },
      async () => 'invalid',
    ])
    const v = cachedVerifier(inner)
    await expect(v.verify(req())).rejects.toBeInstanceOf(ChainUnreachableError)
    expect(v.cache.size).toBe(0)
    expect(await v.verify(req())).toBe('invalid')
    expect(await v.verify(req())).toBe('invalid')
    expect(inner.calls).toBe(2)
  })

  it('shares one call between concurrent identical requests', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const inner = scripted([async () => (await gate, 'valid')])
    const v = cachedVerifier(inner)
    const all = Promise.all([v.verify(req()), v.verify(req()), v.verify(req())])
    release()
    expect(await all).toEqual(['valid', 'valid', 'valid'])
    expect(inner.calls).toBe(1)
  })
})

describe('ChainVerdictCache', () => {
  it('is a bounded LRU: the least recently used entry goes first', () => {
    const c = new ChainVerdictCache(2)
    c.set(req({ blockNumber: 1n }), 'valid')
    c.set(req({ blockNumber: 2n }), 'invalid')
    expect(c.get(req({ blockNumber: 1n }))).toBe('valid') // 1 is now the most recent
    c.set(req({ blockNumber: 3n }), 'valid')
    expect(c.size).toBe(2)
    expect(c.get(req({ blockNumber: 2n }))).toBeUndefined()
    expect(c.get(req({ blockNumber: 1n }))).toBe('valid')
    expect(c.get(req({ blockNumber: 3n }))).toBe('valid')
    expect(new ChainVerdictCache().maxEntries).toBe(10_000)
    expect(() => new ChainVerdictCache(0)).toThrow(RangeError)
  })

  it('keeps only valid and invalid', () => {
    const c = new ChainVerdictCache()
    c.set(req(), 'unreachable' as never)
    expect(c.size).toBe(0)
  })
})
