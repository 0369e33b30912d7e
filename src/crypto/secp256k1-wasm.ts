/**
 * secp256k1 public-key recovery (SEC 1 §4.1.6) in WebAssembly: bitcoin-core's libsecp256k1
 * built here from the sources in the npm package secp256k1@5.0.2 (./wasm/build.mjs: 10x26
 * field with native 64-bit products, 8x32 scalars, endomorphism, -O3), loaded from its raw
 * bytes (./wasm-module).
 *
 * Replaces @solar-republic/wasm-secp256k1 0.6.3, whose build emulates the 128-bit multiply
 * of the 5x52 field and whose binary came base64- and gzip-encoded inside JavaScript
 * (bench/primitives.bench.ts measures both; see the README's speed section).
 *
 * Only the recovery step runs here: `recoverEip191Digest` (./eip191) has already checked
 * the length, v, and 0 < r, s < n, and canonicalised s to the lower half. libsecp256k1 then
 * recovers with recid 0|1 (x = r) exactly as noble does; when it reports no key,
 * `recoverEip191Digest` asks noble for the verdict and the message, so a failure reads the
 * same on both paths.
 */
import { checkRecoverInputs, type Secp256k1Recover } from './eip191-checks'
import { instantiateWasm, memoryView, wasmModule, type WasmModule } from './wasm-module'

interface Secp256k1Exports {
  readonly memory: { readonly buffer: ArrayBuffer }
  io(): number
  init(): number
  recover(recid: number): number
}

/** Instantiates the module (compiled once per realm) and builds its tables (about 12 ms), then returns its recovery step. */
export async function loadWasmSecp256k1Recover(module?: WasmModule): Promise<Secp256k1Recover> {
  const instance = await instantiateWasm(module ?? (await wasmModule('secp256k1')))
  const e = instance.exports as unknown as Secp256k1Exports
  if (e.init() !== 1) throw new Error('libsecp256k1 (WASM): the verification context could not be built')
  const io = e.io()
  const memory = memoryView(e.memory)
  return (rs, rec, digest) => {
    checkRecoverInputs(rs, digest)
    const mem = memory()
    mem.set(rs, io)
    mem.set(digest, io + 64)
    if (e.recover(rec) !== 1) throw new Error('libsecp256k1 recovery: no public key recovers from this signature')
    return mem.slice(io + 96, io + 161)
  }
}
