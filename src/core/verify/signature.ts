/**
 * Signature verification by kind (spec section 4, IDENT-030, IDENT-060, IDENT-061):
 * each kind's verification, the signer it yields, its chain id and its canonical
 * replay key (IDENT-050). Never throws for a bad signature: the verdict says why.
 */
import type { VerifyBackend } from '../../crypto/backend'
import { loadNobleBackend } from '../../crypto/load-noble'
import { base64urlNoPad, bytesToHex, concatBytes } from '../../crypto/bytes'
import { personalMessageHashWith, type Keccak256 } from '../../crypto/eip191-checks'
import { Ed25519phPrehash, IDENTITY_UPDATE_CONTEXT } from '../../crypto/ed25519ph-checks'
import { sha512 } from '../../crypto/hash'
import { ChainUnreachableError } from '../errors'
import type { SignatureCheck } from '../trace'
import type { EthAddress, MemberId, WireSignature } from '../types'
import type { SmartWalletVerifier } from './port'
import { quote } from '../text/quote'

/** What one signature verified to, before it is placed in its action (a SignatureCheck less its place). */
export type SignatureVerdict = Omit<SignatureCheck, 'actionIndex' | 'role' | 'kind' | 'verdict'> & {
  readonly verdict: 'valid' | 'invalid' | 'unreachable'
}

/** The signature text of one update with its derived digests, computed at most once. */
export class SignedText {
  private personal?: Uint8Array
  private prehash?: Ed25519phPrehash
  private challenge?: string
  constructor(
    readonly text: string,
    readonly bytes: Uint8Array,
  ) {}
  /** EIP-191 personal-message hash of the text, with the backend's Keccak-256 (every backend's gives the same output). */
  personalMessageHash(keccak: Keccak256): Uint8Array {
    return (this.personal ??= personalMessageHashWith(keccak, this.bytes))
  }
  /** The Ed25519ph prehash (SHA-512) of the text: once per update, not once per installation signature; `hash` may be a backend's (same output). */
  ed25519Prehash(hash: (b: Uint8Array) => Uint8Array = sha512): Ed25519phPrehash {
    return (this.prehash ??= new Ed25519phPrehash(hash(this.bytes)))
  }
  /** The passkey challenge every passkey signature must carry: base64url (no padding) of the text, built once. */
  passkeyChallenge(): string {
    return (this.challenge ??= base64urlNoPad(this.bytes))
  }
}

export interface VerifyContext {
  readonly smartWallets?: SmartWalletVerifier
  /**
   * The implementation of the erc_191, passkey and installation_key verifications
   * (src/crypto/backend). Default: `nobleBackend` (src/crypto/noble-backend, loaded on the
   * first verification without one). Every backend gives the same verdicts.
   */
  readonly crypto?: VerifyBackend
}

const invalid = (
  reason: string,
  evidence: Record<string, string> = {},
  failRule: 'IDENT-030' | 'IDENT-060' = 'IDENT-030',
  signer: MemberId | null = null,
  chainId: bigint | null = null,
): SignatureVerdict => ({ verdict: 'invalid', signer, chainId, replayKey: null, failRule, reason, evidence })

const valid = (
  signer: MemberId | null,
  replayKey: string,
  evidence: Record<string, string>,
  chainId: bigint | null = null,
): SignatureVerdict => ({ verdict: 'valid', signer, chainId, replayKey, failRule: null, reason: '', evidence })

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** CAIP-10 eip155 account id of IDENT-060: chain id in decimal, no sign, no leading zero. */
const CAIP10_EIP155 = /^eip155:(0|[1-9][0-9]{0,31}):(0x[0-9a-fA-F]{40})$/

export interface Eip155Account {
  readonly chainId: bigint
  readonly address: EthAddress
}

