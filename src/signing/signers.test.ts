import { describe, expect, it } from 'vitest'
import {
  base64urlNoPad,
  bytesToHex,
  concatBytes,
  IDENTITY_UPDATE_CONTEXT,
  keccak256,
  personalMessageHash,
  recoverEip191,
  sha256,
  utf8,
  verifyEd25519ph,
  verifyP256Der,
} from '../crypto'
import {
  authenticatorData,
  ethKeySigner,
  installationKeySigner,
  memberIdentifierOf,
  originHost,
  passkeyClientDataJson,
  passkeySigner,
  smartWalletSigner,
} from './signers'

const key = (label: string): Uint8Array => sha256(utf8(`signing test key ${label}`))
const TEXT =
  'XMTP : Authenticate to inbox\n\nInbox ID: abc\nCurrent time: 2024-04-10T12:00:00Z\n\n- Claim handle\n  (Handle: nick)\n\nFor more info: https://xmtp.org/signatures'

describe('ethKeySigner', () => {
  it('signs personal_sign (EIP-191) 65 bytes r || s || v that recover to its identifier, v 27 | 28', async () => {
    const s = ethKeySigner(key('w1'))
    expect(s.kind).toBe('erc_191')
    expect(s.identifier.kind).toBe('ethereum')
    expect(s.identifier.text).toMatch(/^0x[0-9a-f]{40}$/)
    const sig = await s.sign(TEXT)
    if (sig.kind !== 'erc_191') throw new Error('kind')
    expect(sig.bytes.length).toBe(65)
    expect([27, 28]).toContain(sig.bytes[64])
    const r = recoverEip191(sig.bytes, utf8(TEXT))
    expect(r.address).toBe(s.identifier.text)
    expect(r.highS).toBe(false)
  })

  it('writes v as 0 | 1 with { v: "raw" }, same r and s, same signer', async () => {
    const a = await ethKeySigner(key('w1')).sign(TEXT)
    const b = await ethKeySigner(key('w1'), { v: 'raw' }).sign(TEXT)
    if (a.kind !== 'erc_191' || b.kind !== 'erc_191') throw new Error('kind')
    expect(bytesToHex(b.bytes.subarray(0, 64))).toBe(bytesToHex(a.bytes.subarray(0, 64)))
    expect(b.bytes[64]).toBe(a.bytes[64]! - 27)
    expect(recoverEip191(b.bytes, utf8(TEXT)).address).toBe(recoverEip191(a.bytes, utf8(TEXT)).address)
  })

  it('is deterministic (RFC 6979)', async () => {
    const a = await ethKeySigner(key('w1')).sign(TEXT)
    const b = await ethKeySigner(key('w1')).sign(TEXT)
    expect(a).toEqual(b)
  })
})

describe('installationKeySigner', () => {
  it('signs Ed25519ph with the context IDENTITY UPDATE SIGNATURE under its public key', async () => {
    const s = installationKeySigner(key('i1'))
    expect(s.identifier).toEqual({ kind: 'installation', text: bytesToHex(s.publicKey) })
    const sig = await s.sign(TEXT)
    if (sig.kind !== 'installation_key') throw new Error('kind')
    expect(sig.bytes.length).toBe(64)
    expect(bytesToHex(sig.publicKey)).toBe(s.identifier.text)
    expect(verifyEd25519ph(sig.bytes, utf8(TEXT), sig.publicKey, IDENTITY_UPDATE_CONTEXT)).toBe(true)
    expect(verifyEd25519ph(sig.bytes, utf8(`${TEXT} `), sig.publicKey, IDENTITY_UPDATE_CONTEXT)).toBe(false)
    expect(verifyEd25519ph(sig.bytes, utf8(TEXT), sig.publicKey, utf8('OTHER CONTEXT'))).toBe(false)
  })
})

