import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { bytesToHex } from './bytes'
import type { Ed25519phCombine } from './ed25519ph'
import { loadWasmEd25519Combine } from './ed25519ph-wasm'
import { loadNativeEd25519Combine } from './native-crypto'
import { expectCombineAsNoble, expectSameAsNobleCounted, L, le32, P, TORSION } from './ed25519ph-equivalence.testkit'

/** A combine step that counts the calls it computed and declined (null: the key is no point). */
function counted(combine: Ed25519phCombine) {
  const stats = { computed: 0, declined: 0 }
  const step: Ed25519phCombine = (S, k, key) => {
    const out = combine(S, k, key)
    if (out === null) stats.declined++
    else stats.computed++
    return out
  }
  return { combine: step, stats }
}

// Every fast combine step: the WebAssembly module and, where it is built, the native addon
// (native-crypto.test.ts fails when a C compiler is there and the addon is not).
const native = await loadNativeEd25519Combine().catch(() => null)
const STEPS: [string, Ed25519phCombine][] = [
  ['ref10 WASM', (await loadWasmEd25519Combine()).combine],
  ...(native ? [['libsodium native addon', native] as [string, Ed25519phCombine]] : []),
]

/** noble's [S]B - [k]A for a key noble's lenient (zip215) decoder accepts, or null. */
function nobleCombine(S: bigint, k: bigint, key: Uint8Array): string | null {
  let A: InstanceType<typeof P>
  try {
    A = P.fromBytes(key, true)
  } catch {
    return null
  }
  return P.BASE.multiplyUnsafe(S).subtract(A.multiplyUnsafe(k)).toHex()
}

describe.each(STEPS)('%s', (_, raw) => {
  const wasm = counted(raw)
  const combineHex = (S: bigint, k: bigint, key: Uint8Array): string | null => {
    const out = wasm.combine(le32(S), le32(k), key)
    return out === null ? null : bytesToHex(out)
  }

  describe('the combine step', () => {
    it('computes [S]B − [k]A as noble does for prime-order keys', () => {
      expectCombineAsNoble(wasm.combine, { numRuns: 300, zeroScalars: true })
    })
    it('computes, not declines, every small-order key, mixed-order keys, keys spelled with y ≥ p and zero scalars', () => {
      const A = P.BASE.multiply(12345n)
      const keys: Uint8Array[] = [
        ...TORSION.map((T) => T.toBytes()),
        ...TORSION.map((T) => A.add(T).toBytes()),
        // y = p + i for the small i that are points (with and without the sign bit): y ≥ p spellings
        ...Array.from({ length: 19 }, (_, i) => le32(2n ** 255n - 19n + BigInt(i))),
        ...Array.from({ length: 19 }, (_, i) => le32(2n ** 255n - 19n + BigInt(i) + 2n ** 255n)),
        le32(1n + 2n ** 255n), // the identity with the sign bit set (x = 0, "negative zero")
      ]
      let computed = 0
      for (const key of keys) {
        for (const [S, k] of [
          [5n, 7n],
          [0n, 7n],
          [5n, 0n],
          [0n, 0n],
          [L - 1n, L - 1n],
        ] as const) {
          const ref = nobleCombine(S, k, key)
          expect(combineHex(S, k, key), `${bytesToHex(key)} S=${S} k=${k}`).toBe(ref)
          if (ref !== null) computed++
        }
      }
      // 8 torsion + 8 mixed + the y ≥ p spellings that are points + negative zero, each with 5 scalar pairs
      expect(computed).toBeGreaterThanOrEqual(5 * (16 + 3))
    })
    it('declines (null) exactly the keys that decode to no point (property over random keys)', () => {
      let declined = 0
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.bigInt({ min: 0n, max: L - 1n }), (key, S) => {
          const ref = nobleCombine(S, 3n, key)
          expect(combineHex(S, 3n, key)).toBe(ref)
          if (ref === null) declined++
        }),
        { numRuns: 400 },
      )
      expect(declined).toBeGreaterThan(50) // about half of random 32-byte strings are not points
    })
    it('refuses inputs of the wrong length or a scalar with bit 255 set rather than reading past them', () => {
      expect(() => wasm.combine(new Uint8Array(31), le32(1n), P.BASE.toBytes())).toThrow(/32-byte/)
      expect(() => wasm.combine(le32(2n ** 255n), le32(1n), P.BASE.toBytes())).toThrow(/bit 255/)
    })
  })

  describe('verifyEd25519phWith(this step) ≡ verifyEd25519ph (noble)', () => {
    it('same verdict or same error on random mixes of valid and invalid signatures (property)', () => {
      const grew = expectSameAsNobleCounted(wasm, 1500)
      // Small-order, mixed-order and non-canonical keys are computed, not declined;
      // only keys that decode to no point are declined (noble then throws 'bad-point').
      expect(grew.computed).toBeGreaterThan(1000)
      expect(grew.declined).toBeGreaterThan(20)
    })
  })
})
