/**
 * base64 text to bytes for the log readers, over typed arrays (issue #14, finding 2).
 *
 * Text that is hex is also tried as base64 (`0a` is both), so the check allocates nothing:
 * the text is checked now (the crypto layer's base64DataLength, two passes that allocate
 * nothing but the output) and decoded only when the bytes are asked for. Text it refuses
 * goes to base64ToBytes, whose error names the problem.
 */
import { base64DataLength, base64ToBytes, decodeBase64Data } from '../../crypto/bytes'

/**
 * base64 text to bytes, decoded only when the returned function is called (the text is
 * checked now): a reader that may not need the bytes holds no copy of them.
 * @throws CryptoError from base64ToBytes when the text is not base64
 */
export function base64Later(s: string): () => Uint8Array {
  const end = base64DataLength(s)
  if (end < 0) {
    // Refused: base64ToBytes says why (it throws here; were it ever to accept, its bytes are used).
    const bytes = base64ToBytes(s)
    return () => bytes
  }
  return () => decodeBase64Data(s, end)
}

/**
 * base64 text to bytes, as base64ToBytes reads it.
 * @throws CryptoError from base64ToBytes when the text is not base64
 */
export function base64Bytes(s: string): Uint8Array {
  return base64Later(s)()
}
