/**
 * secp256k1 public-key recovery (SEC 1 §4.1.6) in WebAssembly: bitcoin-core's libsecp256k1,
 * as compiled and wrapped by @solar-republic/wasm-secp256k1. Its `gzipped` entry embeds the
 * binary (gzip, base64) in the module, so it loads the same in Node, a Vite-built Web Worker
 * and a worker thread, with no fetch; it needs DecompressionStream (Node 18+, every current
 * browser), and loads about a third faster than the uncompressed entry (bench: load).
 *
 * Only the recovery step runs here: `recoverEip191Digest` (./eip191) has already checked
 * the length, v, and 0 < r, s < n, and canonicalised s to the lower half. libsecp256k1 then
 * recovers with recid 0|1 (x = r) exactly as noble does; when it reports no key,
 * `recoverEip191Digest` asks noble for the verdict and the message, so a failure reads the
 * same on both paths.
 *
 * Chosen over tiny-secp256k1 2.2.4 (bitcoinjs, recovery included, as fast in Node): its
 * browser entry imports its 1.2 MB .wasm as an ES module, which Vite does not bundle
 * without a WASM-integration plugin; this module's 290 KB binary needs nothing.
 */
import type { Secp256k1Recover } from './eip191'

/** Loads the WASM module (once per realm: 60-80 ms on an idle machine) and returns its recovery step. */
export async function loadWasmSecp256k1Recover(): Promise<Secp256k1Recover> {
  if (typeof (globalThis as { DecompressionStream?: unknown }).DecompressionStream !== 'function') {
    throw new Error('this runtime has no DecompressionStream to unpack the libsecp256k1 binary')
  }
  const { initWasmSecp256k1 } = await import('@solar-republic/wasm-secp256k1/gzipped')
  const lib = await initWasmSecp256k1()
  return (rs, rec, digest) => {
    if (rs.length !== 64 || digest.length !== 32) {
      throw new Error(
        `libsecp256k1 recovery: expected a 64-byte r || s and a 32-byte digest, got ${rs.length} and ${digest.length}`,
      )
    }
    return lib.recover(rs, digest, rec, true)
  }
}
