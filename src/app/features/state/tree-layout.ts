/**
 * The who-added-whom picture as data: members as nodes, each under the member that
 * added it (IDENT-042), laid out left to right (depth → column, leaves → rows).
 * Members removed by the step in view are kept as ghosts so the change shows; an
 * adder that is not a member (revoked, or the recovery identifier) is a ghost root.
 */
import { compareMembers } from '../../../core/member-order'
import type { AssociationState, Member, MemberId } from '../../../core/types'
import { memberKey } from '../../../core/types'
import type { RowMark, StateDiff } from '../../model/state-diff'
import { sortedMembers } from './sorted'

interface TreeNode {
  readonly key: string
  readonly id: MemberId
  readonly depth: number
  readonly row: number
  readonly parent: string | null
  readonly mark: RowMark | null
  /** Not a member of the state shown: an absent adder, or a member this step removed. */
  readonly ghost: boolean
}

export interface TreeLayout {
  readonly nodes: readonly TreeNode[]
  readonly rows: number
  readonly depth: number
  /** Members left out to keep the picture readable. */
  readonly hidden: number
}

export function layoutTree(
  state: AssociationState | null,
  diff: StateDiff | null,
  limit = 120,
  displayOrder?: readonly Member[],
): TreeLayout {
  const members = new Map<string, { m: Member; mark: RowMark | null; ghost: boolean }>()
  const marks = new Map(diff?.members.map((c) => [c.key, c.mark]) ?? [])
  const removed = (diff?.members ?? []).filter((c) => c.mark === 'removed' && c.before)
  const total = (state?.members.size ?? 0) + removed.length
  // Past the limit keep every wallet, passkey and marked member, and the first unmarked
  // installations, read from the display order (wallets and passkeys come first).
  const rest: string[] = []
  if (state && total <= limit) {
    for (const [k, m] of state.members) members.set(k, { m, mark: marks.get(k) ?? null, ghost: false })
  } else if (state) {
    for (const m of displayOrder ?? sortedMembers(state.members)) {
      const k = memberKey(m.id)
      if (m.id.kind !== 'installation') members.set(k, { m, mark: marks.get(k) ?? null, ghost: false })
      else if (rest.length < limit) {
        rest.push(k)
        members.set(k, { m, mark: marks.get(k) ?? null, ghost: false })
      } else break
    }
    for (const c of diff?.members ?? [])
      if (c.after && !members.has(c.key)) members.set(c.key, { m: c.after, mark: c.mark, ghost: false })
  }
  for (const c of removed) members.set(c.key, { m: c.before!, mark: 'removed', ghost: true })
  let keys = [...members.keys()]
  let hidden = 0
  if (total > limit) {
    const drop = new Set(rest.slice(Math.max(0, limit - (members.size - rest.length))))
    keys = keys.filter((k) => !drop.has(k))
    hidden = total - keys.length
  }
  const isMember = (k: string) => members.has(k) || (state?.members.has(k) ?? false)
  const shown = new Set(keys)
  const children = new Map<string, string[]>()
  const ghostsRoots = new Map<string, MemberId>()
  const roots: string[] = []
  for (const k of keys) {
    const { m } = members.get(k)!
    if (!m.adder) {
      roots.push(k)
      continue
    }
    const pk = memberKey(m.adder)
    if (!shown.has(pk)) {
      if (!isMember(pk)) ghostsRoots.set(pk, m.adder)
      else {
        roots.push(k)
        continue
      }
    }
    const list = children.get(pk) ?? []
    list.push(k)
    children.set(pk, list)
  }
  const order = (a: string, b: string) => {
    const ma = members.get(a)?.m
    const mb = members.get(b)?.m
    // The listing order; members added by one update by identifier, not the map's (hash) order.
    return ma && mb ? compareMembers(ma, mb) : 0
  }
  const nodes: TreeNode[] = []
  let row = 0
  let maxDepth = 0
  const seen = new Set<string>()
  const place = (key: string, depth: number, parent: string | null) => {
    if (seen.has(key)) return
    seen.add(key)
    const entry = members.get(key)
    const id = entry?.m.id ?? ghostsRoots.get(key)!
    const kids = (children.get(key) ?? []).sort(order)
    maxDepth = Math.max(maxDepth, depth)
    const myRow = row
    nodes.push({ key, id, depth, row: myRow, parent, mark: entry?.mark ?? null, ghost: entry ? entry.ghost : true })
    if (kids.length === 0) row++
    else for (const c of kids) place(c, depth + 1, key)
  }
  for (const r of roots.sort(order)) place(r, 0, null)
  for (const g of ghostsRoots.keys()) place(g, 0, null)
  return { nodes, rows: row, depth: maxDepth, hidden }
}
