/**
 * Drafting and signing identity updates: draft, (dry-run), sign.
 *
 *   const draft = draftUpdate({ clientTimestampNs, actions: [createInbox(wallet), addMember(wallet, installation)] })
 *   draft.text                       // the exact signature text (spec section 3), before any prompt
 *   const { bytes } = await signDraft(draft)
 *
 * The signature text is built FIRST, with `signatureText` from the update's own inbox id,
 * timestamp and actions (IDENT-020; signatures are not part of the text), and every signer
 * signs that one text. Then the signatures are placed in their actions and the update is
 * encoded with `encodeUpdate` (the canonical encoding; publish exactly these bytes).
 *
 * Overrides exist for negative fixtures and tests: a signature over a different text, a
 * raw pre-made WireSignature, a transform of the signature produced (corrupt, malleate),
 * and every identifier field can be given explicitly so it differs from its signer.
 */
import { deriveInboxId } from '../core/inbox-id'
import { signatureText } from '../core/text/signature-text'
import { encodeUpdate, type UpdateFields } from '../core/encode/update'
import {
  IdentifierKindValue,
  type MemberId,
  type SignatureRole,
  type WireAction,
  type WireMemberIdentifier,
  type WireSignature,
} from '../core/types'
import { replayKeyOf } from './replay-key'
import { memberIdentifierOf, type PasskeySigner, type Signer } from './signers'

/** How one signature of a draft is produced, when not by its signer over the draft's text. */
export type SignatureOverride =
  /** Use this signature as is; nothing is signed. */
  | { readonly raw: WireSignature }
  /** The signer signs another text: the draft's text with these fields changed, or `text` itself. */
  | { readonly over: { readonly inboxId?: string; readonly clientTimestampNs?: bigint; readonly text?: string } }
  /** The signer signs the draft's text, then the signature is altered. */
  | { readonly transform: (signature: WireSignature, text: string) => WireSignature | Promise<WireSignature> }

export interface CreateInboxDraft {
  readonly kind: 'create_inbox'
  /** Signs initial_identifier_signature; by default also names the initial identifier. */
  readonly signer: Signer
  readonly nonce?: bigint
  /** Default: the signer's identifier text. */
  readonly initialIdentifier?: string
  /** Default: IDENTIFIER_KIND_PASSKEY for a passkey signer, IDENTIFIER_KIND_ETHEREUM otherwise. */
  readonly initialIdentifierKind?: number
  /** Default: a passkey signer's origin; null leaves the field out. */
  readonly relyingParty?: string | null
  readonly signature?: SignatureOverride
}

export interface AddDraft {
  readonly kind: 'add'
  /** Signs existing_member_signature: a current member or the recovery identifier. */
  readonly existing: Signer
  /** Signs new_member_signature; by default also names new_member_identifier. */
  readonly newMember: Signer
  /** Default: derived from `newMember` (memberIdentifierOf). */
  readonly newMemberIdentifier?: WireMemberIdentifier
  /** Default: the new member's passkey origin; null leaves the field out. */
  readonly relyingParty?: string | null
  readonly existingSignature?: SignatureOverride
  readonly newMemberSignature?: SignatureOverride
}

export interface RevokeDraft {
  readonly kind: 'revoke'
  /** The member to revoke: a signer (its identifier) or an identifier as carried. */
  readonly member: Signer | WireMemberIdentifier
  /** Signs recovery_identifier_signature. */
  readonly recovery: Signer
  readonly signature?: SignatureOverride
}

export interface ChangeRecoveryDraft {
  readonly kind: 'change_recovery_address'
  /** The new recovery identifier text, or a signer whose identifier it is (it does not sign). */
  readonly newRecoveryIdentifier: string | Signer
  /** Default: from a Signer's identifier kind (PASSKEY for a passkey, ETHEREUM otherwise). */
  readonly newRecoveryIdentifierKind?: number
  readonly relyingParty?: string | null
  /** Signs existing_recovery_identifier_signature. */
  readonly recovery: Signer
  readonly signature?: SignatureOverride
}

export interface ClaimHandleDraft {
  readonly kind: 'claim_handle'
  readonly handle: string
  /** Signs the claim: any current member. */
  readonly signer: Signer
  readonly signature?: SignatureOverride
}

export type DraftAction = CreateInboxDraft | AddDraft | RevokeDraft | ChangeRecoveryDraft | ClaimHandleDraft

// ---- action constructors ----------------------------------------------------------------

export const createInbox = (
  signer: Signer,
  options: Omit<CreateInboxDraft, 'kind' | 'signer'> = {},
): CreateInboxDraft => ({
  kind: 'create_inbox',
  signer,
  ...options,
})

export const addMember = (
  existing: Signer,
  newMember: Signer,
  options: Omit<AddDraft, 'kind' | 'existing' | 'newMember'> = {},
): AddDraft => ({ kind: 'add', existing, newMember, ...options })

