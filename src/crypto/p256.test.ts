import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as nodeSign,
  verify as nodeVerify,
  type KeyObject,
} from 'node:crypto'
import { p256 } from '@noble/curves/nist.js'
import { base64ToBytes, bytesToBase64url, bytesToHex, concatBytes, hexToBytes, utf8 } from './bytes'
import { sha256 } from './hash'
import { p256PublicKey, signP256Der, verifyP256Der } from './p256'
import { loadFastBackend, NODE_P256 } from './backend'
import { nobleBackend } from './noble-backend'
import { P256_N, P256_P, uncompressedP256Key } from './p256-checks'
import { loadNativeP256Verify, NATIVE_P256 } from './native-crypto'
import { codeOf, codeOfAsync, derOf, derRS, intContent, tlv } from './support.testkit'

const N = p256.Point.CURVE().n
const P = p256.Point.CURVE().p
const HALF_N = N >> 1n
const SK = new Uint8Array(32).fill(7)
const PUB = p256PublicKey(SK)
const PUB_C = p256PublicKey(SK, true)
const MSG = utf8('passkey test message')

const be = (n: bigint, len = 32) => hexToBytes(n.toString(16).padStart(len * 2, '0'))
const big = (b: Uint8Array) => BigInt(`0x${bytesToHex(b)}`)

// The edge vectors of verifyP256Der run against both backends (the fast one is WebCrypto).
const fast = await loadFastBackend()
const VERIFIERS = [
  ['noble', nobleBackend.verifyP256Der],
  [`fast (${fast.primitives['p256-verify'].impl})`, fast.verifyP256Der],
] as const

describe('the fast backend in this test run', () => {
  it("verifies P-256 through Node's OpenSSL (the native addon's calls where it is built, else node:crypto), not a silent fallback", async () => {
    const native = await loadNativeP256Verify().then(
      () => null,
      (e: Error) => e.message,
    )
    expect(fast.primitives['p256-verify']).toEqual(
      native === null ? { impl: NATIVE_P256 } : { impl: NODE_P256, fallback: native },
    )
  })
})

function nodeKeyPair(): { priv: KeyObject; sec1: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const sec1 = concatBytes(Uint8Array.of(4), base64ToBytes(jwk.x!), base64ToBytes(jwk.y!))
  return { priv: privateKey, sec1 }
}
function nodePublicKey(sec1: Uint8Array): KeyObject {
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: bytesToBase64url(sec1.subarray(1, 33)).replace(/=+$/, ''),
      y: bytesToBase64url(sec1.subarray(33, 65)).replace(/=+$/, ''),
    },
    format: 'jwk',
  })
}

// The deterministic low-S signature of MSG under SK, and its high-S twin.
const LOW = signP256Der(SK, MSG)
const HIGH = signP256Der(SK, MSG, { highS: true })
const R_LOW = verifyP256Der(LOW, MSG, PUB)

describe('p256PublicKey', () => {
  it('uncompressed 65 bytes (04) and compressed 33 bytes (02|03) of the same point', () => {
    expect(PUB.length).toBe(65)
    expect(PUB[0]).toBe(4)
    expect(PUB_C.length).toBe(33)
    expect([2, 3]).toContain(PUB_C[0])
    expect(PUB_C.subarray(1)).toEqual(PUB.subarray(1, 33))
    expect(p256.Point.fromBytes(PUB_C).equals(p256.Point.fromBytes(PUB))).toBe(true)
  })
  it('agrees with node:crypto key derivation', () => {
    const priv = createPrivateKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        d: bytesToBase64url(SK).replace(/=+$/, ''),
        x: bytesToBase64url(PUB.subarray(1, 33)).replace(/=+$/, ''),
        y: bytesToBase64url(PUB.subarray(33)).replace(/=+$/, ''),
      },
      format: 'jwk',
    })
    const jwk = createPublicKey(priv).export({ format: 'jwk' })
    expect(concatBytes(Uint8Array.of(4), base64ToBytes(jwk.x!), base64ToBytes(jwk.y!))).toEqual(PUB)
  })
  it('rejects a bad secret key', () => {
    expect(codeOf(() => p256PublicKey(new Uint8Array(31)))).toBe('bad-length')
    expect(codeOf(() => p256PublicKey(new Uint8Array(32)))).toBe('scalar-out-of-range')
    expect(codeOf(() => p256PublicKey(be(N)))).toBe('scalar-out-of-range')
  })
})

