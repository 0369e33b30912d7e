/**
 * IDENT-010: an inbox id is the 64 lowercase hex characters of
 * SHA-256(UTF-8(identifier text) || decimal nonce), with no separator.
 */
import { bytesToHex, utf8 } from '../crypto/bytes'
import { sha256 } from '../crypto/hash'
import type { InboxId } from './types'

export function deriveInboxId(identifierText: string, nonce: bigint): InboxId {
  if (nonce < 0n || nonce >= 1n << 64n) throw new RangeError(`nonce ${nonce} is not a uint64`)
  return bytesToHex(sha256(utf8(`${identifierText}${nonce.toString(10)}`))) as InboxId
}
