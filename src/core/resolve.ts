/**
 * Resolving an identifier to an inbox (spec section 9, API-270): among the inboxes
 * whose head state holds the identifier as a member (a live association), the one
 * whose association has the highest sequence id.
 */
import { memberKey, type AssociationState, type MemberId } from './types'

interface LiveAssociation {
  readonly inboxId: string
  /** Sequence id of the update that made the identifier a member since it was last absent. */
  readonly sequenceId: bigint
}

export interface Resolution {
  /** The inbox resolution picks, or null when the identifier is live nowhere. */
  readonly inboxId: string | null
  /** Every live association, newest first: more than one means the identifier is in several inboxes. */
  readonly live: readonly LiveAssociation[]
  readonly reason: string
}

/**
 * `heads` are the head states of the inboxes' logs. Sequence ids are compared as the
 * backend assigns them (one sequence across inboxes on a node); ties keep input order.
 */
export function resolveIdentifier(id: MemberId, heads: readonly (AssociationState | null)[]): Resolution {
  const key = memberKey(id)
  const live: LiveAssociation[] = []
  for (const s of heads) {
    const m = s?.members.get(key)
    if (s && m) live.push({ inboxId: s.inboxId, sequenceId: m.addedAt })
  }
  live.sort((a, b) => (a.sequenceId > b.sequenceId ? -1 : a.sequenceId < b.sequenceId ? 1 : 0))
  const pick = live[0]
  if (!pick) return { inboxId: null, live, reason: `${id.kind} ${id.text} is not a member of any inbox given` }
  const reason =
    live.length === 1
      ? `${id.kind} ${id.text} is a live member of inbox ${pick.inboxId} since sequence id ${pick.sequenceId}`
      : `${id.kind} ${id.text} is a live member of ${live.length} inboxes; resolution picks ${pick.inboxId}, whose association (sequence id ${pick.sequenceId}) is the most recent`
  return { inboxId: pick.inboxId, live, reason }
}
