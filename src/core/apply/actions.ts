/**
 * apply: one pure reducer per action, `(state, action, index, ctx) → state`, that
 * throws a RuleViolation at the check it fails. Checks within an action run in a
 * fixed order: form (IDENT-011, IDENT-077, IDENT-013, IDENT-078, IDENT-080), then
 * each signature's kind (IDENT-031) and verdict (IDENT-030, IDENT-060), then the
 * rules between signers and state, then chain binding (IDENT-046) and replay (IDENT-050).
 */
import { PMap, PSet } from '../persistent'
import { firstMembers } from '../member-order'
import { MEMBERS_LISTED, RuleViolation, type ViolationDetails } from '../errors'
import { HANDLE_PATTERN, isValidHandle, handleProblem, handleProblemPosition, MAX_CLAIMS } from '../handles'
import { deriveInboxId } from '../inbox-id'
import { describeMember, memberIdOf, sameMember } from '../text/identifier'
import { memberKey, type AssociationState, type Member, type MemberId, type WireAction } from '../types'
import {
  requireChain,
  requireFresh,
  requireKindFor,
  requireSigned,
  requireSignedBy,
  type ApplyContext,
  type Signed,
} from './context'
import { identifierOf, requireMemberForm, signingKind } from './kinds'
import { quote } from '../text/quote'

type Action<K extends WireAction['kind']> = Extract<WireAction, { kind: K }>

const NO_KEYS = PSet.empty()

/** The member set and recovery identifier a signer was checked against, for a violation's details. */
function checkedAgainst(
  state: AssociationState,
  withRecovery: boolean,
): Pick<ViolationDetails, 'members' | 'memberCount' | 'recovery'> {
  const members = firstMembers(state, MEMBERS_LISTED).map((m) => describeMember(m.id))
  return {
    members,
    ...(state.members.size > members.length ? { memberCount: state.members.size } : {}),
    ...(withRecovery ? { recovery: describeMember(state.recovery.id) } : {}),
  }
}

function requireState(state: AssociationState | null, action: WireAction, i: number): AssociationState {
  // IDENT-011: the first action applied to an inbox with no association state is a CreateInbox.
  if (!state)
    throw new RuleViolation(
      'IDENT-011',
      i,
      `the inbox has no association state, so its first action must be a CreateInbox, found ${action.kind}`,
      { check: 'no-state', expected: 'create_inbox', found: action.kind },
    )
  return state
}

/** IDENT-046 for a signer that is a current member: its chain is the member's. */
function requireMemberChain(state: AssociationState, s: Signed, i: number): void {
  const m = state.members.get(memberKey(s.signer))
  if (m) requireChain(s, m.chainId, `member ${describeMember(m.id)}`, i)
}

/** IDENT-046 for a signature that stands for the recovery identifier: its chain is the role's. */
function requireRecoveryChain(state: AssociationState, s: Signed, i: number): void {
  requireChain(s, state.recovery.chainId, `the recovery identifier ${describeMember(state.recovery.id)}`, i)
}

/*
 * Each reducer's checks before it first reads a signature's check, in its order, as one
 * function the reducer and signatureFreeChecks share (issue #14, finding 1): what they
 * refuse is refused with no signature verified, and without the thrown SignatureNeeded
 * a read of an absent check costs (replay asks this of every update).
 */

/** IDENT-011, IDENT-077, IDENT-013: the initial identifier of a CreateInbox. */
function createInboxForm(state: AssociationState | null, a: Action<'create_inbox'>, i: number): MemberId {
  // IDENT-011: a CreateInbox is never applied to an inbox that has association state.
  if (state)
    throw new RuleViolation(
      'IDENT-011',
      i,
      `CreateInbox applied to inbox ${state.inboxId}, which already has association state`,
      { check: 'state-exists', expected: 'an inbox with no association state', found: `inbox ${state.inboxId}` },
    )
  const kind = signingKind(a.initialIdentifierKind, 'initial_identifier_kind', i)
  return identifierOf(a.initialIdentifier, kind, 'initial_identifier', i)
}

/** IDENT-011, IDENT-013: the state an Add applies to. */
function addForm(prev: AssociationState | null, a: Action<'add'>, i: number): AssociationState {
  const state = requireState(prev, a, i)
  requireMemberForm(a.newMemberIdentifier, 'new_member_identifier', i)
  return state
}

