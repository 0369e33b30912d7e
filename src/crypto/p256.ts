/**
 * ECDSA over NIST P-256 with SHA-256 (FIPS 186-5 §6.4, SEC 1 §4.1) for passkey signatures
 * (spec section 4, passkey row): strict DER signatures (X.690 DER: minimal lengths and
 * minimal INTEGERs, no trailing bytes), SEC1 public keys (compressed 33 or uncompressed
 * 65 bytes, SEC 1 §2.3.3), either half of s accepted, and the canonical replay key
 * r || low-s (64 bytes). `parseP256Signature` and `p256UncompressedKey` are the parsing
 * steps alone, shared with the WebCrypto verifier (./p256-webcrypto).
 */
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from './bytes'
import { parseP256Signature, P256_N, type P256Verification } from './p256-checks'
import { CryptoError, errorMessage } from './errors'

export { parseP256Signature, type P256Signature, type P256Verification } from './p256-checks'

const Point = p256.Point
const N: bigint = P256_N

/**
 * Check a SEC1 P-256 public key (compressed or uncompressed) and return it uncompressed
 * (65 bytes, 04 || x || y), the form WebCrypto's 'raw' import takes everywhere.
 * @throws CryptoError 'bad-point'
 */
export function p256UncompressedKey(sec1PublicKey: Uint8Array): Uint8Array {
  return parseSec1(sec1PublicKey).toBytes(false)
}

function parseSec1(sec1PublicKey: Uint8Array): ReturnType<typeof Point.fromBytes> {
  const len = sec1PublicKey.length
  const head = sec1PublicKey[0]
  const shapeOk = (len === 33 && (head === 0x02 || head === 0x03)) || (len === 65 && head === 0x04)
  if (!shapeOk) {
    throw new CryptoError(
      'bad-point',
      `P-256 public key: expected SEC1 compressed (33 bytes, 02|03) or uncompressed (65 bytes, 04), got ${len} bytes` +
        (len > 0 ? ` starting 0x${bytesToHex(sec1PublicKey.subarray(0, 1))}` : ''),
    )
  }
  try {
    return Point.fromBytes(sec1PublicKey)
  } catch (e) {
    throw new CryptoError('bad-point', `P-256 public key: not a curve point (${errorMessage(e)})`, { cause: e })
  }
}

/**
 * Verify a DER ECDSA P-256 signature over SHA-256(`message`) (the hash is applied here).
 * Both halves of s verify; `lowS` is the canonical replay key either way.
 * @throws CryptoError 'bad-der' (not strict DER), 'scalar-out-of-range' (r or s is 0 or >= n),
 *   'bad-point' (key is not a SEC1 encoding of a curve point)
 */
export function verifyP256Der(der: Uint8Array, message: Uint8Array, sec1PublicKey: Uint8Array): P256Verification {
  const { r, s, lowS, highS } = parseP256Signature(der)
  parseSec1(sec1PublicKey)
  // Verify the low-s twin: it verifies exactly when the carried (r, s) does
  // ((r, n - s) is the same signature with the nonce point negated, same R.x).
  const valid = p256.verify(lowS, message, sec1PublicKey, { prehash: true, lowS: false, format: 'compact' })
  return { valid, r, s, lowS, highS }
}

/** The SEC1 public key of a 32-byte P-256 secret key: uncompressed 65 bytes, or 33 when `compressed`. */
export function p256PublicKey(sk: Uint8Array, compressed = false): Uint8Array {
  checkSecretKey(sk)
  return p256.getPublicKey(sk, compressed)
}

/**
 * Sign SHA-256(`message`) with ECDSA P-256, DER-encoded, deterministic (RFC 6979, no extra
 * entropy). Low s by default; `{ highS: true }` returns the n - s twin (for tests of s
 * normalisation; it verifies all the same).
 */
export function signP256Der(sk: Uint8Array, message: Uint8Array, opts?: { highS?: boolean }): Uint8Array {
  checkSecretKey(sk)
  const compact = p256.sign(message, sk, { prehash: true, lowS: true, format: 'compact', extraEntropy: false })
  const sig = p256.Signature.fromBytes(compact, 'compact')
  const out = opts?.highS === true ? new p256.Signature(sig.r, N - sig.s) : sig
  return out.toBytes('der')
}

function checkSecretKey(sk: Uint8Array): void {
  if (sk.length !== 32) throw new CryptoError('bad-length', `P-256 secret key: expected 32 bytes, got ${sk.length}`)
  if (!p256.utils.isValidSecretKey(sk)) {
    throw new CryptoError('scalar-out-of-range', 'P-256 secret key: the scalar is 0 or not below the curve order n')
  }
}
