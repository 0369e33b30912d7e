import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { buildFastBackend, defaultFastLoaders } from './backend'
import { bytesToHex, concatBytes, utf8 } from './bytes'
import { p256PublicKey, p256UncompressedKey, parseP256Signature, signP256Der } from './p256'
import { nobleSecp256k1Recover } from './eip191'
import { le32, P } from './ed25519ph-equivalence.testkit'
import {
  loadNativeEd25519Combine,
  loadNativeP256Verify,
  loadNativeSecp256k1Recover,
  NATIVE_ED25519,
  NATIVE_P256,
  NATIVE_SECP256K1,
} from './native-crypto'
// @ts-expect-error: a JavaScript build script without declarations
import { buildNative, compiler, NATIVE_FILE } from './native/build.mjs'

// The equivalence with noble (properties and edge vectors) is in secp256k1-wasm.test.ts and
// ed25519ph-wasm.test.ts, which run every step they can load. Here: that the addon is there
// where it can be built, and that its C entry points check what they are given.
const hasCompiler = (compiler as () => unknown)() !== null

interface Addon {
  recover(...args: unknown[]): Uint8Array | null
  combine(...args: unknown[]): Uint8Array | null
  p256Key(...args: unknown[]): unknown
  p256Verify(...args: unknown[]): boolean
}

describe('the native addon (src/crypto/native)', () => {
  it.skipIf(!hasCompiler)('is built where a C compiler is (CI always) and current against its sources', async () => {
    const r = (buildNative as () => { built: boolean; file: string })()
    expect(r.file).toBe(NATIVE_FILE)
    expect(r.built, 'npm ci (scripts/build-cli.mjs) should have built it already').toBe(false)
    await expect(loadNativeSecp256k1Recover()).resolves.toBeTypeOf('function')
    await expect(loadNativeEd25519Combine()).resolves.toBeTypeOf('function')
    await expect(loadNativeP256Verify()).resolves.toBeTypeOf('function')
  })
  it.skipIf(!hasCompiler)('is what the fast backend uses in Node', async () => {
    const b = await buildFastBackend(defaultFastLoaders)
    expect(b.primitives['secp256k1-recover']).toEqual({ impl: NATIVE_SECP256K1 })
    expect(b.primitives['ed25519ph-verify']).toEqual({ impl: NATIVE_ED25519 })
    expect(b.primitives['p256-verify']).toEqual({ impl: NATIVE_P256 })
  })
})

describe.skipIf(!hasCompiler)('the addon entry points (C argument checks)', () => {
  const addon = createRequire(import.meta.url)(NATIVE_FILE) as Addon
  const sk = secp256k1.utils.randomSecretKey()
  const digest = new Uint8Array(32).fill(7)
  const sig = secp256k1.sign(digest, sk, { prehash: false, format: 'recovered' })
  const rs = sig.slice(1)
  const rec = sig[0]!

  it('recover: the key noble recovers, from views at any offset of a larger buffer', () => {
    const want = bytesToHex(nobleSecp256k1Recover(rs, rec as 0 | 1, digest))
    const big = concatBytes(new Uint8Array(3), rs, digest, new Uint8Array(5))
    const got = addon.recover(big.subarray(3, 67), big.subarray(67, 99), rec)
    expect(got).toBeInstanceOf(Uint8Array)
    expect(bytesToHex(got!)).toBe(want)
  })
  it('recover: null where no key recovers (r is no x-coordinate)', () => {
    expect(addon.recover(concatBytes(le32(5n).reverse(), le32(7n).reverse()), digest, 0)).toBeNull()
    expect(addon.recover(new Uint8Array(64), digest, 0)).toBeNull() // r = s = 0
  })
  it('recover: refuses the wrong types and lengths and recovery ids with a TypeError or RangeError', () => {
    expect(() => addon.recover(rs.subarray(1), digest, 0)).toThrow(/r \|\| s: expected a Uint8Array of 64 bytes/)
    expect(() => addon.recover(rs, new Uint16Array(16), 0)).toThrow(TypeError)
    expect(() => addon.recover(Array.from(rs), digest, 0)).toThrow(/expected a Uint8Array/)
    expect(() => addon.recover(rs, new DataView(digest.buffer), 0)).toThrow(TypeError)
    expect(() => addon.recover(rs)).toThrow(/digest: expected a Uint8Array of 32 bytes/)
    for (const bad of [4, -1, '0', 0.5, undefined]) expect(() => addon.recover(rs, digest, bad)).toThrow(RangeError)
  })
  it('combine: [S]B − [k]A, null for a key that is no point, and refuses the wrong inputs', () => {
    const A = P.BASE.multiply(99n)
    const got = addon.combine(le32(5n), le32(3n), A.toBytes())
    expect(bytesToHex(got!)).toBe(P.BASE.multiply(5n).subtract(A.multiply(3n)).toHex())
    const notAPoint = le32(2n) // y = 2: (y² − 1)/(dy² + 1) is not a square
    expect(addon.combine(le32(5n), le32(3n), notAPoint)).toBeNull()
    expect(() => addon.combine(le32(5n), le32(3n), A.toBytes().subarray(1))).toThrow(/key: expected a Uint8Array of 32/)
    expect(() => addon.combine(le32(2n ** 255n), le32(3n), A.toBytes())).toThrow(/bit 255/)
    expect(() => addon.combine(le32(5n), le32(2n ** 255n + 1n), A.toBytes())).toThrow(RangeError)
    expect(() => addon.combine()).toThrow(/S: expected a Uint8Array of 32 bytes/)
  })
  it("p256Key and p256Verify: OpenSSL's verdict over SHA-256, null for a point off the curve, no foreign handles", () => {
    const pSk = new Uint8Array(32).fill(9)
    const key = addon.p256Key(p256UncompressedKey(p256PublicKey(pSk)))
    expect(key).not.toBeNull()
    const m = utf8('message')
    const pRs = parseP256Signature(signP256Der(pSk, m)).lowS
    const big = concatBytes(new Uint8Array(7), m, pRs) // views at an offset
    expect(addon.p256Verify(key, big.subarray(7, 7 + m.length), big.subarray(7 + m.length))).toBe(true)
    expect(addon.p256Verify(key, utf8('messagf'), pRs)).toBe(false)
    expect(addon.p256Verify(key, new Uint8Array(0), pRs)).toBe(false)
    const flipped = pRs.slice()
    flipped[40]! ^= 1
    expect(addon.p256Verify(key, m, flipped)).toBe(false)
    expect(addon.p256Key(concatBytes(Uint8Array.of(4), new Uint8Array(64).fill(1)))).toBeNull()
    expect(addon.p256Key(concatBytes(Uint8Array.of(3), new Uint8Array(64).fill(1)))).toBeNull()
    expect(() => addon.p256Key(new Uint8Array(33))).toThrow(/key: expected a Uint8Array of 65 bytes/)
    expect(() => addon.p256Verify({}, m, pRs)).toThrow(/expected a key made by p256Key/)
    expect(() => addon.p256Verify(null, m, pRs)).toThrow(TypeError)
    expect(() => addon.p256Verify(key, 'message', pRs)).toThrow(/message: expected a Uint8Array/)
    expect(() => addon.p256Verify(key, m, pRs.subarray(1))).toThrow(/r \|\| s: expected a Uint8Array of 64 bytes/)
  })
})
