/**
 * The point arithmetic of Ed25519ph verification ([S]B - [k]A, step 4 of ./ed25519ph) in
 * WebAssembly, from libsodium (libsodium-wrappers-sumo: the sumo build is the one that
 * exposes the Ed25519 group operations). There is no native Ed25519ph with a context
 * string, so the hashing and every check stay in ./ed25519ph; only the two scalar
 * multiplications and the subtraction run here.
 *
 * Why the verdicts equal noble's (the cofactorless dalek equation of design.md):
 * - `crypto_scalarmult_ed25519_noclamp(k, A)` computes [k]A exactly, but refuses (throws)
 *   a key that is non-canonical, small-order, or not in the prime-order subgroup, and a
 *   result that is the identity (k = 0). `crypto_scalarmult_ed25519_base_noclamp(S)` refuses
 *   S = 0. Every refusal makes the combine step decline, and ./ed25519ph then runs noble's
 *   whole verification: every edge case of the design (small-order and mixed-order keys,
 *   non-canonical key spellings, zero scalars) is judged by noble, never here.
 * - For the keys libsodium accepts (canonical encodings of prime-order points, a subset of
 *   what noble's lenient decoder accepts), [S]B - [k]A is one group element, and both
 *   libraries return its canonical encoding; R_bytes is compared to it byte for byte,
 *   never decoded, as in the noble path.
 * - Scalars: S < L and k = H mod L are 32-byte little-endian with the top bit clear, so
 *   `noclamp` uses them as given (it only clears bit 255).
 */
import type { Ed25519phCombine } from './ed25519ph-checks'

/** Counts of combine calls done by libsodium and declined to noble (for tests and benchmarks). */
interface SodiumCombineStats {
  sodium: number
  declined: number
}

export interface SodiumCombine {
  readonly combine: Ed25519phCombine
  readonly stats: SodiumCombineStats
}

/** Loads libsodium (WASM, about 20 ms once) and returns the combine step with its counters. */
export async function loadSodiumCombine(): Promise<SodiumCombine> {
  const { default: sodium } = await import('libsodium-wrappers-sumo')
  await sodium.ready
  const stats: SodiumCombineStats = { sodium: 0, declined: 0 }
  const combine: Ed25519phCombine = (sBytes, kBytes, publicKey) => {
    let out: Uint8Array
    try {
      const kA = sodium.crypto_scalarmult_ed25519_noclamp(kBytes, publicKey)
      const SB = sodium.crypto_scalarmult_ed25519_base_noclamp(sBytes)
      out = sodium.crypto_core_ed25519_sub(SB, kA)
    } catch {
      stats.declined++
      return null
    }
    stats.sodium++
    return out
  }
  return { combine, stats }
}
