/**
 * Hash functions: SHA-256 and SHA-512 (FIPS 180-4); Keccak-256 is in ./keccak.
 * Thin wrappers over @noble/hashes so the rest of the project never imports it.
 */
import { sha256 as nobleSha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js'

/** SHA-256 (32 bytes). */
export function sha256(b: Uint8Array): Uint8Array {
  return nobleSha256(b)
}

/** SHA-512 (64 bytes). */
export function sha512(b: Uint8Array): Uint8Array {
  return nobleSha512(b)
}
