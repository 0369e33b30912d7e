import { describeMember } from '../../../core/text/identifier'
import {
  memberKey,
  IdentifierKindValue,
  type AssociationState,
  type MemberId,
  type WireMemberIdentifier,
} from '../../../core/types'
import {
  addMember,
  changeRecovery,
  claimHandle,
  createInbox,
  draftUpdate,
  inboxIdOf,
  previewClaim,
  previewRecoveryChain,
  previewRevocationCascade,
  revokeMember,
  type ClaimPreview,
  type Draft,
  type DraftAction,
  type RecoveryChainPreview,
  type RevocationCascade,
  type Signer,
  wireMemberIdentifier,
} from '../../../signing'
import { type ComposeActionKind, type ComposeForm, parseNonce, TYPED } from './compose-form'
import { partiesOf, partyOf, type Party } from './parties'

export interface ComposeContext {
  readonly state: AssociationState | null
  readonly parties: readonly Party[]
  /** The draft's client_timestamp_ns, fixed while the draft is shown (it is in the signed text). */
  readonly clientTimestampNs: bigint
}

export interface ComposeBuild {
  readonly action: ComposeActionKind
  /** The draft, when the form names everything an update needs. */
  readonly draft: Draft | null
  /** What the form still lacks, one readable line each; empty when there is a draft. */
  readonly problems: readonly string[]
  /** The consequence to confirm before Sign (revocation, recovery rotation); null when none is needed. */
  readonly confirmation: string | null
  /** CreateInbox: the inbox id the identifier and nonce derive (IDENT-010). */
  readonly inboxId?: string
  readonly cascade?: RevocationCascade
  readonly recoveryChain?: RecoveryChainPreview
  readonly claim?: ClaimPreview
}

/** The MemberIdentifier that carries a member of the state (its relying party kept for display). */
function wireIdOf(state: AssociationState, id: MemberId): WireMemberIdentifier {
  return wireMemberIdentifier(id, id.kind === 'passkey' ? state.members.get(memberKey(id))?.relyingParty : undefined)
}

function memberIdOfKey(state: AssociationState, key: string): MemberId | null {
  return state.members.get(key)?.id ?? null
}

/** The recovery identifier's party (the signer of a revocation or a rotation). */
function recoveryParty(state: AssociationState, parties: readonly Party[]): Party {
  const key = memberKey(state.recovery.id)
  return parties.find((p) => memberKey(p.identifier) === key) ?? partiesOf(state, []).find((p) => p.isRecovery)!
}

