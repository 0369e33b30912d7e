/**
 * Keccak-256 as Ethereum uses it (the original Keccak submission padding, NOT FIPS 202
 * SHA3-256), over @noble/hashes. Not in ./hash: the fast backend loads this module only
 * when its WebAssembly hashes do not load, so the replay worker, which needs ./hash's
 * SHA-256, carries no Keccak code.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'

/** Keccak-256 (32 bytes). */
export function keccak256(b: Uint8Array): Uint8Array {
  return keccak_256(b)
}
