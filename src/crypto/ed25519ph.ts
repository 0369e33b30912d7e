/**
 * Ed25519ph (RFC 8032 §5.1, prehashed variant, phflag = 1, with a context) for
 * installation keys (spec section 4, installation_key row).
 *
 * Verification reproduces ed25519-dalek 2.x `VerifyingKey::verify_prehashed`, the
 * reference network validator, byte for byte in its verdicts. It is deliberately NOT
 * noble's `ed25519ph.verify`, which checks the cofactored equation and (with
 * `zip215: false`) refuses small-order keys and non-canonical encodings. The rule here:
 *
 *   1. signature = R_bytes (32) || S (32, little-endian); S must be < L (canonical), else false.
 *      R_bytes is never decoded.
 *   2. A = decompress(public key) leniently, like curve25519-dalek: the top bit is the sign
 *      of x, the other 255 bits are y taken mod p (so y >= p is accepted), and x = 0 with the
 *      sign bit set is accepted. 32 bytes that are not a point throw CryptoError 'bad-point'
 *      (dalek fails at `VerifyingKey::from_bytes` there, before any verification).
 *   3. k = SHA-512(dom2(1, ctx) || R_bytes || A_bytes || SHA-512(message)) mod L, hashing the
 *      bytes exactly as given (no re-encoding), dom2(1, ctx) =
 *      "SigEd25519 no Ed25519 collisions" || 0x01 || len(ctx) || ctx.
 *   4. Accept exactly when the canonical encoding of [S]B - [k]A equals R_bytes
 *      (cofactorless; small-order and mixed-order keys are not refused; a non-canonical
 *      R_bytes can therefore never verify).
 *
 * `verifyEd25519phWith` runs the same steps with step 4 delegated (./ed25519ph-sodium: the
 * libsodium WASM point arithmetic of ./backend's fast backend), falling back to this
 * module's noble arithmetic whenever the delegate declines.
 */
import { ed25519, ed25519ph } from '@noble/curves/ed25519.js'
import { bytesToNumberLE } from '@noble/curves/utils.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { equalBytes } from './bytes'
import {
  challenge,
  checkContext,
  checkInputs,
  checkLength,
  ED25519_L,
  verifyWithCombine,
  type Ed25519phCombine,
  type Ed25519phMessage,
  type Sha512,
} from './ed25519ph-checks'
import { CryptoError, errorMessage } from './errors'

export {
  checkCombineInputs,
  Ed25519phPrehash,
  IDENTITY_UPDATE_CONTEXT,
  type Ed25519phCombine,
  type Ed25519phMessage,
  type Sha512,
} from './ed25519ph-checks'

const Point = ed25519.Point
const L: bigint = ED25519_L
const BASE = Point.BASE
// noble gives BASE a width-6 wNAF table at load; it is shared by noble's signing too, so we
// do not change its window size (that would drop and rebuild the table for every user).

/**
 * Verify an Ed25519ph signature exactly as ed25519-dalek 2.x `verify_prehashed` does
 * (see the module comment). `message` is the raw message: it is SHA-512-prehashed here.
 * @returns true when the signature verifies, false otherwise (including S >= L).
 * @throws CryptoError 'bad-length' (signature not 64 bytes, key not 32 bytes),
 *   'bad-point' (key bytes decode to no curve point), 'bad-context' (context over 255 bytes).
 */
export function verifyEd25519ph(
  signature: Uint8Array,
  message: Ed25519phMessage,
  publicKey: Uint8Array,
  context: Uint8Array,
  hash: Sha512 = sha512,
): boolean {
  checkInputs(signature, publicKey, context)
  let A: ReturnType<typeof Point.fromBytes>
  try {
    // zip215 = true is noble's lenient decoder: y mod p, x = 0 with sign bit accepted,
    // exactly curve25519-dalek's CompressedEdwardsY::decompress.
    A = Point.fromBytes(publicKey, true)
  } catch (e) {
    throw new CryptoError('bad-point', `Ed25519ph public key: not a curve point (${errorMessage(e)})`, { cause: e })
  }
  const rBytes = signature.subarray(0, 32)
  const S = bytesToNumberLE(signature.subarray(32, 64))
  if (S >= L) return false // dalek: Scalar::from_canonical_bytes fails (SignatureError)
  const k = challenge(rBytes, publicKey, message, context, hash)
  // multiplyUnsafe: variable time (public data only), accepts scalar 0 (gives ZERO) and any
  // point, small-order ones included. BASE uses the cached table.
  const SB = BASE.multiplyUnsafe(S)
  const kA = A.multiplyUnsafe(k)
  return equalBytes(SB.subtract(kA).toBytes(), rBytes)
}

/**
 * `verifyEd25519ph` with step 4 done by `combine` (./backend's libsodium path). Every check
 * and hash before it is the code above; whenever `combine` declines (returns null or
 * throws), or S >= L, the whole verification is noble's, so verdicts and errors are the same.
 * @throws CryptoError as `verifyEd25519ph`
 */
export function verifyEd25519phWith(combine: Ed25519phCombine, ...args: Parameters<typeof verifyEd25519ph>): boolean {
  const [signature, message, publicKey, context, hash = sha512] = args
  return verifyWithCombine(combine, signature, message, publicKey, context, hash) ?? verifyEd25519ph(...args)
}

/**
 * Sign with Ed25519ph (RFC 8032 §5.1.6, phflag = 1) under `context`. `message` is the raw
 * message; noble applies the SHA-512 prehash. Deterministic.
 * @throws CryptoError 'bad-length' (secret key not 32 bytes), 'bad-context'
 */
export function signEd25519ph(secretKey: Uint8Array, message: Uint8Array, context: Uint8Array): Uint8Array {
  checkLength('secret key', secretKey, 32)
  checkContext(context)
  return ed25519ph.sign(message, secretKey, { context })
}

/** The 32-byte public key of a 32-byte Ed25519 secret key (seed). @throws CryptoError 'bad-length' */
export function ed25519PublicKey(secretKey: Uint8Array): Uint8Array {
  checkLength('secret key', secretKey, 32)
  return ed25519ph.getPublicKey(secretKey)
}

/** A fresh random 32-byte Ed25519 secret key (seed), from noble's CSPRNG. */
export function randomSecretKey(): Uint8Array {
  return ed25519ph.utils.randomSecretKey()
}
