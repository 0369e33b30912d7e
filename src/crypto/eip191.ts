/**
 * EIP-191 version 0x45 ("personal_sign") over secp256k1: the personal-message hash,
 * public-key recovery from a 65-byte r || s || v signature (SEC 1 §4.1.6), the
 * canonical replay key of spec section 4 (erc_191 row) and Ethereum addresses
 * (the last 20 bytes of Keccak-256 of the uncompressed key without its 0x04 prefix).
 *
 * Byte order: Ethereum carries the recovery byte LAST (r || s || v); noble's `recovered`
 * format puts it FIRST (rec || r || s). The only place the two meet is `signEip191`;
 * recovery passes r || s and the recovery bit separately (`Secp256k1Recover`), so the
 * recovery step can be noble's or libsecp256k1's (./secp256k1-wasm) with the same checks.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex } from './bytes'
import {
  addressOfUncompressed,
  checkEip191,
  checkShape,
  personalMessageHashWith,
  recovered,
  recoverWithStep,
  type Eip191Recovery,
  type Keccak256,
  type Secp256k1Recover,
} from './eip191-checks'
import { CryptoError, errorMessage } from './errors'
import { keccak256 } from './keccak'
import { parsePrivateKey } from './secp256k1-key'

export { checkRecoverInputs, type Eip191Recovery, type Keccak256, type Secp256k1Recover } from './eip191-checks'

const Point = secp256k1.Point

/** keccak256("\x19Ethereum Signed Message:\n" || decimal byte length of message || message). */
export function personalMessageHash(message: Uint8Array, keccak: Keccak256 = keccak256): Uint8Array {
  return personalMessageHashWith(keccak, message)
}

/** noble's recovery step: the reference every faster `Secp256k1Recover` is tested against. */
export const nobleSecp256k1Recover: Secp256k1Recover = (rs, rec, digest) =>
  secp256k1.Signature.fromBytes(rs, 'compact').addRecoveryBit(rec).recoverPublicKey(digest).toBytes(false)

/**
 * Recover the signer of an EIP-191 personal message.
 * Accepts v in {0, 1, 27, 28} and either half of s; the replay key is canonical (low s,
 * rec 0|1) so a malleated copy (n - s, flipped v) yields the same key and the same address.
 * @throws CryptoError 'bad-length' (not 65 bytes), 'bad-recovery-byte' (v not 0/1/27/28),
 *   'scalar-out-of-range' (r or s is 0 or >= n), 'recovery-failed' (no key recovers).
 */
export function recoverEip191(sig: Uint8Array, message: Uint8Array): Eip191Recovery {
  checkShape(sig)
  return recoverEip191Digest(sig, personalMessageHash(message))
}

/**
 * `recoverEip191` given the personal-message hash instead of the message (the verifier
 * computes it once per signature text). `impl` swaps the recovery step and the hash for
 * faster ones with the same results (./backend); every check before them is ./eip191-checks'.
 * @throws CryptoError as `recoverEip191`
 */
export function recoverEip191Digest(
  sig: Uint8Array,
  digest: Uint8Array,
  impl: { readonly recover?: Secp256k1Recover; readonly keccak?: Keccak256 } = {},
): Eip191Recovery {
  const { recover, keccak = keccak256 } = impl
  if (recover && recover !== nobleSecp256k1Recover) {
    // A faster step failed: let noble say why (same verdict, same message), or recover after all.
    return recoverWithStep(recover, sig, digest, keccak) ?? recoverEip191Digest(sig, digest, { keccak })
  }
  const checked = checkEip191(sig)
  let publicKey: Uint8Array
  try {
    // The low-s twin with the flipped recovery bit recovers the same point as the carried form.
    publicKey = nobleSecp256k1Recover(checked.rs, checked.rec, digest)
  } catch (e) {
    throw new CryptoError('recovery-failed', `EIP-191 signature: no public key recovers (${errorMessage(e)})`, {
      cause: e,
    })
  }
  return recovered(checked, publicKey, digest, keccak)
}

/**
 * Sign an EIP-191 personal message: 65 bytes r || s || v, low s, v = 27 | 28 (RFC 6979
 * deterministic nonce, no extra entropy, so the output is reproducible for fixtures).
 * @throws CryptoError 'bad-private-key'
 */
export function signEip191(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
  const sk = parsePrivateKey(privateKey)
  const recovered = secp256k1.sign(personalMessageHash(message), sk, {
    prehash: false, // the digest is already keccak256: do not hash again with SHA-256
    lowS: true,
    format: 'recovered', // noble: rec || r || s
    extraEntropy: false,
  })
  const rec = recovered[0]!
  // rec 2|3 (R.x >= n, probability ~2^-128) has no Ethereum v: never produced in practice.
  if (rec > 1) throw new CryptoError('recovery-failed', `EIP-191 signing: recovery id ${rec} has no Ethereum v`)
  const out = new Uint8Array(65)
  out.set(recovered.subarray(1, 65), 0) // r || s
  out[64] = 27 + rec // Ethereum: r || s || v
  return out
}

/** The address of a private key. @throws CryptoError 'bad-private-key' */
export function ethAddressFromPrivateKey(sk: Uint8Array): string {
  return addressOfUncompressed(secp256k1.getPublicKey(parsePrivateKey(sk), false), keccak256)
}

/**
 * The address of a 65-byte uncompressed SEC1 public key (0x04 || x || y).
 * @throws CryptoError 'bad-length' (not 65 bytes), 'bad-point' (not 0x04-prefixed, or not on the curve)
 */
export function ethAddressFromPublicKey(pub65: Uint8Array): string {
  if (pub65.length !== 65) {
    throw new CryptoError('bad-length', `secp256k1 public key: expected 65 bytes uncompressed, got ${pub65.length}`)
  }
  if (pub65[0] !== 0x04) {
    throw new CryptoError(
      'bad-point',
      `secp256k1 public key: expected prefix 0x04, got 0x${bytesToHex(pub65.subarray(0, 1))}`,
    )
  }
  try {
    Point.fromBytes(pub65)
  } catch (e) {
    throw new CryptoError('bad-point', `secp256k1 public key: not a curve point (${errorMessage(e)})`, { cause: e })
  }
  return addressOfUncompressed(pub65, keccak256)
}
