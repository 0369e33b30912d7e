/**
 * Byte-string codecs: hexadecimal (RFC 4648 §8, "base16"), base64 and base64url
 * (RFC 4648 §4 and §5), UTF-8 (via the host's TextEncoder), concatenation and equality.
 * Pure ES2022: no import of Buffer, no atob/btoa, no DOM or Node types (hexToBytes uses
 * Node's Buffer when globalThis has one, and its own table everywhere else).
 *
 * Hex is on the replay's hot path (identifiers, replay keys, every update_hex): both
 * directions use the host's Uint8Array.fromHex and toHex where it has them (browsers), else
 * Node's Buffer for long texts to bytes, else tables (@scure/base's radix conversion was
 * 12.6-12.9× slower than a table at 400 bytes on Node 20, which has no Uint8Array.toHex). Base64
 * is tables both ways too: scure's coders convert through an array per character (about 40
 * bytes of heap each; the log readers try hex text as base64 too) and were 6 KB in the page
 * and in every worker; the decoder here accepts exactly what @scure/base's strict RFC 4648
 * coders accept, with the same bytes (a property test holds it to them). Decoders are
 * strict: they throw CryptoError ('bad-encoding' or 'bad-length') with a message naming the offending
 * character and its position, never return a partial result.
 */
import { CryptoError } from './errors'

/** Quote one character for an error message (control characters as \uXXXX). */
function showChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0
  return code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : JSON.stringify(ch)
}

/** Char code → hex digit value (either case); -1 elsewhere. */
const HEX_VALUE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1)
  for (let i = 0; i < 16; i++) {
    t['0123456789abcdef'.charCodeAt(i)] = i
    t['0123456789ABCDEF'.charCodeAt(i)] = i
  }
  return t
})()

/** What hexToBytes uses of Node's Buffer: `write(text, offset, length, 'hex')`, the bytes written. */
interface HexWriter extends Uint8Array {
  write(text: string, offset: number, length: number, encoding: 'hex'): number
}

/**
 * Node's Buffer when the host has one, found on globalThis (never imported: the core runs
 * in browsers too, where this is undefined and the table below does all the work).
 */
const HostBuffer = (
  globalThis as {
    Buffer?: { allocUnsafeSlow(size: number): HexWriter; byteLength(text: string, encoding: 'utf8'): number }
  }
).Buffer
let hasHostHex = typeof HostBuffer?.allocUnsafeSlow === 'function' && typeof HostBuffer.byteLength === 'function'

/**
 * Pairs a host's hex decoder must refuse before it is used: a decoder that reads pairs with
 * parseInt (a browser polyfill's Buffer, a loose fromHex) takes "0g" as 0, " 1" and "+1" as 1.
 */
const NOT_HEX_PAIRS = ['0g', 'g0', ' 1', '1 ', '+1', '-1', '0x'] as const

/** True when the host's Buffer decodes hex as Node's does: a pair with anything but two hex digits stops it. */
function strictHostHex(b: HexWriter): boolean {
  for (const bad of NOT_HEX_PAIRS) if (b.write(bad, 0, 1, 'hex') !== 0) return false
  return b.write('aF', 0, 1, 'hex') === 1 && b[0] === 0xaf
}

/** Hex text of at least this many digits goes to the host's decoder (a shorter one is not worth the call). */
const HOST_HEX_MIN = 64

/** The host's decoder writes here (grown to the largest text seen), a plain Uint8Array views it. */
let hostScratch: HexWriter | null = null
let hostView: Uint8Array = new Uint8Array(0)

/**
 * `digits` hex digits of `text` from `offset` by the host's native decoder, or null when
 * the host has none or the text is not all hex digits (the table then reads it and names
 * the fault). Buffer's decoder stops at the first pair that is not two hex digits, so a
 * short count says a fault is there; but it reads a character above U+00FF by its low
 * byte ('\u0130' as '0'), so only ASCII text is given to it: text whose UTF-8 length is its
 * length (a native count; a regular expression over the digits took 5 ms of 1 MB).
 */
