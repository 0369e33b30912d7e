/**
 * The order members are shown and reported in: wallets, passkeys, then installations,
 * each in the order they were added (sequence id), ties by identifier text. The state's
 * persistent map iterates in its keys' hash order (./persistent.ts), which is stable but
 * means nothing to a reader: whatever lists members for one sorts them with this.
 */
import type { AssociationState, Member } from './types'

const KIND_ORDER = { ethereum: 0, passkey: 1, installation: 2 } as const

export function compareMembers(a: Member, b: Member): number {
  return (
    KIND_ORDER[a.id.kind] - KIND_ORDER[b.id.kind] ||
    (a.addedAt < b.addedAt ? -1 : a.addedAt > b.addedAt ? 1 : 0) ||
    (a.id.text < b.id.text ? -1 : a.id.text > b.id.text ? 1 : 0)
  )
}

/** Every member of `state`, in order. */
export function membersInOrder(state: AssociationState): Member[] {
  return [...state.members.values()].sort(compareMembers)
}

/**
 * The first `n` members of `state` in order, in O(members × log n) (a violation lists a
 * few members of what may be a large state: IDENT-040's evidence, src/core/errors.ts).
 */
export function firstMembers(state: AssociationState, n: number): Member[] {
  if (state.members.size <= n) return membersInOrder(state)
  const out: Member[] = []
  for (const m of state.members.values()) {
    if (out.length === n && compareMembers(m, out[n - 1]!) >= 0) continue
    let lo = 0
    let hi = out.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareMembers(out[mid]!, m) <= 0) lo = mid + 1
      else hi = mid
    }
    out.splice(lo, 0, m)
    if (out.length > n) out.pop()
  }
  return out
}
