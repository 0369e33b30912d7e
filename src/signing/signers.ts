/**
 * Signers: the parties that sign an identity update's signature text (spec section 4).
 * A Signer names the member it stands for (its identifier, spec section 3 identifier
 * text) and turns a signature text into the WireSignature of its kind.
 *
 * Local implementations, all deterministic (RFC 6979 ECDSA nonces, RFC 8032 Ed25519), so
 * the fixture generator reproduces its corpus byte for byte:
 *   ethKeySigner          erc_191: EIP-191 personal_sign, 65 bytes r || s || v
 *   installationKeySigner installation_key: Ed25519ph with the context IDENTITY UPDATE SIGNATURE
 *   passkeySigner         passkey: a synthesized WebAuthn assertion, DER P-256
 *   smartWalletSigner     erc_6492: a smart contract wallet whose signature bytes come from
 *                         a caller-supplied function of the personal-message hash
 *
 * Pure: no DOM, no node:* (the browser signing playground reuses it).
 */
import {
  base64urlNoPad,
  bytesToHex,
  concatBytes,
  ed25519PublicKey,
  ethAddressFromPrivateKey,
  hexToBytes,
  IDENTITY_UPDATE_CONTEXT,
  p256PublicKey,
  personalMessageHash,
  sha256,
  signEd25519ph,
  signEip191,
  signP256Der,
  utf8,
} from '../crypto'
import type { MemberId, SignatureKind, WireMemberIdentifier, WireSignature } from '../core/types'

/** The signature kinds a Signer produces (spec section 4, the Signature oneof). */
export type SignerKind = SignatureKind

export interface Signer {
  readonly kind: SignerKind
  /** The member this signer stands for, as identifier text (spec section 3). */
  readonly identifier: MemberId
  /** Signs the exact signature text (UTF-8) of one update. */
  sign(text: string): Promise<WireSignature>
}

/** A passkey signer also carries the origin it reports as relying party (display only). */
export interface PasskeySigner extends Signer {
  readonly kind: 'passkey'
  readonly publicKey: Uint8Array
  readonly origin: string
}

export interface InstallationKeySigner extends Signer {
  readonly kind: 'installation_key'
  readonly publicKey: Uint8Array
}

/** The MemberIdentifier that names a member on the wire (spec section 1); a passkey's relying party kept when given. */
export function wireMemberIdentifier(id: MemberId, relyingParty?: string): WireMemberIdentifier {
  switch (id.kind) {
    case 'ethereum':
      return { kind: 'ethereum', address: id.text }
    case 'installation':
      return { kind: 'installation', key: hexToBytes(id.text) }
    case 'passkey': {
      const key = hexToBytes(id.text)
      return relyingParty === undefined ? { kind: 'passkey', key } : { kind: 'passkey', key, relyingParty }
    }
  }
}

/** The MemberIdentifier that names a signer's member on the wire: a passkey signer's origin as its relying party. */
export function memberIdentifierOf(signer: Signer): WireMemberIdentifier {
  return wireMemberIdentifier(signer.identifier, isPasskeySigner(signer) ? signer.origin : undefined)
}

function isPasskeySigner(s: Signer): s is PasskeySigner {
  return s.kind === 'passkey' && typeof (s as Partial<PasskeySigner>).origin === 'string'
}

// ---------------------------------------------------------------------------------------
// erc_191

export interface EthKeySignerOptions {
  /**
   * How the recovery byte is written: 'ethereum' (27 | 28, what wallets return; the
   * default) or 'raw' (0 | 1). A validator accepts both (spec section 4).
   */
  readonly v?: 'ethereum' | 'raw'
}

/** An Ethereum account from a local secp256k1 private key (32 bytes), signing with personal_sign. */
export function ethKeySigner(privateKey: Uint8Array, options: EthKeySignerOptions = {}): Signer {
  const address = ethAddressFromPrivateKey(privateKey)
  const raw = options.v === 'raw'
  return {
    kind: 'erc_191',
    identifier: { kind: 'ethereum', text: address },
    async sign(text) {
      const bytes = signEip191(privateKey, utf8(text)) // r || s || v, v = 27 | 28, low s
      if (raw) bytes[64] = bytes[64]! - 27
      return { kind: 'erc_191', bytes }
    },
  }
}

// ---------------------------------------------------------------------------------------
// installation_key

/** An installation key from a 32-byte Ed25519 secret key (seed). */
export function installationKeySigner(secretKey: Uint8Array): InstallationKeySigner {
  const publicKey = ed25519PublicKey(secretKey)
  return {
    kind: 'installation_key',
    identifier: { kind: 'installation', text: bytesToHex(publicKey) },
    publicKey,
    async sign(text) {
      const bytes = signEd25519ph(secretKey, utf8(text), IDENTITY_UPDATE_CONTEXT)
      return { kind: 'installation_key', bytes, publicKey }
    },
  }
}

// ---------------------------------------------------------------------------------------
// passkey