function hostHexToBytes(text: string, offset: number, digits: number): Uint8Array | null {
  if (!hasHostHex || digits < HOST_HEX_MIN || HostBuffer!.byteLength(text, 'utf8') !== text.length) return null
  const n = digits >> 1
  if (hostScratch === null || hostScratch.length < n) {
    const scratch = HostBuffer!.allocUnsafeSlow(Math.max(n, 2 * (hostScratch?.length ?? 2048)))
    if (hostScratch === null && !strictHostHex(scratch)) {
      hasHostHex = false
      return null
    }
    hostScratch = scratch
    hostView = new Uint8Array(hostScratch.buffer, hostScratch.byteOffset, hostScratch.length)
  }
  const written = hostScratch.write(offset === 0 ? text : text.slice(offset), 0, n, 'hex')
  // A plain Uint8Array of its own (not a Buffer, not a view of a shared pool).
  return written === n ? hostView.slice(0, n) : null
}

/**
 * The host's Uint8Array.fromHex and Uint8Array.prototype.toHex (TC39 "Uint8Array to/from
 * base64 and hex", in Chromium since 140, Firefox 133, Safari 18.2; Node 20 has neither),
 * used only when they behave as specified on a few known answers: fromHex refuses a pair
 * that is not two hex digits, toHex writes lowercase. In a Chromium worker, a 256-update
 * bundle's update_hex (about 330,000 digits) took the table 5 to 12 ms of a first, cold
 * decode, where fromHex reads it in about 0.5 ms.
 */
const NativeHex = Uint8Array as unknown as { fromHex?: (text: string) => Uint8Array }
const nativeFromHex: ((text: string) => Uint8Array) | null = (() => {
  const f = NativeHex.fromHex
  if (typeof f !== 'function') return null
  try {
    const ok = f.call(Uint8Array, 'aF09')
    if (ok.length !== 2 || ok[0] !== 0xaf || ok[1] !== 0x09) return null
    for (const bad of NOT_HEX_PAIRS) {
      try {
        f.call(Uint8Array, bad)
        return null
      } catch {
        // refused, as specified
      }
    }
    return (text) => f.call(Uint8Array, text)
  } catch {
    return null
  }
})()
const nativeToHex: ((b: Uint8Array) => string) | null = (() => {
  const f = (Uint8Array.prototype as { toHex?: (this: Uint8Array) => string }).toHex
  if (typeof f !== 'function') return null
  try {
    return f.call(Uint8Array.of(0xaf, 0x09, 0)) === 'af0900' ? (b) => f.call(b) : null
  } catch {
    return null
  }
})()

/** `digits` hex digits of `text` from `offset` by the host's fromHex, or null (none, or a fault: the table names it). */
function nativeHexToBytes(text: string, offset: number, digits: number): Uint8Array | null {
  if (nativeFromHex === null || digits < HOST_HEX_MIN) return null
  try {
    return nativeFromHex(offset === 0 ? text : text.slice(offset))
  } catch {
    return null
  }
}

/**
 * Hex text to bytes. Accepts an optional `0x` (or `0X`) prefix and digits of either case;
 * the empty string (or a bare `0x`) is zero bytes. Every update_hex of a bundle passes
 * here: where the host has a native hex decoder (Node's Buffer) a text of all hex digits
 * goes to it (hostHexToBytes), else to the host's Uint8Array.fromHex where it has one
 * (nativeHexToBytes: a browser); otherwise, and for every fault, it is read in place
 * through a table (no slice of the digits). Noble's decoder took 19 ms of a 1,024-update
 * command line replay, the table about 5 to 9.
 * @throws CryptoError 'bad-length' on an odd number of digits, 'bad-encoding' on a non-hex character.
 */
export function hexToBytes(text: string): Uint8Array {
  const offset = text.startsWith('0x') || text.startsWith('0X') ? 2 : 0
  const digits = text.length - offset
  if (digits % 2 !== 0) {
    throw new CryptoError('bad-length', `hex: odd number of hex digits (${digits})`)
  }
  return (
    hostHexToBytes(text, offset, digits) ??
    nativeHexToBytes(text, offset, digits) ??
    tableHexToBytes(text, offset, digits)
  )
}

/** hexToBytes by the table, for any host: `digits` (even) hex digits of `text` from `offset`. */
function tableHexToBytes(text: string, offset: number, digits: number): Uint8Array {
  const out = new Uint8Array(digits >> 1)
  for (let i = 0, j = offset; i < out.length; i++, j += 2) {
    const a = text.charCodeAt(j)
    const b = text.charCodeAt(j + 1)
    const hi = a < 128 ? HEX_VALUE[a]! : -1
    const lo = b < 128 ? HEX_VALUE[b]! : -1
    if ((hi | lo) < 0) {
      const bad = /[^0-9a-fA-F]/.exec(text.slice(offset))
      const at = offset + (bad?.index ?? 0)
      throw new CryptoError('bad-encoding', `hex: invalid character ${showChar(text[at] ?? '')} at index ${at}`)
    }
    out[i] = (hi << 4) | lo
  }
  return out
}

