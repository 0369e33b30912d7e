import { describe, expect, it } from 'vitest'
import {
  base64ToBytes,
  base64urlNoPad,
  bytesToHex,
  concatBytes,
  p256PublicKey,
  sha256,
  signP256Der,
  utf8,
} from '../../../crypto'
import { SignedText, verifySignature } from '../../../core/verify/signature'
import { P256_SPKI_PREFIX } from '../../../signing/browser/passkey'
import type { StartAuthentication, StartRegistration } from '../../../signing/browser/webauthn-types'
import { generateEthereumKey, importEthereumKey, toRecord } from '../../../signing/local-keys'
import { testKey } from '../../../signing/testkit'
import { memorySignerStorage, type SignerStorage } from './storage'
import { SignerVault, type WebAuthnEnv } from './vault'

const TEXT =
  'XMTP : Authenticate to inbox\n\nInbox ID: abc\nCurrent time: 2024-04-10T12:00:00Z\n\n- Add installation\n\nFor more info: https://xmtp.org/signatures'
const ORIGIN = 'http://localhost:4173'
const verify = (sig: Parameters<typeof verifySignature>[0]) =>
  verifySignature(sig, new SignedText(TEXT, utf8(TEXT)), {})

/** A fake authenticator with a real P-256 key, behind @simplewebauthn/browser's call shapes. */
function fakeWebAuthn(label: string, supported = true): WebAuthnEnv & { sec1: Uint8Array; created: number } {
  const sk = testKey(`vault passkey ${label}`)
  const sec1 = p256PublicKey(sk)
  const credentialId = base64urlNoPad(sha256(utf8(label)).slice(0, 16))
  const env = {
    sec1,
    created: 0,
    supported,
    rpId: 'localhost',
    origin: ORIGIN,
    startRegistration: (async ({ optionsJSON }) => {
      env.created++
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: base64urlNoPad(
            utf8(JSON.stringify({ type: 'webauthn.create', challenge: optionsJSON.challenge, origin: ORIGIN })),
          ),
          attestationObject: base64urlNoPad(new Uint8Array([0xa0])),
          publicKey: base64urlNoPad(concatBytes(P256_SPKI_PREFIX, sec1)),
          publicKeyAlgorithm: -7,
        },
      }
    }) as StartRegistration,
    startAuthentication: (async ({ optionsJSON }) => {
      const clientData = utf8(
        JSON.stringify({
          type: 'webauthn.get',
          challenge: base64urlNoPad(base64ToBytes(optionsJSON.challenge)),
          origin: ORIGIN,
          crossOrigin: false,
        }),
      )
      const authData = concatBytes(sha256(utf8('localhost')), new Uint8Array([0x05, 0, 0, 0, 1]))
      const signature = signP256Der(sk, concatBytes(authData, sha256(clientData)))
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: base64urlNoPad(clientData),
          authenticatorData: base64urlNoPad(authData),
          signature: base64urlNoPad(signature),
        },
      }
    }) as StartAuthentication,
  }
  return env
}

async function vaultWith(storage: SignerStorage = memorySignerStorage('test'), webauthn = fakeWebAuthn('default')) {
  const v = new SignerVault(Promise.resolve(storage), webauthn)
  await v.whenReady()
  return v
}

