/**
 * What the crypto tests share: how a caller observes a CryptoError, the DER writer of the
 * P-256 signature tests, the scalar-range mutations of the ECDSA equivalence properties, and
 * the create-inbox signature text of the known-answer vectors.
 */
import { concatBytes, hexToBytes } from './bytes'
import { CryptoError } from './errors'

/** `e` when it is a CryptoError; anything else is rethrown (a bug, not an outcome). */
function cryptoError(e: unknown): CryptoError {
  if (e instanceof CryptoError) return e
  throw e
}

/** The code of the CryptoError that `f` throws; returning normally fails the test. */
export function codeOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    return cryptoError(e).code
  }
  throw new Error('expected a CryptoError')
}

/** codeOf of an asynchronous `f`. */
export async function codeOfAsync(f: () => Promise<unknown>): Promise<string> {
  try {
    await f()
  } catch (e) {
    return cryptoError(e).code
  }
  throw new Error('expected a CryptoError')
}

/** What a caller observes: `show` of what `f` returns, or the CryptoError's `code: message`. */
export function observe<T>(f: () => T, show: (v: T) => string): string {
  try {
    return show(f())
  } catch (e) {
    const c = cryptoError(e)
    return `${c.code}: ${c.message}`
  }
}

/** observe of an asynchronous `f`. */
export async function observeAsync<T>(f: () => Promise<T> | T, show: (v: T) => string): Promise<string> {
  try {
    return show(await f())
  } catch (e) {
    const c = cryptoError(e)
    return `${c.code}: ${c.message}`
  }
}

/** The ECDSA mutations of r and s the equivalence properties make: set to 0, to the order n, or above n. */
export const SCALAR_MUTATIONS = ['r=0', 's=0', 'r=n', 's=n', 'r>n', 's>n'] as const
type ScalarMutation = (typeof SCALAR_MUTATIONS)[number]

/** (r, s) after a scalar mutation, on a curve of order `n`; `at` picks how far above n. */
export function mutateScalars(m: ScalarMutation, r: bigint, s: bigint, n: bigint, at: number): [bigint, bigint] {
  const above = n + BigInt(at % 1000)
  switch (m) {
    case 'r=0':
      return [0n, s]
    case 's=0':
      return [r, 0n]
    case 'r=n':
      return [n, s]
    case 's=n':
      return [r, n]
    case 'r>n':
      return [above, s]
    case 's>n':
      return [r, above]
  }
}

/** A DER TLV with a short-form length. */
export const tlv = (tag: number, body: Uint8Array) => concatBytes(Uint8Array.of(tag, body.length), body)

/** Minimal DER INTEGER content of a non-negative bigint. */
export function intContent(n: bigint): Uint8Array {
  let hex = n.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  const b = hexToBytes(hex)
  return b[0]! & 0x80 ? concatBytes(Uint8Array.of(0), b) : b
}

/** A DER ECDSA signature: SEQUENCE { INTEGER r, INTEGER s } of the given INTEGER contents. */
export const derOf = (r: Uint8Array, s: Uint8Array) => tlv(0x30, concatBytes(tlv(0x02, r), tlv(0x02, s)))

/** derOf with minimal encodings of r and s. */
export const derRS = (r: bigint, s: bigint) => derOf(intContent(r), intContent(s))

/** The 253-byte create-inbox signature text of the known-answer vectors (toolchain.md §6). */
export const CREATE_INBOX_TEXT =
  'XMTP : Authenticate to inbox\n\nInbox ID: ' +
  'ab'.repeat(32) +
  '\nCurrent time: 2024-04-10T12:00:00Z\n\n- Create inbox\n  (Owner: 0x' +
  '11'.repeat(20) +
  ')\n\nFor more info: https://xmtp.org/signatures'
