import { sha512 } from '../../../crypto/hash'
import { describe, expect, it } from 'vitest'
import type { SignatureCheck } from '../../../core/trace'
import { bytesToHex, utf8 } from '../../../crypto/bytes'
import { evidenceRows, needsPrehash, PREHASH_ROW, prehashHex, replayKeyShort } from './evidence-rows'

const base: SignatureCheck = {
  actionIndex: 0,
  role: 'new_member_signature',
  kind: 'installation_key',
  verdict: 'valid',
  signer: { kind: 'installation', text: 'ab'.repeat(32) },
  chainId: null,
  replayKey: 'cd'.repeat(64),
  failRule: null,
  reason: '',
  evidence: { context: 'IDENTITY UPDATE SIGNATURE', 'public key': 'ab'.repeat(32) },
}

describe('signature evidence (issue #12)', () => {
  it('an Ed25519 card shows the signature bytes and the Ed25519ph prehash of the text', async () => {
    const text = 'XMTP : Authenticate to inbox\n'
    expect(needsPrehash([base], text)).toBe(true)
    const hex = await prehashHex(text)
    expect(hex).toBe(bytesToHex(sha512(utf8(text))))
    const rows = Object.fromEntries(evidenceRows(base, text, hex))
    expect(rows.signature).toBe('cd'.repeat(64))
    expect(rows[PREHASH_ROW]).toBe(hex)
    expect(rows['public key']).toBe('ab'.repeat(32))
    // Until the prehash is computed the row says so.
    expect(Object.fromEntries(evidenceRows(base, text))[PREHASH_ROW]).toBe('computing…')
  })
  it('the prehash of a non-ASCII text is the SHA-512 of its UTF-8 bytes', async () => {
    const text = 'clé · 🔑\n'
    expect(await prehashHex(text)).toBe(bytesToHex(sha512(utf8(text))))
    expect(needsPrehash([{ ...base, kind: 'erc_191' }], text)).toBe(false)
    expect(needsPrehash([base], null)).toBe(false)
  })
  it('leaves other kinds as the core gave them', () => {
    const c: SignatureCheck = { ...base, kind: 'erc_191', evidence: { digest: '00' } }
    expect(evidenceRows(c, 'x')).toEqual([['digest', '00']])
  })
  it('shows an ERC-6492 replay key by its bytes, not its zero padding', () => {
    const wrapped = `${'0'.repeat(24)}5fbdb2315678afecb367f032d93f642f64180aa3${'00'.repeat(40)}${'6492'.repeat(16)}`
    const s = replayKeyShort(wrapped)
    expect(s).toMatch(/^12 zero bytes, 5fbdb231…64926492 \(\d+ bytes\)$/)
    expect(s).not.toMatch(/^0{6}/)
  })
})