export interface PasskeySignerOptions {
  /** The client data origin, e.g. `https://inbox.example`; also the relying party shown. */
  readonly origin: string
  /** 32-byte SHA-256 of the relying party id; default SHA-256 of the origin's host. */
  readonly rpIdHash?: Uint8Array
  /** Authenticator data flags byte; default 0x05 (user present, user verified). */
  readonly flags?: number
  /** Signature counter (big-endian uint32 in authenticator data); default 0. */
  readonly counter?: number
  /** Emit the n - s twin of the signature (verifies all the same; for s-normalisation tests). */
  readonly highS?: boolean
  /** Carry the 33-byte compressed SEC1 key instead of the 65-byte uncompressed one. */
  readonly compressed?: boolean
}

/** The host of an origin (`https://a.example:8443` → `a.example`), without URL parsing. */
export function originHost(origin: string): string {
  return origin
    .replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//, '')
    .replace(/\/.*$/, '')
    .replace(/:\d+$/, '')
}

/**
 * The WebAuthn client data JSON of a `webauthn.get` ceremony whose challenge is the
 * base64url (no padding) encoding of the signature text (spec section 4, passkey row).
 */
export function passkeyClientDataJson(text: string, origin: string): Uint8Array {
  const challenge = base64urlNoPad(utf8(text))
  return utf8(
    `{"type":"webauthn.get","challenge":${JSON.stringify(challenge)},"origin":${JSON.stringify(origin)},"crossOrigin":false}`,
  )
}

/** 37-byte authenticator data: rpIdHash (32) || flags (1) || counter (4, big-endian). */
export function authenticatorData(rpIdHash: Uint8Array, flags = 0x05, counter = 0): Uint8Array {
  if (rpIdHash.length !== 32) throw new Error(`rpIdHash must be 32 bytes, got ${rpIdHash.length}`)
  if (!Number.isInteger(counter) || counter < 0 || counter > 0xffffffff)
    throw new Error(`counter ${counter} is not a uint32`)
  const out = new Uint8Array(37)
  out.set(rpIdHash, 0)
  out[32] = flags & 0xff
  out[33] = (counter >>> 24) & 0xff
  out[34] = (counter >>> 16) & 0xff
  out[35] = (counter >>> 8) & 0xff
  out[36] = counter & 0xff
  return out
}

/**
 * A passkey from a 32-byte P-256 secret key: synthesizes the assertion an authenticator
 * would return (client data JSON, authenticator data) and signs
 * authenticator_data || SHA-256(client_data_json) with DER ECDSA P-256 (WebAuthn Level 2
 * §6.1, §7.2 step 20). For a real authenticator use a signer built on navigator.credentials.
 */
export function passkeySigner(secretKey: Uint8Array, options: PasskeySignerOptions): PasskeySigner {
  const publicKey = p256PublicKey(secretKey, options.compressed === true)
  const rpIdHash = options.rpIdHash ?? sha256(utf8(originHost(options.origin)))
  const authData = authenticatorData(rpIdHash, options.flags ?? 0x05, options.counter ?? 0)
  const highS = options.highS === true
  return {
    kind: 'passkey',
    identifier: { kind: 'passkey', text: bytesToHex(publicKey) },
    publicKey,
    origin: options.origin,
    async sign(text) {
      const clientDataJson = passkeyClientDataJson(text, options.origin)
      const signature = signP256Der(secretKey, concatBytes(authData, sha256(clientDataJson)), { highS })
      return { kind: 'passkey', publicKey, signature, authenticatorData: authData, clientDataJson }
    },
  }
}

// ---------------------------------------------------------------------------------------
// erc_6492

export interface SmartWalletSignerOptions {
  /** eip155 chain id of the wallet. */
  readonly chainId: bigint
  /** The wallet contract address as it goes in account_id (either case; the identifier is lowercased). */
  readonly address: string
  /** The block the signature is to be judged at (spec IDENT-060). */
  readonly blockNumber: bigint
  /** The wallet's signature over the EIP-191 personal-message hash of the text. */
  readonly signature: (hash: Uint8Array) => Uint8Array | Promise<Uint8Array>
}

/**
 * A smart contract wallet: erc_6492 signatures with account_id `eip155:<chainId>:<address>`.
 * The signature bytes come from `signature(hash)`; with a fake SmartWalletVerifier that
 * accepts a deterministic function of (hash, account), tests produce valid signatures.
 */
export function smartWalletSigner(options: SmartWalletSignerOptions): Signer {
  const address = options.address
  if (!/^0x[0-9a-fA-F]{40}$/.test(address))
    throw new Error(`smart wallet address ${JSON.stringify(address)} is not 0x + 40 hex`)
  if (options.chainId < 0n) throw new Error(`chain id ${options.chainId} is negative`)
  const accountId = `eip155:${options.chainId.toString(10)}:${address}`
  return {
    kind: 'erc_6492',
    identifier: { kind: 'ethereum', text: address.toLowerCase() },
    async sign(text) {
      const signature = await options.signature(personalMessageHash(utf8(text)))
      return { kind: 'erc_6492', accountId, blockNumber: options.blockNumber, signature }
    },
  }
}
