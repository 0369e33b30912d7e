/**
 * base64 text to bytes for the log readers, over typed arrays (issue #14, finding 2).
 *
 * The crypto layer's base64ToBytes decodes with @scure/base's coders, which convert
 * through JavaScript arrays of one element per character (split, map, a radix array):
 * about 40 bytes of heap per character. Text that is hex is also tried as base64 (`0a` is
 * both), so 32 MB of `0a` hex text peaked at 1.5 GB where it had taken 348 MB before
 * the hand-written coder was replaced by scure's. This reads the text in two passes
 * that allocate nothing but the output: a check, then the decoding when it is asked for.
 *
 * It accepts exactly the text base64ToBytes accepts, with the same bytes (a property
 * test compares the two): either alphabet but not both mixed (`-` or `_` anywhere makes
 * it url-safe), correct `=` padding or none, no 4k+1 length, zero unused low bits in the
 * last character. Text it refuses goes to base64ToBytes, whose error names the problem.
 */
import { BASE64_VALUE, base64ToBytes } from '../../crypto/bytes'

/**
 * Checks `s` as base64 without allocating; returns how many characters carry data (the
 * text without its padding), or -1 when base64ToBytes would refuse it.
 */
function checkedLength(s: string): number {
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

/** The bytes of `end` characters of base64 that checkedLength accepted. */
function decodeChecked(s: string, end: number): Uint8Array {
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

/**
 * base64 text to bytes, decoded only when the returned function is called (the text is
 * checked now): a reader that may not need the bytes holds no copy of them.
 * @throws CryptoError from base64ToBytes when the text is not base64
 */
export function base64Later(s: string): () => Uint8Array {
  const end = checkedLength(s)
  if (end < 0) {
    // Refused: base64ToBytes says why (it throws here; were it ever to accept, its bytes are used).
    const bytes = base64ToBytes(s)
    return () => bytes
  }
  return () => decodeChecked(s, end)
}

/**
 * base64 text to bytes, as base64ToBytes reads it.
 * @throws CryptoError from base64ToBytes when the text is not base64
 */
export function base64Bytes(s: string): Uint8Array {
  return base64Later(s)()
}
