import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, concatBytes, hexToBytes } from './bytes'
import {
  nobleSecp256k1Recover,
  personalMessageHash,
  recoverEip191Digest,
  signEip191,
  type Secp256k1Recover,
} from './eip191'
import { sha256 } from './hash'
import { loadNativeSecp256k1Recover } from './native-crypto'
import { loadWasmSecp256k1Recover } from './secp256k1-wasm'
import { mutateScalars, observe, SCALAR_MUTATIONS } from './support.testkit'

const N = secp256k1.Point.CURVE().n
const be32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'))
const big = (b: Uint8Array) => BigInt(`0x${bytesToHex(b)}`)

// Every fast recovery step: the WebAssembly module and, where it is built, the native addon
// (native-crypto.test.ts fails when a C compiler is there and the addon is not).
const native = await loadNativeSecp256k1Recover().catch(() => null)
const STEPS: [string, Secp256k1Recover][] = [
  ['libsecp256k1 WASM', await loadWasmSecp256k1Recover()],
  ...(native ? [['libsecp256k1 native addon', native] as [string, Secp256k1Recover]] : []),
]

/** What a caller observes: the recovery's address, key and replay key, or the error code and message. */
function outcome(f: () => ReturnType<typeof recoverEip191Digest>): string {
  return observe(
    f,
    (r) => `ok ${r.address} ${bytesToHex(r.publicKey)} ${bytesToHex(r.replayKey)} ${r.highS} ${r.recoveryByte}`,
  )
}

const MUTATIONS = [
  'none',
  'high-s',
  'high-s-unflipped',
  'v',
  'flip-sig',
  'flip-digest',
  ...SCALAR_MUTATIONS,
  'random-r',
  'infinity',
] as const

describe.each(STEPS)('%s', (_, step) => {
  describe('the recovery step', () => {
    it('recovers the key noble recovers, for either recovery bit (property)', () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.bigInt({ min: 1n, max: N - 1n }),
          fc.bigInt({ min: 1n, max: N >> 1n }),
          fc.constantFrom(0 as const, 1 as const),
          (digest, r, s, rec) => {
            const rs = concatBytes(be32(r), be32(s))
            let noble: string
            try {
              noble = bytesToHex(nobleSecp256k1Recover(rs, rec, digest))
            } catch {
              noble = 'fails'
            }
            let ours: string
            try {
              ours = bytesToHex(step(rs, rec, digest))
            } catch {
              ours = 'fails'
            }
            expect(ours).toBe(noble)
          },
        ),
        { numRuns: 200 },
      )
    })
    it('fails where no key recovers: r no x-coordinate, and a recovered point at infinity', () => {
      const digest = sha256(Uint8Array.of(1))
      expect(() => step(concatBytes(be32(5n), be32(7n)), 0, digest)).toThrow() // 5³ + 7 is not a square mod p
      const h = big(digest) % N
      const k = 0x1234567n
      const R = secp256k1.Point.BASE.multiply(k).toAffine()
      const s = (h * secp256k1.Point.Fn.inv(k)) % N
      const low = s > N >> 1n ? N - s : s
      const rec = (Number(R.y & 1n) ^ (low === s ? 0 : 1)) as 0 | 1
      expect(() => step(concatBytes(be32(R.x), be32(low)), rec, digest)).toThrow()
      expect(() => nobleSecp256k1Recover(concatBytes(be32(R.x), be32(low)), rec, digest)).toThrow()
    })
    it('refuses inputs of the wrong length rather than reading past them', () => {
      expect(() => step(new Uint8Array(63), 0, new Uint8Array(32))).toThrow(/64-byte/)
      expect(() => step(new Uint8Array(64), 0, new Uint8Array(31))).toThrow(/32-byte digest/)
    })
  })

  describe('recoverEip191Digest with this step ≡ noble', () => {
    it('same recovery or same error on random mixes of valid and invalid signatures (property)', () => {
      const seen = new Set<string>()
      fc.assert(
        fc.property(
          fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k)),
          fc.uint8Array({ maxLength: 120 }),
          fc.constantFrom(...MUTATIONS),
          fc.nat(),
          fc.integer({ min: 0, max: 7 }),
          fc.constantFrom(0, 1, 2, 26, 27, 28, 29, 255),
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          (sk, m, mutation, at, bit, v, noise) => {
            const sig = signEip191(sk, m)
            let digest = personalMessageHash(m)
            const r = big(sig.subarray(0, 32))
            const s = big(sig.subarray(32, 64))
            const set = (rr: bigint, ss: bigint) => (
              sig.set(be32(rr % (1n << 256n)), 0), sig.set(be32(ss % (1n << 256n)), 32)
            )
            switch (mutation) {
              case 'none':
                if (at % 2) sig[64] = sig[64]! - 27
                break
              case 'high-s':
                set(r, N - s)
                sig[64] = sig[64] === 27 ? 28 : 27
                break
              case 'high-s-unflipped':
                set(r, N - s)
                break
              case 'v':
                sig[64] = v
                break
              case 'flip-sig':
                sig[at % 65]! ^= 1 << bit
                break
              case 'flip-digest':
                digest = digest.slice()
                digest[at % 32]! ^= 1 << bit
                break
              case 'random-r':
                sig.set(noise, 0)
                break
              case 'infinity': {
                const h = big(digest) % N
                const k = BigInt(at) + 2n
                const R = secp256k1.Point.BASE.multiply(k).toAffine()
                set(R.x, (h * secp256k1.Point.Fn.inv(k)) % N)
                sig[64] = 27 + Number(R.y & 1n)
                break
              }
              default:
                set(...mutateScalars(mutation, r, s, N, at))
            }
            const noble = outcome(() => recoverEip191Digest(sig, digest))
            const fast = outcome(() => recoverEip191Digest(sig, digest, { recover: step }))
            expect(fast, `${mutation}: ${bytesToHex(sig)}`).toBe(noble)
            seen.add(noble.split(/[ :]/)[0]!)
          },
        ),
        { numRuns: 500 },
      )
      expect([...seen].sort()).toEqual(['bad-recovery-byte', 'ok', 'recovery-failed', 'scalar-out-of-range'])
    })
  })
})
