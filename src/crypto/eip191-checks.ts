/**
 * The part of EIP-191 recovery (./eip191) that needs no curve arithmetic: the signature's
 * shape and scalar checks, the canonical replay key, the personal-message hash and the
 * address of a recovered key. The fast backend (./backend) runs these with a faster
 * recovery step and hash, and loads @noble/curves (./eip191) only when that step fails,
 * so a worker whose recoveries succeed never loads noble's secp256k1.
 */
import { numberToBytesBE } from '@noble/curves/utils.js'
import { bytesToHex, concatBytes, utf8 } from './bytes'
import { lowHalfS } from './ecdsa'
import { CryptoError } from './errors'

/** The order n of secp256k1's base point (SEC 2 §2.4.1; ./eip191.test.ts checks it against noble's). */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

export interface Eip191Recovery {
  /** The recovered address: `0x` + 40 lowercase hex digits. */
  address: string
  /** The recovered public key, 65-byte uncompressed SEC1 (0x04 || x || y). */
  publicKey: Uint8Array
  /** The personal-message hash that was signed. */
  digest: Uint8Array
  /** 65 bytes r || s || rec with s in the lower half of n and rec 0|1 (flipped when s was high). */
  replayKey: Uint8Array
  /** The v byte as carried in the signature (0, 1, 27 or 28). */
  recoveryByte: number
  /** Whether the carried s was in the upper half of n (s > n/2). */
  highS: boolean
}

/** A Keccak-256 implementation (noble's by default; a faster one may be passed, see ./backend). */
export type Keccak256 = (b: Uint8Array) => Uint8Array

/**
 * The public-key recovery step alone (SEC 1 §4.1.6): from `rs` = r || s (64 bytes, s already
 * in the lower half), the recovery bit and the 32-byte digest, the 65-byte uncompressed key.
 * Throws when no key recovers. `recoverEip191Digest` has checked r, s and v before calling it.
 */
export type Secp256k1Recover = (rs: Uint8Array, rec: 0 | 1, digest: Uint8Array) => Uint8Array

/** The lengths a faster recovery step reads (64-byte r || s, 32-byte digest): it throws rather than read past them. */
export function checkRecoverInputs(rs: Uint8Array, digest: Uint8Array): void {
  if (rs.length !== 64 || digest.length !== 32) {
    throw new Error(
      `libsecp256k1 recovery: expected a 64-byte r || s and a 32-byte digest, got ${rs.length} and ${digest.length}`,
    )
  }
}

/** keccak256("\x19Ethereum Signed Message:\n" || decimal byte length of message || message). */
export function personalMessageHashWith(keccak: Keccak256, message: Uint8Array): Uint8Array {
  return keccak(concatBytes(utf8(`\x19Ethereum Signed Message:\n${message.length}`), message))
}

/** `0x` + lowercase hex of the last 20 bytes of keccak256(x || y). */
export function addressOfUncompressed(pub65: Uint8Array, keccak: Keccak256): string {
  return `0x${bytesToHex(keccak(pub65.subarray(1)).subarray(12))}`
}

/** The checks of `recoverEip191` that need no digest (so a bad length fails before any hashing). */
export function checkShape(sig: Uint8Array): void {
  if (sig.length !== 65) {
    throw new CryptoError('bad-length', `EIP-191 signature: expected 65 bytes r || s || v, got ${sig.length}`)
  }
}

/** A signature that passed the checks: the input of the recovery step and the replay key. */
export interface Eip191Checked {
  /** r || low s, the recovery step's input (a view of `replayKey`). */
  readonly rs: Uint8Array
  /** The recovery bit of the low-s twin. */
  readonly rec: 0 | 1
  readonly replayKey: Uint8Array
  readonly recoveryByte: number
  readonly highS: boolean
}

function bigFromBytes(b: Uint8Array): bigint {
  return BigInt(`0x${bytesToHex(b)}`)
}

/**
 * Every check of `recoverEip191Digest` before the recovery step, and the replay key.
 * @throws CryptoError 'bad-length', 'bad-recovery-byte', 'scalar-out-of-range'
 */
export function checkEip191(sig: Uint8Array): Eip191Checked {
  checkShape(sig)
  const v = sig[64]!
  let rec: 0 | 1
  if (v === 0 || v === 27) rec = 0
  else if (v === 1 || v === 28) rec = 1
  else throw new CryptoError('bad-recovery-byte', `EIP-191 signature: recovery byte v = ${v}, expected 0, 1, 27 or 28`)
  const r = bigFromBytes(sig.subarray(0, 32))
  const s = bigFromBytes(sig.subarray(32, 64))
  const N = SECP256K1_N
  if (r === 0n || r >= N)
    throw new CryptoError('scalar-out-of-range', 'EIP-191 signature: r is 0 or not below the curve order n')
  if (s === 0n || s >= N)
    throw new CryptoError('scalar-out-of-range', 'EIP-191 signature: s is 0 or not below the curve order n')
  const { low, high: highS } = lowHalfS(s, N)
  if (highS) rec = rec === 0 ? 1 : 0
  // r || low s: the replay key's first 64 bytes, and the input of the recovery step.
  const replayKey = new Uint8Array(65)
  replayKey.set(sig.subarray(0, 32), 0)
  replayKey.set(numberToBytesBE(low, 32), 32)
  replayKey[64] = rec
  return { rs: replayKey.subarray(0, 64), rec, replayKey, recoveryByte: v, highS }
}

/**
 * Every check, then `recover` (a faster recovery step than noble's): the recovery, or null
 * when the step throws, for the caller to ask noble (which recovers after all or says why
 * not, with its own message). The fast backend's path and ./eip191's with a faster step.
 * @throws CryptoError 'bad-length', 'bad-recovery-byte', 'scalar-out-of-range'
 */
export function recoverWithStep(
  recover: Secp256k1Recover,
  sig: Uint8Array,
  digest: Uint8Array,
  keccak: Keccak256,
): Eip191Recovery | null {
  const checked = checkEip191(sig)
  let publicKey: Uint8Array
  try {
    // The low-s twin with the flipped recovery bit recovers the same point as the carried form.
    publicKey = recover(checked.rs, checked.rec, digest)
  } catch {
    return null
  }
  return recovered(checked, publicKey, digest, keccak)
}

/** The recovery's result once the step gave `publicKey`. */
export function recovered(
  checked: Eip191Checked,
  publicKey: Uint8Array,
  digest: Uint8Array,
  keccak: Keccak256,
): Eip191Recovery {
  const { replayKey, recoveryByte, highS } = checked
  return { address: addressOfUncompressed(publicKey, keccak), publicKey, digest, replayKey, recoveryByte, highS }
}
