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

/** Largest member change applied to a cached order instead of sorting again. */
const INCREMENTAL = 64

/** `base` (sorted) without the members of `gone` and with `add` inserted in order; null when the result is not `size` long. */
function derive(base: readonly Member[], gone: ReadonlySet<Member>, add: Member[], size: number): Member[] | null {
  const out = gone.size ? base.filter((m) => !gone.has(m)) : [...base]
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
  return out.length === size ? out : null // else the diff did not describe the change
}

/** The order of one side of `diff` from the other's: forward (before → after) or back (after → before). */
function across(base: readonly Member[], diff: StateDiff, to: 'after' | 'before', size: number): Member[] | null {
  const gone = new Set<Member>()
  const add: Member[] = []
  for (const c of diff.members) {
    const [was, is] = to === 'after' ? [c.before, c.after] : [c.after, c.before]
    if (was) gone.add(was)
    if (is) add.push(is)
  }
  return derive(base, gone, add, size)
}

/**
 * The members of `members` in display order. `from` (the previous state's members) and
 * `diff` (from it to this) make it incremental in both step directions: stepping forward
 * derives this order from the previous state's; the previous state's order is derived
 * from this one's too (when not known yet), so the step back to it finds its order.
 */
export function sortedMembers(members: Members, from?: Members | null, diff?: StateDiff | null): readonly Member[] {
  const small = !!diff && diff.members.length < INCREMENTAL
  let out = SORTED.get(members)
  if (!out) {
    const prev = from ? SORTED.get(from) : undefined
    out = (prev && small && across(prev, diff!, 'after', members.size)) || [...members.values()].sort(compare)
    SORTED.set(members, out)
  }
  if (from && small && !SORTED.has(from)) {
    const back = across(out, diff!, 'before', from.size)
    if (back) SORTED.set(from, back)
  }
  return out
}
