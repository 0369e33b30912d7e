import { describe, expect, it } from 'vitest'
import { Map as IMap, Set as ISet } from 'immutable'
import type { AssociationState, InboxId, Member } from '../../../core/types'
import { diffStates } from '../../model/state-diff'
import { layoutTree } from './tree-layout'

const W = `0x${'1'.repeat(40)}`
const W2 = `0x${'2'.repeat(40)}`
const m = (kind: Member['id']['kind'], text: string, adder: Member['id'] | null, at = 1n): Member => ({
  id: { kind, text },
  adder,
  clientTimestampNs: 1n,
  chainId: null,
  addedAt: at,
})
const st = (ms: Member[]): AssociationState => ({
  inboxId: 'aa'.repeat(32) as InboxId,
  members: IMap(ms.map((x) => [`${x.id.kind}:${x.id.text}`, x])),
  recovery: { id: { kind: 'ethereum', text: W }, chainId: null },
  handles: [],
  claimCount: 0,
  installationsByAdder: IMap(),
  seen: ISet(),
  sequenceId: 1n,
})

describe('layoutTree', () => {
  it('puts installations under the wallet that added them, with the change marked', () => {
    const wallet = m('ethereum', W, null)
    const a = m('installation', 'aa', wallet.id)
    const before = st([wallet, a])
    const after = st([wallet, a, m('installation', 'bb', wallet.id, 2n)])
    const t = layoutTree(after, diffStates(before, after))
    expect(t.nodes.map((n) => [n.id.text, n.depth, n.parent])).toEqual([
      [W, 0, null],
      ['aa', 1, `ethereum:${W}`],
      ['bb', 1, `ethereum:${W}`],
    ])
    expect(t.nodes.find((n) => n.id.text === 'bb')!.mark).toBe('added')
    expect(t.rows).toBe(2)
  })
  it('keeps members removed by the step as ghosts and an absent adder as a ghost root', () => {
    const wallet = m('ethereum', W, null)
    const w2 = m('ethereum', W2, wallet.id)
    const i = m('installation', 'cc', w2.id)
    const before = st([wallet, w2, i])
    const after = st([m('installation', 'dd', w2.id)]) // w2 and wallet gone, dd added by an absent w2
    const t = layoutTree(after, diffStates(before, after))
    const w2node = t.nodes.find((n) => n.id.text === W2)!
    expect(w2node.ghost).toBe(true)
    expect(t.nodes.find((n) => n.id.text === 'cc')!.mark).toBe('removed')
    expect(t.nodes.find((n) => n.id.text === 'dd')!.parent).toBe(`ethereum:${W2}`)
  })
  it('leaves out unmarked installations past the limit and says how many', () => {
    const wallet = m('ethereum', W, null)
    const many = Array.from({ length: 50 }, (_, j) => m('installation', `i${j}`, wallet.id))
    const t = layoutTree(st([wallet, ...many]), null, 10)
    expect(t.nodes).toHaveLength(10)
    expect(t.hidden).toBe(41)
  })
})
