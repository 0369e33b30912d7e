/**
 * Local Ethereum signing-key persistence (spec section 12): export as exactly 32
 * big-endian bytes or 0x + 64 lowercase hex (IDENT-088); import either form, either
 * hex case, to the same Ethereum identifier (IDENT-089).
 */
import { ethAddressFromPrivateKey } from '../crypto/eip191'
import { exportPrivateKeyBytes, exportPrivateKeyHex, parsePrivateKey } from '../crypto/secp256k1-key'
import type { EthAddress } from './types'

export interface LocalKey {
  readonly privateKey: Uint8Array
  readonly identifier: EthAddress
}

/** IDENT-089: throws CryptoError('bad-private-key') naming what is wrong. */
export function importLocalKey(input: string | Uint8Array): LocalKey {
  const privateKey = parsePrivateKey(input)
  return { privateKey, identifier: ethAddressFromPrivateKey(privateKey) as EthAddress }
}

/** IDENT-088 */
export function exportLocalKey(key: LocalKey, format: 'hex'): string
export function exportLocalKey(key: LocalKey, format: 'bytes'): Uint8Array
export function exportLocalKey(key: LocalKey, format: 'hex' | 'bytes'): string | Uint8Array {
  return format === 'hex' ? exportPrivateKeyHex(key.privateKey) : exportPrivateKeyBytes(key.privateKey)
}
