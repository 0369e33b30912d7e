/**
 * A real WebAuthn passkey Signer over @simplewebauthn/browser 14 (spec section 4, passkey
 * row). The library's `startRegistration` / `startAuthentication` are injected, so the
 * logic is tested against fakes that sign with real P-256 keys.
 *
 *   const passkey = await createPasskey({ startRegistration, startAuthentication }, { rpId: location.hostname, origin: location.origin })
 *   const sig = await passkey.sign(text)   // challenge = base64url(utf8(text)), no padding
 *
 * Creation asks for ES256 (alg -7), a resident key and user verification. The member's
 * key is the SEC1 point from `response.publicKey`, the SubjectPublicKeyInfo DER of a P-256
 * key: 91 bytes whose fixed 26-byte prefix is checked and whose last 65 bytes are the
 * uncompressed point. An assertion maps to the passkey WireSignature with its raw bytes
 * (DER signature, authenticator data, client data JSON) exactly as the authenticator gave
 * them; client data is never rebuilt (browsers add fields, such as other_keys_can_be_added_here).
 * About half of real assertions are high-S: the core verifies with lowS: false.
 */
import { base64ToBytes, base64urlNoPad, bytesToHex, equalBytes, hexToBytes, randomSecretKey, utf8 } from '../../crypto'
import { toSignerError, SignerError } from '../errors'
import type { PasskeySigner } from '../signers'
import type { StartAuthentication, StartRegistration } from './webauthn-types'

/** SubjectPublicKeyInfo DER prefix of an id-ecPublicKey / prime256v1 key with an uncompressed point. */
export const P256_SPKI_PREFIX: Uint8Array = hexToBytes('3059301306072a8648ce3d020106082a8648ce3d030107034200')
export const COSE_ES256 = -7

export interface WebAuthnFunctions {
  readonly startRegistration: StartRegistration
  readonly startAuthentication: StartAuthentication
}

export interface CreatePasskeyOptions {
  /** The relying party id: `location.hostname` (WebAuthn refuses IP addresses). */
  readonly rpId: string
  /** The page origin (`location.origin`); used when the client data carries none. */
  readonly origin?: string
  readonly rpName?: string
  /** The user's name shown by the authenticator; default "Inbox Inspector passkey". */
  readonly userName?: string
  readonly userDisplayName?: string
  /** user.id bytes (at most 64); default 16 random bytes. */
  readonly userId?: Uint8Array
  /** Default 60 000 ms. */
  readonly timeoutMs?: number
}

/** What the app keeps of a passkey to sign with it again (all public). */
export interface StoredPasskey {
  readonly credentialId: string
  /** SEC1 uncompressed point, lowercase hex (the member's identifier text). */
  readonly publicKey: string
  readonly rpId: string
  readonly origin: string
}

export interface WebAuthnPasskeySigner extends PasskeySigner {
  readonly credentialId: string
  readonly rpId: string
  /** The public record to store and restore with `passkeySignerFromStored`. */
  stored(): StoredPasskey
}

function b64(field: string, value: unknown): Uint8Array {
  if (typeof value !== 'string') throw new SignerError('bad_response', `WebAuthn response: ${field} is missing`)
  try {
    return base64ToBytes(value)
  } catch (e) {
    throw new SignerError('bad_response', `WebAuthn response: ${field} is not base64url: ${(e as Error).message}`, {
      cause: e,
    })
  }
}

/**
 * The SEC1 point (65 bytes, 0x04 || x || y) of a P-256 SubjectPublicKeyInfo DER (91 bytes).
 * @throws SignerError('bad_response') for any other key (another curve or algorithm, a compressed point, COSE).
 */
export function sec1FromSpki(spki: Uint8Array): Uint8Array {
  if (spki.length !== 91)
    throw new SignerError(
      'bad_response',
      `passkey public key: expected a 91-byte P-256 SubjectPublicKeyInfo, got ${spki.length} bytes`,
    )
  if (!equalBytes(spki.subarray(0, 26), P256_SPKI_PREFIX)) {
    throw new SignerError(
      'bad_response',
      `passkey public key: not a P-256 (ES256) SubjectPublicKeyInfo (prefix ${bytesToHex(spki.subarray(0, 26))})`,
    )
  }
  const point = spki.slice(26)
  if (point[0] !== 0x04)
    throw new SignerError('bad_response', 'passkey public key: the point is not uncompressed (0x04)')
  return point
}

interface ClientData {
  readonly type?: unknown
  readonly challenge?: unknown
  readonly origin?: unknown
}