export const revokeMember = (
  member: Signer | WireMemberIdentifier,
  recovery: Signer,
  options: Omit<RevokeDraft, 'kind' | 'member' | 'recovery'> = {},
): RevokeDraft => ({ kind: 'revoke', member, recovery, ...options })

export const changeRecovery = (
  newRecoveryIdentifier: string | Signer,
  recovery: Signer,
  options: Omit<ChangeRecoveryDraft, 'kind' | 'newRecoveryIdentifier' | 'recovery'> = {},
): ChangeRecoveryDraft => ({ kind: 'change_recovery_address', newRecoveryIdentifier, recovery, ...options })

export const claimHandle = (
  handle: string,
  signer: Signer,
  options: Omit<ClaimHandleDraft, 'kind' | 'handle' | 'signer'> = {},
): ClaimHandleDraft => ({ kind: 'claim_handle', handle, signer, ...options })

// ---- drafts -------------------------------------------------------------------------------

export interface DraftInput {
  /** Default: derived (IDENT-010) from the first action, which must then be a CreateInbox. */
  readonly inboxId?: string
  readonly clientTimestampNs: bigint
  readonly actions: readonly DraftAction[]
}

/** An update before it is signed: its fields, its actions with placeholder signatures, and its text. */
export interface Draft {
  readonly inboxId: string
  readonly clientTimestampNs: bigint
  readonly actions: readonly DraftAction[]
  /** The actions as they will be carried, with a placeholder where each signature goes. */
  readonly unsigned: readonly WireAction[]
  /** The signature text every signature of the update signs (spec section 3). */
  readonly text: string
}

/** One signature of a signed draft, with what it was produced by. */
interface SignedSignature {
  readonly actionIndex: number
  readonly role: SignatureRole
  /** The signer that produced it; null for a raw override. */
  readonly signer: MemberId | null
  readonly signature: WireSignature
  /** Its canonical replay key (spec section 4), or null when it has none. */
  readonly replayKey: string | null
}

export interface SignedUpdate {
  readonly update: UpdateFields
  /** encodeUpdate(update): the bytes to publish. */
  readonly bytes: Uint8Array
  /** The signature text the signers signed. */
  readonly text: string
  readonly signatures: readonly SignedSignature[]
}

/** The inbox id a signer's CreateInbox with this nonce opens (IDENT-010). */
export function inboxIdOf(signer: Signer | string, nonce = 0n): string {
  return deriveInboxId(typeof signer === 'string' ? signer : signer.identifier.text, nonce)
}

/** Never signed: stands where a signature goes while the text is built (the text has no signatures). */
const PLACEHOLDER: WireSignature = { kind: 'erc_191', bytes: new Uint8Array(0) }

function defaultKind(s: Signer): number {
  return s.identifier.kind === 'passkey' ? IdentifierKindValue.PASSKEY : IdentifierKindValue.ETHEREUM
}

function originOf(s: Signer): string | undefined {
  return s.kind === 'passkey' ? (s as Partial<PasskeySigner>).origin : undefined
}

function rp(given: string | null | undefined, fallback: string | undefined): { relyingParty?: string } {
  const v = given === undefined ? fallback : given
  return v === null || v === undefined ? {} : { relyingParty: v }
}

function isSigner(x: Signer | WireMemberIdentifier): x is Signer {
  return typeof (x as Partial<Signer>).sign === 'function'
}

/** The action as carried, with `sig(role)` in each signature slot. */
function wireAction(a: DraftAction, sig: (role: SignatureRole) => WireSignature): WireAction {
  switch (a.kind) {
    case 'create_inbox':
      return {
        kind: 'create_inbox',
        initialIdentifier: a.initialIdentifier ?? a.signer.identifier.text,
        nonce: a.nonce ?? 0n,
        initialIdentifierKind: a.initialIdentifierKind ?? defaultKind(a.signer),
        ...rp(a.relyingParty, originOf(a.signer)),
        initialIdentifierSignature: sig('initial_identifier_signature'),
      }
    case 'add': {
      const newMemberIdentifier = a.newMemberIdentifier ?? memberIdentifierOf(a.newMember)
      const fallbackRp =
        newMemberIdentifier.kind === 'passkey' ? (newMemberIdentifier.relyingParty ?? originOf(a.newMember)) : undefined
      return {
        kind: 'add',
        newMemberIdentifier,
        existingMemberSignature: sig('existing_member_signature'),
        newMemberSignature: sig('new_member_signature'),
        ...rp(a.relyingParty, fallbackRp),
      }
    }
    case 'revoke':
      return {
        kind: 'revoke',
        memberToRevoke: isSigner(a.member) ? memberIdentifierOf(a.member) : a.member,
        recoveryIdentifierSignature: sig('recovery_identifier_signature'),
      }
    case 'change_recovery_address': {
      const n = a.newRecoveryIdentifier
      const text = typeof n === 'string' ? n : n.identifier.text
      const kind =
        a.newRecoveryIdentifierKind ?? (typeof n === 'string' ? IdentifierKindValue.ETHEREUM : defaultKind(n))
      return {
        kind: 'change_recovery_address',
        newRecoveryIdentifier: text,
        newRecoveryIdentifierKind: kind,
        ...rp(a.relyingParty, typeof n === 'string' ? undefined : originOf(n)),
        existingRecoveryIdentifierSignature: sig('existing_recovery_identifier_signature'),
      }
    }
    case 'claim_handle':
      return { kind: 'claim_handle', handle: a.handle, signature: sig('signature') }
  }
}

