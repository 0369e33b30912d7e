import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hashMessage, recoverMessageAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { bytesToHex, concatBytes, hexToBytes, utf8 } from './bytes'
import {
  ethAddressFromPrivateKey,
  ethAddressFromPublicKey,
  personalMessageHash,
  recoverEip191,
  recoverEip191Digest,
  signEip191,
} from './eip191'
import { defaultFastLoaders } from './backend'
import { keccak256 } from './keccak'
import { SECP256K1_N } from './eip191-checks'
import { CREATE_INBOX_TEXT, codeOf } from './support.testkit'

const N = secp256k1.Point.CURVE().n
const HALF_N = N >> 1n

// web3.js `accounts.sign('Some data', key)` documentation vector (toolchain.md §6).
const WEB3 = {
  key: hexToBytes('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'),
  message: utf8('Some data'),
  hash: '1da44b586eb0729ff70a73c326926f6ed5a25f5b056e7f47fbc6e58d86871655',
  signature:
    'b91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c',
  address: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
}

// sk = 32 × 0x11 over the 253-byte create-inbox signature text (toolchain.md §6).
const TEXT = CREATE_INBOX_TEXT
const XMTP = {
  key: new Uint8Array(32).fill(0x11),
  message: utf8(TEXT),
  hash: '9fbaa6cf5323b171c5e13f7fd877506281fc67018bbb9e3a060ce417bda182ff',
  signature:
    '378e38c6079adbbdb4880060f43a554b84de22235be6fc1e1c783908c61e63671f9b7812192f6a22216a1cd3183be1fb7d31a122143d46330df206f6c490ea771b',
  address: '0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a',
}
const VECTORS = [
  ['web3 "Some data"', WEB3],
  ['32×0x11 signature text', XMTP],
] as const

const big = (b: Uint8Array) => BigInt(`0x${bytesToHex(b)}`)
const be32 = (n: bigint) => hexToBytes(n.toString(16).padStart(64, '0'))
/** r || s || v from parts. */
const sigOf = (r: bigint, s: bigint, v: number) => concatBytes(be32(r), be32(s), Uint8Array.of(v))
/** The malleated twin: s → n − s, v flipped (27 ↔ 28, 0 ↔ 1). */
function malleate(sig: Uint8Array): Uint8Array {
  const v = sig[64]!
  const flipped = v === 27 ? 28 : v === 28 ? 27 : v ^ 1
  return sigOf(big(sig.subarray(0, 32)), N - big(sig.subarray(32, 64)), flipped)
}
describe('personalMessageHash', () => {
  it.each(VECTORS)('%s', (_, v) => {
    expect(bytesToHex(personalMessageHash(v.message))).toBe(v.hash)
  })
  it('prefixes the decimal UTF-8 byte length, not the character count', () => {
    const m = utf8('é€') // 2 characters, 5 bytes
    expect(personalMessageHash(m)).toEqual(keccak256(concatBytes(utf8('\x19Ethereum Signed Message:\n5'), m)))
    expect(bytesToHex(personalMessageHash(m))).toBe(hashMessage({ raw: m }).slice(2))
  })
  it('agrees with viem hashMessage on ASCII, Unicode, empty and random bytes (property)', () => {
    for (const s of ['', 'hello', 'héllo wörld 😀', TEXT]) {
      expect(`0x${bytesToHex(personalMessageHash(utf8(s)))}`).toBe(hashMessage(s))
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (m) => {
        expect(`0x${bytesToHex(personalMessageHash(m))}`).toBe(hashMessage({ raw: m }))
      }),
    )
  })
})

describe('signEip191', () => {
  it.each(VECTORS)('%s: byte-identical to the vector (RFC 6979, low s, v = 27|28)', (_, v) => {
    expect(bytesToHex(signEip191(v.key, v.message))).toBe(v.signature)
  })
  it('agrees byte for byte with viem privateKeyToAccount().signMessage (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (m) => {
        const sk = secp256k1.utils.randomSecretKey()
        const account = privateKeyToAccount(`0x${bytesToHex(sk)}`)
        const sig = signEip191(sk, m)
        expect(`0x${bytesToHex(sig)}`).toBe(await account.signMessage({ message: { raw: m } }))
        expect(big(sig.subarray(32, 64)) <= HALF_N).toBe(true)
        expect([27, 28]).toContain(sig[64])
      }),
      { numRuns: 25 },
    )
  })
  it('rejects an invalid private key', () => {
    expect(codeOf(() => signEip191(new Uint8Array(32), WEB3.message))).toBe('bad-private-key')
    expect(codeOf(() => signEip191(new Uint8Array(31), WEB3.message))).toBe('bad-private-key')
  })
})