/** IDENT-011, IDENT-013: the state a Revoke applies to. */
function revokeForm(prev: AssociationState | null, a: Action<'revoke'>, i: number): AssociationState {
  const state = requireState(prev, a, i)
  requireMemberForm(a.memberToRevoke, 'member_to_revoke', i)
  return state
}

/** IDENT-011, IDENT-077, IDENT-013: the new recovery identifier of a ChangeRecoveryAddress. */
function changeRecoveryForm(prev: AssociationState | null, a: Action<'change_recovery_address'>, i: number): MemberId {
  requireState(prev, a, i)
  const kind = signingKind(a.newRecoveryIdentifierKind, 'new_recovery_identifier_kind', i)
  return identifierOf(a.newRecoveryIdentifier, kind, 'new_recovery_identifier', i)
}

/** IDENT-011, IDENT-078, IDENT-080: the state a ClaimHandle applies to. */
function claimForm(prev: AssociationState | null, a: Action<'claim_handle'>, i: number): AssociationState {
  const state = requireState(prev, a, i)
  // IDENT-078: the handle grammar, matched in full; never rewritten.
  if (!isValidHandle(a.handle))
    throw new RuleViolation('IDENT-078', i, `handle ${quote(a.handle)} ${handleProblem(a.handle)}`, {
      check: 'handle-grammar',
      expected: HANDLE_PATTERN.source,
      found: a.handle,
      position: handleProblemPosition(a.handle),
    })
  // IDENT-080: at most 64 claims in one log.
  if (state.claimCount >= MAX_CLAIMS) {
    throw new RuleViolation(
      'IDENT-080',
      i,
      `the inbox has made ${state.claimCount} claims; a log holds at most ${MAX_CLAIMS}`,
      { check: 'claim-limit', expected: `at most ${MAX_CLAIMS} claims`, found: `${state.claimCount} claims made` },
    )
  }
  return state
}

/**
 * The checks the action meets before it first reads a signature's check: throws the
 * RuleViolation its reducer would throw there, else returns (every reducer's next step
 * reads a check).
 */
export function signatureFreeChecks(state: AssociationState | null, action: WireAction, i: number): void {
  byKind(FORM_CHECKS, state, action, i)
}

/** IDENT-010, IDENT-011, IDENT-012, IDENT-013, IDENT-077. */
function applyCreateInbox(
  state: AssociationState | null,
  a: Action<'create_inbox'>,
  i: number,
  ctx: ApplyContext,
): AssociationState {
  const initial = createInboxForm(state, a, i)
  requireKindFor(ctx.check(i, 'initial_identifier_signature'), initial.kind, 'initial identifier', i)
  // IDENT-012: the creator's signature names the initial identifier.
  const s = requireSignedBy(ctx, i, 'initial_identifier_signature', 'IDENT-012', initial, 'initial_identifier')
  requireFresh(ctx, s, i)
  const member: Member = {
    id: initial,
    adder: null,
    clientTimestampNs: ctx.clientTimestampNs,
    chainId: s.chainId,
    addedAt: ctx.sequenceId,
    ...(a.relyingParty !== undefined ? { relyingParty: a.relyingParty } : {}),
  }
  return {
    inboxId: deriveInboxId(a.initialIdentifier, a.nonce), // IDENT-010
    members: PMap.of([[memberKey(initial), member]]),
    recovery: { id: initial, chainId: s.chainId },
    installationsByAdder: PMap.empty(),
    handles: [], // IDENT-083: a CreateInbox produces no handles and a claim count of 0
    claimCount: 0,
    seen: ctx.seenBefore,
    sequenceId: ctx.sequenceId,
  }
}

