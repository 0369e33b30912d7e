/**
 * The equivalence property every Ed25519ph point-arithmetic path must meet: on random mixes
 * of valid and mutated signatures (flipped bits, small-order, mixed-order and non-canonical
 * keys, S = 0, = L, >= L, torsion in R, random R or key, another context),
 * `verifyEd25519phWith(combine, ...)` gives noble's verdict or error. Shared by the
 * libsodium and ref10 WASM tests, with the curve helpers both use.
 */
import fc from 'fast-check'
import { ed25519 } from '@noble/curves/ed25519.js'
import { expect } from 'vitest'
import { bytesToHex, concatBytes, hexToBytes, utf8 } from './bytes'
import {
  type Ed25519phCombine,
  ed25519PublicKey,
  IDENTITY_UPDATE_CONTEXT as CTX,
  signEd25519ph,
  verifyEd25519ph,
  verifyEd25519phWith,
} from './ed25519ph'
import { observe } from './support.testkit'

export const P = ed25519.Point
export const L = P.Fn.ORDER
export const le32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0')).reverse()
const leToBig = (b: Uint8Array) => BigInt(`0x${bytesToHex(b.slice().reverse())}`)
const T8 = P.fromBytes(hexToBytes('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a'), true)
/** The eight small-order points (the torsion subgroup), canonically encoded. */
export const TORSION = Array.from({ length: 8 }, (_, i) => (i === 0 ? P.ZERO : T8.multiplyUnsafe(BigInt(i))))

/** A verdict or the CryptoError code and message: what a caller can observe. */
const outcome = (f: () => boolean): string => observe(f, String)

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

/** expectSameAsNoble for a step that counts what it does: how much each of its counters grew over the run. */
export function expectSameAsNobleCounted<S extends { readonly [K in keyof S]: number }>(
  step: { readonly combine: Ed25519phCombine; readonly stats: S },
  numRuns: number,
): Record<keyof S, number> {
  const before: Record<keyof S, number> = { ...step.stats }
  expectSameAsNoble(step.combine, numRuns)
  const grew = { ...before }
  for (const k of Object.keys(before) as (keyof S)[]) grew[k] = step.stats[k] - before[k]
  return grew
}

/** Runs the property for `combine` (`numRuns` cases); valid, rejected and undecodable are all met. */
function expectSameAsNoble(combine: Ed25519phCombine, numRuns: number): void {
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
        const fast = outcome(() => verifyEd25519phWith(combine, sig, m, pk, ctx))
        expect(fast, `${mutation}: sig ${bytesToHex(sig)} key ${bytesToHex(pk)}`).toBe(noble)
        seen.add(noble.split(':')[0]!)
      },
    ),
    { numRuns },
  )
  // The mix held valid signatures, rejections and undecodable keys, and both paths ran.
  expect([...seen].sort()).toEqual(['bad-point', 'false', 'true'])
}

/**
 * The combine step computes [S]B − [k]A as noble does, for a prime-order key A = [a]B (a
 * property over random a, S, k; zero scalars drawn only with `zeroScalars`).
 */
export function expectCombineAsNoble(
  combine: Ed25519phCombine,
  options: { numRuns: number; zeroScalars: boolean },
): void {
  const scalar = fc.bigInt({ min: options.zeroScalars ? 0n : 1n, max: L - 1n })
  fc.assert(
    fc.property(fc.bigInt({ min: 1n, max: L - 1n }), scalar, scalar, (a, S, k) => {
      const A = P.BASE.multiply(a)
      const out = combine(le32(S), le32(k), A.toBytes())
      expect(out).not.toBeNull()
      expect(bytesToHex(out!)).toBe(P.BASE.multiplyUnsafe(S).subtract(A.multiplyUnsafe(k)).toHex())
    }),
    { numRuns: options.numRuns },
  )
}
