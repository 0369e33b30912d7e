/**
 * Byte-string codecs: hexadecimal (RFC 4648 §8, "base16"), base64 and base64url
 * (RFC 4648 §4 and §5), UTF-8 (via the host's TextEncoder), concatenation and equality.
 * Pure ES2022: no Buffer, no atob/btoa, no DOM or Node types.
 *
 * Decoders are strict: they throw CryptoError ('bad-encoding' or 'bad-length') with a
 * message naming the offending character and its position, never return a partial result.
 */
import { CryptoError } from './errors'

const HEX_DIGITS = '0123456789abcdef'

/** Hex of every byte value, built once: `bytesToHex` is on the hot path of replay keys. */
const BYTE_TO_HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => HEX_DIGITS[i >> 4]! + HEX_DIGITS[i & 15]!)

/** Value of one hex digit (either case), or -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48 // 0-9
  if (code >= 97 && code <= 102) return code - 87 // a-f
  if (code >= 65 && code <= 70) return code - 55 // A-F
  return -1
}

/** Quote one character for an error message (control characters as \uXXXX). */
function showChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0
  return code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : JSON.stringify(ch)
}

/**
 * Hex text to bytes. Accepts an optional `0x` (or `0X`) prefix and digits of either case;
 * the empty string (or a bare `0x`) is zero bytes.
 * @throws CryptoError 'bad-length' on an odd number of digits, 'bad-encoding' on a non-hex character.
 */
export function hexToBytes(hex: string): Uint8Array {
  const offset = hex.startsWith('0x') || hex.startsWith('0X') ? 2 : 0
  const digits = hex.length - offset
  if (digits % 2 !== 0) {
    throw new CryptoError('bad-length', `hex: odd number of hex digits (${digits})`)
  }
  const out = new Uint8Array(digits / 2)
  for (let i = 0; i < out.length; i++) {
    const p = offset + 2 * i
    const hi = hexDigit(hex.charCodeAt(p))
    const lo = hexDigit(hex.charCodeAt(p + 1))
    if (hi < 0 || lo < 0) {
      const at = hi < 0 ? p : p + 1
      throw new CryptoError('bad-encoding', `hex: invalid character ${showChar(hex[at]!)} at index ${at}`)
    }
    out[i] = (hi << 4) | lo
  }
  return out
}

/** Bytes to lowercase hex, no prefix. */
export function bytesToHex(b: Uint8Array): string {
  let s = ''
  for (let i = 0; i < b.length; i++) s += BYTE_TO_HEX[b[i]!]!
  return s
}

const encoder = new TextEncoder()

/** The UTF-8 encoding of `s` (a lone surrogate becomes U+FFFD, as TextEncoder does). */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s)
}

/** A new array holding the arguments one after another. */
export function concatBytes(...arrays: Uint8Array[]): Uint8Array {
  let length = 0
  for (const a of arrays) length += a.length
  const out = new Uint8Array(length)
  let pos = 0
  for (const a of arrays) {
    out.set(a, pos)
    pos += a.length
  }
  return out
}

/** Same length and same bytes. Not constant-time: for public data (signatures, keys, digests). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

// ---------------------------------------------------------------------------------------
// base64 (RFC 4648 §4) and base64url (RFC 4648 §5)

const STD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** Char code → 6-bit value for both alphabets; -1 elsewhere. */
const DECODE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1)
  for (let i = 0; i < 64; i++) {
    t[STD_ALPHABET.charCodeAt(i)] = i
    t[URL_ALPHABET.charCodeAt(i)] = i
  }
  return t
})()

function encode64(b: Uint8Array, alphabet: string, pad: boolean): string {
  let s = ''
  let i = 0
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!
    s += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!
  }
  const rest = b.length - i
  if (rest === 1) {
    const n = b[i]! << 16
    s += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? '==' : '')
  } else if (rest === 2) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8)
    s += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? '=' : '')
  }
  return s
}

/** Standard base64 (`+`, `/`), padded with `=`. */
export function bytesToBase64(b: Uint8Array): string {
  return encode64(b, STD_ALPHABET, true)
}

/** base64url (`-`, `_`), padded with `=` as RFC 4648 §5 defines it. For the unpadded form use `base64urlNoPad`. */
export function bytesToBase64url(b: Uint8Array): string {
  return encode64(b, URL_ALPHABET, true)
}

/** base64url (`-`, `_`) without padding: the WebAuthn challenge encoding (spec section 4, passkey). */
export function base64urlNoPad(b: Uint8Array): string {
  return encode64(b, URL_ALPHABET, false)
}

/**
 * base64 or base64url text to bytes. Accepts either alphabet (but not both mixed in one
 * string), with correct `=` padding or none. Strict: no whitespace, no padding in the middle,
 * no impossible length (4k+1 characters), and the unused low bits of the last character must
 * be zero, so every byte string has exactly one accepted unpadded and one padded spelling.
 * @throws CryptoError 'bad-encoding' or 'bad-length'
 */
export function base64ToBytes(s: string): Uint8Array {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 61 /* = */) end--
  const padding = s.length - end
  // Characters first: a stray character is the more useful message than the length it causes.
  let std = -1
  let url = -1
  const values = new Uint8Array(end)
  for (let i = 0; i < end; i++) {
    const code = s.charCodeAt(i)
    const v = code < 128 ? DECODE[code]! : -1
    if (v < 0) {
      const what = code === 61 ? 'padding "=" before the end' : `invalid character ${showChar(s[i]!)}`
      throw new CryptoError('bad-encoding', `base64: ${what} at index ${i}`)
    }
    if (code === 43 || code === 47)
      std = std < 0 ? i : std // + /
    else if (code === 45 || code === 95) url = url < 0 ? i : url // - _
    values[i] = v
  }
  if (std >= 0 && url >= 0) {
    throw new CryptoError(
      'bad-encoding',
      `base64: mixes the standard alphabet (${showChar(s[std]!)} at index ${std}) and the url-safe one (${showChar(s[url]!)} at index ${url})`,
    )
  }
  if (padding > 2) throw new CryptoError('bad-encoding', `base64: ${padding} padding characters (at most 2)`)
  if (padding > 0 && s.length % 4 !== 0) {
    throw new CryptoError('bad-length', `base64: padded text must be a multiple of 4 characters, got ${s.length}`)
  }
  if (end % 4 === 1) {
    throw new CryptoError('bad-length', `base64: ${end} characters is not a possible length (4k+1)`)
  }
  const out = new Uint8Array(Math.floor((end * 6) / 8))
  let o = 0
  let i = 0
  for (; i + 3 < end; i += 4) {
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6) | values[i + 3]!
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
    out[o++] = n & 255
  }
  const rest = end - i
  if (rest === 2) {
    if (values[i + 1]! & 15) throw nonZeroBits(i + 1)
    out[o++] = (values[i]! << 2) | (values[i + 1]! >> 4)
  } else if (rest === 3) {
    if (values[i + 2]! & 3) throw nonZeroBits(i + 2)
    const n = (values[i]! << 18) | (values[i + 1]! << 12) | (values[i + 2]! << 6)
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
  }
  return out
}

function nonZeroBits(at: number): CryptoError {
  return new CryptoError('bad-encoding', `base64: non-zero unused bits in the last character (index ${at})`)
}
