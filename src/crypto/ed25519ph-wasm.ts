/**
 * The point arithmetic of Ed25519ph verification ([S]B - [k]A, step 4 of ./ed25519ph) in
 * WebAssembly: SUPERCOP ref10's variable-time double-scalar multiplication, built here from
 * the sources in the npm package ed25519@0.0.5 (./wasm/build.mjs, ./wasm/ed25519-glue.c).
 * The hashing and every check stay in ./ed25519ph; only step 4 runs here, in one pass.
 *
 * Why the verdicts equal noble's (the cofactorless dalek equation of design.md):
 * - The key is decoded by ref10's ge_frombytes_negate_vartime: y = the low 255 bits mod p
 *   (y >= p accepted), x from the square root, its sign from bit 255 (x = 0 with the sign
 *   bit set accepted) — curve25519-dalek's and noble's zip215 decoding, negated. Small-order,
 *   mixed-order and non-canonical keys decode to the same point as in noble and are not
 *   refused. A key that decodes to no point makes this step decline (null), and ./ed25519ph
 *   runs noble's verification, which throws 'bad-point' as before.
 * - The twisted Edwards addition law used is complete, so [k](-A) + [S]B is the exact group
 *   element for every decoded point and scalar (0 included); its canonical encoding is
 *   compared to R_bytes byte for byte, never decoded, as in the noble path.
 * - Scalars: S < L and k = H mod L, so bit 255 is clear, as ref10's windowing requires.
 *
 * Replaces libsodium-wrappers-sumo's two constant-time scalar multiplications and a
 * subtraction, which refused (and sent to noble) the small-order, mixed-order and
 * non-canonical keys and zero scalars.
 */
import { checkCombineInputs, type Ed25519phCombine } from './ed25519ph-checks'
import { instantiateWasm, memoryView, wasmModule, type WasmModule } from './wasm-module'

interface Ed25519Exports {
  readonly memory: { readonly buffer: ArrayBuffer }
  io(): number
  combine(): number
}

/** Counts of combine calls done in WASM and declined to noble (for tests and benchmarks). */
interface WasmCombineStats {
  wasm: number
  declined: number
}

export interface WasmCombine {
  readonly combine: Ed25519phCombine
  readonly stats: WasmCombineStats
}

/** Instantiates the module (compiled once per realm) and returns the combine step with its counters. */
export async function loadWasmEd25519Combine(module?: WasmModule): Promise<WasmCombine> {
  const instance = await instantiateWasm(module ?? (await wasmModule('ed25519')))
  const e = instance.exports as unknown as Ed25519Exports
  const io = e.io()
  const stats: WasmCombineStats = { wasm: 0, declined: 0 }
  const memory = memoryView(e.memory)
  const combine: Ed25519phCombine = (sBytes, kBytes, publicKey) => {
    checkCombineInputs('ref10', sBytes, kBytes, publicKey)
    if ((sBytes[31]! | kBytes[31]!) & 0x80) throw new Error('ref10 combine: a scalar has bit 255 set (not below L)')
    const mem = memory()
    mem.set(sBytes, io)
    mem.set(kBytes, io + 32)
    mem.set(publicKey, io + 64)
    if (e.combine() !== 1) {
      stats.declined++
      return null
    }
    stats.wasm++
    return mem.slice(io + 96, io + 128)
  }
  return { combine, stats }
}