/** Byte → its two lowercase hex digits' char codes, at 2·byte and 2·byte + 1. */
const HEX_DIGITS: Uint8Array = (() => {
  const t = new Uint8Array(512)
  const d = '0123456789abcdef'
  for (let i = 0; i < 256; i++) {
    t[2 * i] = d.charCodeAt(i >> 4)
    t[2 * i + 1] = d.charCodeAt(i & 15)
  }
  return t
})()

/** bytesToHex writes its digits here when they fit (a fresh array past it) and reads them back as one string. */
const HEX_SCRATCH = 4096
const hexScratch = new Uint8Array(HEX_SCRATCH)
const decoder = new TextDecoder()

/**
 * Bytes to lowercase hex, no prefix: the host's toHex where it has one (a flat string),
 * else the digits are written as ASCII into a buffer and read back by TextDecoder, which
 * also makes one flat string. Noble's coder (`hex += pair` per byte)
 * left a rope of one cell per byte: a 64-byte replay key held about 1,900 bytes of heap
 * against 144, and the replay keeps every signature's hex (evidence, signers, replay keys),
 * so the young generation's collections copied ropes; the first hash of a rope (the seen
 * set's) flattened it again.
 */
export function bytesToHex(b: Uint8Array): string {
  if (nativeToHex !== null) return nativeToHex(b)
  const n = b.length * 2
  const out = n > HEX_SCRATCH ? new Uint8Array(n) : hexScratch
  for (let i = 0; i < b.length; i++) {
    const v = b[i]! * 2
    out[2 * i] = HEX_DIGITS[v]!
    out[2 * i + 1] = HEX_DIGITS[v + 1]!
  }
  return decoder.decode(out.subarray(0, n))
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

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** Char code → 6-bit value for both alphabets; -1 elsewhere (the error scan here, the log readers' decoder: src/core/decode/base64.ts). */
export const BASE64_VALUE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1)
  for (let i = 0; i < 64; i++) {
    t[STD.charCodeAt(i)] = i
    t[URL_SAFE.charCodeAt(i)] = i
  }
  return t
})()

/**
 * The encoders: 3 bytes to 4 characters through a 64-entry table. @scure/base's encoders
 * convert through a radix array, and the passkey challenge (base64url of every update's
 * signature text) cost 57 ms of a 1,024-update replay with them; this encodes 400 bytes
 * 5.5× faster (341,000 against 63,000 per CPU-second, load 3). The property tests compare
 * every output with Node's Buffer.
 */
function encode64(b: Uint8Array, alphabet: string, pad: boolean): string {
  let out = ''
  const whole = b.length - (b.length % 3)
  for (let i = 0; i < whole; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!
  }
  if (b.length - whole === 1) {
    const n = b[whole]! << 16
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + (pad ? '==' : '')
  } else if (b.length - whole === 2) {
    const n = (b[whole]! << 16) | (b[whole + 1]! << 8)
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + (pad ? '=' : '')
  }
  return out
}

/** Standard base64 (`+`, `/`), padded with `=`. */
export function bytesToBase64(b: Uint8Array): string {
  return encode64(b, STD, true)
}

/** base64url (`-`, `_`), padded with `=` as RFC 4648 §5 defines it. For the unpadded form use `base64urlNoPad`. */
export function bytesToBase64url(b: Uint8Array): string {
  return encode64(b, URL_SAFE, true)
}

/** base64url (`-`, `_`) without padding: the WebAuthn challenge encoding (spec section 4, passkey). */
export function base64urlNoPad(b: Uint8Array): string {
  return encode64(b, URL_SAFE, false)
}

/**
 * base64 or base64url text to bytes. Accepts either alphabet (but not both mixed in one
 * string), with correct `=` padding or none. Strict: no whitespace, no padding in the middle,
 * no impossible length (4k+1 characters), and the unused low bits of the last character must
 * be zero, so every byte string has exactly one accepted unpadded and one padded spelling.
 * @throws CryptoError 'bad-encoding' or 'bad-length'
 */
export function base64ToBytes(s: string): Uint8Array {
  const end = base64DataLength(s)
  if (end < 0) throw base64Problem(s)
  return decodeBase64Data(s, end)
}

