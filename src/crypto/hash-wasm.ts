/**
 * Keccak-256 (the original Keccak padding Ethereum uses), SHA-256 and SHA-512 (FIPS 180-4) in
 * WebAssembly, from hash-wasm. Its hashers are created asynchronously once, then hash
 * synchronously, so they drop in where ./hash's noble functions are called. Outputs are
 * bit-identical to @noble/hashes (hash-wasm.test.ts checks both on random inputs).
 */
import type { Keccak256 } from './eip191'
import type { Sha512 } from './ed25519ph'

export interface WasmHashes {
  readonly keccak256: Keccak256
  readonly sha256: (b: Uint8Array) => Uint8Array
  readonly sha512: Sha512
}

/** Creates one hasher of each; each call re-initialises the hasher it uses. */
export async function loadWasmHashes(): Promise<WasmHashes> {
  const mod = await import('hash-wasm')
  // Loaded as CommonJS (a bundler that picks its UMD build), the functions sit on `default`.
  const lib = typeof mod.createKeccak === 'function' ? mod : (mod as unknown as { default: typeof mod }).default
  const { createKeccak, createSHA256, createSHA512 } = lib
  const [keccak, sha2, sha] = await Promise.all([createKeccak(256), createSHA256(), createSHA512()])
  return {
    sha256(b) {
      sha2.init()
      sha2.update(b)
      return sha2.digest('binary')
    },
    keccak256(b) {
      keccak.init()
      keccak.update(b)
      return keccak.digest('binary')
    },
    sha512(b) {
      sha.init()
      sha.update(b)
      return sha.digest('binary')
    },
  }
}
