import { describe, expect, it } from 'vitest'
import { loadSodiumCombine } from './ed25519ph-sodium'
import { expectCombineAsNoble, expectSameAsNobleCounted, le32, P, TORSION } from './ed25519ph-equivalence.testkit'

const sodium = await loadSodiumCombine()

describe('loadSodiumCombine', () => {
  it('computes [S]B − [k]A as noble does for prime-order keys', () => {
    // libsodium declines zero scalars (see below): they are not drawn here.
    expectCombineAsNoble(sodium.combine, { numRuns: 100, zeroScalars: false })
  })
  it('declines (null) every small-order key, a mixed-order key, a non-canonical key and zero scalars', () => {
    const A = P.BASE.multiply(12345n)
    for (const T of TORSION) expect(sodium.combine(le32(5n), le32(7n), T.toBytes()), T.toHex()).toBeNull()
    expect(sodium.combine(le32(5n), le32(7n), A.add(TORSION[1]!).toBytes())).toBeNull()
    expect(sodium.combine(le32(5n), le32(7n), le32(2n ** 255n - 19n + 1n))).toBeNull() // y = p + 1: the identity spelled y ≥ p
    expect(sodium.combine(le32(0n), le32(7n), A.toBytes())).toBeNull()
    expect(sodium.combine(le32(5n), le32(0n), A.toBytes())).toBeNull()
    expect(sodium.combine(le32(5n), le32(7n), le32(2n))).toBeNull() // not a point
  })
})

describe('verifyEd25519phWith(libsodium) ≡ verifyEd25519ph (noble)', () => {
  it('same verdict or same error on random mixes of valid and invalid signatures (property)', () => {
    const grew = expectSameAsNobleCounted(sodium, 600)
    expect(grew.sodium).toBeGreaterThan(100)
    expect(grew.declined).toBeGreaterThan(50)
  })
})
