/**
 * Applies one verified update as a whole or not at all (IDENT-002): each action in
 * order from the state the previous one produced (IDENT-004), then IDENT-003, then
 * the replay keys of every signature are recorded (IDENT-050). An update whose only
 * problem is a smart wallet signature that could not be judged is pending (IDENT-061).
 */
import { PSet } from '../persistent'
import { RuleViolation } from '../errors'
import type { ActionStep, SignatureCheck } from '../trace'
import type { AssociationState, UnverifiedUpdate } from '../types'
import { checkOf, type VerifiedUpdate } from '../verify/update'
import { applyAction } from './actions'
import type { ApplyContext } from './context'
import { quote } from '../text/quote'

/** The update could not be judged: a smart wallet signature's chain was unreachable (IDENT-061). */
export class PendingUpdate extends Error {
  override readonly name = 'PendingUpdate'
  constructor(
    readonly checks: readonly SignatureCheck[],
    readonly actions: readonly ActionStep[],
  ) {
    super(checks.map((c) => `action ${c.actionIndex} ${c.role.replaceAll('_', ' ')}: ${c.reason}`).join('; '))
  }
}

/** A rule failure with the actions that applied before it. */
export class RejectedUpdate extends Error {
  override readonly name = 'RejectedUpdate'
  constructor(
    readonly violation: RuleViolation,
    readonly actions: readonly ActionStep[],
  ) {
    super(violation.message)
  }
}

const EMPTY_SEEN = PSet.empty()

export interface AppliedUpdate {
  readonly state: AssociationState
  readonly actions: readonly ActionStep[]
}

/**
 * Throws RejectedUpdate (a rule failed; the state is as it was) or PendingUpdate.
 * `state` is never mutated: the returned state shares structure with it.
 */
export function applyUpdate(
  state: AssociationState | null,
  verified: VerifiedUpdate,
  sequenceId: bigint,
): AppliedUpdate {
  const { update } = verified
  const ctx: ApplyContext = {
    sequenceId,
    clientTimestampNs: update.clientTimestampNs,
    seenBefore: state?.seen ?? EMPTY_SEEN,
    replayKeys: [],
    seen: state?.seen ?? EMPTY_SEEN,
    unreachable: [],
    check: (i, role) => checkOf(verified, i, role),
  }
  const steps: ActionStep[] = []
  try {
    updateForm(update)
    let current = state
    const actions = update.actions
    for (let i = 0; i < actions.length; i++) {
      const action = actions[i]!
      const before = current
      current = applyAction(current, action, i, ctx)
      steps.push({ index: i, kind: action.kind, before, after: current })
    }
    const after = current!
    // IDENT-003: the state's inbox id is the update's inbox_id.
    if (after.inboxId !== update.inboxId) {
      throw new RuleViolation(
        'IDENT-003',
        null,
        `the update names inbox ${quote(update.inboxId)}, but its actions produce the state of inbox ${after.inboxId}`,
        { check: 'inbox-mismatch', expected: after.inboxId, found: update.inboxId },
      )
    }
    if (ctx.unreachable.length > 0) throw new PendingUpdate(ctx.unreachable, steps)
    // IDENT-050: record the replay key of every signature the update carried.
    const finalState: AssociationState = { ...after, seen: ctx.seen, sequenceId }
    return { state: finalState, actions: steps }
  } catch (e) {
    if (e instanceof RuleViolation) throw rejection(e, update, steps, state)
    throw e
  }
}

/** The checks of the update as a whole, before its first action: IDENT-001, IDENT-079. */
export function updateForm(update: UnverifiedUpdate): void {
  // IDENT-001: an update with no actions is refused (decode refuses it too).
  if (update.actions.length === 0)
    throw new RuleViolation('IDENT-001', null, 'the update has no actions', {
      check: 'empty',
      expected: 'at least one action',
      found: 'no actions',
    })
  // IDENT-079: an update that carries a claim carries no other action.
  if (update.actions.length > 1 && update.actions.some((a) => a.kind === 'claim_handle')) {
    const at = update.actions.findIndex((a) => a.kind === 'claim_handle')
    throw new RuleViolation(
      'IDENT-079',
      null,
      `the update carries a ClaimHandle (action ${at}) and ${update.actions.length - 1} other action(s); a claim stands alone`,
      {
        check: 'claim-not-alone',
        expected: 'a ClaimHandle as the only action',
        found: update.actions.map((a) => a.kind).join(', '),
      },
    )
  }
}

/** The refusal of `update` under `e`, with the actions that applied before it and the failed one. */
export function rejection(
  e: RuleViolation,
  update: UnverifiedUpdate,
  steps: readonly ActionStep[],
  state: AssociationState | null,
): RejectedUpdate {
  const failedAt = e.actionIndex ?? update.actions.length
  const done = steps.filter((s) => s.index < failedAt)
  if (e.actionIndex !== null && update.actions[e.actionIndex]) {
    done.push({
      index: e.actionIndex,
      kind: update.actions[e.actionIndex]!.kind,
      before: current_(steps, state, e.actionIndex),
      after: null,
    })
  }
  return new RejectedUpdate(e, done)
}

function current_(
  steps: readonly ActionStep[],
  initial: AssociationState | null,
  index: number,
): AssociationState | null {
  return index === 0 ? initial : (steps[index - 1]?.after ?? null)
}
