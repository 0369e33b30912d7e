/**
 * Who can sign in the composer: the signers of this browser and the members of the open
 * state. A member this browser holds no signer for gets a plannedSigner
 * (src/signing/roles.ts): its identifier and kind are known, so a draft has its exact
 * signature text and dry-runs against the state, and the collector reports that signature
 * as missing, naming who must sign it.
 */
import { membersInOrder } from '../../../core/member-order'
import { memberKey, type AssociationState, type MemberId, type MemberKind } from '../../../core/types'
import { plannedSigner, type Signer } from '../../../signing'
import type { AppSigner } from '../../model/app-signer'
import { shortId } from '../../ui/format'

/** Someone who can be named as a signer: a signer of this browser, or a member of the state it does not hold. */
export interface Party {
  /** `signer:<AppSigner id>` or `member:<memberKey>`. */
  readonly ref: string
  readonly identifier: MemberId
  readonly label: string
  /** The registry's signer, or null when this browser holds no signer for the member. */
  readonly app: AppSigner | null
  /** The Signer a draft uses: the registry's, or a planned stand-in that refuses to sign. */
  readonly signer: Signer
  readonly isMember: boolean
  readonly isRecovery: boolean
}

const KIND_WORD: Record<MemberKind, string> = { ethereum: 'Ethereum', passkey: 'passkey', installation: 'installation' }

function standing(isMember: boolean, isRecovery: boolean): string {
  return isMember && isRecovery
    ? 'member, recovery'
    : isMember
      ? 'member'
      : isRecovery
        ? 'recovery, not a member'
        : 'not a member'
}

/** Every party, the registry's signers first, then the state's members and recovery identifier this browser holds no signer for. */
export function partiesOf(state: AssociationState | null, signers: readonly AppSigner[]): Party[] {
  const out: Party[] = []
  const held = new Set<string>()
  const recoveryKey = state ? memberKey(state.recovery.id) : null
  for (const app of signers) {
    const key = memberKey(app.identifier)
    const isMember = !!state?.members.has(key)
    const isRecovery = key === recoveryKey
    held.add(key)
    out.push({
      ref: `signer:${app.id}`,
      identifier: app.identifier,
      label: state ? `${app.label} (${standing(isMember, isRecovery)})` : app.label,
      app,
      signer: app.signer,
      isMember,
      isRecovery,
    })
  }
  if (!state) return out
  const planned = (id: MemberId, chainId: bigint | null, isMember: boolean, isRecovery: boolean): void => {
    const key = memberKey(id)
    if (held.has(key)) return
    held.add(key)
    const signer = plannedSigner(id, chainId !== null && id.kind === 'ethereum' ? { kind: 'erc_6492', chainId } : {})
    out.push({
      ref: `member:${key}`,
      identifier: id,
      label: `${KIND_WORD[id.kind]} ${shortId(id.text)} (${standing(isMember, isRecovery)}; no signer in this browser)`,
      app: null,
      signer,
      isMember,
      isRecovery,
    })
  }
  for (const m of membersInOrder(state)) planned(m.id, m.chainId, true, memberKey(m.id) === recoveryKey)
  planned(state.recovery.id, state.recovery.chainId, state.members.has(recoveryKey!), true)
  return out
}

/** The parties that may take a slot of an action (the core judges the rest in the dry run). */
export function eligible(
  parties: readonly Party[],
  slot: 'creator' | 'existing' | 'new_member' | 'claimer' | 'recovery_target',
  createKind: 'ethereum' | 'passkey' = 'ethereum',
): Party[] {
  switch (slot) {
    case 'creator':
      return parties.filter((p) => p.app !== null && p.identifier.kind === createKind)
    case 'existing':
      return parties.filter((p) => p.isMember || p.isRecovery)
    case 'new_member':
      return parties.filter((p) => p.app !== null && !p.isMember)
    case 'claimer':
      return parties.filter((p) => p.isMember)
    case 'recovery_target':
      return parties.filter((p) => p.identifier.kind !== 'installation')
  }
}

// ---- the form ----------------------------------------------------------------------------

/** The party a ref names, if it is among `parties`. */
export function partyOf(parties: readonly Party[], ref: string): Party | null {
  return parties.find((p) => p.ref === ref) ?? null
}
