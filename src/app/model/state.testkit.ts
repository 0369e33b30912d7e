/** Association states built by hand for the app's model and feature tests. */
import { PMap, PSet } from '../../core/persistent'
import { type AssociationState, type InboxId, type Member, memberKey } from '../../core/types'

/** The recovery wallet of stateOf. */
export const RECOVERY_WALLET = `0x${'1'.repeat(40)}`

/** A state at sequence id 1 holding `members`, recovered by RECOVERY_WALLET; `extra` overrides any field. */
export function stateOf(members: readonly Member[], extra: Partial<AssociationState> = {}): AssociationState {
  return {
    inboxId: 'aa'.repeat(32) as InboxId,
    members: PMap.of(members.map((x) => [memberKey(x.id), x] as const)),
    recovery: { id: { kind: 'ethereum', text: RECOVERY_WALLET }, chainId: null },
    handles: [],
    claimCount: 0,
    installationsByAdder: PMap.empty(),
    seen: PSet.empty(),
    sequenceId: 1n,
    ...extra,
  }
}