describe('passkeySigner', () => {
  it('synthesizes webauthn.get client data whose challenge is base64url(text) and a 37-byte authenticator data', async () => {
    const s = passkeySigner(key('p1'), { origin: 'https://inbox.example' })
    const sig = await s.sign(TEXT)
    if (sig.kind !== 'passkey') throw new Error('kind')
    expect(new TextDecoder().decode(sig.clientDataJson)).toBe(
      `{"type":"webauthn.get","challenge":"${base64urlNoPad(utf8(TEXT))}","origin":"https://inbox.example","crossOrigin":false}`,
    )
    expect(sig.authenticatorData.length).toBe(37)
    expect(bytesToHex(sig.authenticatorData.subarray(0, 32))).toBe(bytesToHex(sha256(utf8('inbox.example'))))
    expect(sig.authenticatorData[32]).toBe(0x05)
    expect(bytesToHex(sig.authenticatorData.subarray(33))).toBe('00000000')
    expect(sig.publicKey.length).toBe(65)
    expect(s.identifier).toEqual({ kind: 'passkey', text: bytesToHex(sig.publicKey) })
  })

  it('signs authenticator_data || SHA-256(client_data_json) with DER P-256, low s by default', async () => {
    const sig = await passkeySigner(key('p1'), { origin: 'https://inbox.example' }).sign(TEXT)
    if (sig.kind !== 'passkey') throw new Error('kind')
    const v = verifyP256Der(
      sig.signature,
      concatBytes(sig.authenticatorData, sha256(sig.clientDataJson)),
      sig.publicKey,
    )
    expect(v.valid).toBe(true)
    expect(v.highS).toBe(false)
  })

  it('emits the high-s twin with { highS: true }: it verifies and has the same canonical r || low s', async () => {
    const low = await passkeySigner(key('p1'), { origin: 'https://inbox.example' }).sign(TEXT)
    const high = await passkeySigner(key('p1'), { origin: 'https://inbox.example', highS: true }).sign(TEXT)
    if (low.kind !== 'passkey' || high.kind !== 'passkey') throw new Error('kind')
    const msg = concatBytes(high.authenticatorData, sha256(high.clientDataJson))
    const vh = verifyP256Der(high.signature, msg, high.publicKey)
    const vl = verifyP256Der(low.signature, msg, low.publicKey)
    expect(vh.valid && vh.highS).toBe(true)
    expect(bytesToHex(vh.lowS)).toBe(bytesToHex(vl.lowS))
  })

  it('takes rpIdHash, flags, counter and a compressed key as options', async () => {
    const s = passkeySigner(key('p1'), {
      origin: 'https://a.example:8443',
      rpIdHash: new Uint8Array(32).fill(7),
      flags: 0x01,
      counter: 258,
      compressed: true,
    })
    const sig = await s.sign(TEXT)
    if (sig.kind !== 'passkey') throw new Error('kind')
    expect(bytesToHex(sig.authenticatorData)).toBe(`${'07'.repeat(32)}0100000102`)
    expect(sig.publicKey.length).toBe(33)
    expect(
      verifyP256Der(sig.signature, concatBytes(sig.authenticatorData, sha256(sig.clientDataJson)), sig.publicKey).valid,
    ).toBe(true)
  })
})

describe('passkeyClientDataJson', () => {
  it('is the exact JSON with the challenge and origin', () => {
    expect(new TextDecoder().decode(passkeyClientDataJson('hi', 'https://x.example'))).toBe(
      '{"type":"webauthn.get","challenge":"aGk","origin":"https://x.example","crossOrigin":false}',
    )
  })
})

describe('authenticatorData', () => {
  it('refuses a rpIdHash that is not 32 bytes and a counter that is not a uint32', () => {
    expect(() => authenticatorData(new Uint8Array(31))).toThrow(/32 bytes/)
    expect(() => authenticatorData(new Uint8Array(32), 5, -1)).toThrow(/uint32/)
  })
})

describe('originHost', () => {
  it('strips the scheme, the path and the port', () => {
    expect(originHost('https://inbox.example')).toBe('inbox.example')
    expect(originHost('http://localhost:5173')).toBe('localhost')
    expect(originHost('https://a.b.example/x/y')).toBe('a.b.example')
  })
})

describe('smartWalletSigner', () => {
  it('produces erc_6492 with account_id eip155:<chain>:<address> over the personal-message hash; identifier lowercased', async () => {
    const address = `0x${'Ab'.repeat(20)}`
    let seen: Uint8Array | null = null
    const s = smartWalletSigner({
      chainId: 8453n,
      address,
      blockNumber: 19_000_000n,
      signature: (hash) => {
        seen = hash
        return keccak256(hash)
      },
    })
    expect(s.kind).toBe('erc_6492')
    expect(s.identifier).toEqual({ kind: 'ethereum', text: address.toLowerCase() })
    const sig = await s.sign(TEXT)
    if (sig.kind !== 'erc_6492') throw new Error('kind')
    expect(sig.accountId).toBe(`eip155:8453:${address}`)
    expect(sig.blockNumber).toBe(19_000_000n)
    expect(bytesToHex(seen!)).toBe(bytesToHex(personalMessageHash(utf8(TEXT))))
    expect(bytesToHex(sig.signature)).toBe(bytesToHex(keccak256(seen!)))
  })

  it('refuses an address that is not 0x + 40 hex', () => {
    expect(() =>
      smartWalletSigner({ chainId: 1n, address: '0x12', blockNumber: 1n, signature: () => new Uint8Array() }),
    ).toThrow()
  })
})

describe('memberIdentifierOf', () => {
  it('names each kind of signer as a MemberIdentifier; a passkey carries its origin as relying party', () => {
    const w = ethKeySigner(key('w1'))
    const i = installationKeySigner(key('i1'))
    const p = passkeySigner(key('p1'), { origin: 'https://inbox.example' })
    expect(memberIdentifierOf(w)).toEqual({ kind: 'ethereum', address: w.identifier.text })
    expect(memberIdentifierOf(i)).toEqual({ kind: 'installation', key: i.publicKey })
    expect(memberIdentifierOf(p)).toEqual({ kind: 'passkey', key: p.publicKey, relyingParty: 'https://inbox.example' })
  })
})