/** The signers of an action by role, in the order the update carries them (verify/update signaturesOf). */
export function rolesOf(a: DraftAction): readonly (readonly [SignatureRole, Signer, SignatureOverride | undefined])[] {
  switch (a.kind) {
    case 'create_inbox':
      return [['initial_identifier_signature', a.signer, a.signature]]
    case 'add':
      return [
        ['existing_member_signature', a.existing, a.existingSignature],
        ['new_member_signature', a.newMember, a.newMemberSignature],
      ]
    case 'revoke':
      return [['recovery_identifier_signature', a.recovery, a.signature]]
    case 'change_recovery_address':
      return [['existing_recovery_identifier_signature', a.recovery, a.signature]]
    case 'claim_handle':
      return [['signature', a.signer, a.signature]]
  }
}

/** Builds the draft and its signature text. Nothing is signed yet. */
export function draftUpdate(input: DraftInput): Draft {
  let inboxId = input.inboxId
  if (inboxId === undefined) {
    const first = input.actions[0]
    if (first?.kind !== 'create_inbox')
      throw new Error('draftUpdate: give inboxId, or start the actions with a CreateInbox')
    inboxId = deriveInboxId(first.initialIdentifier ?? first.signer.identifier.text, first.nonce ?? 0n)
  }
  const unsigned = input.actions.map((a) => wireAction(a, () => PLACEHOLDER))
  const text = signatureText({ inboxId, clientTimestampNs: input.clientTimestampNs, actions: unsigned })
  return { inboxId, clientTimestampNs: input.clientTimestampNs, actions: input.actions, unsigned, text }
}

/** The signature text of the draft with some of its fields changed (for "signed another text"). */
export function draftText(
  draft: Draft,
  changes: { readonly inboxId?: string; readonly clientTimestampNs?: bigint } = {},
): string {
  return signatureText({
    inboxId: changes.inboxId ?? draft.inboxId,
    clientTimestampNs: changes.clientTimestampNs ?? draft.clientTimestampNs,
    actions: draft.unsigned,
  })
}

/**
 * Signs every signature of the draft over the draft's one text (overrides aside), in
 * action order then role order, one signer at a time (a wallet shows one prompt at a
 * time), then encodes the update. A signer asked twice for the same text (a wallet that
 * creates the inbox and approves its first installation) signs once.
 */
export async function signDraft(draft: Draft): Promise<SignedUpdate> {
  const memo = new Map<Signer, WireSignature>()
  const signed = new Map<string, SignedSignature>()
  for (const [i, a] of draft.actions.entries()) {
    for (const [role, signer, override] of rolesOf(a)) {
      let signature: WireSignature
      let by: MemberId | null = signer.identifier
      if (override === undefined) {
        const cached = memo.get(signer)
        signature = cached ?? (await signer.sign(draft.text))
        if (!cached) memo.set(signer, signature)
      } else if ('raw' in override) {
        signature = override.raw
        by = null
      } else if ('over' in override) {
        signature = await signer.sign(override.over.text ?? draftText(draft, override.over))
      } else {
        signature = await override.transform(await signer.sign(draft.text), draft.text)
      }
      signed.set(`${i}:${role}`, { actionIndex: i, role, signer: by, signature, replayKey: replayKeyOf(signature) })
    }
  }
  const actions = draft.actions.map((a, i) =>
    wireAction(a, (role) => {
      const s = signed.get(`${i}:${role}`)
      if (!s) throw new Error(`internal: no signature for action ${i} ${role}`)
      return s.signature
    }),
  )
  const update: UpdateFields = { inboxId: draft.inboxId, clientTimestampNs: draft.clientTimestampNs, actions }
  return { update, bytes: encodeUpdate(update), text: draft.text, signatures: [...signed.values()] }
}

/** draftUpdate then signDraft. */
export async function signUpdate(input: DraftInput): Promise<SignedUpdate> {
  return signDraft(draftUpdate(input))
}
