/**
 * What a signature card lists under "What was hashed and checked", completed in the view:
 * the core leaves out what replay does not need (design: views derive it), so an
 * installation key (Ed25519ph, IDENT-030) gets its signature bytes and its prehash, the
 * SHA-512 of the signature text; and how a replay key is shown in one line.
 */
import { sha512 } from '../../../crypto/hash'
import type { SignatureCheck } from '../../../core/trace'
import { bytesToHex, utf8 } from '../../../crypto/bytes'

export function evidenceRows(check: SignatureCheck, signatureText: string | null): [string, string][] {
  const rows = Object.entries(check.evidence)
  if (check.kind === 'installation_key') {
    // For an installation key the replay key is the signature itself (IDENT-050).
    if (check.replayKey && !('signature' in check.evidence)) rows.push(['signature', check.replayKey])
    if (signatureText !== null)
      rows.push(['Ed25519ph prehash (SHA-512 of the signature text)', bytesToHex(sha512(utf8(signatureText)))])
  }
  return rows
}

/**
 * A replay key in one line. An erc_6492 key is the whole wrapped signature, whose ABI
 * encoding opens with zero padding: the short form skips the zeros (and says how many
 * bytes it has) instead of showing "000000…6492".
 */
export function replayKeyShort(hex: string): string {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex
  if (h.length <= 20) return h
  const nz = h.search(/[^0]/)
  const from = Math.max(nz, 0)
  const lead = from >= 8 ? `${from / 2 >= 1 ? `${Math.floor(from / 2)} zero bytes, ` : ''}` : ''
  return `${lead}${h.slice(from, from + 8)}…${h.slice(-8)} (${h.length / 2} bytes)`
}
