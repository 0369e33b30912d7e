/**
 * What a signature card lists under "What was hashed and checked", completed in the view:
 * the core leaves out what replay does not need (design: views derive it), so an
 * installation key (Ed25519ph, IDENT-030) gets its signature bytes and its prehash, the
 * SHA-512 of the signature text (computed on the card's first showing: no hash code on
 * the first screen); and how a replay key is shown in one line.
 */
import type { SignatureCheck } from '../../../core/trace'
import { bytesToHex, utf8 } from '../../../crypto/bytes'

/** The Ed25519ph prehash row's name. */
export const PREHASH_ROW = 'Ed25519ph prehash (SHA-512 of the signature text)'

/**
 * The rows of a card. `prehash` is the SHA-512 of the signature text in hex
 * (`prehashHex`), computed apart because it is asynchronous; until it is known the row
 * says so.
 */
export function evidenceRows(
  check: SignatureCheck,
  signatureText: string | null,
  prehash?: string | null,
): [string, string][] {
  const rows = Object.entries(check.evidence)
  if (check.kind === 'installation_key') {
    // For an installation key the replay key is the signature itself (IDENT-050).
    if (check.replayKey && !('signature' in check.evidence)) rows.push(['signature', check.replayKey])
    if (signatureText !== null) rows.push([PREHASH_ROW, prehash ?? 'computing…'])
  }
  return rows
}

/** Whether a card shows the Ed25519ph prehash of the text (`evidenceRows` needs `prehashHex(text)`). */
export const needsPrehash = (checks: readonly SignatureCheck[], text: string | null): text is string =>
  text !== null && checks.some((c) => c.kind === 'installation_key' && Object.keys(c.evidence).length > 0)

/**
 * SHA-512 of the signature text (UTF-8), hex: the browser's WebCrypto, so the page ships
 * no hash code for one row; the project's own SHA-512 (loaded then) where WebCrypto is
 * missing. Same bytes either way (FIPS 180-4).
 */
export async function prehashHex(text: string): Promise<string> {
  const bytes = utf8(text)
  const subtle = globalThis.crypto?.subtle
  if (subtle) return bytesToHex(new Uint8Array(await subtle.digest('SHA-512', bytes as Uint8Array<ArrayBuffer>)))
  const { sha512 } = await import('../../../crypto/hash')
  return bytesToHex(sha512(bytes))
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
