/**
 * Re-sign an edited update (issue #16): every signature of the update whose party this
 * browser holds a key for is signed again over the update's new signature text, and the
 * update's bytes are replaced (a set-bytes edit of src/core/encode/edit.ts). The party a
 * signature stands for is read from the update (a new member, an initial identifier) or
 * else from the signer the signature named in the original log, before the edit.
 */
import type { EditOp } from '../../../core/encode/edit'
import { encodeUpdate } from '../../../core/encode/update'
import { describeMember, memberIdOf, sameMember } from '../../../core/text/identifier'
import { signatureText } from '../../../core/text/signature-text'
import type { SignatureCheck } from '../../../core/trace'
import type { MemberId, SignatureRole, UnverifiedUpdate, WireAction, WireSignature } from '../../../core/types'
import type { Signer } from '../../../signing/signers'

export type ResignResult =
  | {
      readonly ok: true
      readonly ops: readonly EditOp[]
      readonly signed: readonly string[]
      readonly skipped: readonly string[]
    }
  | { readonly ok: false; readonly reason: string }

const roleName = (r: SignatureRole): string => r.replaceAll('_', ' ')

/** The party a signature of `action` stands for, when the action names it. */
function namedParty(action: WireAction, role: SignatureRole): MemberId | null {
  if (action.kind === 'add' && role === 'new_member_signature') return memberIdOf(action.newMemberIdentifier)
  if (action.kind === 'create_inbox')
    return { kind: action.initialIdentifierKind === 2 ? 'passkey' : 'ethereum', text: action.initialIdentifier }
  return null
}

function withSignature(action: WireAction, role: SignatureRole, sig: WireSignature): WireAction {
  switch (action.kind) {
    case 'create_inbox':
      return { ...action, initialIdentifierSignature: sig }
    case 'add':
      return role === 'new_member_signature'
        ? { ...action, newMemberSignature: sig }
        : { ...action, existingMemberSignature: sig }
    case 'revoke':
      return { ...action, recoveryIdentifierSignature: sig }
    case 'change_recovery_address':
      return { ...action, existingRecoveryIdentifierSignature: sig }
    case 'claim_handle':
      return { ...action, signature: sig }
  }
}

const ROLES: Record<WireAction['kind'], readonly SignatureRole[]> = {
  create_inbox: ['initial_identifier_signature'],
  add: ['existing_member_signature', 'new_member_signature'],
  revoke: ['recovery_identifier_signature'],
  change_recovery_address: ['existing_recovery_identifier_signature'],
  claim_handle: ['signature'],
}

/**
 * The edit that re-signs update `seq` with the held signers. `before`: the signature
 * checks of the update in the original log (who each signature stood for).
 */
export async function resign(
  seq: bigint,
  update: UnverifiedUpdate,
  before: readonly SignatureCheck[],
  held: readonly Signer[],
): Promise<ResignResult> {
  const text = signatureText(update)
  const actions = [...update.actions]
  const signed: string[] = []
  const skipped: string[] = []
  for (const [i, action] of update.actions.entries()) {
    for (const role of ROLES[action.kind]) {
      const party =
        namedParty(action, role) ??
        before.find((c) => c.actionIndex === i && c.role === role && c.verdict === 'valid')?.signer ??
        null
      const what = `action ${i} ${roleName(role)}`
      if (!party) {
        skipped.push(`${what}: who it stands for is unknown (it did not verify in the original)`)
        continue
      }
      const signer = held.find((h) => sameMember(h.identifier, party))
      if (!signer) {
        skipped.push(`${what}: this browser holds no key of ${describeMember(party)}`)
        continue
      }
      actions[i] = withSignature(actions[i]!, role, await signer.sign(text))
      signed.push(`${what} by ${describeMember(party)}`)
    }
  }
  if (signed.length === 0)
    return {
      ok: false,
      reason: `this browser holds no key a signature of sequence id ${seq} stands for (${skipped.join('; ')}): import one in Signers…`,
    }
  const bytes = encodeUpdate({ inboxId: update.inboxId, clientTimestampNs: update.clientTimestampNs, actions })
  return { ok: true, ops: [{ op: 'set-bytes', seq, bytes }], signed, skipped }
}