/** IDENT-013, IDENT-031, IDENT-040, IDENT-041, IDENT-042, IDENT-046, IDENT-050. */
function applyAdd(prev: AssociationState | null, a: Action<'add'>, i: number, ctx: ApplyContext): AssociationState {
  const state = addForm(prev, a, i)
  const newId = memberIdOf(a.newMemberIdentifier)
  requireKindFor(ctx.check(i, 'new_member_signature'), newId.kind, 'new member', i)
  const existing = requireSigned(ctx, i, 'existing_member_signature')
  // IDENT-040: both parties approve an add.
  const added = requireSignedBy(ctx, i, 'new_member_signature', 'IDENT-040', newId, 'new_member_identifier')
  // Each key built once: a fresh key string is flattened and hashed again at every lookup.
  const existingKey = memberKey(existing.signer)
  const key = memberKey(newId)
  const existingMember = state.members.get(existingKey)
  const existingIsRecovery = sameMember(existing.signer, state.recovery.id)
  if (!existingMember && !existingIsRecovery) {
    throw new RuleViolation(
      'IDENT-040',
      i,
      `existing member signature signer ${describeMember(existing.signer)} is neither a member nor the recovery identifier`,
      {
        check: 'signer-not-member',
        role: 'existing_member_signature',
        expected: 'a member or the recovery identifier',
        found: describeMember(existing.signer),
        ...checkedAgainst(state, true),
      },
    )
  }
  if (sameMember(existing.signer, added.signer)) {
    throw new RuleViolation(
      'IDENT-040',
      i,
      `existing member and new member signatures are both by ${describeMember(added.signer)}; an add needs two parties`,
      {
        check: 'same-party',
        role: 'existing_member_signature',
        expected: `a signer other than ${describeMember(added.signer)}`,
        found: describeMember(existing.signer),
      },
    )
  }
  // IDENT-042: the new member with its adder, time and chain id. Set here, where the rule
  // asks whether it is a member already: the size says so, and the key is looked up once.
  const relyingParty =
    a.newMemberIdentifier.kind === 'passkey' ? (a.newMemberIdentifier.relyingParty ?? a.relyingParty) : undefined
  // The relying party assigned, not spread in: a spread literal is built by a runtime call.
  const member: { -readonly [K in keyof Member]: Member[K] } = {
    id: newId,
    adder: existing.signer,
    clientTimestampNs: ctx.clientTimestampNs,
    chainId: added.chainId,
    addedAt: ctx.sequenceId,
  }
  if (relyingParty !== undefined) member.relyingParty = relyingParty
  const members = state.members.set(key, member)
  if (members.size === state.members.size) {
    throw new RuleViolation('IDENT-040', i, `new_member_identifier ${describeMember(newId)} is already a member`, {
      check: 'already-member',
      expected: 'an identifier that is not a member',
      found: describeMember(newId),
      ...checkedAgainst(state, false),
    })
  }
  // IDENT-041: an installation never adds an installation.
  if (existing.signer.kind === 'installation' && newId.kind === 'installation') {
    throw new RuleViolation(
      'IDENT-041',
      i,
      `installation ${existing.signer.text} cannot add installation ${newId.text}: an installation adds only Ethereum or passkey members`,
      {
        check: 'installation-adds-installation',
        role: 'existing_member_signature',
        expected: 'an Ethereum or passkey member as the adder of an installation',
        found: describeMember(existing.signer),
      },
    )
  }
  // IDENT-046: the existing signer keeps its chain, as a member and as the recovery identifier.
  if (existingMember) requireChain(existing, existingMember.chainId, `member ${describeMember(existingMember.id)}`, i)
  if (existingIsRecovery) requireRecoveryChain(state, existing, i)
  requireFresh(ctx, existing, i)
  requireFresh(ctx, added, i)
  // A get and a set: Map.update's key path machinery is most of its cost for one key.
  const installationsByAdder =
    newId.kind === 'installation'
      ? state.installationsByAdder.set(existingKey, (state.installationsByAdder.get(existingKey) ?? NO_KEYS).add(key))
      : state.installationsByAdder
  return { ...state, members, installationsByAdder }
}

/**
 * The checks of an action only the recovery identifier signs (revoke, IDENT-043; change
 * recovery, IDENT-045): the signature's kind fits the recovery identifier (IDENT-031), it
 * was made by it (`rule`), its chain is the recovery's and the member's (IDENT-013), and it
 * was not seen before (IDENT-050).
 */
function requireRecoverySigned(
  state: AssociationState,
  ctx: ApplyContext,
  i: number,
  role: 'recovery_identifier_signature' | 'existing_recovery_identifier_signature',
  rule: 'IDENT-043' | 'IDENT-045',
): void {
  requireKindFor(ctx.check(i, role), state.recovery.id.kind, 'recovery identifier', i)
  const s = requireSignedBy(ctx, i, role, rule, state.recovery.id, 'the recovery identifier')
  requireRecoveryChain(state, s, i)
  requireMemberChain(state, s, i)
  requireFresh(ctx, s, i)
}

