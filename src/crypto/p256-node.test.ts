import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex, concatBytes, hexToBytes, utf8 } from './bytes'
import { CryptoError } from './errors'
import { p256PublicKey, signP256Der, verifyP256Der, type P256Verification } from './p256'
import * as nodeCrypto from 'node:crypto'
import { nodeP256Verifier, type NodeCrypto } from './p256-node'

const N = p256.Point.CURVE().n
const _be = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'))
const tlv = (tag: number, body: Uint8Array) => concatBytes(Uint8Array.of(tag, body.length), body)
function intContent(n: bigint): Uint8Array {
  let hex = n.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  const b = hexToBytes(hex)
  return b[0]! & 0x80 ? concatBytes(Uint8Array.of(0), b) : b
}
const derRS = (r: bigint, s: bigint) => tlv(0x30, concatBytes(tlv(0x02, intContent(r)), tlv(0x02, intContent(s))))

const verify = nodeP256Verifier(nodeCrypto as unknown as NodeCrypto)

const show = (v: P256Verification) => `${v.valid} ${v.r} ${v.s} ${bytesToHex(v.lowS)} ${v.highS}`
async function outcome(f: () => Promise<P256Verification> | P256Verification): Promise<string> {
  try {
    return show(await f())
  } catch (e) {
    if (e instanceof CryptoError) return `${e.code}: ${e.message}`
    throw e
  }
}

type Mutation =
  | 'none'
  | 'high-s'
  | 'compressed'
  | 'flip-der'
  | 'flip-msg'
  | 'flip-key'
  | 'r=0'
  | 's=0'
  | 'r=n'
  | 's=n'
  | 'r>n'
  | 's>n'
  | 'other-key'
  | 'off-curve'
  | 'r+1'
  | 'truncate-der'
const MUTATIONS: Mutation[] = [
  'none',
  'high-s',
  'compressed',
  'flip-der',
  'flip-msg',
  'flip-key',
  'r=0',
  's=0',
  'r=n',
  's=n',
  'r>n',
  's>n',
  'other-key',
  'off-curve',
  'r+1',
  'truncate-der',
]

describe('nodeP256Verifier (node:crypto) ≡ verifyP256Der (noble)', () => {
  it('same verdict, replay key and error on random mixes of valid and invalid signatures (property)', async () => {
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
            case 'r=0':
              der = derRS(0n, sig.s)
              break
            case 's=0':
              der = derRS(sig.r, 0n)
              break
            case 'r=n':
              der = derRS(N, sig.s)
              break
            case 's=n':
              der = derRS(sig.r, N)
              break
            case 'r>n':
              der = derRS(N + BigInt(at % 1000), sig.s)
              break
            case 's>n':
              der = derRS(sig.r, N + BigInt(at % 1000))
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
          }
          const noble = await outcome(() => verifyP256Der(der, m, key))
          const fast = await outcome(() => verify(der, m, key))
          expect(fast, `${mutation}: der ${bytesToHex(der)} key ${bytesToHex(key)}`).toBe(noble)
          seen.add(noble.split(/[ :]/)[0]!)
        },
      ),
      { numRuns: 600 },
    )
    expect([...seen].sort()).toEqual(['bad-der', 'bad-point', 'false', 'scalar-out-of-range', 'true'])
  })
})

describe('nodeP256Verifier key cache', () => {
  it('a key that is not a point throws bad-point every time (not cached), a good key verifies after it', async () => {
    const v = nodeP256Verifier(nodeCrypto as unknown as NodeCrypto)
    const key = p256PublicKey(new Uint8Array(32).fill(7))
    const der = signP256Der(new Uint8Array(32).fill(7), utf8('m'))
    const bad = concatBytes(Uint8Array.of(4), new Uint8Array(64).fill(1))
    for (let i = 0; i < 2; i++) expect(await outcome(() => v(der, utf8('m'), bad))).toMatch(/^bad-point/)
    expect((await v(der, utf8('m'), key)).valid).toBe(true)
    expect((await v(der, utf8('n'), key)).valid).toBe(false)
  })
})
