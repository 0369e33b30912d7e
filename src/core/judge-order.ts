/**
 * What needs no signature is judged first (issue #14, finding 1). An update is applied
 * once with no signature verified: every rule apply meets before it first reads a
 * signature's check (IDENT-001 for an empty update, IDENT-079 for a claim beside other
 * actions, IDENT-011, the form and kind rules of the first action, …) is judged exactly as
 * it would be after verification, because apply reads checks in a fixed order and a
 * verdict reached before the first read cannot depend on any of them. When such a rule
 * refuses the update, verifying its signatures would only cost time: an 868 kB update
 * of 4,000 actions and a claim held the local node for 15 s before its 409.
 */
import { applyUpdate, PendingUpdate, RejectedUpdate } from './apply/update'
import type { SignatureCheck } from './trace'
import type { AssociationState, UnverifiedUpdate } from './types'
import { signatureText } from './text/signature-text'
import { SignatureNeeded, signaturesOf, type VerifiedUpdate } from './verify/update'

/**
 * The refusal of `update` on `state` by a rule judged before any signature is read, or
 * null when judging it needs a signature (or it would apply).
 */
export function signatureFreeRefusal(
  state: AssociationState | null,
  update: UnverifiedUpdate,
  sequenceId: bigint,
): RejectedUpdate | null {
  try {
    applyUpdate(state, { update, text: '', checks: [] }, sequenceId)
    return null
  } catch (e) {
    if (e instanceof RejectedUpdate) return e
    if (e instanceof SignatureNeeded || e instanceof PendingUpdate) return null
    throw e
  }
}

/** The verified update of a refused one: its text, and every signature marked not verified. */
export function refusedUnverified(update: UnverifiedUpdate, refusal: RejectedUpdate): VerifiedUpdate {
  const reason = `not verified: ${refusal.violation.rule} refuses the update before any signature is needed`
  const checks: SignatureCheck[] = []
  update.actions.forEach((action, i) => {
    for (const [role, sig] of signaturesOf(action)) {
      checks.push({
        actionIndex: i,
        role,
        kind: sig.kind,
        verdict: 'unchecked',
        signer: null,
        chainId: null,
        replayKey: null,
        failRule: null,
        reason,
        evidence: {},
      })
    }
  })
  return { update, text: signatureText(update), checks }
}
