/**
 * The diff between two association states, keyed by member identifier: what the
 * state panel marks as added, removed or changed, what the Diff tab lists and what the
 * composer's dry run lists (ui/DiffRows renders it for both). Pure; computed for the
 * step in view only (O(members) per step, O(1) when the member maps are the same object).
 */
import { compareMembers } from '../../core/member-order'
import type { AssociationState, Member, Recovery } from '../../core/types'

export type RowMark = 'added' | 'removed' | 'changed'

interface MemberChange {
  readonly key: string
  readonly mark: RowMark
  readonly before: Member | null
  readonly after: Member | null
  /** For a changed member: the fields that differ. */
  readonly fields: readonly string[]
}

export interface StateDiff {
  /** No state before, a state after: the inbox was created. */
  readonly created: boolean
  readonly members: readonly MemberChange[]
  readonly recovery: { readonly before: Recovery | null; readonly after: Recovery | null } | null
  readonly handlesAdded: readonly string[]
  /** The display handle before → after, when it changed. */
  readonly displayHandle: { readonly before: string | null; readonly after: string | null } | null
  readonly claimCount: { readonly before: number; readonly after: number } | null
  readonly replayKeysAdded: number
  readonly sequenceId: { readonly before: bigint | null; readonly after: bigint | null } | null
  readonly empty: boolean
}

function memberFields(a: Member, b: Member): string[] {
  const out: string[] = []
  if ((a.adder?.kind ?? null) !== (b.adder?.kind ?? null) || (a.adder?.text ?? null) !== (b.adder?.text ?? null))
    out.push('adder')
  if (a.clientTimestampNs !== b.clientTimestampNs) out.push('time added')
  if (a.chainId !== b.chainId) out.push('chain id')
  if (a.addedAt !== b.addedAt) out.push('added at')
  if (a.relyingParty !== b.relyingParty) out.push('relying party')
  return out
}

const sameRecovery = (a: Recovery | null, b: Recovery | null): boolean =>
  a === b || (!!a && !!b && a.id.kind === b.id.kind && a.id.text === b.id.text && a.chainId === b.chainId)

/**
 * Changes in the order they happened: added and changed members before removed ones, each by
 * the update that added the member (sequence id), then as members are listed (compareMembers).
 */
function changeOrder(a: MemberChange, b: MemberChange): number {
  const ra = a.mark === 'removed' ? 1 : 0
  const rb = b.mark === 'removed' ? 1 : 0
  if (ra !== rb) return ra - rb
  const ma = (a.after ?? a.before)!
  const mb = (b.after ?? b.before)!
  return ma.addedAt < mb.addedAt ? -1 : ma.addedAt > mb.addedAt ? 1 : compareMembers(ma, mb)
}

/**
 * The diff of two states. `touched`, when given, lists every member key that may differ
 * (the keys the step's deltas put or deleted), so only those are compared: O(changes)
 * instead of O(members). Without it every member is compared.
 */
export function diffStates(
  before: AssociationState | null,
  after: AssociationState | null,
  touched?: readonly string[],
): StateDiff {
  const members: MemberChange[] = []
  const bm = before?.members
  const am = after?.members
  if (touched && bm !== am) {
    for (const key of touched) {
      const old = bm?.get(key)
      const m = am?.get(key)
      if (m && !old) members.push({ key, mark: 'added', before: null, after: m, fields: [] })
      else if (old && !m) members.push({ key, mark: 'removed', before: old, after: null, fields: [] })
      else if (old && m && old !== m) {
        const fields = memberFields(old, m)
        if (fields.length) members.push({ key, mark: 'changed', before: old, after: m, fields })
      }
    }
  } else if (bm !== am) {
    for (const [key, m] of am ?? []) {
      const old = bm?.get(key)
      if (!old) members.push({ key, mark: 'added', before: null, after: m, fields: [] })
      else if (old !== m) {
        const fields = memberFields(old, m)
        if (fields.length) members.push({ key, mark: 'changed', before: old, after: m, fields })
      }
    }
    for (const [key, m] of bm ?? [])
      if (!am?.has(key)) members.push({ key, mark: 'removed', before: m, after: null, fields: [] })
  }
  // The member maps iterate in hash order (core/persistent.ts): list the changes in the order
  // they happened, what stays or comes first, then what went.
  members.sort(changeOrder)
  const br = before?.recovery ?? null
  const ar = after?.recovery ?? null
  const recovery = sameRecovery(br, ar) ? null : { before: br, after: ar }
  const bh = before?.handles ?? []
  const ah = after?.handles ?? []
  const handlesAdded = ah.filter((h) => !bh.includes(h))
  const bd = bh.length ? bh[bh.length - 1]! : null
  const ad = ah.length ? ah[ah.length - 1]! : null
  const displayHandle = bd === ad ? null : { before: bd, after: ad }
  const bc = before?.claimCount ?? 0
  const ac = after?.claimCount ?? 0
  const claimCount = bc === ac ? null : { before: bc, after: ac }
  const replayKeysAdded = (after?.seen.size ?? 0) - (before?.seen.size ?? 0)
  const bs = before?.sequenceId ?? null
  const as = after?.sequenceId ?? null
  const sequenceId = bs === as ? null : { before: bs, after: as }
  const created = !before && !!after
  return {
    created,
    members,
    recovery,
    handlesAdded,
    displayHandle,
    claimCount,
    replayKeysAdded,
    sequenceId,
    empty:
      !created &&
      members.length === 0 &&
      !recovery &&
      !handlesAdded.length &&
      !displayHandle &&
      !claimCount &&
      replayKeysAdded === 0,
  }
}

/** key → mark, for marking the rows of the members table. */
export function memberMarks(diff: StateDiff): Map<string, RowMark> {
  return new Map(diff.members.map((c) => [c.key, c.mark]))
}
