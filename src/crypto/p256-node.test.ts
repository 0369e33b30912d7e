import { describe, expect, it } from 'vitest'
import { concatBytes, utf8 } from './bytes'
import { p256PublicKey, signP256Der } from './p256'
import * as nodeCrypto from 'node:crypto'
import { expectSameAsNoble, outcome } from './p256-equivalence.testkit'
import { loadNativeP256Verify } from './native-crypto'
import { nodeP256Verifier, openSslP256Verifier, type NodeCrypto } from './p256-node'

const verify = nodeP256Verifier(nodeCrypto as unknown as NodeCrypto)

describe('nodeP256Verifier (node:crypto) ≡ verifyP256Der (noble)', () => {
  it('same verdict, replay key and error on random mixes of valid and invalid signatures (property)', async () => {
    await expectSameAsNoble(verify, 600)
  })
})

// The native addon's OpenSSL calls, where it is built (native-crypto.test.ts fails when a C
// compiler is there and the addon is not).
const native = await loadNativeP256Verify().catch(() => null)
describe.skipIf(!native)("loadNativeP256Verify (Node's OpenSSL through the addon) ≡ verifyP256Der (noble)", () => {
  it('same verdict, replay key and error on random mixes of valid and invalid signatures (property)', async () => {
    await expectSameAsNoble(native!, 600)
  })
})

describe('openSslP256Verifier', () => {
  it('asks noble when OpenSSL refuses a key or fails without a verdict, and does not cache the refusal', async () => {
    let imports = 0
    const sk = new Uint8Array(32).fill(5)
    const v = openSslP256Verifier({
      importKey: () => {
        imports++
        return imports === 1 ? null : 'k'
      },
      verify: () => {
        throw new Error('an OpenSSL error')
      },
    })
    const der = signP256Der(sk, utf8('m'))
    expect((await v(der, utf8('m'), p256PublicKey(sk))).valid).toBe(true) // refused key: noble
    expect((await v(der, utf8('m'), p256PublicKey(sk))).valid).toBe(true) // OpenSSL failed: noble
    expect((await v(der, utf8('x'), p256PublicKey(sk))).valid).toBe(false)
    expect(imports).toBe(2)
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
