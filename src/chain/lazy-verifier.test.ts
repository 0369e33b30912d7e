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
