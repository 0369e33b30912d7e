/**
 * ECDSA P-256 verification in Node through node:crypto's synchronous `verify` (OpenSSL),
 * chosen over WebCrypto there: Node runs `crypto.subtle.verify` as a thread-pool job, and
 * its promise and job round trip cost more than the verification (bench: a 1,024-update
 * replay spent 0.78 s of 1.8 CPU-s in WebCrypto's job machinery). The checks are
 * ./p256-webcrypto's, in the same order, so the verdicts and errors are noble's:
 *
 * - the DER signature is parsed strictly by ./p256 (same errors, same order), and its
 *   low-s twin r || s (IEEE P1363) is what is verified, as noble verifies it; OpenSSL
 *   hashes the message with SHA-256, as `prehash: true` does;
 * - the SEC1 key (compressed or uncompressed) is checked by ./p256 (a bad key throws
 *   'bad-point' as before) and imported as a JWK from its affine coordinates; key objects
 *   are cached per key bytes;
 * - r and s are in [1, n-1] before OpenSSL sees them, where ECDSA verification has one
 *   answer (FIPS 186-5 §6.4.2). An unexpected OpenSSL failure (not a verdict), or a key
 *   OpenSSL refuses, falls back to noble for that call.
 *
 * `openSslP256Verifier` holds these steps for any OpenSSL binding: node:crypto's here, the
 * native addon's in ./native-crypto (the same OpenSSL, without node:crypto's per-call work).
 */
import { base64urlNoPad, bytesToHex } from './bytes'
import { parseP256Signature, p256UncompressedKey, verifyP256Der } from './p256'
import type { P256Verify } from './p256-webcrypto'
import { nodeBuiltin } from './node-builtin'

/** Bound on cached keys: a log names a handful of passkeys; the bound only stops unbounded growth. */
const KEY_CACHE_LIMIT = 4096

/** What this module uses of node:crypto (passed in: the core's types have no Node library). */
export interface NodeCrypto {
  createPublicKey(options: { key: { kty: 'EC'; crv: 'P-256'; x: string; y: string }; format: 'jwk' }): unknown
  verify(
    algorithm: 'sha256',
    data: Uint8Array,
    key: { key: unknown; dsaEncoding: 'ieee-p1363' },
    signature: Uint8Array,
  ): boolean
}

/** node:crypto, in Node only (./node-builtin: browser bundlers never see it). */
export function loadNodeCrypto(): Promise<NodeCrypto> {
  return nodeBuiltin<NodeCrypto>('node:crypto')
}

/**
 * What a verifier over OpenSSL needs: a key import (the 65-byte uncompressed SEC1 key; null
 * or a throw when refused) and one verification of r || s over SHA-256(message), which
 * throws on a failure that is not a verdict. node:crypto here; the native addon's
 * (./native-crypto) the same way.
 */
export interface OpenSslP256 {
  importKey(uncompressed: Uint8Array): unknown
  verify(key: unknown, message: Uint8Array, rs: Uint8Array): boolean
}

/**
 * A verifier with its own key cache over `openssl`; throws exactly what `verifyP256Der`
 * throws for malformed input, and asks noble for the verdict when OpenSSL refuses a key or
 * fails otherwise.
 */
export function openSslP256Verifier({ importKey, verify }: OpenSslP256): P256Verify {
  const keys = new Map<string, unknown>()
  const keyFor = (sec1: Uint8Array): unknown => {
    const id = bytesToHex(sec1)
    let key = keys.get(id)
    if (key === undefined) {
      const raw = p256UncompressedKey(sec1) // throws CryptoError 'bad-point' (not cached)
      try {
        key = importKey(raw) ?? undefined
      } catch {
        key = undefined
      }
      if (key === undefined) return undefined
      if (keys.size >= KEY_CACHE_LIMIT) keys.clear()
      keys.set(id, key)
    }
    return key
  }
  return async (der, message, sec1PublicKey) => {
    const sig = parseP256Signature(der) // throws 'bad-der' / 'scalar-out-of-range' first, as verifyP256Der
    const key = keyFor(sec1PublicKey) // then 'bad-point'
    if (key === undefined) return verifyP256Der(der, message, sec1PublicKey)
    let valid: boolean
    try {
      valid = verify(key, message, sig.lowS)
    } catch {
      return verifyP256Der(der, message, sec1PublicKey)
    }
    return { valid, r: sig.r, s: sig.s, lowS: sig.lowS, highS: sig.highS }
  }
}

/** node:crypto's key objects (imported as JWK) and synchronous `verify`. */
export function nodeP256Verifier({ createPublicKey, verify }: NodeCrypto): P256Verify {
  return openSslP256Verifier({
    importKey: (raw) =>
      createPublicKey({
        key: {
          kty: 'EC',
          crv: 'P-256',
          x: base64urlNoPad(raw.subarray(1, 33)),
          y: base64urlNoPad(raw.subarray(33, 65)),
        },
        format: 'jwk',
      }),
    verify: (key, message, rs) => verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, rs),
  })
}
