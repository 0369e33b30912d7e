/**
 * The replay key a validator records for a signature (spec section 4, last column;
 * IDENT-050), computed from the signature as the signer produced it. The fixture
 * generator declares the expected seen-key count with it, and the signing playground
 * shows which keys an update will consume. Canonical forms:
 *   erc_191           65 bytes r || s || rec: s in the lower half of n, rec 0 | 1 (v 27 | 28 → 0 | 1,
 *                     flipped when s is moved to the lower half)
 *   erc_6492          the signature bytes as given
 *   installation_key  the 64 signature bytes
 *   passkey           64 bytes r || s, s in the lower half of the P-256 order
 */
import { bytesToHex, SECP256K1_N } from '../crypto'
import type { WireSignature } from '../core/types'

/** The order n of the P-256 group (FIPS 186-5 / SEC 2). */
export const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n

function toBig(b: Uint8Array): bigint {
  return b.length === 0 ? 0n : BigInt(`0x${bytesToHex(b)}`)
}

function be32(n: bigint): Uint8Array {
  const out = new Uint8Array(32)
  let x = n
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(x & 0xffn)
    x >>= 8n
  }
  return out
}

/** (r, s) of a DER ECDSA signature SEQUENCE { INTEGER r, INTEGER s } with short-form lengths. */
export function derToRs(der: Uint8Array): { r: bigint; s: bigint } {
  let p = 0
  const byte = (): number => {
    if (p >= der.length) throw new Error('DER signature: truncated')
    return der[p++]!
  }
  if (byte() !== 0x30) throw new Error('DER signature: not a SEQUENCE')
  const len = byte()
  if (len & 0x80 || len !== der.length - 2) throw new Error('DER signature: bad SEQUENCE length')
  const int = (): bigint => {
    if (byte() !== 0x02) throw new Error('DER signature: not an INTEGER')
    const l = byte()
    if (l & 0x80 || p + l > der.length) throw new Error('DER signature: bad INTEGER length')
    const v = toBig(der.subarray(p, p + l))
    p += l
    return v
  }
  const r = int()
  const s = int()
  if (p !== der.length) throw new Error('DER signature: trailing bytes')
  return { r, s }
}

/** The canonical replay key of a signature (lowercase hex), or null when it has none (malformed). */
export function replayKeyOf(sig: WireSignature): string | null {
  switch (sig.kind) {
    case 'erc_191': {
      const b = sig.bytes
      if (b.length !== 65) return null
      const v = b[64]!
      let rec = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : -1
      if (rec < 0) return null
      let s = toBig(b.subarray(32, 64))
      if (s > SECP256K1_N >> 1n) {
        s = SECP256K1_N - s
        rec ^= 1
      }
      return bytesToHex(b.subarray(0, 32)) + bytesToHex(be32(s)) + (rec === 0 ? '00' : '01')
    }
    case 'erc_6492':
      return bytesToHex(sig.signature)
    case 'installation_key':
      return sig.bytes.length === 64 ? bytesToHex(sig.bytes) : null
    case 'passkey': {
      let rs: { r: bigint; s: bigint }
      try {
        rs = derToRs(sig.signature)
      } catch {
        return null
      }
      const s = rs.s > P256_N >> 1n ? P256_N - rs.s : rs.s
      return bytesToHex(be32(rs.r)) + bytesToHex(be32(s))
    }
  }
}

/**
 * The same erc_191 signature re-encoded: `v` written as 0 | 1 or 27 | 28, and/or s replaced
 * by n - s (with the recovery bit flipped). Every form verifies to the same signer and
 * has the same replay key (spec section 4), so IDENT-050 catches a replay in any of them.
 */
export function malleateErc191(bytes: Uint8Array, options: { v?: 'raw' | 'ethereum'; negateS?: boolean }): Uint8Array {
  if (bytes.length !== 65) throw new Error(`erc_191 signature must be 65 bytes, got ${bytes.length}`)
  const out = new Uint8Array(bytes)
  let rec = out[64]! >= 27 ? out[64]! - 27 : out[64]!
  if (options.negateS === true) {
    out.set(be32(SECP256K1_N - toBig(out.subarray(32, 64))), 32)
    rec ^= 1
  }
  const ethStyle = options.v === undefined ? bytes[64]! >= 27 : options.v === 'ethereum'
  out[64] = ethStyle ? 27 + rec : rec
  return out
}
