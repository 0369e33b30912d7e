/**
 * The signatures a draft needs, by role: which signer signs which slot of which action
 * (in the order the update carries them, core/verify/update signaturesOf), and planned
 * signers, which stand in a draft for a party whose identifier is known before the party
 * can sign (a wallet not yet connected, a passkey on another device). A planned signer
 * gives dry-run everything it needs (kind, identifier, chain id) and refuses to sign.
 */
import { hexToBytes } from '../crypto'
import { memberKey, type MemberId, type SignatureRole } from '../core/types'
import { rolesOf, type Draft, type SignatureOverride } from './draft'
import { SignerError } from './errors'
import type { PasskeySigner, Signer, SignerKind, SmartWalletSignerOptions } from './signers'
import { smartWalletSigner } from './signers'

export interface DraftRole {
  /** `${actionIndex}:${role}`: stable key of this signature slot. */
  readonly key: string
  readonly actionIndex: number
  readonly role: SignatureRole
  /** The signer the draft names for this slot. */
  readonly signer: Signer
  readonly override?: SignatureOverride
}

/** Every signature slot of the draft, in action order then role order. */
export function draftRoles(draft: Draft): DraftRole[] {
  const out: DraftRole[] = []
  draft.actions.forEach((a, actionIndex) => {
    for (const [role, signer, override] of rolesOf(a)) {
      out.push({
        key: `${actionIndex}:${role}`,
        actionIndex,
        role,
        signer,
        ...(override !== undefined ? { override } : {}),
      })
    }
  })
  return out
}

/** A signer that states the eip155 chain its signatures carry (smart contract wallets, erc_6492). */
export interface ChainBoundSigner extends Signer {
  readonly chainId: bigint
}

/** The chain id a signer's signatures carry: erc_6492 its wallet's chain, every other kind none (spec section 4). */
export function signerChainId(signer: Signer): bigint | null | undefined {
  if (signer.kind !== 'erc_6492') return null
  const c = (signer as Partial<ChainBoundSigner>).chainId
  return typeof c === 'bigint' ? c : undefined
}

/** smartWalletSigner that also states its chain id, so dry-run can predict IDENT-046. */
export function chainBoundSmartWalletSigner(options: SmartWalletSignerOptions): ChainBoundSigner {
  return { ...smartWalletSigner(options), chainId: options.chainId }
}

export interface PlannedSignerOptions {
  /** Signature kind; default erc_191 for Ethereum, passkey for a passkey, installation_key for an installation. */
  readonly kind?: SignerKind
  /** eip155 chain id, for a planned erc_6492 signer. */
  readonly chainId?: bigint
  /** A planned passkey's origin (relying party shown). */
  readonly origin?: string
}

export interface PlannedSigner extends Signer {
  readonly planned: true
}

const defaultKindOf = (id: MemberId): SignerKind =>
  id.kind === 'ethereum' ? 'erc_191' : id.kind === 'passkey' ? 'passkey' : 'installation_key'

/**
 * A stand-in for a party who will sign later: its identifier and kind are known, so a
 * draft built with it has its exact signature text and dry-runs, but `sign` always fails
 * with SignerError('no_signer'). collectSignatures replaces it by a real signer with the
 * same identifier.
 */
export function plannedSigner(identifier: MemberId, options: PlannedSignerOptions = {}): PlannedSigner {
  const kind = options.kind ?? defaultKindOf(identifier)
  const base = {
    kind,
    identifier: { kind: identifier.kind, text: identifier.text },
    planned: true as const,
    async sign(): Promise<never> {
      throw new SignerError('no_signer', `no signer is connected for ${identifier.kind} ${identifier.text}`)
    },
  }
  const extra: Record<string, unknown> = {}
  if (options.chainId !== undefined) extra.chainId = options.chainId
  if (identifier.kind === 'passkey' && options.origin !== undefined) {
    extra.origin = options.origin
    extra.publicKey = hexToBytes(identifier.text)
  }
  return Object.assign(base, extra) as PlannedSigner & Partial<PasskeySigner>
}

export function isPlannedSigner(s: Signer): s is PlannedSigner {
  return (s as Partial<PlannedSigner>).planned === true
}

export const sameIdentifier = (a: MemberId, b: MemberId): boolean => memberKey(a) === memberKey(b)
