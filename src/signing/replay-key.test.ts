import { describe, expect, it } from 'vitest'
import { bytesToHex, concatBytes, recoverEip191, sha256, utf8, verifyP256Der } from '../crypto'
import { derToRs, malleateErc191, P256_N, replayKeyOf } from './replay-key'
import { ethKeySigner, installationKeySigner, passkeySigner, smartWalletSigner } from './signers'

const key = (label: string): Uint8Array => sha256(utf8(`replay key test ${label}`))
const TEXT = 'some signature text'

describe('replayKeyOf', () => {
  it('erc_191: equals the canonical key the crypto layer recovers, for every encoding of one signature', async () => {
    const sig = await ethKeySigner(key('w')).sign(TEXT)
    if (sig.kind !== 'erc_191') throw new Error('kind')
    const canonical = bytesToHex(recoverEip191(sig.bytes, utf8(TEXT)).replayKey)
    for (const b of [
      sig.bytes,
      malleateErc191(sig.bytes, { v: 'raw' }),
      malleateErc191(sig.bytes, { negateS: true }),
      malleateErc191(sig.bytes, { negateS: true, v: 'raw' }),
    ]) {
      expect(replayKeyOf({ kind: 'erc_191', bytes: b })).toBe(canonical)
      expect(bytesToHex(recoverEip191(b, utf8(TEXT)).replayKey)).toBe(canonical)
    }
  })

  it('erc_191: null for a bad length or recovery byte', () => {
    expect(replayKeyOf({ kind: 'erc_191', bytes: new Uint8Array(64) })).toBeNull()
    const b = new Uint8Array(65)
    b[64] = 29
    expect(replayKeyOf({ kind: 'erc_191', bytes: b })).toBeNull()
  })

  it('passkey: r || low s, the same for the high-s twin, equal to the crypto layer', async () => {
    const low = await passkeySigner(key('p'), { origin: 'https://x.example' }).sign(TEXT)
    const high = await passkeySigner(key('p'), { origin: 'https://x.example', highS: true }).sign(TEXT)
    if (low.kind !== 'passkey' || high.kind !== 'passkey') throw new Error('kind')
    const v = verifyP256Der(
      high.signature,
      concatBytes(high.authenticatorData, sha256(high.clientDataJson)),
      high.publicKey,
    )
    expect(replayKeyOf(high)).toBe(bytesToHex(v.lowS))
    expect(replayKeyOf(low)).toBe(bytesToHex(v.lowS))
  })

  it('installation_key: the 64 signature bytes; erc_6492: the signature bytes as given', async () => {
    const i = await installationKeySigner(key('i')).sign(TEXT)
    if (i.kind !== 'installation_key') throw new Error('kind')
    expect(replayKeyOf(i)).toBe(bytesToHex(i.bytes))
    const s = await smartWalletSigner({
      chainId: 1n,
      address: `0x${'01'.repeat(20)}`,
      blockNumber: 1n,
      signature: () => Uint8Array.of(1, 2, 3),
    }).sign(TEXT)
    expect(replayKeyOf(s)).toBe('010203')
  })
})

describe('derToRs', () => {
  it('parses a DER signature and refuses trailing bytes', async () => {
    const sig = await passkeySigner(key('p'), { origin: 'https://x.example' }).sign(TEXT)
    if (sig.kind !== 'passkey') throw new Error('kind')
    const { r, s } = derToRs(sig.signature)
    expect(r > 0n && r < P256_N && s > 0n && s <= P256_N >> 1n).toBe(true)
    expect(() => derToRs(concatBytes(sig.signature, Uint8Array.of(0)))).toThrow()
  })
})

describe('malleateErc191', () => {
  it('flips v between 27 | 28 and 0 | 1 and negates s with the recovery bit, keeping the signer', async () => {
    const s = ethKeySigner(key('w'))
    const sig = await s.sign(TEXT)
    if (sig.kind !== 'erc_191') throw new Error('kind')
    const raw = malleateErc191(sig.bytes, { v: 'raw' })
    expect(raw[64]).toBe(sig.bytes[64]! - 27)
    const neg = malleateErc191(sig.bytes, { negateS: true })
    expect(neg[64]).toBe(sig.bytes[64] === 27 ? 28 : 27)
    const r = recoverEip191(neg, utf8(TEXT))
    expect(r.highS).toBe(true)
    expect(r.address).toBe(s.identifier.text)
  })
})
