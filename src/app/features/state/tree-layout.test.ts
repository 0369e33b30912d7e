import { describe, expect, it } from 'vitest'
import type { Member } from '../../../core/types'
import { diffStates } from '../../model/state-diff'
import { RECOVERY_WALLET, stateOf } from '../../model/state.testkit'
import { layoutTree } from './tree-layout'

const W = RECOVERY_WALLET
const W2 = `0x${'2'.repeat(40)}`
const m = (kind: Member['id']['kind'], text: string, adder: Member['id'] | null, at = 1n): Member => ({
  id: { kind, text },
  adder,
  clientTimestampNs: 1n,
  chainId: null,
  addedAt: at,
})

describe('layoutTree', () => {
  it('puts installations under the wallet that added them, with the change marked', () => {
    const wallet = m('ethereum', W, null)
    const a = m('installation', 'aa', wallet.id)
    const before = stateOf([wallet, a])
    const after = stateOf([wallet, a, m('installation', 'bb', wallet.id, 2n)])
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
    const before = stateOf([wallet, w2, i])
    const after = stateOf([m('installation', 'dd', w2.id)]) // w2 and wallet gone, dd added by an absent w2
    const t = layoutTree(after, diffStates(before, after))
    const w2node = t.nodes.find((n) => n.id.text === W2)!
    expect(w2node.ghost).toBe(true)
    expect(t.nodes.find((n) => n.id.text === 'cc')!.mark).toBe('removed')
    expect(t.nodes.find((n) => n.id.text === 'dd')!.parent).toBe(`ethereum:${W2}`)
  })
  it('leaves out unmarked installations past the limit and says how many', () => {
    const wallet = m('ethereum', W, null)
    const many = Array.from({ length: 50 }, (_, j) => m('installation', `i${j}`, wallet.id))
    const t = layoutTree(stateOf([wallet, ...many]), null, 10)
    expect(t.nodes).toHaveLength(10)
    expect(t.hidden).toBe(41)
  })
})
