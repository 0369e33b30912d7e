/**
 * Builds verified updates by hand, with no crypto, so each rule is tested on its own
 * (design.md, "Rule tests build verified actions by hand"). Used by tests only.
 */
import { deriveInboxId } from '../inbox-id'
import type { SignatureCheck } from '../trace'
import type {
  AssociationState,
  MemberId,
  SignatureKind,
  SignatureRole,
  UnverifiedUpdate,
  WireAction,
  WireSignature,
} from '../types'
import type { VerifiedUpdate } from '../verify/update'
import { signatureText } from '../text/signature-text'
import { applyUpdate } from './update'

export const eth = (n: number): MemberId => ({ kind: 'ethereum', text: `0x${n.toString(16).padStart(40, '0')}` })
export const inst = (n: number): MemberId => ({ kind: 'installation', text: n.toString(16).padStart(64, 'a') })
export const pk = (n: number): MemberId => ({ kind: 'passkey', text: `04${n.toString(16).padStart(128, 'b')}` })

/** How one signature verified, as the test wants it. */
export interface Sig {
  readonly signer: MemberId
  readonly kind?: SignatureKind
  readonly verdict?: SignatureCheck['verdict']
  readonly chainId?: bigint | null
  /** Replay key hex; defaults to a key unique to this Sig object. */
  readonly key?: string
}

let counter = 0
const defaultKind = (id: MemberId): SignatureKind =>
  id.kind === 'ethereum' ? 'erc_191' : id.kind === 'passkey' ? 'passkey' : 'installation_key'

/** A placeholder wire signature of a kind; the verdict comes from the check, not from these bytes. */
function wireSig(kind: SignatureKind): WireSignature {
  switch (kind) {
    case 'erc_191':
      return { kind, bytes: new Uint8Array(65) }
    case 'erc_6492':
      return {
        kind,
        accountId: 'eip155:1:0x0000000000000000000000000000000000000000',
        blockNumber: 1n,
        signature: new Uint8Array(1),
      }
    case 'installation_key':
      return { kind, bytes: new Uint8Array(64), publicKey: new Uint8Array(32) }
    case 'passkey':
      return {
        kind,
        publicKey: new Uint8Array(65),
        signature: new Uint8Array(8),
        authenticatorData: new Uint8Array(37),
        clientDataJson: new Uint8Array(2),
      }
  }
}

const hexToBytes = (h: string): Uint8Array => new Uint8Array((h.match(/../g) ?? []).map((b) => parseInt(b, 16)))

function memberWire(id: MemberId) {
  return id.kind === 'ethereum'
    ? ({ kind: 'ethereum', address: id.text } as const)
    : id.kind === 'installation'
      ? ({ kind: 'installation', key: hexToBytes(id.text) } as const)
      : ({ kind: 'passkey', key: hexToBytes(id.text) } as const)
}

export type Draft =
  | { kind: 'create'; id: MemberId; nonce?: bigint; sig?: Sig; identifierKind?: number; identifierText?: string }
  | { kind: 'add'; member: MemberId; existing: Sig; added?: Sig; identifierText?: string }
  | { kind: 'revoke'; member: MemberId; recovery: Sig; identifierText?: string }
  | { kind: 'recover'; to: MemberId; recovery: Sig; identifierKind?: number; identifierText?: string }
  | { kind: 'claim'; handle: string; sig: Sig }

export const create = (
  id: MemberId,
  extra: Partial<Omit<Extract<Draft, { kind: 'create' }>, 'kind' | 'id'>> = {},
): Draft => ({ kind: 'create', id, ...extra })
export const add = (member: MemberId, existing: Sig, added?: Sig, identifierText?: string): Draft => ({
  kind: 'add',
  member,
  existing,
  ...(added ? { added } : {}),
  ...(identifierText ? { identifierText } : {}),
})
export const revoke = (member: MemberId, recovery: Sig): Draft => ({ kind: 'revoke', member, recovery })
export const recover = (to: MemberId, recovery: Sig, identifierKind?: number): Draft => ({
  kind: 'recover',
  to,
  recovery,
  ...(identifierKind !== undefined ? { identifierKind } : {}),
})
export const claim = (handle: string, sig: Sig): Draft => ({ kind: 'claim', handle, sig })
export const by = (signer: MemberId, more: Omit<Sig, 'signer'> = {}): Sig => ({ signer, ...more })

const kindNumber = (id: MemberId) => (id.kind === 'passkey' ? 2 : 1)

