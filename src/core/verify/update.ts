/**
 * verify: builds the signature text once per update from the update's own fields
 * (IDENT-020) and verifies every signature the update carries against it. Rules are
 * not judged here: apply walks the actions in order and reads these verdicts.
 */
import { utf8 } from '../../crypto/bytes'
import { signatureText } from '../text/signature-text'
import type { SignatureCheck } from '../trace'
import type { SignatureRole, UnverifiedUpdate, WireAction, WireSignature } from '../types'
import { SignedText, verifySignature, type SignatureVerdict, type VerifyContext } from './signature'

/** The signatures of an action with their roles, in the order apply judges them. */
export function signaturesOf(action: WireAction): readonly (readonly [SignatureRole, WireSignature])[] {
  switch (action.kind) {
    case 'create_inbox':
      return [['initial_identifier_signature', action.initialIdentifierSignature]]
    case 'add':
      return [
        ['existing_member_signature', action.existingMemberSignature],
        ['new_member_signature', action.newMemberSignature],
      ]
    case 'revoke':
      return [['recovery_identifier_signature', action.recoveryIdentifierSignature]]
    case 'change_recovery_address':
      return [['existing_recovery_identifier_signature', action.existingRecoveryIdentifierSignature]]
    case 'claim_handle':
      return [['signature', action.signature]]
  }
}

export interface VerifiedUpdate {
  readonly update: UnverifiedUpdate
  readonly text: string
  /** One per signature, in action order, then role order (signaturesOf). */
  readonly checks: readonly SignatureCheck[]
}

/** Finds the check of one signature of one action. */
export function checkOf(v: VerifiedUpdate, actionIndex: number, role: SignatureRole): SignatureCheck {
  const c = v.checks.find((x) => x.actionIndex === actionIndex && x.role === role)
  if (!c) throw new Error(`internal: no signature check for action ${actionIndex} ${role}`)
  return c
}

function toCheck(actionIndex: number, role: SignatureRole, sig: WireSignature, v: SignatureVerdict): SignatureCheck {
  return { actionIndex, role, kind: sig.kind, ...v }
}

/** A check that was not run (the log stopped before this update). */
function unchecked(actionIndex: number, role: SignatureRole, sig: WireSignature): SignatureCheck {
  return {
    actionIndex,
    role,
    kind: sig.kind,
    verdict: 'unchecked',
    signer: null,
    chainId: null,
    replayKey: null,
    failRule: null,
    reason: 'not verified: the log stops before this update',
    evidence: {},
  }
}

export async function verifyUpdate(update: UnverifiedUpdate, ctx: VerifyContext = {}): Promise<VerifiedUpdate> {
  const text = signatureText(update)
  const signed = new SignedText(text, utf8(text))
  const jobs: Promise<SignatureCheck>[] = []
  update.actions.forEach((action, i) => {
    for (const [role, sig] of signaturesOf(action)) {
      jobs.push(verifySignature(sig, signed, ctx).then((v) => toCheck(i, role, sig, v)))
    }
  })
  return { update, text, checks: await Promise.all(jobs) }
}

/** The signature text and unchecked signatures of an update replay did not reach. */
export function describeUnverified(update: UnverifiedUpdate): VerifiedUpdate {
  const checks: SignatureCheck[] = []
  update.actions.forEach((action, i) => {
    for (const [role, sig] of signaturesOf(action)) checks.push(unchecked(i, role, sig))
  })
  return { update, text: signatureText(update), checks }
}
