/**
 * Local Ethereum (secp256k1) private keys: import, export and generation, as spec
 * IDENT-088 (stable export: exactly 32 big-endian bytes, or `0x` + 64 lowercase hex digits)
 * and IDENT-089 (import either form, hex digits of either case, same account after restore).
 * A private key is the scalar d with 1 <= d <= n-1 (SEC 1 §3.2.1), n the secp256k1 group order.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes } from './bytes'
import { SECP256K1_N } from './eip191-checks'
import { CryptoError } from './errors'

export { SECP256K1_N } from './eip191-checks'

function bad(message: string): CryptoError {
  return new CryptoError('bad-private-key', `private key: ${message}`)
}

/** Big-endian bytes to an unsigned integer. */
function toBigInt(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(`0x${bytesToHex(b)}`)
}

function assertScalarInRange(b: Uint8Array): void {
  const d = toBigInt(b)
  if (d === 0n) throw bad('the scalar is zero (must be in [1, n-1])')
  if (d >= SECP256K1_N) throw bad('the scalar is not below the secp256k1 group order n (must be in [1, n-1])')
}

/**
 * Parse a local Ethereum private key (IDENT-089): exactly 32 big-endian bytes, or `0x`
 * followed by exactly 64 hex digits of either case. Returns a fresh 32-byte copy.
 * @throws CryptoError 'bad-private-key' naming the length found, the bad character, or the
 *   out-of-range scalar.
 */
export function parsePrivateKey(input: string | Uint8Array): Uint8Array {
  if (input instanceof Uint8Array) {
    if (input.length !== 32) throw bad(`expected exactly 32 bytes, got ${input.length}`)
    assertScalarInRange(input)
    return new Uint8Array(input)
  }
  if (typeof input !== 'string') throw bad(`expected a string or a Uint8Array, got ${typeof input}`)
  if (!input.startsWith('0x')) {
    if (/^[0-9a-fA-F]{64}$/.test(input)) throw bad('missing the 0x prefix before the 64 hex digits')
    if (input.startsWith('0X')) throw bad('the prefix must be a lowercase 0x, got 0X')
    throw bad(`expected 0x followed by 64 hex digits, got text not starting with 0x (${input.length} characters)`)
  }
  const digits = input.length - 2
  for (let i = 2; i < input.length; i++) {
    const c = input.charCodeAt(i)
    const isHex = (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
    if (!isHex) throw bad(`invalid hex character ${JSON.stringify(input[i])} at index ${i}`)
  }
  if (digits !== 64) throw bad(`expected exactly 64 hex digits after 0x, got ${digits}`)
  const bytes = hexToBytes(input)
  assertScalarInRange(bytes)
  return bytes
}

/** IDENT-088: `0x` + the 64 lowercase hex digits of the 32 big-endian bytes. */
export function exportPrivateKeyHex(sk: Uint8Array): string {
  return `0x${bytesToHex(parsePrivateKey(sk))}`
}

/** IDENT-088: exactly 32 big-endian bytes (a copy; mutating it does not touch `sk`). */
export function exportPrivateKeyBytes(sk: Uint8Array): Uint8Array {
  return parsePrivateKey(sk)
}

/** A fresh uniformly random valid private key (noble's CSPRNG-backed generator). */
export function randomPrivateKey(): Uint8Array {
  return secp256k1.utils.randomSecretKey()
}
