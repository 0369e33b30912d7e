/**
 * The part of Ed25519ph verification (./ed25519ph, its steps 0 to 3) that needs no curve
 * arithmetic: the length and context checks, the prehash, the challenge k mod L, and the
 * comparison with R_bytes of a point computed elsewhere. The fast backend (./backend) runs
 * them with the WebAssembly combine step and loads @noble/curves (./ed25519ph) only when
 * that step declines or S >= L, so a worker whose signatures verify there never loads
 * noble's ed25519.
 */
import { bytesToNumberLE, numberToBytesLE } from '@noble/curves/utils.js'
import { concatBytes, equalBytes, utf8 } from './bytes'
import { CryptoError } from './errors'

/** The context string of identity update installation-key signatures (spec section 4). */
export const IDENTITY_UPDATE_CONTEXT: Uint8Array = utf8('IDENTITY UPDATE SIGNATURE')

/**
 * The prime order L of the base point: 2^252 + 27742317777372353535851937790883648493
 * (./ed25519ph.test.ts checks it against noble's).
 */
export const ED25519_L = 2n ** 252n + 27742317777372353535851937790883648493n

const DOM2_PREFIX = utf8('SigEd25519 no Ed25519 collisions')
const PHFLAG = 1

function dom2(context: Uint8Array): Uint8Array {
  return concatBytes(DOM2_PREFIX, Uint8Array.of(PHFLAG, context.length), context)
}

export function checkLength(what: string, b: Uint8Array, expected: number): void {
  if (b.length !== expected) {
    throw new CryptoError('bad-length', `Ed25519ph ${what}: expected ${expected} bytes, got ${b.length}`)
  }
}

export function checkContext(context: Uint8Array): void {
  if (context.length > 255) {
    throw new CryptoError('bad-context', `Ed25519ph context: at most 255 bytes, got ${context.length}`)
  }
}

/** A SHA-512 implementation (noble's by default; a faster one may be passed, see ./backend). */
export type Sha512 = (b: Uint8Array) => Uint8Array

/**
 * The point arithmetic of step 4 alone: the canonical encoding of [S]B - [k]A, or null when
 * this implementation cannot compute it for these inputs (the caller then uses noble's).
 * `sBytes` and `kBytes` are 32-byte little-endian scalars below L; `publicKey` is the key
 * as given. A faster implementation must return the very bytes noble's does, or null.
 */
export type Ed25519phCombine = (sBytes: Uint8Array, kBytes: Uint8Array, publicKey: Uint8Array) => Uint8Array | null

/** The lengths a faster combine step (`step` names it in the error) reads: 32-byte S, k and key. */
export function checkCombineInputs(step: string, sBytes: Uint8Array, kBytes: Uint8Array, publicKey: Uint8Array): void {
  if (sBytes.length !== 32 || kBytes.length !== 32 || publicKey.length !== 32) {
    throw new Error(
      `${step} combine: expected 32-byte S, k and key, got ${sBytes.length}, ${kBytes.length}, ${publicKey.length}`,
    )
  }
}

/** The length and context checks shared by every verifier (step 0 of ./ed25519ph's comment). */
export function checkInputs(signature: Uint8Array, publicKey: Uint8Array, context: Uint8Array): void {
  checkLength('signature', signature, 64)
  checkLength('public key', publicKey, 32)
  checkContext(context)
}

/**
 * A message whose SHA-512 prehash is already known: one signature text is signed by every
 * signature of an update, so its prehash is computed once per update, not once per
 * signature. `digest` must be SHA-512 of the message.
 */
export class Ed25519phPrehash {
  constructor(readonly digest: Uint8Array) {
    checkLength('prehash', digest, 64)
  }
}

/** The raw message, or its known prehash. */
export type Ed25519phMessage = Uint8Array | Ed25519phPrehash

/** Step 3: k = SHA-512(dom2(1, ctx) || R_bytes || A_bytes || SHA-512(message)) mod L. */
export function challenge(
  rBytes: Uint8Array,
  publicKey: Uint8Array,
  message: Ed25519phMessage,
  context: Uint8Array,
  hash: Sha512,
): bigint {
  const ph = message instanceof Ed25519phPrehash ? message.digest : hash(message)
  return bytesToNumberLE(hash(concatBytes(dom2(context), rBytes, publicKey, ph))) % ED25519_L
}

/**
 * Steps 0 to 4 with step 4 done by `combine`: the verdict, or null when noble must decide
 * (`combine` declined or threw, or S >= L: noble decodes the key first, so a bad key
 * throws before the S check).
 * @throws CryptoError 'bad-length', 'bad-context' (as ./ed25519ph `verifyEd25519ph`)
 */
export function verifyWithCombine(
  combine: Ed25519phCombine,
  signature: Uint8Array,
  message: Ed25519phMessage,
  publicKey: Uint8Array,
  context: Uint8Array,
  hash: Sha512,
): boolean | null {
  checkInputs(signature, publicKey, context)
  const rBytes = signature.subarray(0, 32)
  const sBytes = signature.subarray(32, 64)
  if (bytesToNumberLE(sBytes) >= ED25519_L) return null
  const k = challenge(rBytes, publicKey, message, context, hash)
  let out: Uint8Array | null
  try {
    out = combine(sBytes, numberToBytesLE(k, 32), publicKey)
  } catch {
    out = null
  }
  return out === null ? null : equalBytes(out, rBytes)
}
