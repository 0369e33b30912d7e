import { describe, expect, it } from 'vitest'
import { loadBrowserBackend } from './browser-loaders'
import { warmRound } from './warm-up'

describe("the browser workers' loaders (static imports, modules awaited)", () => {
  it('load every fast path (WebCrypto, both WASM paths, hash-wasm after the curves) and pass the known answers', async () => {
    let provided: () => void = () => {}
    const modules = new Promise<void>((resolve) => (provided = resolve))
    let loaded = false
    const backend = loadBrowserBackend(modules).then((b) => ((loaded = true), b))
    // The WASM paths wait for the modules: nothing is ready before they are provided.
    await new Promise((r) => setTimeout(r, 20))
    expect(loaded).toBe(false)
    provided()
    const b = await backend
    await b.settled
    expect(Object.fromEntries(Object.entries(b.primitives).map(([k, p]) => [k, p.impl]))).toEqual({
      'secp256k1-recover': 'libsecp256k1 (WASM, built from secp256k1@5.0.2: src/crypto/wasm)',
      // WebCrypto here too; backend.ts names P-256 by the runtime (in Node: OpenSSL underneath).
      'p256-verify': 'OpenSSL (node:crypto)',
      'ed25519ph-verify': 'ref10 double-scalar multiplication (WASM, built from ed25519@0.0.5: src/crypto/wasm)',
      keccak256: 'hash-wasm',
      sha256: 'hash-wasm',
    })
    expect(Object.values(b.primitives).every((p) => p.fallback === undefined)).toBe(true)
    expect(await warmRound(b)).toBeNull()
  })
})
