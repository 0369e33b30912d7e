/**
 * Keccak-256 (the original Keccak padding Ethereum uses), SHA-256 and SHA-512 (FIPS 180-4) in
 * WebAssembly: ./wasm/hashes.wasm, built here (./wasm/build.mjs) from XKCP (keccak@3.0.4),
 * libsecp256k1 (secp256k1@5.0.2) and orlp/ed25519's SHA-512 (ed25519@0.0.5), loaded from its
 * raw bytes like the curves (./wasm-module: compiled while it downloads in a browser, read
 * from disk in Node; no base64 inside JavaScript). Instantiated once, it hashes
 * synchronously, so it drops in where ./hash's noble functions are called. Outputs are
 * bit-identical to @noble/hashes (./wasm-hashes.test.ts: vectors and a property test).
 *
 * Replaces hash-wasm 4.13, whose 216 KB of JavaScript holding base64 WebAssembly cost about
 * 100 ms of each worker's and each command line's start (bench/primitives.bench.ts).
 */
import type { Keccak256 } from './eip191-checks'
import type { Sha512 } from './ed25519ph-checks'
import { instantiateWasm, memoryView, wasmModule, type WasmModule } from './wasm-module'

export interface WasmHashes {
  readonly keccak256: Keccak256
  readonly sha256: (b: Uint8Array) => Uint8Array
  readonly sha512: Sha512
}

interface HashExports {
  readonly memory: { readonly buffer: ArrayBuffer }
  /** A buffer of at least n bytes for the message (memory grows as needed); 0 if it cannot. */
  input(n: number): number
  digest(): number
  keccak256(n: number): number
  sha256(n: number): number
  sha512(n: number): number
}

/** Instantiates the module (compiled once per realm, or `module` as given); each hash returns a fresh array. */
export async function loadWasmHashes(module?: WasmModule): Promise<WasmHashes> {
  const instance = await instantiateWasm(module ?? (await wasmModule('hashes')))
  const e = instance.exports as unknown as HashExports
  const digest = e.digest()
  // input() may grow the memory: memoryView makes a new view only then.
  const memory = memoryView(e.memory)
  const hash = (name: 'keccak256' | 'sha256' | 'sha512', size: number) => {
    const run = e[name]
    return (b: Uint8Array): Uint8Array => {
      const at = e.input(b.length)
      if (at === 0) throw new Error(`${name} (WASM): no memory for a ${b.length}-byte message`)
      const mem = memory()
      mem.set(b, at)
      if (run(b.length) !== 1) throw new Error(`${name} (WASM): the ${b.length}-byte message was not hashed`)
      return mem.slice(digest, digest + size)
    }
  }
  return { keccak256: hash('keccak256', 32), sha256: hash('sha256', 32), sha512: hash('sha512', 64) }
}
