/**
 * The part of P-256 verification (./p256) that needs no curve arithmetic: the strict DER
 * parse of a signature with its low-s twin, and the check (and decompression) of a SEC1
 * key. The WebCrypto verifier (./p256-webcrypto) runs these and loads @noble/curves
 * (./p256) only for what they leave to it (a key that is not a curve point, a failed
 * WebCrypto call), so a worker whose passkeys verify never loads noble's P-256.
 */
import { DER } from '@noble/curves/abstract/der.js'
import { numberToBytesBE } from '@noble/curves/utils.js'
import { lowHalfS } from './ecdsa'
import { CryptoError, errorMessage } from './errors'

/** P-256's field prime p, order n and coefficient b (a = -3; FIPS 186-5; ./p256.test.ts checks them against noble's). */
export const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn
export const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn

export interface P256Verification {
  /** Whether the signature verifies over SHA-256(message) under the key. */
  valid: boolean
  /** r as carried. */
  r: bigint
  /** s as carried (either half). */
  s: bigint
  /** The replay key: 64 bytes r || s with s in the lower half of n (n - s when s was high). */
  lowS: Uint8Array
  /** Whether the carried s was in the upper half of n (s > n/2). */
  highS: boolean
}

/** A strictly parsed P-256 signature: r and s as carried, and the low-s twin as 64 bytes r || s. */
export interface P256Signature {
  readonly r: bigint
  readonly s: bigint
  /** r || s with s in the lower half of n (P1363 / WebCrypto form): the replay key. */
  readonly lowS: Uint8Array
  readonly highS: boolean
}

/**
 * Parse a DER P-256 signature strictly and derive its low-s twin (the first step of
 * `verifyP256Der`, shared with the WebCrypto path of ./backend).
 * @throws CryptoError 'bad-der', 'scalar-out-of-range'
 */
export function parseP256Signature(der: Uint8Array): P256Signature {
  const { r, s } = parseDer(der)
  const { low, high: highS } = lowHalfS(s, P256_N)
  const lowS = new Uint8Array(64)
  lowS.set(numberToBytesBE(r, 32), 0)
  lowS.set(numberToBytesBE(low, 32), 32)
  return { r, s, lowS, highS }
}

function parseDer(der: Uint8Array): { r: bigint; s: bigint } {
  let parsed: { r: bigint; s: bigint }
  try {
    // Same parser (and same size cap: a scalar INTEGER is at most 32 + 1 sign byte) that
    // noble's Signature.fromBytes(der, 'der') uses; called directly so that a structural
    // failure ('bad-der') is told apart from an out-of-range r or s.
    if (der.length > 2 * 32 + 16) throw new Error(`${der.length} bytes is too long for a P-256 signature`)
    parsed = DER.toSig(der, 32 + 1)
  } catch (e) {
    throw new CryptoError('bad-der', `P-256 signature: not strict DER (${errorMessage(e)})`, { cause: e })
  }
  const { r, s } = parsed
  if (r === 0n || r >= P256_N)
    throw new CryptoError('scalar-out-of-range', 'P-256 signature: r is 0 or not below the curve order n')
  if (s === 0n || s >= P256_N)
    throw new CryptoError('scalar-out-of-range', 'P-256 signature: s is 0 or not below the curve order n')
  return { r, s }
}

function mod(a: bigint): bigint {
  const r = a % P256_P
  return r < 0n ? r + P256_P : r
}

function pow(b: bigint, e: bigint): bigint {
  let r = 1n
  for (let x = mod(b); e > 0n; e >>= 1n, x = (x * x) % P256_P) if (e & 1n) r = (r * x) % P256_P
  return r
}

function be(b: Uint8Array, from: number, to: number): bigint {
  let n = 0n
  for (let i = from; i < to; i++) n = (n << 8n) | BigInt(b[i]!)
  return n
}

/** x^3 - 3x + b mod p: y^2 of the curve point with abscissa x. */
const rhs = (x: bigint): bigint => mod(x * x * x - 3n * x + P256_B)

/**
 * A SEC1 key (compressed 33 bytes, 02|03 || x, or uncompressed 65 bytes, 04 || x || y)
 * as 65 bytes uncompressed, when its coordinates are below p and it lies on
 * y^2 = x^3 - 3x + b: what noble's `Point.fromBytes(...).toBytes(false)` gives for it
 * (P-256's cofactor is 1, so every curve point is in the group). null for any other input,
 * which is left to noble (./p256 `p256UncompressedKey`) to accept or say why not.
 */
export function uncompressedP256Key(sec1: Uint8Array): Uint8Array | null {
  const head = sec1[0]
  if (sec1.length === 65 && head === 0x04) {
    const x = be(sec1, 1, 33)
    const y = be(sec1, 33, 65)
    return x < P256_P && y < P256_P && mod(y * y) === rhs(x) ? sec1 : null
  }
  if (sec1.length !== 33 || (head !== 0x02 && head !== 0x03)) return null
  const x = be(sec1, 1, 33)
  if (x >= P256_P) return null
  const y2 = rhs(x)
  // p = 3 mod 4: the square root is y2^((p + 1) / 4) when y2 is a square.
  let y = pow(y2, (P256_P + 1n) >> 2n)
  if (mod(y * y) !== y2 || y === 0n) return null
  if (Number(y & 1n) !== (head & 1)) y = P256_P - y
  const out = new Uint8Array(65)
  out[0] = 0x04
  out.set(sec1.subarray(1), 1)
  out.set(numberToBytesBE(y, 32), 33)
  return out
}