// The edge vectors of recoverEip191 run against noble and against the fast backend's parts
// (libsecp256k1 recovery: the native addon in Node where it is built, else WASM; the WASM
// Keccak of ./wasm-hashes), composed as ./backend composes them.
const chosen = await defaultFastLoaders.secp256k1()
const fastRecover = typeof chosen === 'function' ? chosen : chosen.fn
const wasmHashes = await defaultFastLoaders.hashes()
const RECOVERERS = [
  ['noble', recoverEip191],
  [
    `fast (${typeof chosen === 'function' ? 'libsecp256k1' : chosen.impl} + WASM Keccak)`,
    (sig: Uint8Array, m: Uint8Array) =>
      recoverEip191Digest(sig, personalMessageHash(m, wasmHashes.keccak256), {
        recover: fastRecover,
        keccak: wasmHashes.keccak256,
      }),
  ],
] as const

describe('recoverEip191Digest', () => {
  it('gives recoverEip191 of the message when given its personal-message hash', () => {
    const sig = hexToBytes(WEB3.signature)
    expect(recoverEip191Digest(sig, personalMessageHash(WEB3.message))).toEqual(recoverEip191(sig, WEB3.message))
  })
})

describe.each(RECOVERERS)('recoverEip191 — %s', (_name, recoverEip191) => {
  describe('valid', () => {
    it.each(VECTORS)('%s recovers the address', (_, v) => {
      const got = recoverEip191(hexToBytes(v.signature), v.message)
      expect(got.address).toBe(v.address)
      expect(bytesToHex(got.digest)).toBe(v.hash)
      expect(got.publicKey).toEqual(secp256k1.getPublicKey(v.key, false))
      expect(got.recoveryByte).toBe(hexToBytes(v.signature)[64])
      expect(got.highS).toBe(false)
      // IDENT-050 replay key: r || s || rec, v 27|28 canonicalised to 0|1.
      const sig = hexToBytes(v.signature)
      expect(got.replayKey).toEqual(concatBytes(sig.subarray(0, 64), Uint8Array.of(sig[64]! - 27)))
    })
    it.each(VECTORS)('%s: v 0|1 is the same signature as 27|28 (same address, same replay key)', (_, v) => {
      const sig = hexToBytes(v.signature)
      const raw = sig.slice()
      raw[64] = sig[64]! - 27
      const a = recoverEip191(sig, v.message)
      const b = recoverEip191(raw, v.message)
      expect(b.address).toBe(a.address)
      expect(b.replayKey).toEqual(a.replayKey)
      expect(b.recoveryByte).toBe(sig[64]! - 27)
    })
    it.each(VECTORS)(
      'IDENT-050 %s: the high-S malleated copy with flipped v recovers the same address and replay key',
      (_, v) => {
        const sig = hexToBytes(v.signature)
        const twin = malleate(sig)
        expect(big(twin.subarray(32, 64)) > HALF_N).toBe(true)
        const a = recoverEip191(sig, v.message)
        const b = recoverEip191(twin, v.message)
        expect(b.highS).toBe(true)
        expect(b.address).toBe(a.address)
        expect(b.publicKey).toEqual(a.publicKey)
        expect(b.replayKey).toEqual(a.replayKey)
        expect(b.recoveryByte).toBe(twin[64])
      },
    )
    it('a high-S copy WITHOUT flipping v recovers some other key (not an error, not the signer)', () => {
      const sig = hexToBytes(WEB3.signature)
      const wrongTwin = sigOf(big(sig.subarray(0, 32)), N - big(sig.subarray(32, 64)), sig[64]!)
      expect(recoverEip191(wrongTwin, WEB3.message).address).not.toBe(WEB3.address)
    })
    it('s = (n−1)/2 is low; s = (n+1)/2 is high and canonicalises to the same replay key with rec flipped', () => {
      const r = big(hexToBytes(WEB3.signature).subarray(0, 32))
      const low = recoverEip191(sigOf(r, HALF_N, 27), WEB3.message)
      const high = recoverEip191(sigOf(r, HALF_N + 1n, 28), WEB3.message)
      expect(low.highS).toBe(false)
      expect(high.highS).toBe(true)
      expect(high.replayKey).toEqual(low.replayKey)
      expect(high.address).toBe(low.address)
      expect(bytesToHex(low.replayKey.subarray(32, 64))).toBe(HALF_N.toString(16).padStart(64, '0'))
      expect(low.replayKey[64]).toBe(0)
    })
    it('another message recovers another address', () => {
      expect(recoverEip191(hexToBytes(WEB3.signature), utf8('Some datA')).address).not.toBe(WEB3.address)
    })
    it('agrees with viem recoverMessageAddress, both halves of s (property)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.boolean(), async (m, high) => {
          const sk = secp256k1.utils.randomSecretKey()
          const sig0 = signEip191(sk, m)
          const sig = high ? malleate(sig0) : sig0
          const ours = recoverEip191(sig, m)
          const theirs = await recoverMessageAddress({ message: { raw: m }, signature: sig })
          expect(ours.address).toBe(theirs.toLowerCase())
          expect(ours.address).toBe(ethAddressFromPrivateKey(sk))
          expect(ours.replayKey).toEqual(recoverEip191(sig0, m).replayKey)
        }),
        { numRuns: 25 },
      )
    })
  })
  describe('invalid', () => {
    const good = hexToBytes(WEB3.signature)
    const r = big(good.subarray(0, 32))
    const s = big(good.subarray(32, 64))
    it.each([
      ['64 bytes', good.subarray(0, 64), 'bad-length'],
      ['66 bytes', concatBytes(good, Uint8Array.of(0)), 'bad-length'],
      ['empty', new Uint8Array(), 'bad-length'],
      ['v = 29', sigOf(r, s, 29), 'bad-recovery-byte'],
      ['v = 26', sigOf(r, s, 26), 'bad-recovery-byte'],
      ['v = 2', sigOf(r, s, 2), 'bad-recovery-byte'],
      ['v = 3', sigOf(r, s, 3), 'bad-recovery-byte'],
      ['v = 37 (EIP-155 style)', sigOf(r, s, 37), 'bad-recovery-byte'],
      ['v = 255', sigOf(r, s, 255), 'bad-recovery-byte'],
      ['r = 0', sigOf(0n, s, 27), 'scalar-out-of-range'],
      ['s = 0', sigOf(r, 0n, 27), 'scalar-out-of-range'],
      ['r = n', sigOf(N, s, 27), 'scalar-out-of-range'],
      ['s = n', sigOf(r, N, 27), 'scalar-out-of-range'],
      ['r = 2^256 − 1', concatBytes(new Uint8Array(32).fill(255), be32(s), Uint8Array.of(27)), 'scalar-out-of-range'],
      // 5³ + 7 = 132 is not a square mod p: no curve point has x = 5.
      ['r = 5 is no x-coordinate', sigOf(5n, s, 27), 'recovery-failed'],
    ])('%s', (_, sig, code) => {
      expect(codeOf(() => recoverEip191(sig, WEB3.message))).toBe(code)
    })
    it('v = 29 says which byte', () => {
      expect(() => recoverEip191(sigOf(r, s, 29), WEB3.message)).toThrow(
        /recovery byte v = 29, expected 0, 1, 27 or 28/,
      )
    })
    it('a signature whose recovered point is infinity (s·R = h·G) fails recovery', () => {
      // Choose R = k·G, then s = h·k⁻¹ makes Q = r⁻¹(s·R − h·G) the point at infinity.
      const h = big(personalMessageHash(WEB3.message)) % N
      const k = 0x1234567n
      const R = secp256k1.Point.BASE.multiply(k).toAffine()
      expect(R.x < N).toBe(true)
      const kInv = secp256k1.Point.Fn.inv(k)
      const sig = sigOf(R.x, (h * kInv) % N, 27 + Number(R.y & 1n))
      expect(codeOf(() => recoverEip191(sig, WEB3.message))).toBe('recovery-failed')
    })
  })
})