describe('signP256Der', () => {
  it('is strict DER, deterministic, low S by default', () => {
    expect(signP256Der(SK, MSG)).toEqual(LOW)
    const sig = p256.Signature.fromBytes(LOW, 'der')
    expect(sig.hasHighS()).toBe(false)
    expect(LOW).toEqual(derRS(sig.r, sig.s))
  })
  it('{ highS: true } gives the n − s twin', () => {
    const lo = p256.Signature.fromBytes(LOW, 'der')
    const hi = p256.Signature.fromBytes(HIGH, 'der')
    expect(hi.r).toBe(lo.r)
    expect(hi.s).toBe(N - lo.s)
    expect(hi.hasHighS()).toBe(true)
  })
  it('verifies under node:crypto (ECDSA-SHA256, DER), both halves of s (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (m, highS) => {
        const sk = p256.utils.randomSecretKey()
        const key = nodePublicKey(p256PublicKey(sk))
        expect(nodeVerify('sha256', m, { key, dsaEncoding: 'der' }, signP256Der(sk, m, { highS }))).toBe(true)
      }),
      { numRuns: 25 },
    )
  })
})

describe.each(VERIFIERS)('verifyP256Der — %s', (_name, verifyP256Der) => {
  describe('valid', () => {
    it('low-S DER under the uncompressed and the compressed key', async () => {
      expect(R_LOW.valid).toBe(true)
      expect(R_LOW.highS).toBe(false)
      expect((await verifyP256Der(LOW, MSG, PUB_C)).valid).toBe(true)
      const sig = p256.Signature.fromBytes(LOW, 'der')
      expect(R_LOW.r).toBe(sig.r)
      expect(R_LOW.s).toBe(sig.s)
      expect(R_LOW.lowS).toEqual(concatBytes(be(sig.r), be(sig.s)))
    })
    it('IDENT-050 the high-S twin verifies and gives the same replay key', async () => {
      const hi = await verifyP256Der(HIGH, MSG, PUB)
      expect(hi.valid).toBe(true)
      expect(hi.highS).toBe(true)
      expect(hi.s).toBe(N - R_LOW.s)
      expect(hi.lowS).toEqual(R_LOW.lowS)
      expect(big(hi.lowS.subarray(32)) <= HALF_N).toBe(true)
    })
    it('the message is hashed with SHA-256 inside (a WebAuthn-shaped message)', async () => {
      const authenticatorData = new Uint8Array(37).fill(0xaa)
      const clientDataJson = utf8('{"type":"webauthn.get","challenge":"abc","origin":"https://example.org"}')
      const signed = concatBytes(authenticatorData, sha256(clientDataJson))
      const { priv, sec1 } = nodeKeyPair()
      const der = new Uint8Array(nodeSign('sha256', signed, { key: priv, dsaEncoding: 'der' }))
      expect((await verifyP256Der(der, signed, sec1)).valid).toBe(true)
      expect((await verifyP256Der(der, sha256(signed), sec1)).valid).toBe(false) // not double-hashed, not pre-hashed
    })
    it('node:crypto signatures (random, either half of s) verify; the replay key is the low-s form (property)', async () => {
      let high = 0
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (m) => {
          const { priv, sec1 } = nodeKeyPair()
          const der = new Uint8Array(nodeSign('sha256', m, { key: priv, dsaEncoding: 'der' }))
          const v = await verifyP256Der(der, m, sec1)
          expect(v.valid).toBe(true)
          const s = v.highS ? N - v.s : v.s
          if (v.highS) high++
          expect(v.lowS).toEqual(concatBytes(be(v.r), be(s)))
          // Its malleated twin verifies with the same replay key.
          const twin = await verifyP256Der(derRS(v.r, N - v.s), m, sec1)
          expect(twin.valid).toBe(true)
          expect(twin.highS).toBe(!v.highS)
          expect(twin.lowS).toEqual(v.lowS)
        }),
        { numRuns: 30 },
      )
      expect(high).toBeGreaterThan(0) // node:crypto does not normalise s
    })
  })

  describe('invalid (valid: false)', () => {
    it.each([
      ['another message', LOW, utf8('passkey test messagE'), PUB],
      ['another key', LOW, MSG, p256PublicKey(new Uint8Array(32).fill(8))],
      ['r + 1', derRS(R_LOW.r + 1n, R_LOW.s), MSG, PUB],
      ['s + 1', derRS(R_LOW.r, R_LOW.s + 1n), MSG, PUB],
      ['r and s swapped', derRS(R_LOW.s, R_LOW.r), MSG, PUB],
    ])('%s', async (_, der, m, key) => {
      const v = await verifyP256Der(der, m, key)
      expect(v.valid).toBe(false)
    })
  })

  // What noble's DER parser (and so this module) accepts: strict X.690 DER only. The only two
  // accepted encodings of one signature are the canonical DER of (r, s) and of (r, n − s), and
  // both give the same replay key (tested above). Every other spelling below is refused.
  describe('DER strictness (throws bad-der)', () => {
    const r = intContent(R_LOW.r)
    const s = intContent(R_LOW.s)
    const body = concatBytes(tlv(0x02, r), tlv(0x02, s))
    const rHighBit = R_LOW.r >> 255n === 1n
    it.each([
      ['empty', new Uint8Array()],
      ['an empty SEQUENCE', Uint8Array.of(0x30, 0)],
      ['a trailing byte after the SEQUENCE', concatBytes(LOW, Uint8Array.of(0))],
      ['a trailing byte inside the SEQUENCE', tlv(0x30, concatBytes(body, Uint8Array.of(0)))],
      ['a third INTEGER', tlv(0x30, concatBytes(body, tlv(0x02, Uint8Array.of(1))))],
      ['one INTEGER only', tlv(0x30, tlv(0x02, r))],
      ['SEQUENCE length one too long', concatBytes(Uint8Array.of(0x30, body.length + 1), body)],
      ['SEQUENCE length one too short', concatBytes(Uint8Array.of(0x30, body.length - 1), body)],
      ['tag SET (0x31) instead of SEQUENCE', concatBytes(Uint8Array.of(0x31, body.length), body)],
      ['tag BIT STRING (0x03) instead of INTEGER', tlv(0x30, concatBytes(tlv(0x03, r), tlv(0x02, s)))],
      ['non-minimal INTEGER: an extra leading 0x00', derOf(concatBytes(Uint8Array.of(0), r), s)],
      ['non-minimal INTEGER: two leading 0x00 on s', derOf(r, concatBytes(Uint8Array.of(0, 0), s))],
      [
        'negative INTEGER: high bit without the 0x00 pad',
        derOf(rHighBit ? r.subarray(1) : Uint8Array.of(0x80, ...r.subarray(r[0] === 0 ? 1 : 0)), s),
      ],
      ['an empty INTEGER', derOf(new Uint8Array(), s)],
      ['long-form SEQUENCE length (0x81 n, n < 128)', concatBytes(Uint8Array.of(0x30, 0x81, body.length), body)],
      [
        'long-form SEQUENCE length with a leading zero (0x82 00 n)',
        concatBytes(Uint8Array.of(0x30, 0x82, 0, body.length), body),
      ],
      [
        'long-form INTEGER length (0x81 n)',
        tlv(0x30, concatBytes(Uint8Array.of(0x02, 0x81, r.length), r, tlv(0x02, s))),
      ],
      ['indefinite length (0x80 … 00 00)', concatBytes(Uint8Array.of(0x30, 0x80), body, Uint8Array.of(0, 0))],
      ['a 34-byte INTEGER', derOf(concatBytes(Uint8Array.of(0, 0x80), new Uint8Array(32)), s)],
      ['the 64-byte compact form', R_LOW.lowS],
    ])('%s', async (_, der) => {
      expect(await codeOfAsync(() => verifyP256Der(der, MSG, PUB))).toBe('bad-der')
    })
    it('noble agrees: p256.verify(format der) refuses them too (spot check)', async () => {
      const nonMinimal = derOf(concatBytes(Uint8Array.of(0), r), s)
      expect(p256.verify(nonMinimal, MSG, PUB, { prehash: true, lowS: false, format: 'der' })).toBe(false)
      expect(p256.verify(LOW, MSG, PUB, { prehash: true, lowS: false, format: 'der' })).toBe(true)
    })
  })

  describe('out-of-range scalars (throws scalar-out-of-range)', () => {
    it.each([
      ['r = 0', derRS(0n, R_LOW.s)],
      ['s = 0', derRS(R_LOW.r, 0n)],
      ['r = n', derRS(N, R_LOW.s)],
      ['s = n', derRS(R_LOW.r, N)],
      ['r + n (a 33-byte INTEGER)', derRS(N + R_LOW.r, R_LOW.s)],
      ['s = 2^256 (33 bytes, no pad needed)', derRS(R_LOW.r, 1n << 256n)],
    ])('%s', async (_, der) => {
      expect(await codeOfAsync(() => verifyP256Der(der, MSG, PUB))).toBe('scalar-out-of-range')
    })
  })

  describe('bad public keys (throws bad-point)', () => {
    const offCurve = PUB.slice()
    offCurve[64]! ^= 1
    const notX = (() => {
      for (let x = 1n; ; x++) {
        try {
          p256.Point.fromBytes(concatBytes(Uint8Array.of(2), be(x)))
        } catch {
          return concatBytes(Uint8Array.of(2), be(x))
        }
      }
    })()
    it.each([
      ['empty', new Uint8Array()],
      ['the point at infinity (00)', Uint8Array.of(0)],
      ['64 bytes without prefix', PUB.subarray(1)],
      ['uncompressed body with prefix 02', concatBytes(Uint8Array.of(2), PUB.subarray(1))],
      ['compressed body with prefix 04', concatBytes(Uint8Array.of(4), PUB_C.subarray(1))],
      ['hybrid prefix 06', concatBytes(Uint8Array.of(6), PUB.subarray(1))],
      ['off the curve', offCurve],
      ['compressed x that is no x-coordinate', notX],
      ['compressed x = p (not a field element)', concatBytes(Uint8Array.of(2), be(P))],
      [
        'uncompressed with y + p overflowing',
        concatBytes(Uint8Array.of(4), PUB.subarray(1, 33), new Uint8Array(32).fill(0xff)),
      ],
    ])('%s', async (_, key) => {
      expect(await codeOfAsync(() => verifyP256Der(LOW, MSG, key))).toBe('bad-point')
    })
  })
})

