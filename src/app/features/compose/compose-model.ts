/**
 * The composer's model, without React: who can sign (parties: the signers of this
 * browser and the members of the open state), a form per action, and the form → draft
 * step with its validation messages, previews and the consequence a revocation or a
 * recovery rotation must have confirmed (issue 4, design.md "draft, dry-run, sign").
 *
 * A draft is built with the real Signer of every party this browser holds, and with a
 * plannedSigner (src/signing/roles.ts) for a member it does not: its identifier and kind
 * are known, so the draft has its exact signature text and dry-runs against the state,
 * and the collector reports that signature as missing, naming who must sign it.
 */
import { hexToBytes } from '../../../crypto/bytes'
import { describeMember } from '../../../core/text/identifier'
import {
  memberKey,
  IdentifierKindValue,
  type AssociationState,
  type MemberId,
  type MemberKind,
  type SignatureRole,
  type WireMemberIdentifier,
} from '../../../core/types'
import {
  addMember,
  changeRecovery,
  claimHandle,
  createInbox,
  draftUpdate,
  inboxIdOf,
  isPlannedSigner,
  plannedSigner,
  previewClaim,
  previewRecoveryChain,
  previewRevocationCascade,
  revokeMember,
  type ClaimPreview,
  type Draft,
  type DraftAction,
  type DryRunResult,
  type RecoveryChainPreview,
  type RevocationCascade,
  type RoleEntry,
  type Signer,
} from '../../../signing'
import { draftRoles } from '../../../signing/roles'
import type { AppSigner } from '../../model/app-signer'
import { shortId } from '../../ui/format'

export type ComposeActionKind = 'create_inbox' | 'add' | 'revoke' | 'change_recovery_address' | 'claim_handle'

export const ACTION_TITLE: Record<ComposeActionKind, string> = {
  create_inbox: 'Create inbox',
  add: 'Add a member',
  revoke: 'Revoke a member',
  change_recovery_address: 'Change recovery',
  claim_handle: 'Claim a handle',
}

// ---- parties -----------------------------------------------------------------------------

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
  for (const m of state.members.values()) planned(m.id, m.chainId, true, memberKey(m.id) === recoveryKey)
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

/** The party a ref names, if it is among `parties`. */
function partyOf(parties: readonly Party[], ref: string): Party | null {
  return parties.find((p) => p.ref === ref) ?? null
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
  const members = state ? [...state.members.keys()] : []
  const revokeTarget = members.includes(form.revokeTarget) ? form.revokeTarget : (members[0] ?? '')
  const targets = eligible(parties, 'recovery_target').filter((p) => !p.isRecovery)
  const recoveryTarget = form.recoveryTarget === TYPED ? TYPED : pick(form.recoveryTarget, targets)
  return { ...form, action, creator, existing, newMember, claimer, revokeTarget, recoveryTarget }
}

// ---- form → draft ------------------------------------------------------------------------

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
  switch (id.kind) {
    case 'ethereum':
      return { kind: 'ethereum', address: id.text }
    case 'installation':
      return { kind: 'installation', key: hexToBytes(id.text) }
    case 'passkey': {
      const rp = state.members.get(memberKey(id))?.relyingParty
      return rp === undefined
        ? { kind: 'passkey', key: hexToBytes(id.text) }
        : { kind: 'passkey', key: hexToBytes(id.text), relyingParty: rp }
    }
  }
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

// ---- signature slots ---------------------------------------------------------------------

const ROLE_LABEL: Record<SignatureRole, string> = {
  initial_identifier_signature: 'creator’s signature (initial identifier)',
  existing_member_signature: 'existing member’s approval',
  new_member_signature: 'new member’s signature',
  recovery_identifier_signature: 'recovery identifier’s signature',
  existing_recovery_identifier_signature: 'recovery identifier’s signature',
  signature: 'member’s claim signature',
}

export interface SlotView {
  readonly key: string
  readonly role: SignatureRole
  readonly label: string
  /** Who must sign, in words. */
  readonly who: string
  /** The signer of this browser that will be asked, or null when it holds none. */
  readonly signerLabel: string | null
  readonly state: 'missing' | 'requested' | 'signed' | 'failed'
  readonly reason: string | null
}