function parseClientData(bytes: Uint8Array): ClientData {
  try {
    const v: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as ClientData
  } catch {
    /* reported below */
  }
  throw new SignerError('bad_response', 'WebAuthn response: clientDataJSON is not a UTF-8 JSON object')
}

function signerOf(
  fns: WebAuthnFunctions,
  credentialId: string,
  publicKey: Uint8Array,
  rpId: string,
  origin: string,
  timeoutMs: number,
): WebAuthnPasskeySigner {
  const identifierText = bytesToHex(publicKey)
  return {
    kind: 'passkey',
    identifier: { kind: 'passkey', text: identifierText },
    publicKey,
    origin,
    credentialId,
    rpId,
    stored: () => ({ credentialId, publicKey: identifierText, rpId, origin }),
    async sign(text) {
      const challenge = base64urlNoPad(utf8(text))
      let res
      try {
        res = await fns.startAuthentication({
          optionsJSON: {
            challenge,
            rpId,
            allowCredentials: [{ id: credentialId, type: 'public-key' }],
            userVerification: 'required',
            timeout: timeoutMs,
          },
        })
      } catch (e) {
        throw toSignerError(e)
      }
      if (res.id !== credentialId && res.rawId !== credentialId) {
        throw new SignerError(
          'wrong_signer',
          `the authenticator answered with credential ${res.id}, not this passkey's ${credentialId}`,
        )
      }
      const clientDataJson = b64('clientDataJSON', res.response.clientDataJSON)
      const authenticatorData = b64('authenticatorData', res.response.authenticatorData)
      const signature = b64('signature', res.response.signature)
      const cd = parseClientData(clientDataJson)
      if (cd.challenge !== challenge) {
        throw new SignerError(
          'bad_response',
          `the assertion's challenge ${JSON.stringify(cd.challenge)} is not base64url of the signature text`,
        )
      }
      if (signature[0] !== 0x30) throw new SignerError('bad_response', 'the assertion signature is not ASN.1 DER')
      // Raw bytes as the authenticator produced them: never rebuilt.
      return { kind: 'passkey', publicKey, signature, authenticatorData, clientDataJson }
    },
  }
}

/** Creates a passkey (a WebAuthn registration ceremony) and returns its Signer. */
export async function createPasskey(
  fns: WebAuthnFunctions,
  options: CreatePasskeyOptions,
): Promise<WebAuthnPasskeySigner> {
  const timeoutMs = options.timeoutMs ?? 60_000
  const userId = options.userId ?? randomSecretKey().slice(0, 16)
  const userName = options.userName ?? 'Inbox Inspector passkey'
  let reg
  try {
    reg = await fns.startRegistration({
      optionsJSON: {
        rp: { id: options.rpId, name: options.rpName ?? 'Inbox Inspector' },
        user: { id: base64urlNoPad(userId), name: userName, displayName: options.userDisplayName ?? userName },
        // Registration proves nothing here (no server checks it): a fresh random challenge.
        challenge: base64urlNoPad(randomSecretKey()),
        pubKeyCredParams: [{ type: 'public-key', alg: COSE_ES256 }],
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
        attestation: 'none',
        timeout: timeoutMs,
      },
    })
  } catch (e) {
    throw toSignerError(e)
  }
  const alg = reg.response.publicKeyAlgorithm
  if (alg !== undefined && alg !== COSE_ES256)
    throw new SignerError('bad_response', `the authenticator created a key of COSE algorithm ${alg}, not ES256 (-7)`)
  const publicKey = sec1FromSpki(b64('publicKey', reg.response.publicKey))
  const cd = parseClientData(b64('clientDataJSON', reg.response.clientDataJSON))
  const origin = typeof cd.origin === 'string' ? cd.origin : options.origin
  if (origin === undefined)
    throw new SignerError('bad_response', 'the registration client data names no origin, and none was given')
  return signerOf(fns, reg.id, publicKey, options.rpId, origin, timeoutMs)
}

/** A passkey Signer for a credential created earlier (see WebAuthnPasskeySigner.stored). */
export function passkeySignerFromStored(
  fns: Pick<WebAuthnFunctions, 'startAuthentication'>,
  stored: StoredPasskey,
  timeoutMs = 60_000,
): WebAuthnPasskeySigner {
  const publicKey = hexToBytes(stored.publicKey)
  if (publicKey.length !== 65 || publicKey[0] !== 0x04)
    throw new Error(`stored passkey ${stored.credentialId}: public key is not a 65-byte SEC1 point`)
  const unused: StartRegistration = () => Promise.reject(new Error('not used'))
  return signerOf(
    { startRegistration: unused, ...fns },
    stored.credentialId,
    publicKey,
    stored.rpId,
    stored.origin,
    timeoutMs,
  )
}