/** IDENT-060 form check, before any chain access. Returns the reason it fails, or the parts. */
export function parseEip155AccountId(accountId: string): Eip155Account | string {
  const m = CAIP10_EIP155.exec(accountId)
  if (m) return { chainId: BigInt(m[1]!), address: m[2]!.toLowerCase() as EthAddress }
  if (!accountId.startsWith('eip155:')) {
    const ns = accountId.split(':')[0] ?? ''
    return `account_id ${quote(accountId)} is not in the eip155 namespace (found ${quote(ns)})`
  }
  const [, ref = '', address = '', ...rest] = accountId.split(':')
  if (rest.length > 0) return `account_id ${quote(accountId)} has more than three colon-separated parts`
  if (!/^(0|[1-9][0-9]{0,31})$/.test(ref))
    return `account_id ${quote(accountId)}: chain id ${quote(ref)} is not a decimal with no sign and no leading zero`
  return `account_id ${quote(accountId)}: address ${quote(address)} is not 0x followed by 40 hexadecimal characters`
}

export async function verifySignature(
  sig: WireSignature,
  text: SignedText,
  ctx: VerifyContext,
): Promise<SignatureVerdict> {
  const backend = ctx.crypto ?? (await loadNobleBackend())
  switch (sig.kind) {
    case 'erc_191':
      return verifyErc191(sig.bytes, text, backend)
    case 'installation_key':
      return verifyInstallationKey(sig.bytes, sig.publicKey, text, backend)
    case 'passkey':
      return verifyPasskey(sig, text, backend)
    case 'erc_6492':
      return verifyErc6492(sig, text, ctx, backend)
  }
}

/** erc_191: recover secp256k1 from the EIP-191 personal-message hash of the text. */
async function verifyErc191(bytes: Uint8Array, text: SignedText, backend: VerifyBackend): Promise<SignatureVerdict> {
  const digest = text.personalMessageHash(backend.keccak256)
  const evidence: Record<string, string> = {
    'EIP-191 digest': bytesToHex(digest),
    'signature bytes': bytesToHex(bytes),
  }
  try {
    const r = await backend.recoverEip191(bytes, digest)
    evidence['recovery byte'] = String(r.recoveryByte)
    evidence['recovered public key'] = bytesToHex(r.publicKey)
    if (r.highS) evidence.s = 'upper half (canonicalised to the lower half in the replay key)'
    return valid({ kind: 'ethereum', text: r.address }, bytesToHex(r.replayKey), evidence)
  } catch (e) {
    return invalid(`erc_191 signature does not recover: ${messageOf(e)}`, evidence)
  }
}

