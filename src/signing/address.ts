/**
 * EIP-55 mixed-case checksum addresses. Wallets hand out addresses in this form; an
 * identity update must carry the lowercase form (IDENT-013), so the signing code
 * lowercases, and this module exists to show (and to build negative fixtures with) the
 * checksummed spelling.
 */
import { bytesToHex, keccak256, utf8 } from '../crypto'

/** `0x` + 40 hex (either case) → its EIP-55 checksummed spelling. */
export function checksumAddress(address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`${JSON.stringify(address)} is not 0x + 40 hex characters`)
  const lower = address.slice(2).toLowerCase()
  const hash = bytesToHex(keccak256(utf8(lower)))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const c = lower[i]!
    out += parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c
  }
  return out
}