/** Every signature slot of the draft with who signs it and its status while collecting. */
export function slotViews(draft: Draft, parties: readonly Party[], roles: readonly RoleEntry[] | null): SlotView[] {
  const byKey = new Map((roles ?? []).map((r) => [r.key, r]))
  return draftRoles(draft).map((r) => {
    const holder = parties.find((p) => p.app && memberKey(p.identifier) === memberKey(r.signer.identifier))
    const entry = byKey.get(r.key)
    const status = entry?.status
    return {
      key: r.key,
      role: r.role,
      label: ROLE_LABEL[r.role],
      who: describeMember(r.signer.identifier),
      signerLabel: holder?.app?.label ?? (isPlannedSigner(r.signer) ? null : 'the signer chosen'),
      state: status?.state ?? 'missing',
      reason: status?.state === 'failed' ? `${status.reason} (${status.code})` : null,
    }
  })
}

/** The slots no signer of this browser can sign, in words. */
/** "passkey 04a1b2…(130 hex)…" → "passkey 04a1b2…c3d4": long hex identifiers shortened for a one-line reason. */
function shortWho(who: string): string {
  return who.replace(/(0x)?[0-9a-f]{24,}/gi, (h) => shortId(h))
}

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

export function unavailable(slots: readonly SlotView[]): string[] {
  return slots
    .filter((s) => s.signerLabel === null && s.state !== 'signed')
    .map((s) => `${s.label}: ${shortWho(s.who)} (no signer for it in this browser; add or connect it in Signers…)`)
}

// ---- the Sign gate ------------------------------------------------------------------------

export interface GateInput {
  readonly build: ComposeBuild
  /** The dry run of build.draft, or null while it runs. */
  readonly dry: DryRunResult | null
  /** The draft text the user confirmed the consequence for; confirmation of another text does not count. */
  readonly confirmedFor: string | null
  readonly slots: readonly SlotView[]
  readonly busy: boolean
  /**
   * A claim's handle as the node sees it, asked before any signer is: 'checking' while the
   * node's lookup runs, 'taken' when it names another inbox (the node would answer
   * handle_taken after the signing); absent or null when not a claim or no node answered.
   */
  readonly handle?: HandleOnNode | null
}

export type HandleOnNode =
  | { readonly kind: 'checking'; readonly handle: string }
  | { readonly kind: 'taken'; readonly handle: string; readonly inboxId: string }

export interface Gate {
  readonly enabled: boolean
  /** Why Sign is disabled ('' when enabled). */
  readonly reason: string
}

/** Sign asks signers only for a draft the core accepts, whose consequence is confirmed, with every signer at hand. */
export function signGate(g: GateInput): Gate {
  const no = (reason: string): Gate => ({ enabled: false, reason })
  if (g.busy) return no('the signers are being asked')
  if (!g.build.draft) return no(g.build.problems[0] ?? 'the draft is incomplete')
  if (!g.dry) return no('the dry run is still running')
  if (!g.dry.ok) return no(`the core would reject this update under ${g.dry.rule}: ${g.dry.message}`)
  if (g.handle?.kind === 'checking') return no(`asking the node whether ${JSON.stringify(g.handle.handle)} is free`)
  if (g.handle?.kind === 'taken')
    return no(
      `the node says ${JSON.stringify(g.handle.handle)} is held by inbox ${shortId(g.handle.inboxId)}, so it would refuse the claim (handle_taken)`,
    )
  if (g.build.confirmation !== null && g.confirmedFor !== g.build.draft.text)
    return no('confirm the consequence first (the checkbox below)')
  const missing = unavailable(g.slots)
  if (missing.length > 0) return no(missing[0]!)
  return { enabled: true, reason: '' }
}

const SECOND_NS = 1_000_000_000n

/**
 * The client time of the draft after one was signed at `signed`: now, but never in the same
 * second. The signature text shows the time to the second ({timestamp}: no fractional
 * seconds), so the same action drafted again within that second (claim nick, nick#2341,
 * nick again) would have the very text already signed, the same deterministic signatures,
 * and be refused as a replay (IDENT-050): seen in the playground e2e on a fast run.
 */
export function laterClientTime(signed: bigint, now: bigint): bigint {
  const nextSecond = (signed / SECOND_NS + 1n) * SECOND_NS
  return now >= nextSecond ? now : nextSecond
}