/** The inbox id a create of `id` with `nonce` derives: computed by the caller with deriveInboxId. */
export function build(
  inboxId: string,
  drafts: readonly Draft[],
  clientTimestampNs = 1_700_000_000_000_000_000n,
): VerifiedUpdate {
  const sigs: [number, SignatureRole, Sig][] = []
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every kind (tsc checks it)
  const actions: WireAction[] = drafts.map((d, i): WireAction => {
    switch (d.kind) {
      case 'create': {
        const sig = d.sig ?? by(d.id)
        sigs.push([i, 'initial_identifier_signature', sig])
        return {
          kind: 'create_inbox',
          initialIdentifier: d.identifierText ?? d.id.text,
          nonce: d.nonce ?? 0n,
          initialIdentifierKind: d.identifierKind ?? kindNumber(d.id),
          initialIdentifierSignature: wireSig(sig.kind ?? defaultKind(sig.signer)),
        }
      }
      case 'add': {
        const added = d.added ?? by(d.member)
        sigs.push([i, 'existing_member_signature', d.existing], [i, 'new_member_signature', added])
        const wire =
          d.identifierText !== undefined
            ? { kind: 'ethereum' as const, address: d.identifierText }
            : memberWire(d.member)
        return {
          kind: 'add',
          newMemberIdentifier: wire,
          existingMemberSignature: wireSig(d.existing.kind ?? defaultKind(d.existing.signer)),
          newMemberSignature: wireSig(added.kind ?? defaultKind(added.signer)),
        }
      }
      case 'revoke':
        sigs.push([i, 'recovery_identifier_signature', d.recovery])
        return {
          kind: 'revoke',
          memberToRevoke:
            d.identifierText !== undefined ? { kind: 'ethereum', address: d.identifierText } : memberWire(d.member),
          recoveryIdentifierSignature: wireSig(d.recovery.kind ?? defaultKind(d.recovery.signer)),
        }
      case 'recover':
        sigs.push([i, 'existing_recovery_identifier_signature', d.recovery])
        return {
          kind: 'change_recovery_address',
          newRecoveryIdentifier: d.identifierText ?? d.to.text,
          newRecoveryIdentifierKind: d.identifierKind ?? kindNumber(d.to),
          existingRecoveryIdentifierSignature: wireSig(d.recovery.kind ?? defaultKind(d.recovery.signer)),
        }
      case 'claim':
        sigs.push([i, 'signature', d.sig])
        return { kind: 'claim_handle', handle: d.handle, signature: wireSig(d.sig.kind ?? defaultKind(d.sig.signer)) }
    }
  })
  const update: UnverifiedUpdate = {
    inboxId,
    clientTimestampNs,
    actions,
    bytes: new Uint8Array(0),
    bytesSource: 'input',
  }
  const text = signatureText(update)
  const keys = new WeakMap<Sig, string>()
  const checks: SignatureCheck[] = sigs.map(([actionIndex, role, s]) => {
    let key = s.key ?? keys.get(s)
    if (!key) keys.set(s, (key = (++counter).toString(16).padStart(16, '0')))
    const verdict = s.verdict ?? 'valid'
    const kind = s.kind ?? defaultKind(s.signer)
    return {
      actionIndex,
      role,
      kind,
      verdict,
      signer: verdict === 'invalid' ? null : s.signer,
      chainId: s.chainId ?? null,
      replayKey: verdict === 'invalid' ? null : key,
      failRule: verdict === 'invalid' ? (kind === 'erc_6492' ? 'IDENT-060' : 'IDENT-030') : null,
      reason:
        verdict === 'invalid' ? 'test: does not verify' : verdict === 'unreachable' ? 'test: chain unreachable' : '',
      evidence: {},
    }
  })
  return { update, text, checks }
}

/** Applies updates in order from nothing, each at sequence id 1, 2, ...; the first to inbox `inboxId`. */
function applyAll(inboxId: string, ...updates: Draft[][]): AssociationState {
  let s: AssociationState | null = null
  updates.forEach((u, n) => {
    s = applyUpdate(s, build(s?.inboxId ?? inboxId, u), BigInt(n + 1)).state
  })
  return s!
}

/** The cast of the rule tests: wallets A, B and C, installations I1 and I2, passkey P1. */
export const A = eth(0xa)
export const B = eth(0xb)
export const C = eth(0xc)
export const I1 = inst(1)
export const I2 = inst(2)
export const P1 = pk(1)
/** A's first inbox (nonce 0). */
export const ID = deriveInboxId(A.text, 0n)

/** Applies updates to ID in order from nothing, each at sequence id 1, 2, ... */
export const chain = (...updates: Draft[][]): AssociationState => applyAll(ID, ...updates)
