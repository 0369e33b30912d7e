import { describe, expect, it } from 'vitest'
import {
  base64ToBytes,
  base64urlNoPad,
  bytesToHex,
  concatBytes,
  hexToBytes,
  p256PublicKey,
  sha256,
  signP256Der,
  utf8,
} from '../../crypto'
import { SignedText, verifySignature } from '../../core/verify/signature'
import { collectSignatures } from '../collect'
import { addMember, createInbox, draftUpdate } from '../draft'
import { dryRun } from '../dry-run'
import { SignerError } from '../errors'
import { installationKeySigner } from '../signers'
import { buildState, T0, testKey } from '../testkit'
import { COSE_ES256, createPasskey, P256_SPKI_PREFIX, passkeySignerFromStored, sec1FromSpki } from './passkey'
import type {
  AuthenticationResponseJSONLike,
  CreationOptionsJSON,
  RegistrationResponseJSONLike,
  RequestOptionsJSON,
  StartAuthentication,
  StartRegistration,
} from './webauthn-types'

const b64 = (b: Uint8Array) => base64urlNoPad(b)
const ORIGIN = 'http://localhost:5173'
const RP_ID = 'localhost'
const TEXT =
  'XMTP : Authenticate to inbox\n\nInbox ID: abc\nCurrent time: 2024-04-10T12:00:00Z\n\n- Claim handle\n  (Handle: nick)\n\nFor more info: https://xmtp.org/signatures'

/**
 * A fake authenticator behind @simplewebauthn/browser's call shapes: a real P-256 key,
 * real DER signatures over authenticatorData || SHA-256(clientDataJSON), client data with
 * the extra field Chromium sometimes adds, and high-S signatures on request.
 */
function fakeAuthenticator(
  label: string,
  opts: { highS?: boolean; origin?: string; spki?: Uint8Array; credentialId?: string; answerId?: string } = {},
) {
  const sk = testKey(`passkey ${label}`)
  const sec1 = p256PublicKey(sk)
  const credentialId = opts.credentialId ?? b64(sha256(utf8(`cred ${label}`)).slice(0, 16))
  const origin = opts.origin ?? ORIGIN
  const registrations: CreationOptionsJSON[] = []
  const authentications: RequestOptionsJSON[] = []
  const returned: AuthenticationResponseJSONLike[] = []
  let counter = 0
  const startRegistration: StartRegistration = async ({ optionsJSON }) => {
    registrations.push(optionsJSON)
    const res: RegistrationResponseJSONLike = {
      id: credentialId,
      rawId: credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: b64(
          utf8(
            JSON.stringify({ type: 'webauthn.create', challenge: optionsJSON.challenge, origin, crossOrigin: false }),
          ),
        ),
        attestationObject: b64(new Uint8Array([0xa0])),
        publicKey: b64(opts.spki ?? concatBytes(P256_SPKI_PREFIX, sec1)),
        publicKeyAlgorithm: COSE_ES256,
        transports: ['internal'],
      },
    }
    return res
  }
  const startAuthentication: StartAuthentication = async ({ optionsJSON }) => {
    authentications.push(optionsJSON)
    const clientData = utf8(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: b64(base64ToBytes(optionsJSON.challenge)), // the browser re-encodes the challenge bytes
        origin,
        crossOrigin: false,
        other_keys_can_be_added_here: 'do not compare clientDataJSON against a template. See https://goo.gl/yabPex',
      }),
    )
    const authData = concatBytes(sha256(utf8(optionsJSON.rpId ?? RP_ID)), new Uint8Array([0x05, 0, 0, 0, ++counter]))
    const signature = signP256Der(sk, concatBytes(authData, sha256(clientData)), { highS: opts.highS === true })
    const id = opts.answerId ?? credentialId
    const res: AuthenticationResponseJSONLike = {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: b64(utf8('user-1')),
      },
    }
    returned.push(res)
    return res
  }
  return {
    sk,
    sec1,
    credentialId,
    registrations,
    authentications,
    returned,
    fns: { startRegistration, startAuthentication },
  }
}

describe('createPasskey', () => {
  it('asks for ES256, the rp id given, a resident key and user verification, and takes the SEC1 key from the SPKI', async () => {
    const a = fakeAuthenticator('a')
    const pk = await createPasskey(a.fns, { rpId: RP_ID, userName: 'alice' })
    const o = a.registrations[0]!
    expect(o.rp.id).toBe(RP_ID)
    expect(o.pubKeyCredParams).toEqual([{ type: 'public-key', alg: -7 }])
    expect(o.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' })
    expect(o.attestation).toBe('none')
    expect(o.user.name).toBe('alice')
    expect(base64ToBytes(o.challenge).length).toBe(32)
    expect(pk.kind).toBe('passkey')
    expect(pk.identifier).toEqual({ kind: 'passkey', text: bytesToHex(a.sec1) })
    expect(pk.publicKey).toEqual(a.sec1)
    expect(pk.origin).toBe(ORIGIN) // from the registration's client data
    expect(pk.credentialId).toBe(a.credentialId)
  })

  it('refuses a public key that is not a 91-byte P-256 SubjectPublicKeyInfo', async () => {
    const wrongLength = fakeAuthenticator('b', { spki: new Uint8Array(65).fill(4) })
    await expect(createPasskey(wrongLength.fns, { rpId: RP_ID })).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('91-byte'),
    })
    const secp256k1Oid = hexToBytes('3056301006072a8648ce3d020106052b8104000a034200') // 23-byte prefix: 88 bytes in all
    const k1 = fakeAuthenticator('c', { spki: concatBytes(secp256k1Oid, new Uint8Array(65).fill(4)) })
    await expect(createPasskey(k1.fns, { rpId: RP_ID })).rejects.toBeInstanceOf(SignerError)
    const otherPrefix = concatBytes(new Uint8Array(26).fill(0x30), new Uint8Array(65).fill(4))
    const c = fakeAuthenticator('d', { spki: otherPrefix })
    await expect(createPasskey(c.fns, { rpId: RP_ID })).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('not a P-256'),
    })
  })

  it('maps a cancelled ceremony (NotAllowedError) to user_rejected', async () => {
    const a = fakeAuthenticator('e')
    const cancel = Object.assign(new Error('The operation either timed out or was not allowed.'), {
      name: 'NotAllowedError',
    })
    const fns = { ...a.fns, startRegistration: async () => Promise.reject(cancel) }
    await expect(createPasskey(fns, { rpId: RP_ID })).rejects.toMatchObject({ code: 'user_rejected' })
  })
})