/** The form as a draft against `ctx.state`, or the reasons it is not one yet. Pure; never asks a signer. */
export function buildDraft(form: ComposeForm, ctx: ComposeContext): ComposeBuild {
  const { state, parties, clientTimestampNs } = ctx
  const action = form.action
  const problems: string[] = []
  const done = (actions: DraftAction[], extra: Partial<ComposeBuild> = {}): ComposeBuild => {
    if (problems.length > 0) return { action, draft: null, problems, confirmation: null, ...extra }
    try {
      const draft = state
        ? draftUpdate({ inboxId: state.inboxId, clientTimestampNs, actions })
        : draftUpdate({ clientTimestampNs, actions })
      return { action, draft, problems: [], confirmation: null, ...extra }
    } catch (e) {
      return {
        action,
        draft: null,
        problems: [e instanceof Error ? e.message : String(e)],
        confirmation: null,
        ...extra,
      }
    }
  }
  if (action === 'create_inbox') {
    if (state) problems.push('an inbox is open: CreateInbox opens a new one (choose “new inbox”)')
    const creator = partyOf(parties, form.creator)
    if (!creator)
      problems.push(
        `choose the ${form.createKind === 'passkey' ? 'passkey' : 'wallet or local key'} that creates the inbox (add one in Signers…)`,
      )
    else if (creator.identifier.kind !== form.createKind)
      problems.push(`${creator.label} is not a ${form.createKind === 'passkey' ? 'passkey' : 'Ethereum signer'}`)
    const nonce = parseNonce(form.nonce)
    if (!nonce.ok) problems.push(nonce.problem)
    const inboxId = creator && nonce.ok ? inboxIdOf(creator.identifier.text, nonce.value) : undefined
    if (problems.length > 0 || !creator || !nonce.ok) return done([], inboxId ? { inboxId } : {})
    const kind = form.createKind === 'passkey' ? IdentifierKindValue.PASSKEY : IdentifierKindValue.ETHEREUM
    return done([createInbox(creator.signer, { nonce: nonce.value, initialIdentifierKind: kind })], {
      inboxId: inboxId!,
    })
  }
  if (!state) return { action, draft: null, problems: ['open a log first, or create a new inbox'], confirmation: null }
  switch (action) {
    case 'add': {
      const existing = partyOf(parties, form.existing)
      const newMember = partyOf(parties, form.newMember)
      if (!existing)
        problems.push('choose the existing member (or the recovery identifier) who approves the new member')
      if (!newMember)
        problems.push('choose the new member: generate an installation key, or pick a wallet, passkey or local key')
      else if (!newMember.app)
        problems.push(`${newMember.label}: the new member must sign too, and this browser holds no signer for it`)
      if (existing && newMember && memberKey(existing.identifier) === memberKey(newMember.identifier))
        problems.push(
          'the new member and the approving member are the same; an add needs two different signers (IDENT-040)',
        )
      if (!existing || !newMember) return done([])
      return done([addMember(existing.signer, newMember.signer)])
    }
    case 'revoke': {
      const target = memberIdOfKey(state, form.revokeTarget)
      if (!target) {
        problems.push('choose the member to revoke')
        return done([])
      }
      const recovery = recoveryParty(state, parties)
      const cascade = previewRevocationCascade(state, target)
      const b = done([revokeMember(wireIdOf(state, target), recovery.signer)], { cascade })
      return { ...b, confirmation: b.draft ? `I understand this revocation ${cascade.summary}` : null }
    }
    case 'change_recovery_address': {
      const recovery = recoveryParty(state, parties)
      let next: { text: string; kind: 'ethereum' | 'passkey'; signer?: Signer } | null = null
      if (form.recoveryTarget === TYPED) {
        const t = form.recoveryTyped.trim()
        if (t === '')
          problems.push(
            `type the new recovery identifier (${form.recoveryTypedKind === 'ethereum' ? '0x and 40 lowercase hex characters' : 'the passkey key as lowercase hex'})`,
          )
        else next = { text: t, kind: form.recoveryTypedKind }
      } else {
        const p = partyOf(parties, form.recoveryTarget)
        if (!p) problems.push('choose the new recovery identifier: a wallet or a passkey')
        else if (p.identifier.kind === 'installation')
          problems.push('an installation cannot be the recovery identifier: choose a wallet or a passkey (IDENT-077)')
        else next = { text: p.identifier.text, kind: p.identifier.kind, ...(p.app ? { signer: p.signer } : {}) }
      }
      if (!next) return done([])
      const kind = next.kind === 'passkey' ? IdentifierKindValue.PASSKEY : IdentifierKindValue.ETHEREUM
      const recoveryChain = previewRecoveryChain(state, next.text, kind)
      const a = changeRecovery(next.signer ?? next.text, recovery.signer, { newRecoveryIdentifierKind: kind })
      const b = done([a], { recoveryChain })
      return {
        ...b,
        confirmation: b.draft
          ? `I understand ${describeMember(recoveryChain.id)} becomes the recovery identifier: only it can then revoke members or change recovery, and ${describeMember(state.recovery.id)} loses that role; ${recoveryChain.explanation}`
          : null,
      }
    }
    case 'claim_handle': {
      const claim = previewClaim(state, form.handle)
      const claimer = partyOf(parties, form.claimer)
      if (form.handle === '') problems.push('type the handle to claim')
      if (!claimer) problems.push('choose the member who signs the claim')
      // A handle the grammar refuses still drafts, so the dry run shows the core's own verdict
      // (IDENT-078); the preview says why, and the Sign gate never opens for it.
      if (problems.length > 0 || !claimer) return done([], { claim })
      return done([claimHandle(form.handle, claimer.signer)], { claim })
    }
  }
  return { action, draft: null, problems: ['unknown action'], confirmation: null }
}