describe('SignerVault', () => {
  it('is not ready until the storage has been read, then lists the keys it holds', async () => {
    const storage = memorySignerStorage('test')
    const kept = generateEthereumKey({ label: 'kept', createdAt: 1 })
    await storage.keys.put(toRecord(kept))
    const v = new SignerVault(Promise.resolve(storage), fakeWebAuthn('a'))
    expect(v.getSnapshot().ready).toBe(false)
    let notified = 0
    v.subscribe(() => notified++)
    await v.whenReady()
    expect(notified).toBe(1)
    expect(v.getSnapshot()).toMatchObject({
      ready: true,
      persistent: false,
      keys: [{ appId: `local-ethereum:${kept.identifier.text}`, label: 'kept' }],
    })
    expect(v.getSnapshot().notice).toContain('lost when this page is reloaded')
  })

  it('generates an Ethereum key whose erc_191 signature verifies to its address, and keeps it', async () => {
    const storage = memorySignerStorage('test')
    const v = await vaultWith(storage)
    const s = await v.newEthereumKey('  main ')
    expect(s).toMatchObject({ source: 'local-ethereum', interactive: false, identifier: { kind: 'ethereum' } })
    expect(s.label).toMatch(/^local key ‘main’ 0x[0-9a-f]{6}…[0-9a-f]{4}$/)
    expect(await verify(await s.signer.sign(TEXT))).toMatchObject({ verdict: 'valid', signer: s.identifier })
    expect((await storage.keys.getAll()).map((r) => `local-ethereum:${r.identifier}`)).toEqual([s.id])
    expect(v.getSnapshot().signers).toEqual([s])
  })

  it('IDENT-089: imports 0x + 64 hex of either case and 32 bytes to the same account; refuses a second copy', async () => {
    const v = await vaultWith()
    const sk = testKey('import')
    const upper = `0x${bytesToHex(sk).toUpperCase()}`
    const a = await v.importEthereumKey(upper, 'imported')
    expect(a.identifier).toEqual(importEthereumKey(sk).identifier)
    await expect(v.importEthereumKey(sk)).rejects.toMatchObject({ name: 'SignerVaultError', code: 'exists' })
    await v.deleteKey(a.id)
    const b = await v.importEthereumKey(sk)
    expect(b.id).toBe(a.id)
  })

  it('IDENT-089: refuses a malformed key with the reason and the rule', async () => {
    const v = await vaultWith()
    await expect(v.importEthereumKey('0x1234')).rejects.toMatchObject({
      code: 'bad_key',
      message:
        'private key: expected exactly 64 hex digits after 0x, got 4. A private key is imported as exactly 32 bytes, or as 0x followed by 64 hex digits (IDENT-088, IDENT-089).',
    })
    await expect(v.importEthereumKey(bytesToHex(testKey('x')))).rejects.toThrow('missing the 0x prefix')
    await expect(v.importEthereumKey(new Uint8Array(33))).rejects.toThrow('expected exactly 32 bytes, got 33')
    await expect(v.importEthereumKey(new Uint8Array(32))).rejects.toThrow('the scalar is zero')
    expect(v.getSnapshot().keys).toEqual([])
  })

  it('IDENT-088: exports an Ethereum key as 0x + 64 lowercase hex or exactly 32 bytes; never an installation key', async () => {
    const v = await vaultWith()
    const sk = testKey('export')
    const s = await v.importEthereumKey(`0x${bytesToHex(sk).toUpperCase()}`)
    const hex = v.exportEthereumKey(s.id, 'hex')
    expect(hex).toMatchObject({
      what: 'ethereum-private-key',
      format: 'hex',
      value: `0x${bytesToHex(sk)}`,
      identifier: s.identifier.text,
    })
    expect(hex.warning).toContain('Anyone who has it controls that account')
    expect(v.exportEthereumKey(s.id, 'bytes').value).toEqual(sk)
    const inst = await v.newInstallationKey()
    expect(() => v.exportEthereumKey(inst.id, 'hex')).toThrow(/no local Ethereum key/)
  })

  it('keeps no secret in its snapshot or its signers', async () => {
    const v = await vaultWith()
    const sk = testKey('secret')
    await v.importEthereumKey(sk)
    await v.newInstallationKey('i')
    const text = JSON.stringify(v.getSnapshot())
    expect(text).not.toContain(bytesToHex(sk))
    expect(text).toContain('"source":"local-ethereum"')
  })

  it('generates installation keys whose installation_key signatures verify, lists them after the Ethereum keys, and deletes them', async () => {
    const storage = memorySignerStorage('test')
    const v = await vaultWith(storage)
    const inst = await v.newInstallationKey('laptop')
    const eth = await v.newEthereumKey()
    expect(inst).toMatchObject({ source: 'installation', identifier: { kind: 'installation' }, interactive: false })
    expect(inst.label).toMatch(/^installation key ‘laptop’ [0-9a-f]{6}…[0-9a-f]{4}$/)
    expect(await verify(await inst.signer.sign(TEXT))).toMatchObject({ verdict: 'valid', signer: inst.identifier })
    expect(v.getSnapshot().signers.map((s) => s.id)).toEqual([eth.id, inst.id])
    await v.deleteKey(inst.id)
    expect(v.getSnapshot().signers.map((s) => s.id)).toEqual([eth.id])
    expect(await storage.keys.getAll()).toHaveLength(1)
    await expect(v.deleteKey(inst.id)).rejects.toMatchObject({ code: 'not_found' })
  })

  it('creates a passkey with rpId and origin of the page, keeps its public record, signs with it after a restart, and forgets it', async () => {
    const storage = memorySignerStorage('test')
    const w = fakeWebAuthn('p')
    const v = await vaultWith(storage, w)
    const p = await v.newPasskey('laptop')
    expect(p).toMatchObject({ id: `passkey:${bytesToHex(w.sec1)}`, source: 'passkey', interactive: true })
    expect(p.label).toMatch(/^passkey ‘laptop’ 04/)
    const [record] = await storage.passkeys.getAll()
    expect(record).toMatchObject({
      id: p.id,
      label: 'laptop',
      rpId: 'localhost',
      origin: ORIGIN,
      publicKey: bytesToHex(w.sec1),
    })
    const restarted = await vaultWith(storage, w)
    const again = restarted.getSnapshot().signers[0]!
    expect(again.id).toBe(p.id)
    expect(await verify(await again.signer.sign(TEXT))).toMatchObject({
      verdict: 'valid',
      signer: { kind: 'passkey', text: bytesToHex(w.sec1) },
    })
    const eth = await restarted.newEthereumKey()
    expect(restarted.getSnapshot().signers.map((s) => s.source)).toEqual(['passkey', 'local-ethereum'])
    await restarted.forgetPasskey(p.id)
    expect(restarted.getSnapshot().signers.map((s) => s.id)).toEqual([eth.id])
    expect(await storage.passkeys.getAll()).toEqual([])
  })

  it('refuses to create a passkey without WebAuthn, and maps a cancelled prompt to user_rejected', async () => {
    await expect((await vaultWith(undefined, fakeWebAuthn('n', false))).newPasskey()).rejects.toMatchObject({
      code: 'unsupported',
    })
    const w = fakeWebAuthn('c')
    const cancelling = {
      ...w,
      startRegistration: (async () =>
        Promise.reject(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }))) as StartRegistration,
    }
    const v = await vaultWith(undefined, cancelling)
    await expect(v.newPasskey()).rejects.toMatchObject({ name: 'SignerError', code: 'user_rejected' })
    expect(v.getSnapshot().passkeys).toEqual([])
  })

  it('does not list a key whose write failed', async () => {
    const storage = memorySignerStorage('test')
    const failing: SignerStorage = {
      ...storage,
      keys: { ...storage.keys, put: async () => Promise.reject(new Error('QuotaExceededError')) },
    }
    const v = await vaultWith(failing)
    await expect(v.newEthereumKey()).rejects.toThrow('QuotaExceededError')
    expect(v.getSnapshot().keys).toEqual([])
  })

  it('leaves out a stored key whose identifier does not match its secret, and says so', async () => {
    const storage = memorySignerStorage('test')
    const k = toRecord(generateEthereumKey())
    await storage.keys.put({ ...k, identifier: `0x${'00'.repeat(20)}`, id: `ethereum:0x${'00'.repeat(20)}` })
    const v = await vaultWith(storage)
    expect(v.getSnapshot().keys).toEqual([])
    expect(v.getSnapshot().problems).toEqual([
      expect.stringMatching(/^stored key ethereum:0x0{40} is left out: key record .* does not match its secret/),
    ])
  })

  it('reports a storage that cannot be read, and keeps working in memory with the notice', async () => {
    const v = new SignerVault(Promise.reject(new Error('boom')), fakeWebAuthn('x'))
    await v.whenReady()
    expect(v.getSnapshot()).toMatchObject({
      ready: true,
      persistent: false,
      problems: ['the signers kept in this browser could not be read: boom'],
    })
    expect(v.getSnapshot().notice).toBe(
      'Keys are kept in memory only, because the keys kept in this browser could not be read (boom). They will be lost when this page is reloaded or closed.',
    )
    const s = await v.newEthereumKey()
    expect(v.getSnapshot().signers).toEqual([s])
  })

  it('falls back to memory when the stored records cannot be listed', async () => {
    const storage = memorySignerStorage('test')
    const broken: SignerStorage = {
      ...storage,
      persistent: true,
      notice: null,
      keys: {
        ...storage.keys,
        getAll: async () => Promise.reject(new Error('IndexedDB reading keys failed: NotFoundError')),
      },
    }
    const v = await vaultWith(broken)
    expect(v.getSnapshot()).toMatchObject({
      persistent: false,
      problems: ['the signers kept in this browser could not be read: IndexedDB reading keys failed: NotFoundError'],
    })
    await v.newInstallationKey()
    expect(v.getSnapshot().keys).toHaveLength(1)
  })
})
