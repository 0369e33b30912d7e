import { describe, expect, it } from 'vitest'
import { ChainUnreachableError } from '../core/errors'
import type { EthAddress } from '../core/types'
import { LazyChainVerifier } from './lazy-verifier'
import { ChainVerifier } from './verifier'

const request = {
  chainId: 5n,
  account: `0x${'11'.repeat(20)}` as EthAddress,
  blockNumber: 1n,
  hash: new Uint8Array(32),
  signature: new Uint8Array(65),
}

describe('LazyChainVerifier', () => {
  it('loads one ChainVerifier over its routes on first use', async () => {
    const v = new LazyChainVerifier(new Map([[1n, 'http://127.0.0.1:1']]), { cache: false })
    const a = await v.load()
    expect(a).toBeInstanceOf(ChainVerifier)
    expect(await v.load()).toBe(a)
  })

  it('answers a chain with no route as unreachable (pending, IDENT-061), like ChainVerifier', async () => {
    const v = new LazyChainVerifier(new Map(), { cache: false })
    await expect(v.verify(request)).rejects.toBeInstanceOf(ChainUnreachableError)
  })
})

describe('LazyChainVerifier whose code fails to load', () => {
  it('answers pending (IDENT-061) naming the failed load, and loads again on the next verification', async () => {
    let calls = 0
    const importVerifier = () => {
      calls++
      return calls === 1
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/verifier.js'))
        : import('./verifier')
    }
    const v = new LazyChainVerifier(new Map(), { cache: false }, importVerifier)
    const first = v.verify(request)
    await expect(first).rejects.toBeInstanceOf(ChainUnreachableError)
    await expect(first).rejects.toThrow(/did not load \(Failed to fetch dynamically imported module/)
    // Loaded this time: a chain with no route is then the verifier's own answer, still pending.
    expect(await v.load()).toBeInstanceOf(ChainVerifier)
    expect(calls).toBe(2)
  })
})
