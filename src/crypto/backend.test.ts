import { describe, expect, it } from 'vitest'
import { bytesToHex, concatBytes, utf8 } from './bytes'
import {
  buildFastBackend,
  defaultFastLoaders,
  loadFastBackend,
  NODE_P256,
  type FastLoaders,
  WASM_ED25519,
  WASM_HASHES,
  WASM_SECP256K1,
  type VerifyBackend,
} from './backend'
import { nobleBackend } from './noble-backend'
import { personalMessageHash, signEip191 } from './eip191'
import { ed25519PublicKey, IDENTITY_UPDATE_CONTEXT, signEd25519ph } from './ed25519ph'
import { sha256 } from './hash'
import { keccak256 } from './keccak'
import { loadNativeSecp256k1Recover, NATIVE_ED25519, NATIVE_P256, NATIVE_SECP256K1 } from './native-crypto'
import { p256PublicKey, signP256Der } from './p256'

const MSG = utf8('backend switch')
const ETH = signEip191(new Uint8Array(32).fill(0x11), MSG)
const ED_KEY = ed25519PublicKey(new Uint8Array(32).fill(0x22))
const ED = signEd25519ph(new Uint8Array(32).fill(0x22), MSG, IDENTITY_UPDATE_CONTEXT)
const P_KEY = p256PublicKey(new Uint8Array(32).fill(0x33))
const P_SIG = signP256Der(new Uint8Array(32).fill(0x33), MSG, { highS: true })

/** The three verifications and the hash through a backend, as plain data. */
async function run(b: VerifyBackend) {
  const digest = personalMessageHash(MSG, b.keccak256)
  const rec = await b.recoverEip191(ETH, digest)
  const p = await b.verifyP256Der(P_SIG, MSG, P_KEY)
  return {
    address: rec.address,
    ethReplayKey: bytesToHex(rec.replayKey),
    p256: [p.valid, p.highS, bytesToHex(p.lowS)],
    ed: await b.verifyEd25519ph(ED, MSG, ED_KEY, IDENTITY_UPDATE_CONTEXT),
    edOther: await b.verifyEd25519ph(ED, concatBytes(MSG, MSG), ED_KEY, IDENTITY_UPDATE_CONTEXT),
    keccak: bytesToHex(b.keccak256(MSG)),
    sha256: bytesToHex(b.sha256(MSG)),
  }
}

describe('nobleBackend', () => {
  it("is today's noble code for every primitive", async () => {
    expect(nobleBackend.name).toBe('noble')
    expect(
      Object.values(nobleBackend.primitives).every((p) => p.impl.startsWith('@noble/') && p.fallback === undefined),
    ).toBe(true)
    const r = await run(nobleBackend)
    expect(r.ed).toBe(true)
    expect(r.edOther).toBe(false)
    expect(r.p256[0]).toBe(true)
    expect(r.keccak).toBe(bytesToHex(keccak256(MSG)))
    expect(r.sha256).toBe(bytesToHex(sha256(MSG)))
  })
})

describe('loadFastBackend', () => {
  it("in Node 20 every primitive has its fast path, and the results are noble's", async () => {
    const fast = await loadFastBackend()
    expect(fast.name).toBe('fast')
    // The native addon where it is built (native-crypto.test.ts checks that it is, wherever a
    // C compiler is), else the WebAssembly modules with the reason.
    const native = await loadNativeSecp256k1Recover().then(
      () => null,
      (e: Error) => e.message,
    )
    expect(fast.primitives).toEqual({
      'secp256k1-recover': native === null ? { impl: NATIVE_SECP256K1 } : { impl: WASM_SECP256K1, fallback: native },
      'p256-verify': native === null ? { impl: NATIVE_P256 } : { impl: NODE_P256, fallback: native },
      'ed25519ph-verify': native === null ? { impl: NATIVE_ED25519 } : { impl: WASM_ED25519, fallback: native },
      keccak256: { impl: WASM_HASHES },
      sha256: { impl: WASM_HASHES },
    })
    expect(await run(fast)).toEqual(await run(nobleBackend))
  })
  it('loads once per realm', async () => {
    expect(loadFastBackend()).toBe(loadFastBackend())
    expect(await loadFastBackend()).toBe(await loadFastBackend())
  })
})

describe('buildFastBackend', () => {
  const failing = (why: string) => async (): Promise<never> => {
    throw new Error(why)
  }
  it('never throws: every loader failing gives noble for each primitive, with the reason recorded', async () => {
    const none: FastLoaders = {
      p256: failing('no subtle'),
      secp256k1: failing('WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module'),
      ed25519: failing('module not found'),
      hashes: failing('wasm refused'),
    }
    const b = await buildFastBackend(none)
    expect(b.primitives['p256-verify']).toEqual({
      impl: '@noble/curves',
      fallback: 'OpenSSL (node:crypto) unavailable: no subtle',
    })
    expect(b.primitives['secp256k1-recover'].impl).toBe('@noble/curves')
    expect(b.primitives['secp256k1-recover'].fallback).toMatch(/Refused to compile/)
    expect(b.primitives['ed25519ph-verify'].fallback).toMatch(/module not found/)
    expect(b.primitives.keccak256).toEqual({
      impl: '@noble/hashes',
      fallback: `${WASM_HASHES} unavailable: wasm refused`,
    })
    expect(b.primitives.sha256).toEqual(b.primitives.keccak256)
    expect(await run(b)).toEqual(await run(nobleBackend))
  })
  it('falls back per primitive: one failing loader leaves the others fast', async () => {
    const b = await buildFastBackend({ ...defaultFastLoaders, p256: failing('no subtle') })
    expect(b.primitives['p256-verify'].fallback).toBe('OpenSSL (node:crypto) unavailable: no subtle')
    expect(b.primitives['secp256k1-recover'].fallback).toBeUndefined()
    expect(b.primitives['ed25519ph-verify'].fallback).toBeUndefined()
    expect(await run(b)).toEqual(await run(nobleBackend))
  })
  it('waits for every loader: a slow hashes module delays the backend, and then it is used', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    let built = false
    const pending = buildFastBackend({
      ...defaultFastLoaders,
      hashes: async () => {
        await gate
        return defaultFastLoaders.hashes()
      },
    }).then((b) => {
      built = true
      return b
    })
    await defaultFastLoaders.secp256k1() // the curves have loaded meanwhile
    expect(built).toBe(false)
    release()
    const b = await pending
    expect(b.primitives.keccak256).toEqual({ impl: WASM_HASHES })
    expect(await run(b)).toEqual(await run(nobleBackend))
  })
})