/**
 * Checks `s` as base64 without allocating; returns how many characters carry data (the
 * text without its padding), or -1 when base64ToBytes would refuse it.
 */
export function base64DataLength(s: string): number {
  const n = s.length
  let end = n
  if (n > 0 && s.charCodeAt(n - 1) === 61 /* = */) {
    // Padded: whole groups of four, at most two `=`.
    if (n % 4 !== 0) return -1
    end--
    if (s.charCodeAt(end - 1) === 61) end--
    if (end > 0 && s.charCodeAt(end - 1) === 61) return -1
  }
  const rest = end % 4
  if (rest === 1) return -1
  let std = false
  let url = false
  let last = 0
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i)
    const v = c < 128 ? BASE64_VALUE[c]! : -1
    if (v < 0) return -1
    if (c === 43 || c === 47) std = true
    else if (c === 45 || c === 95) url = true
    last = v
  }
  if (std && url) return -1
  if ((rest === 2 && last & 15) || (rest === 3 && last & 3)) return -1
  return end
}

/** The bytes of the first `end` characters of `s`, base64 that base64DataLength accepted (`end` is its answer). */
export function decodeBase64Data(s: string, end: number): Uint8Array {
  const rest = end % 4
  const whole = end - rest
  const out = new Uint8Array((whole / 4) * 3 + (rest === 0 ? 0 : rest - 1))
  let o = 0
  for (let i = 0; i < whole; i += 4) {
    const n =
      (BASE64_VALUE[s.charCodeAt(i)]! << 18) |
      (BASE64_VALUE[s.charCodeAt(i + 1)]! << 12) |
      (BASE64_VALUE[s.charCodeAt(i + 2)]! << 6) |
      BASE64_VALUE[s.charCodeAt(i + 3)]!
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
    out[o++] = n & 255
  }
  if (rest === 2) {
    out[o] = (BASE64_VALUE[s.charCodeAt(whole)]! << 2) | (BASE64_VALUE[s.charCodeAt(whole + 1)]! >> 4)
  } else if (rest === 3) {
    const n =
      (BASE64_VALUE[s.charCodeAt(whole)]! << 18) |
      (BASE64_VALUE[s.charCodeAt(whole + 1)]! << 12) |
      (BASE64_VALUE[s.charCodeAt(whole + 2)]! << 6)
    out[o++] = n >> 16
    out[o] = (n >> 8) & 255
  }
  return out
}

/** What is wrong with base64 text base64DataLength refused: the first problem, in reading order. */
function base64Problem(s: string): CryptoError {
  let end = s.length
  while (end > 0 && s.charCodeAt(end - 1) === 61 /* = */) end--
  const padding = s.length - end
  // Characters first: a stray character is the more useful message than the length it causes.
  let std = -1
  let url = -1
  for (let i = 0; i < end; i++) {
    const code = s.charCodeAt(i)
    const v = code < 128 ? BASE64_VALUE[code]! : -1
    if (v < 0) {
      const what = code === 61 ? 'padding "=" before the end' : `invalid character ${showChar(s[i]!)}`
      return new CryptoError('bad-encoding', `base64: ${what} at index ${i}`)
    }
    if (code === 43 || code === 47)
      std = std < 0 ? i : std // + /
    else if (code === 45 || code === 95) url = url < 0 ? i : url // - _
  }
  if (std >= 0 && url >= 0) {
    return new CryptoError(
      'bad-encoding',
      `base64: mixes the standard alphabet (${showChar(s[std]!)} at index ${std}) and the url-safe one (${showChar(s[url]!)} at index ${url})`,
    )
  }
  if (padding > 2) return new CryptoError('bad-encoding', `base64: ${padding} padding characters (at most 2)`)
  if (padding > 0 && s.length % 4 !== 0) {
    return new CryptoError('bad-length', `base64: padded text must be a multiple of 4 characters, got ${s.length}`)
  }
  if (end % 4 === 1) {
    return new CryptoError('bad-length', `base64: ${end} characters is not a possible length (4k+1)`)
  }
  const last = end - 1
  const rest = end % 4
  if ((rest === 2 && BASE64_VALUE[s.charCodeAt(last)]! & 15) || (rest === 3 && BASE64_VALUE[s.charCodeAt(last)]! & 3)) {
    return new CryptoError('bad-encoding', `base64: non-zero unused bits in the last character (index ${last})`)
  }
  return new CryptoError('bad-encoding', 'base64: not valid RFC 4648 base64')
}