/** installation_key: Ed25519ph (RFC 8032 §5.1) with the context IDENTITY UPDATE SIGNATURE. */
async function verifyInstallationKey(
  bytes: Uint8Array,
  publicKey: Uint8Array,
  text: SignedText,
  backend: VerifyBackend,
): Promise<SignatureVerdict> {
  // The Ed25519ph prehash (SHA-512 of the text) is not repeated here: views derive it
  // from the text, so replay pays for no hash beyond the verification itself.
  const keyHex = bytesToHex(publicKey) // one string for the evidence, the signer and the reason
  const evidence: Record<string, string> = { context: 'IDENTITY UPDATE SIGNATURE', 'public key': keyHex }
  const signer: MemberId | null = publicKey.length === 32 ? { kind: 'installation', text: keyHex } : null
  if (bytes.length !== 64) return invalid(`installation_key signature is ${bytes.length} bytes, expected 64`, evidence)
  if (publicKey.length !== 32)
    return invalid(`installation_key public_key is ${publicKey.length} bytes, expected 32`, evidence)
  let ok: boolean
  try {
    ok = await backend.verifyEd25519ph(bytes, text.ed25519Prehash(backend.sha512), publicKey, IDENTITY_UPDATE_CONTEXT)
  } catch (e) {
    return invalid(`installation_key signature does not verify: ${messageOf(e)}`, evidence)
  }
  if (!ok) return invalid(`installation_key signature does not verify under public key ${keyHex}`, evidence)
  return valid(signer, bytesToHex(bytes), evidence)
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * passkey: the client data's challenge equals base64url (no padding) of the text, and
 * a DER P-256 signature over authenticator_data || SHA-256(client_data_json) verifies
 * under the SEC1 key (WebAuthn Level 2 §6.1, §7.2 step 20). Nothing else of the
 * assertion is checked (spec Known limitations).
 */
async function verifyPasskey(
  sig: Extract<WireSignature, { kind: 'passkey' }>,
  text: SignedText,
  backend: VerifyBackend,
): Promise<SignatureVerdict> {
  const expected = text.passkeyChallenge()
  const keyHex = bytesToHex(sig.publicKey) // one string for the evidence, the signer and the reason
  const evidence: Record<string, string> = { 'expected challenge': expected, 'public key': keyHex }
  let clientData: unknown
  try {
    clientData = JSON.parse(fatalUtf8.decode(sig.clientDataJson))
  } catch (e) {
    return invalid(`passkey client_data_json is not UTF-8 JSON: ${messageOf(e)}`, evidence)
  }
  if (typeof clientData !== 'object' || clientData === null || Array.isArray(clientData))
    return invalid('passkey client_data_json is not a JSON object', evidence)
  const { challenge, origin } = clientData as Record<string, unknown>
  evidence['client data challenge'] = typeof challenge === 'string' ? challenge : JSON.stringify(challenge ?? null)
  if (typeof origin === 'string') evidence['client data origin'] = origin
  if (typeof challenge !== 'string') return invalid('passkey client data has no string challenge', evidence)
  if (challenge !== expected)
    return invalid(
      `passkey challenge ${quote(challenge)} is not base64url of the signature text (${quote(expected)})`,
      evidence,
    )
  const clientDataHash = backend.sha256(sig.clientDataJson)
  const signed = concatBytes(sig.authenticatorData, clientDataHash)
  evidence['SHA-256 of client_data_json'] = bytesToHex(clientDataHash)
  evidence['signed data (authenticator_data || client data hash)'] = bytesToHex(signed)
  try {
    const v = await backend.verifyP256Der(sig.signature, signed, sig.publicKey)
    if (v.highS) evidence.s = 'upper half (canonicalised to the lower half in the replay key)'
    if (!v.valid) return invalid(`passkey P-256 signature does not verify under key ${keyHex}`, evidence)
    return valid({ kind: 'passkey', text: keyHex }, bytesToHex(v.lowS), evidence)
  } catch (e) {
    return invalid(`passkey signature does not verify: ${messageOf(e)}`, evidence)
  }
}

/** erc_6492: form check first (IDENT-060), then the port; unreachable is not invalid (IDENT-061). */
async function verifyErc6492(
  sig: Extract<WireSignature, { kind: 'erc_6492' }>,
  text: SignedText,
  ctx: VerifyContext,
  backend: VerifyBackend,
): Promise<SignatureVerdict> {
  const account = parseEip155AccountId(sig.accountId)
  const evidence: Record<string, string> = { 'account id': sig.accountId, block: sig.blockNumber.toString() }
  if (typeof account === 'string') return invalid(account, evidence, 'IDENT-060')
  const hash = text.personalMessageHash(backend.keccak256)
  evidence['EIP-191 digest'] = bytesToHex(hash)
  const signer: MemberId = { kind: 'ethereum', text: account.address }
  const replayKey = bytesToHex(sig.signature)
  const unreachable = (reason: string): SignatureVerdict => ({
    verdict: 'unreachable',
    signer,
    chainId: account.chainId,
    replayKey,
    failRule: null,
    reason,
    evidence,
  })
  if (!ctx.smartWallets) return unreachable(`no route for chain eip155:${account.chainId}`)
  try {
    const v = await ctx.smartWallets.verify({
      chainId: account.chainId,
      account: account.address,
      blockNumber: sig.blockNumber,
      hash,
      signature: sig.signature,
    })
    if (v === 'valid') return valid(signer, replayKey, evidence, account.chainId)
    return invalid(
      `smart contract wallet ${account.address} on chain ${account.chainId} does not validate the signature at block ${sig.blockNumber}`,
      evidence,
      'IDENT-060',
      signer,
      account.chainId,
    )
  } catch (e) {
    if (e instanceof ChainUnreachableError) return unreachable(e.reason)
    return unreachable(`chain eip155:${account.chainId} call failed: ${messageOf(e)}`)
  }
}
