import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, concatBytes, hexToBytes, utf8 } from './bytes'
import {
  ed25519PublicKey,
  IDENTITY_UPDATE_CONTEXT as CTX,
  signEd25519ph,
  verifyEd25519ph,
  verifyEd25519phWith,
} from './ed25519ph'
import { CryptoError } from './errors'
import { loadWasmEd25519Combine } from './ed25519ph-wasm'

const P = ed25519.Point
const L = P.Fn.ORDER
const le32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0')).reverse()
const leToBig = (b: Uint8Array) => BigInt(`0x${bytesToHex(b.slice().reverse())}`)
const T8 = P.fromBytes(hexToBytes('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'), true)
/** The eight small-order points (the torsion subgroup), canonically encoded. */
const TORSION = Array.from({ length: 8 }, (_, i) => (i === 0 ? P.ZERO : T8.multiplyUnsafe(BigInt(i))))

const wasm = await loadWasmEd25519Combine()

/** A verdict or the CryptoError code and message: what a caller can observe. */
function outcome(f: () => boolean): string {
  try {
    return String(f())
  } catch (e) {
    if (e instanceof CryptoError) return `${e.code}: ${e.message}`
    throw e
  }
}

type Mutation =
  | 'none'
  | 'flip-sig'
  | 'flip-msg'
  | 'flip-key'
  | 'small-order-key'
  | 'mixed-order-key'
  | 'non-canonical-key'
  | 'S+L'
  | 'S=L'
  | 'S=0'
  | 'random-R'
  | 'random-key'
  | 'torsion-in-R'
  | 'other-context'

const MUTATIONS: Mutation[] = [
  'none',
  'flip-sig',
  'flip-msg',
  'flip-key',
  'small-order-key',
  'mixed-order-key',
  'non-canonical-key',
  'S+L',
  'S=L',
  'S=0',
  'random-R',
  'random-key',
  'torsion-in-R',
  'other-context',
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

const combineHex = (S: bigint, k: bigint, key: Uint8Array): string | null => {
  const out = wasm.combine(le32(S), le32(k), key)
  return out === null ? null : bytesToHex(out)
}

describe('loadWasmEd25519Combine', () => {
  it('computes [S]B − [k]A as noble does for prime-order keys', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: L - 1n }),
        fc.bigInt({ min: 0n, max: L - 1n }),
        fc.bigInt({ min: 0n, max: L - 1n }),
        (a, S, k) => {
          const A = P.BASE.multiply(a).toBytes()
          expect(combineHex(S, k, A)).toBe(nobleCombine(S, k, A))
        },
      ),
      { numRuns: 300 },
    )
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

describe('verifyEd25519phWith(ref10 WASM) ≡ verifyEd25519ph (noble)', () => {
  it('same verdict or same error on random mixes of valid and invalid signatures (property)', () => {
    const before = { ...wasm.stats }
    const seen = new Set<string>()
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.constantFrom(...MUTATIONS),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (sk, m, mutation, at, bit, noise) => {
          let pk = ed25519PublicKey(sk)
          let sig = signEd25519ph(sk, m, CTX)
          let ctx = CTX
          const S = leToBig(sig.subarray(32))
          const T = TORSION[1 + (at % 7)]!
          switch (mutation) {
            case 'none':
              break
            case 'flip-sig':
              sig[at % 64]! ^= 1 << bit
              break
            case 'flip-msg':
              m = m.length ? ((m[at % m.length]! ^= 1 << bit), m) : Uint8Array.of(1)
              break
            case 'flip-key':
              pk[at % 32]! ^= 1 << bit
              break
            case 'small-order-key':
              pk = T.toBytes()
              break
            case 'mixed-order-key':
              pk = P.fromBytes(pk).add(T).toBytes()
              break
            case 'non-canonical-key':
              pk = le32(2n ** 255n - 19n + BigInt(at % 2))
              break // y = p or p + 1: the order-4 point / the identity
            case 'S+L':
              sig = concatBytes(sig.subarray(0, 32), le32(S + L))
              break
            case 'S=L':
              sig = concatBytes(sig.subarray(0, 32), le32(L))
              break
            case 'S=0':
              sig = concatBytes(sig.subarray(0, 32), le32(0n))
              break
            case 'random-R':
              sig = concatBytes(noise, sig.subarray(32))
              break
            case 'random-key':
              pk = noise
              break
            case 'torsion-in-R':
              sig = concatBytes(P.fromBytes(sig.subarray(0, 32)).add(T).toBytes(), sig.subarray(32))
              break
            case 'other-context':
              ctx = utf8('IDENTITY UPDATE SIGNATURE!')
              break
          }
          const noble = outcome(() => verifyEd25519ph(sig, m, pk, ctx))
          const fast = outcome(() => verifyEd25519phWith(wasm.combine, sig, m, pk, ctx))
          expect(fast, `${mutation}: sig ${bytesToHex(sig)} key ${bytesToHex(pk)}`).toBe(noble)
          seen.add(noble.split(':')[0]!)
        },
      ),
      { numRuns: 1500 },
    )
    // The mix held valid signatures, rejections and undecodable keys, and both paths ran.
    expect([...seen].sort()).toEqual(['bad-point', 'false', 'true'])
    // Small-order, mixed-order and non-canonical keys are computed in WASM, not declined;
    // only keys that decode to no point are declined (noble then throws 'bad-point').
    expect(wasm.stats.wasm - before.wasm).toBeGreaterThan(1000)
    expect(wasm.stats.declined - before.declined).toBeGreaterThan(20)
  })
})
