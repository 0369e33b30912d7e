import { describe, expect, it, vi } from 'vitest'
import { buildFastBackend, defaultFastLoaders, NODE_P256, WASM_ED25519, WASM_SECP256K1 } from './backend'
import { signEip191, personalMessageHash } from './eip191'
import { ed25519PublicKey, IDENTITY_UPDATE_CONTEXT, signEd25519ph } from './ed25519ph'
import { utf8 } from './bytes'
import { p256PublicKey, signP256Der } from './p256'
import { NATIVE_ED25519 } from './native-crypto'

// A machine without a C compiler: the addon is not there.
vi.mock('./native-crypto', () => ({
  NATIVE_SECP256K1: 'native secp256k1',
  NATIVE_ED25519: 'native ed25519',
  NATIVE_P256: 'native p256',
  loadNativeSecp256k1Recover: () => Promise.reject(new Error('native addon /x/inbox-crypto.node: it is not built')),
  loadNativeEd25519Combine: () => Promise.reject(new Error('native addon /x/inbox-crypto.node: it is not built')),
  loadNativeP256Verify: () => Promise.reject(new Error('native addon /x/inbox-crypto.node: it is not built')),
}))

describe('the fast backend in Node without the native addon', () => {
  it('uses the WebAssembly modules, says why, and verifies as before', async () => {
    const b = await buildFastBackend(defaultFastLoaders)
    const why = 'native addon /x/inbox-crypto.node: it is not built'
    expect(b.primitives['secp256k1-recover']).toEqual({ impl: WASM_SECP256K1, fallback: why })
    expect(b.primitives['ed25519ph-verify']).toEqual({ impl: WASM_ED25519, fallback: why })
    expect(b.primitives['p256-verify']).toEqual({ impl: NODE_P256, fallback: why })
    expect(NATIVE_ED25519).toBe('native ed25519')
    const sk = new Uint8Array(32).fill(1)
    const msg = utf8('hello')
    const r = await b.recoverEip191(signEip191(sk, msg), personalMessageHash(msg))
    expect(r.address).toBe('0x1a642f0e3c3af545e7acbd38b07251b3990914f1')
    const edKey = new Uint8Array(32).fill(2)
    const sig = signEd25519ph(edKey, msg, IDENTITY_UPDATE_CONTEXT)
    expect(await b.verifyEd25519ph(sig, msg, ed25519PublicKey(edKey), IDENTITY_UPDATE_CONTEXT)).toBe(true)
    sig[0]! ^= 1
    expect(await b.verifyEd25519ph(sig, msg, ed25519PublicKey(edKey), IDENTITY_UPDATE_CONTEXT)).toBe(false)
    const pKey = new Uint8Array(32).fill(3)
    const p = await b.verifyP256Der(signP256Der(pKey, msg), msg, p256PublicKey(pKey))
    expect(p.valid).toBe(true)
  })
})
