/**
 * What needs no signature is judged first (issue #14, finding 1). An update is applied
 * once with no signature verified: every rule apply meets before it first reads a
 * signature's check (IDENT-001 for an empty update, IDENT-079 for a claim beside other
 * actions, IDENT-011, the form and kind rules of the first action, …) is judged exactly as
 * it would be after verification, because apply reads checks in a fixed order and a
 * verdict reached before the first read cannot depend on any of them. When such a rule
 * refuses the update, verifying its signatures would only cost time: an 868 kB update
 * of 4,000 actions and a claim held the local node for 15 s before its 409.
 *
 * The same argument holds past the first signature: an update applied with the checks of
 * its first k signatures (signaturesOf order) that is refused before it reads check k
 * gets the verdict full verification would give, since it never read the others.
 * verifyUntilDecided verifies a growing prefix and stops there; a pending (IDENT-061) or
 * applying update is always verified whole (a later rule may still refuse it).
 */
import { signatureFreeChecks } from './apply/actions'
import { applyUpdate, PendingUpdate, RejectedUpdate, rejection, updateForm } from './apply/update'
import { RuleViolation } from './errors'
import type { SignatureCheck } from './trace'
import type { AssociationState, UnverifiedUpdate } from './types'
import {
  describeUnverified,
  SignatureNeeded,
  UpdateSignatures,
  type UpdateVerifyOptions,
  type VerifiedUpdate,
} from './verify/update'

/**
 * The refusal of `update` on `state` by a rule judged before any signature is read, or
 * null when judging it needs a signature (or it would apply): what applyUpdate with no
 * signature check gives. Only the update's own checks and the first action's checks before
 * its first read of a check are met (every reducer reads one after them), so they are run
 * alone and nothing is thrown when nothing refuses: applyUpdate with no checks threw a
 * SignatureNeeded through every frame, and rethrew it, for every update of a replay.
 */
export function signatureFreeRefusal(state: AssociationState | null, update: UnverifiedUpdate): RejectedUpdate | null {
  try {
    updateForm(update)
    signatureFreeChecks(state, update.actions[0]!, 0)
    return null
  } catch (e) {
    if (e instanceof RuleViolation) return rejection(e, update, [], state)
    throw e
  }
}

/** The verified update of a refused one: its text, and every signature marked not verified. */
export function refusedUnverified(update: UnverifiedUpdate, refusal: RejectedUpdate): VerifiedUpdate {
  return describeUnverified(
    update,
    `not verified: ${refusal.violation.rule} refuses the update before any signature is needed`,
  )
}

/** Signatures verified before the first look at apply's verdict, then doubled each round. */
const FIRST_PREFIX = 16

/**
 * The verified update of `update` on `state`, its signatures verified in apply's order
 * until the verdict is decided: once apply refuses it on the checks verified so far,
 * the rest are marked not verified. applyUpdate of the answer gives exactly the verdict
 * (rule, action, message) of applyUpdate after verifyUpdate, with no signature after the
 * deciding one verified. Apply runs once per doubling of the prefix, each time only as
 * far as the checks reach, so the rounds together cost about two applies.
 */
export async function verifyUntilDecided(
  state: AssociationState | null,
  update: UnverifiedUpdate,
  sequenceId: bigint,
  ctx: UpdateVerifyOptions = {},
  firstPrefix = FIRST_PREFIX,
  /** signatureFreeRefusal has found that `update` needs a signature: its apply with no checks is not run again. */
  needsSignature = false,
): Promise<VerifiedUpdate> {
  const s = new UpdateSignatures(update, ctx)
  const n = s.all.length
  const checks: SignatureCheck[] = []
  for (;;) {
    if (checks.length === n) return { update, text: s.text, checks }
    if (checks.length > 0 || !needsSignature)
      try {
        // A copy: checkOf indexes a checks array once (../verify/update.ts), and this one grows.
        applyUpdate(state, { update, text: s.text, checks: checks.slice() }, sequenceId)
      } catch (e) {
        if (e instanceof RejectedUpdate) {
          const reason = `not verified: ${e.violation.rule} refuses the update before this signature is needed`
          for (let k = checks.length; k < n; k++) checks.push(s.unchecked(k, reason))
          return { update, text: s.text, checks }
        }
        if (!(e instanceof SignatureNeeded || e instanceof PendingUpdate)) throw e
      }
    const to = Math.min(n, Math.max(firstPrefix, checks.length * 2))
    const verified = await s.verify(checks.length, to)
    for (let k = 0; k < verified.length; k++) checks.push(verified[k]!)
  }
}
