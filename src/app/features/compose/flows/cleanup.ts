/**
 * Clean up installations (issue 15): several RevokeAssociation actions in ONE update,
 * signed once by the recovery identifier (IDENT-043; the collector asks a signer once for
 * all its slots), so the clean-up spends one log entry. The cascade of every target is
 * shown (IDENT-044); the core's dry run judges the draft, never this file.
 */
import { hexToBytes } from '../../../../crypto/bytes'
import { describeMember } from '../../../../core/text/identifier'
import { membersInOrder } from '../../../../core/member-order'
import { memberKey, type AssociationState, type Member } from '../../../../core/types'
import { draftUpdate, previewRevocationCascade, revokeMember, type RevocationCascade } from '../../../../signing'
import type { ComposeBuild } from '../compose-model'
import { partiesOf, type Party } from '../parties'

/** The installation member keys to preselect for "all but this browser's": every installation this browser holds no key for. */
export function allButMine(state: AssociationState, parties: readonly Party[]): string[] {
  const mine = new Set(parties.filter((p) => p.app !== null).map((p) => memberKey(p.identifier)))
  return membersInOrder(state)
    .filter((m) => m.id.kind === 'installation' && !mine.has(memberKey(m.id)))
    .map((m) => memberKey(m.id))
}

export interface CleanupBuild extends ComposeBuild {
  /** Each target's cascade, in the order of the actions. */
  readonly cascades: readonly RevocationCascade[]
  /** Every member the update removes, once each. */
  readonly removed: readonly Member[]
}

export function buildCleanup(
  state: AssociationState,
  parties: readonly Party[],
  targets: readonly string[],
  clientTimestampNs: bigint,
): CleanupBuild {
  const members = targets.map((k) => state.members.get(k)).filter((m): m is Member => m !== undefined)
  const none = (problem: string): CleanupBuild => ({
    action: 'revoke',
    draft: null,
    problems: [problem],
    confirmation: null,
    cascades: [],
    removed: [],
  })
  if (members.length === 0) return none('choose at least one installation to revoke')
  const recoveryKey = memberKey(state.recovery.id)
  const recovery =
    parties.find((p) => memberKey(p.identifier) === recoveryKey) ?? partiesOf(state, []).find((p) => p.isRecovery)!
  const cascades = members.map((m) => previewRevocationCascade(state, m.id))
  const removedByKey = new Map<string, Member>()
  for (const c of cascades) for (const m of c.removed) removedByKey.set(memberKey(m.id), m)
  const removed = [...removedByKey.values()]
  const actions = members.map((m) =>
    revokeMember({ kind: 'installation', key: hexToBytes(m.id.text) }, recovery.signer),
  )
  try {
    const draft = draftUpdate({ inboxId: state.inboxId, clientTimestampNs, actions })
    const n = members.length
    return {
      action: 'revoke',
      draft,
      problems: [],
      confirmation: `I understand this update removes ${n === 1 ? describeMember(members[0]!.id) : `these ${n} installations`} from inbox ${state.inboxId.slice(0, 8)}…: ${n === 1 ? 'it' : 'they'} can no longer sign for it`,
      cascades,
      removed,
    }
  } catch (e) {
    return none(e instanceof Error ? e.message : String(e))
  }
}