/** IDENT-013, IDENT-031, IDENT-043, IDENT-044, IDENT-046, IDENT-050. */
function applyRevoke(
  prev: AssociationState | null,
  a: Action<'revoke'>,
  i: number,
  ctx: ApplyContext,
): AssociationState {
  const state = revokeForm(prev, a, i)
  const target = memberIdOf(a.memberToRevoke)
  // IDENT-043: only the recovery identifier revokes.
  requireRecoverySigned(state, ctx, i, 'recovery_identifier_signature', 'IDENT-043')
  // IDENT-044: remove the member and every installation it added; a non-member's
  // installations go too, and the recovery identifier keeps its role and chain.
  // Deleting keys (not filtering into a new map) keeps consecutive states sharing structure.
  const targetKey = memberKey(target)
  const cascade = state.installationsByAdder.get(targetKey) ?? NO_KEYS
  let installationsByAdder = state.installationsByAdder.delete(targetKey)
  const adder = state.members.get(targetKey)?.adder
  if (target.kind === 'installation' && adder) {
    // The adder's entry loses the target: an adder with no entry, or an entry without the
    // target, leaves the index as it is.
    const adderKey = memberKey(adder)
    const added = installationsByAdder.get(adderKey)
    const rest = added?.delete(targetKey)
    if (added && rest !== added) installationsByAdder = installationsByAdder.set(adderKey, rest!)
  }
  return { ...state, members: state.members.deleteAll([targetKey, ...cascade]), installationsByAdder }
}

/** IDENT-013, IDENT-031, IDENT-045, IDENT-046, IDENT-050, IDENT-077. */
function applyChangeRecovery(
  prev: AssociationState | null,
  a: Action<'change_recovery_address'>,
  i: number,
  ctx: ApplyContext,
): AssociationState {
  const next = changeRecoveryForm(prev, a, i)
  const state = prev! // changeRecoveryForm refused a null one (IDENT-011)
  // IDENT-045: only the recovery identifier changes recovery.
  requireRecoverySigned(state, ctx, i, 'existing_recovery_identifier_signature', 'IDENT-045')
  // IDENT-045: the new identifier's chain is the one recorded for it as a member, else absent.
  const asMember = state.members.get(memberKey(next))
  return { ...state, recovery: { id: next, chainId: asMember ? asMember.chainId : null } }
}

/** IDENT-078, IDENT-080, IDENT-081, IDENT-082, IDENT-046, IDENT-050. (IDENT-079 is checked per update.) */
function applyClaimHandle(
  prev: AssociationState | null,
  a: Action<'claim_handle'>,
  i: number,
  ctx: ApplyContext,
): AssociationState {
  const state = claimForm(prev, a, i)
  const s = requireSigned(ctx, i, 'signature')
  // IDENT-081: a current member signs a claim.
  const member = state.members.get(memberKey(s.signer))
  if (!member)
    throw new RuleViolation('IDENT-081', i, `claim signer ${describeMember(s.signer)} is not a member of the inbox`, {
      check: 'signer-not-member',
      role: 'signature',
      expected: 'a current member',
      found: describeMember(s.signer),
      ...checkedAgainst(state, false),
    })
  requireChain(s, member.chainId, `member ${describeMember(member.id)}`, i)
  requireFresh(ctx, s, i)
  // IDENT-082: the handle moves to (or joins at) the end; the claim count grows by one.
  return {
    ...state,
    handles: [...state.handles.filter((h) => h !== a.handle), a.handle],
    claimCount: state.claimCount + 1,
  }
}

/** One function a kind of action, as the reducers and their form checks are kept. */
type PerKind<R, X extends unknown[]> = {
  readonly [K in WireAction['kind']]: (state: AssociationState | null, a: Action<K>, i: number, ...x: X) => R
}

function byKind<R, X extends unknown[]>(
  table: PerKind<R, X>,
  state: AssociationState | null,
  action: WireAction,
  i: number,
  ...x: X
): R {
  const f = table[action.kind] as (state: AssociationState | null, a: WireAction, i: number, ...x: X) => R
  return f(state, action, i, ...x)
}

const FORM_CHECKS: PerKind<unknown, []> = {
  create_inbox: createInboxForm,
  add: addForm,
  revoke: revokeForm,
  change_recovery_address: changeRecoveryForm,
  claim_handle: claimForm,
}

const REDUCERS: PerKind<AssociationState, [ApplyContext]> = {
  create_inbox: applyCreateInbox,
  add: applyAdd,
  revoke: applyRevoke,
  change_recovery_address: applyChangeRecovery,
  claim_handle: applyClaimHandle,
}

export function applyAction(
  state: AssociationState | null,
  action: WireAction,
  i: number,
  ctx: ApplyContext,
): AssociationState {
  return byKind(REDUCERS, state, action, i, ctx)
}