describe('p256-checks', () => {
  it("holds noble's P-256 p and n", () => {
    expect(P256_P).toBe(p256.Point.CURVE().p)
    expect(P256_N).toBe(p256.Point.CURVE().n)
  })

  /** noble's uncompressed form of a key, or null when its parse throws. */
  const nobleKey = (k: Uint8Array): Uint8Array | null => {
    try {
      return p256.Point.fromBytes(k).toBytes(false)
    } catch {
      return null
    }
  }

  it("gives noble's uncompressed key for every SEC1 key noble accepts, and null for the others", () => {
    const p = P256_P
    const be32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'))
    const uncompressed = (x: bigint, y: bigint) => concatBytes(Uint8Array.of(4), be32(x), be32(y))
    const compressed = (odd: boolean, x: bigint) => concatBytes(Uint8Array.of(odd ? 3 : 2), be32(x))
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 8 }),
        fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
        (sk, mode, any) => {
          if (!p256.utils.isValidSecretKey(sk)) return
          const good = p256PublicKey(sk)
          const x = BigInt(`0x${bytesToHex(good.subarray(1, 33))}`)
          const y = BigInt(`0x${bytesToHex(good.subarray(33))}`)
          const k = [
            good,
            uncompressed(x, p - y), // the negated point: on the curve
            uncompressed(x, (y + 1n) % p), // off the curve
            uncompressed(x, y + p < 2n ** 256n ? y + p : y), // y not reduced (when it fits)
            p256PublicKey(sk, true),
            compressed((y & 1n) === 0n, x), // the other root
            compressed(false, any), // x not always an abscissa, nor always below p
            compressed(true, x + p < 2n ** 256n ? x + p : x), // x not reduced (when it fits)
            concatBytes(Uint8Array.of(5), good.subarray(1)), // a bad prefix
          ][mode]!
          const fast = uncompressedP256Key(k)
          expect(fast === null ? null : bytesToHex(fast)).toBe(bytesToHex(nobleKey(k) ?? new Uint8Array()) || null)
        },
      ),
    )
    expect(uncompressedP256Key(uncompressed(0n, 0n))).toBeNull()
    expect(uncompressedP256Key(new Uint8Array())).toBeNull()
  })
})