describe('sec1FromSpki', () => {
  it('returns the last 65 bytes of a P-256 SPKI', () => {
    const sec1 = p256PublicKey(testKey('spki'))
    expect(sec1FromSpki(concatBytes(P256_SPKI_PREFIX, sec1))).toEqual(sec1)
  })
})

describe('WebAuthn passkey signer', () => {
  for (const highS of [false, true]) {
    it(`signs with challenge = base64url(utf8(text)) and its ${highS ? 'high-S' : 'low-S'} WireSignature verifies under the core`, async () => {
      const a = fakeAuthenticator(`s${highS}`, { highS })
      const pk = await createPasskey(a.fns, { rpId: RP_ID })
      const sig = await pk.sign(TEXT)
      const req = a.authentications[0]!
      expect(req.challenge).toBe(base64urlNoPad(utf8(TEXT)))
      expect(req.challenge).not.toContain('=')
      expect(req).toMatchObject({
        rpId: RP_ID,
        allowCredentials: [{ id: a.credentialId, type: 'public-key' }],
        userVerification: 'required',
      })
      if (sig.kind !== 'passkey') throw new Error('kind')
      // Raw bytes as the authenticator returned them, never rebuilt.
      const res = a.returned[0]!.response
      expect(b64(sig.clientDataJson)).toBe(res.clientDataJSON)
      expect(b64(sig.authenticatorData)).toBe(res.authenticatorData)
      expect(b64(sig.signature)).toBe(res.signature)
      expect(sig.signature[0]).toBe(0x30)
      expect(sig.publicKey).toEqual(a.sec1)
      const v = await verifySignature(sig, new SignedText(TEXT, utf8(TEXT)), {})
      expect(v).toMatchObject({ verdict: 'valid', signer: { kind: 'passkey', text: bytesToHex(a.sec1) } })
    })
  }

  it('creates an inbox and registers an installation with a passkey, verified and applied by the core', async () => {
    const a = fakeAuthenticator('inbox')
    const pk = await createPasskey(a.fns, { rpId: RP_ID })
    const inst = installationKeySigner(testKey('passkey inst'))
    const draft = draftUpdate({ clientTimestampNs: T0, actions: [createInbox(pk), addMember(pk, inst)] })
    expect((await dryRun(null, draft)).ok).toBe(true)
    const r = await collectSignatures(draft)
    expect(r.ok).toBe(true)
    expect(a.authentications).toHaveLength(1) // one ceremony for both slots
    const state = await buildState([() => ({ clientTimestampNs: T0, actions: [createInbox(pk), addMember(pk, inst)] })])
    expect(state.recovery.id).toEqual(pk.identifier)
    expect([...state.members.values()].find((m) => m.id.kind === 'passkey')?.relyingParty).toBe(ORIGIN)
  })

  it('refuses an assertion from another credential (a discoverable login picked another passkey)', async () => {
    const a = fakeAuthenticator('f', { answerId: 'b3RoZXI' })
    const pk = await createPasskey(a.fns, { rpId: RP_ID })
    await expect(pk.sign(TEXT)).rejects.toMatchObject({ code: 'wrong_signer' })
  })

  it('maps NotAllowedError at signing to user_rejected', async () => {
    const a = fakeAuthenticator('g')
    const pk = passkeySignerFromStored(
      {
        startAuthentication: async () =>
          Promise.reject(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' })),
      },
      { credentialId: a.credentialId, publicKey: bytesToHex(a.sec1), rpId: RP_ID, origin: ORIGIN },
    )
    await expect(pk.sign(TEXT)).rejects.toMatchObject({ name: 'SignerError', code: 'user_rejected' })
  })

  it('is restored from its stored public record and signs the same', async () => {
    const a = fakeAuthenticator('h')
    const created = await createPasskey(a.fns, { rpId: RP_ID })
    const stored = created.stored()
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored)
    const restored = passkeySignerFromStored(a.fns, stored)
    expect(restored.identifier).toEqual(created.identifier)
    const v = await verifySignature(await restored.sign(TEXT), new SignedText(TEXT, utf8(TEXT)), {})
    expect(v.verdict).toBe('valid')
  })
})