describe('ethAddressFromPrivateKey', () => {
  it.each(VECTORS)('%s', (_, v) => {
    expect(ethAddressFromPrivateKey(v.key)).toBe(v.address)
  })
  it('agrees with viem privateKeyToAccount (property)', () => {
    fc.assert(
      fc.property(fc.constant(null), () => {
        const sk = secp256k1.utils.randomSecretKey()
        expect(ethAddressFromPrivateKey(sk)).toBe(privateKeyToAccount(`0x${bytesToHex(sk)}`).address.toLowerCase())
      }),
      { numRuns: 20 },
    )
  })
  it('rejects an invalid key', () => {
    expect(codeOf(() => ethAddressFromPrivateKey(new Uint8Array(32)))).toBe('bad-private-key')
  })
})

describe('ethAddressFromPublicKey', () => {
  it.each(VECTORS)('%s', (_, v) => {
    expect(ethAddressFromPublicKey(secp256k1.getPublicKey(v.key, false))).toBe(v.address)
  })
  it('is 0x + 40 lowercase hex digits', () => {
    expect(ethAddressFromPublicKey(secp256k1.getPublicKey(WEB3.key, false))).toMatch(/^0x[0-9a-f]{40}$/)
  })
  describe('invalid', () => {
    const pub = secp256k1.getPublicKey(WEB3.key, false)
    const offCurve = pub.slice()
    offCurve[64]! ^= 1
    it.each([
      ['33-byte compressed', secp256k1.getPublicKey(WEB3.key, true), 'bad-length'],
      ['64 bytes without prefix', pub.subarray(1), 'bad-length'],
      ['prefix 0x06 (hybrid)', concatBytes(Uint8Array.of(6), pub.subarray(1)), 'bad-point'],
      ['off the curve', offCurve, 'bad-point'],
    ])('%s', (_, key, code) => {
      expect(codeOf(() => ethAddressFromPublicKey(key))).toBe(code)
    })
  })
})

describe('SECP256K1_N', () => {
  it("is noble's secp256k1 group order", () => {
    expect(SECP256K1_N).toBe(secp256k1.Point.CURVE().n)
  })
})
