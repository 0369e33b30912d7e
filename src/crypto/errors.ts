/**
 * The one error type of `src/crypto`: raised when an input is malformed (wrong length,
 * not a point, not DER, an out-of-range scalar). A well-formed signature that simply
 * does not verify is never an error: the verifiers return `false` / `valid: false` for it.
 * `code` is stable and machine-readable; `message` says exactly what was wrong.
 */

export type CryptoErrorCode =
  /** A byte string or hex/base64 text of the wrong length. */
  | 'bad-length'
  /** Text that is not the encoding it claims (a non-hex or non-base64 character, bad padding). */
  | 'bad-encoding'
  /** An EIP-191 recovery byte v outside {0, 1, 27, 28}. */
  | 'bad-recovery-byte'
  /** An ECDSA r or s equal to 0 or not below the curve order n. */
  | 'scalar-out-of-range'
  /** No public key recovers from an otherwise well-formed secp256k1 signature. */
  | 'recovery-failed'
  /** A public key that is not a point of the curve (or not a valid SEC1 / Ed25519 encoding). */
  | 'bad-point'
  /** A P-256 signature that is not a strict DER SEQUENCE { INTEGER r, INTEGER s }. */
  | 'bad-der'
  /** A secp256k1 private key that is not 32 bytes / `0x` + 64 hex digits, or not in [1, n-1]. */
  | 'bad-private-key'
  /** An Ed25519ph context longer than 255 bytes (RFC 8032 dom2 carries its length in one byte). */
  | 'bad-context'

/** An error with a stable, machine-readable `code` beside its message: the base of the project's coded errors. */
export class CodedError<C extends string> extends Error {
  constructor(
    readonly code: C,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export class CryptoError extends CodedError<CryptoErrorCode> {
  override readonly name = 'CryptoError'
}

/** The message of an unknown thrown value, for wrapping a library error into a CryptoError. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
