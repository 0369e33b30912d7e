/**
 * The equivalence property every P-256 fast path must meet: on random mixes of valid and
 * mutated signatures (high s, compressed keys, flipped bits, r or s = 0, = n, > n, another
 * key, an off-curve key, truncated DER) it gives the verdict, replay key and error of
 * noble's `verifyP256Der`. Shared by the WebCrypto and node:crypto verifiers' tests.
 */
import fc from 'fast-check'
import { p256 } from '@noble/curves/nist.js'
import { expect } from 'vitest'
import { bytesToHex } from './bytes'
import { p256PublicKey, signP256Der, verifyP256Der, type P256Verification } from './p256'
import { derRS, mutateScalars, observeAsync, SCALAR_MUTATIONS } from './support.testkit'

const N = p256.Point.CURVE().n
const show = (v: P256Verification) => `${v.valid} ${v.r} ${v.s} ${bytesToHex(v.lowS)} ${v.highS}`
export const outcome = (f: () => Promise<P256Verification> | P256Verification): Promise<string> => observeAsync(f, show)

const MUTATIONS = [
  'none',
  'high-s',
  'compressed',
  'flip-der',
  'flip-msg',
  'flip-key',
  ...SCALAR_MUTATIONS,
  'other-key',
  'off-curve',
  'r+1',
  'truncate-der',
] as const

type P256Verify = (der: Uint8Array, msg: Uint8Array, key: Uint8Array) => Promise<P256Verification> | P256Verification

/** Runs the property for `verify` (`numRuns` cases); every verdict class must be met. */
export async function expectSameAsNoble(verify: P256Verify, numRuns: number): Promise<void> {
  const seen = new Set<string>()
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => p256.utils.isValidSecretKey(k)),
      fc.uint8Array({ maxLength: 120 }),
      fc.constantFrom(...MUTATIONS),
      fc.nat(),
      fc.integer({ min: 0, max: 7 }),
      async (sk, m, mutation, at, bit) => {
        let key = p256PublicKey(sk, at % 3 === 0)
        let der = signP256Der(sk, m, { highS: mutation === 'high-s' })
        const sig = p256.Signature.fromBytes(der, 'der')
        switch (mutation) {
          case 'none':
          case 'high-s':
            break
          case 'compressed':
            key = p256PublicKey(sk, true)
            break
          case 'flip-der':
            der[at % der.length]! ^= 1 << bit
            break
          case 'flip-msg':
            m = m.length ? ((m[at % m.length]! ^= 1 << bit), m) : Uint8Array.of(1)
            break
          case 'flip-key':
            key[at % key.length]! ^= 1 << bit
            break
          case 'other-key':
            key = p256PublicKey(new Uint8Array(32).fill(1 + (at % 200)))
            break
          case 'off-curve':
            key = key.slice()
            key[key.length - 1]! ^= 1
            if (key.length === 33) key[0] = 0x05
            break
          case 'r+1':
            der = derRS((sig.r + 1n) % N || 1n, sig.s)
            break
          // Always malformed DER (the lengths no longer add up): the bad-der verdict is met on every run.
          case 'truncate-der':
            der = der.subarray(0, der.length - 1 - (at % 3))
            break
          default:
            der = derRS(...mutateScalars(mutation, sig.r, sig.s, N, at))
        }
        const noble = await outcome(() => verifyP256Der(der, m, key))
        const fast = await outcome(() => verify(der, m, key))
        expect(fast, `${mutation}: der ${bytesToHex(der)} key ${bytesToHex(key)}`).toBe(noble)
        seen.add(noble.split(/[ :]/)[0]!)
      },
    ),
    { numRuns },
  )
  expect([...seen].sort()).toEqual(['bad-der', 'bad-point', 'false', 'scalar-out-of-range', 'true'])
}
