/**
 * Members in display order (wallets, passkeys, then installations, each in the order
 * they were added), cached per member map. Stepping one action changes a few members,
 * so the order of the next state is derived from the previous one in O(members) array
 * work, without sorting again or walking the persistent map.
 */
import type { AssociationState, Member } from '../../../core/types'
import type { StateDiff } from '../../model/state-diff'

type Members = AssociationState['members']

const KIND_ORDER = { ethereum: 0, passkey: 1, installation: 2 } as const
const SORT_KEY = new WeakMap<Member, number>()
const SORTED = new WeakMap<Members, readonly Member[]>()

/** The sequence id that added a member, as a number (exact below 2^53, order-preserving above). */
function sortKey(m: Member): number {
  let k = SORT_KEY.get(m)
  if (k === undefined) SORT_KEY.set(m, (k = Number(m.addedAt)))
  return k
}

function compare(a: Member, b: Member): number {
  return (
    KIND_ORDER[a.id.kind] - KIND_ORDER[b.id.kind] ||
    sortKey(a) - sortKey(b) ||
    (a.id.text < b.id.text ? -1 : a.id.text > b.id.text ? 1 : 0)
  )
}

/** The members of `members` in display order; `from` (the previous state's members) and `diff` (from it to this) make it incremental. */
export function sortedMembers(members: Members, from?: Members | null, diff?: StateDiff | null): readonly Member[] {
  const cached = SORTED.get(members)
  if (cached) return cached
  const prev = from ? SORTED.get(from) : undefined
  let out: Member[]
  if (prev && diff && diff.members.length < 64) {
    const gone = new Set<Member>()
    const add: Member[] = []
    for (const c of diff.members) {
      if (c.before) gone.add(c.before)
      if (c.after) add.push(c.after)
    }
    out = gone.size ? prev.filter((m) => !gone.has(m)) : [...prev]
    for (const m of add.sort(compare)) {
      let lo = 0
      let hi = out.length
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (compare(out[mid]!, m) < 0) lo = mid + 1
        else hi = mid
      }
      out.splice(lo, 0, m)
    }
    if (out.length !== members.size) out = [...members.values()].sort(compare) // the diff did not describe the change
  } else {
    out = [...members.values()].sort(compare)
  }
  SORTED.set(members, out)
  return out
}
