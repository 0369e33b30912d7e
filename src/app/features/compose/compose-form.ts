/**
 * The composer's form, without React: the actions, a form per action with its defaults
 * (the first eligible party wherever the form names none that fits), and the form after
 * an update was signed.
 */
import { membersInOrder } from '../../../core/member-order'
import { memberKey, type AssociationState } from '../../../core/types'
import { eligible, type Party } from './parties'

export type ComposeActionKind = 'create_inbox' | 'add' | 'revoke' | 'change_recovery_address' | 'claim_handle'

export const ACTION_TITLE: Record<ComposeActionKind, string> = {
  create_inbox: 'Create inbox',
  add: 'Add a member',
  revoke: 'Revoke a member',
  change_recovery_address: 'Change recovery',
  claim_handle: 'Claim a handle',
}

export interface ComposeForm {
  readonly action: ComposeActionKind
  /** CreateInbox: the identifier kind of the initial identifier. */
  readonly createKind: 'ethereum' | 'passkey'
  /** CreateInbox: the creator's party ref. */
  readonly creator: string
  /** CreateInbox: the nonce as typed. */
  readonly nonce: string
  /** AddAssociation: the existing member (or recovery identifier) who approves. */
  readonly existing: string
  /** AddAssociation: the new member's party ref (a signer of this browser). */
  readonly newMember: string
  /** RevokeAssociation: the memberKey of the member to revoke. */
  readonly revokeTarget: string
  /** ChangeRecoveryAddress: a party ref, or TYPED for the typed identifier. */
  readonly recoveryTarget: string
  readonly recoveryTyped: string
  readonly recoveryTypedKind: 'ethereum' | 'passkey'
  /** ClaimHandle */
  readonly handle: string
  readonly claimer: string
}

export const TYPED = 'typed'

export const EMPTY_FORM: ComposeForm = {
  action: 'create_inbox',
  createKind: 'ethereum',
  creator: '',
  nonce: '0',
  existing: '',
  newMember: '',
  revokeTarget: '',
  recoveryTarget: '',
  recoveryTyped: '',
  recoveryTypedKind: 'ethereum',
  handle: '',
  claimer: '',
}

/** The actions that make sense on a state: CreateInbox only without one, every other one only with one. */
export function actionsFor(state: AssociationState | null): ComposeActionKind[] {
  return state ? ['add', 'revoke', 'change_recovery_address', 'claim_handle'] : ['create_inbox']
}

const UINT64_MAX = (1n << 64n) - 1n

/** The nonce as typed: a decimal uint64 (CreateInbox.nonce), or why it is not one. */
export function parseNonce(text: string): { ok: true; value: bigint } | { ok: false; problem: string } {
  const t = text.trim()
  if (t === '') return { ok: false, problem: 'the nonce is empty; give a whole number such as 0' }
  if (!/^[0-9]+$/.test(t))
    return { ok: false, problem: `the nonce ${JSON.stringify(t)} is not a decimal whole number (0, 1, 2, …)` }
  const value = BigInt(t)
  if (value > UINT64_MAX)
    return { ok: false, problem: `the nonce ${t} is above 18446744073709551615, the largest uint64` }
  return { ok: true, value }
}

/** The slot refs of a form filled with the first eligible party wherever the form names none that fits. */
export function withDefaults(
  form: ComposeForm,
  state: AssociationState | null,
  parties: readonly Party[],
): ComposeForm {
  const actions = actionsFor(state)
  const action = actions.includes(form.action) ? form.action : actions[0]!
  // A choice the person made stays; a default is only ever a signer this browser holds
  // (preselecting a member it cannot sign for leaves Sign disabled for no visible reason).
  const pick = (ref: string, list: readonly Party[], avoid?: string): string =>
    list.some((p) => p.ref === ref) ? ref : (list.find((p) => p.ref !== avoid && p.app !== null)?.ref ?? '')
  const creator = pick(form.creator, eligible(parties, 'creator', form.createKind))
  const existing = pick(form.existing, eligible(parties, 'existing'))
  const newMember = pick(form.newMember, eligible(parties, 'new_member'), existing)
  const claimer = pick(form.claimer, eligible(parties, 'claimer'))
  const members = state ? membersInOrder(state).map((m) => memberKey(m.id)) : []
  const revokeTarget = members.includes(form.revokeTarget) ? form.revokeTarget : (members[0] ?? '')
  const targets = eligible(parties, 'recovery_target').filter((p) => !p.isRecovery)
  const recoveryTarget = form.recoveryTarget === TYPED ? TYPED : pick(form.recoveryTarget, targets)
  return { ...form, action, creator, existing, newMember, claimer, revokeTarget, recoveryTarget }
}

// ---- form → draft ------------------------------------------------------------------------

/**
 * The form after an update was signed and appended: the subject of the update (the handle,
 * the new member, the member revoked, the new recovery identifier, the creator) is cleared,
 * so the composer does not draft the same update again; the action and approvers stay.
 */
export function afterSigned(form: ComposeForm): ComposeForm {
  return {
    ...form,
    creator: '',
    newMember: '',
    revokeTarget: '',
    recoveryTarget: '',
    recoveryTyped: '',
    handle: '',
  }
}
