import { describe, expect, it } from 'vitest'
import { WASM_HASHES } from '../crypto/backend'
import { loadWasmSecp256k1Recover } from '../crypto/secp256k1-wasm'
import { installHashes, sha256 as installedSha256 } from '../crypto/hash-installed'
import { loadBrowserBackend, loadNobleBackendInstalled } from './browser-loaders'
import { warmRound } from './warm-up'

describe("the browser workers' loaders (static imports, modules awaited)", () => {
  it('load every fast path (WebCrypto, the three WASM modules) and pass the known answers', async () => {
    let provided: () => void = () => {}
    const modules = new Promise<void>((resolve) => (provided = resolve))
    let loaded = false
    const backend = loadBrowserBackend(modules).then((b) => ((loaded = true), b))
    // The WASM paths wait for the modules: nothing is ready before they are provided, though
    // a WASM path loaded meanwhile (this realm compiles its own) has had the time to.
    await loadWasmSecp256k1Recover()
    expect(loaded).toBe(false)
    provided()
    const b = await backend
    expect(Object.fromEntries(Object.entries(b.primitives).map(([k, p]) => [k, p.impl]))).toEqual({
      'secp256k1-recover': 'libsecp256k1 (WASM, built from secp256k1@5.0.2: src/crypto/wasm)',
      // WebCrypto here too; backend.ts names P-256 by the runtime (in Node: OpenSSL underneath).
      'p256-verify': 'OpenSSL (node:crypto)',
      'ed25519ph-verify': 'ref10 double-scalar multiplication (WASM, built from ed25519@0.0.5: src/crypto/wasm)',
      keccak256: WASM_HASHES,
      sha256: WASM_HASHES,
    })
    expect(Object.values(b.primitives).every((p) => p.fallback === undefined)).toBe(true)
    expect(await warmRound(b)).toBeNull()
  })

  it("installs its backend's SHA-2 as the core's, noble's too when that is the backend", async () => {
    const fast = await loadBrowserBackend()
    const calls: string[] = []
    const spy = (x: Uint8Array) => (calls.push('fast'), fast.sha256(x))
    // The loader installed fast's own functions: hashing through the installed module matches them.
    expect(installedSha256(new Uint8Array([7]))).toEqual(fast.sha256(new Uint8Array([7])))
    installHashes({ sha256: spy, sha512: fast.sha512 })
    const noble = await loadNobleBackendInstalled()
    expect(noble.name).toBe('noble')
    expect(installedSha256(new Uint8Array([7]))).toEqual(noble.sha256(new Uint8Array([7])))
    expect(calls).toEqual([])
  })
})
