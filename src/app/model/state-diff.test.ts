import { describe, expect, it } from 'vitest'
import { PSet } from '../../core/persistent'
import type { Member } from '../../core/types'
import { diffStates, memberMarks } from './state-diff'
import { RECOVERY_WALLET, stateOf } from './state.testkit'

const m = (text: string, adder: string | null = null, chainId: bigint | null = null): Member => ({
  id: { kind: text.startsWith('0x') ? 'ethereum' : 'installation', text },
  adder: adder ? { kind: 'ethereum', text: adder } : null,
  clientTimestampNs: 1n,
  chainId,
  addedAt: 1n,
})
const W = RECOVERY_WALLET

describe('diffStates', () => {
  it('lists changes in the order they happened, whatever order the maps iterate in, removals last', () => {
    const at = (x: Member, addedAt: bigint): Member => ({ ...x, addedAt })
    const before = stateOf([m(W), at(m(`0x${'a'.repeat(40)}`), 2n), at(m('dd', W), 2n)])
    const added = [at(m('ee', W), 9n), at(m('cc', W), 3n), at(m(`0x${'b'.repeat(40)}`), 5n), at(m('bb', W), 5n)]
    // Each order of insertion gives the same list (the keys' hashes decide the maps' order).
    for (const list of [added, [...added].reverse()]) {
      const after = stateOf([m(W), ...list], { sequenceId: 9n })
      for (const d of [
        diffStates(before, after),
        diffStates(before, after, [...after.members.keys(), 'installation:dd', `ethereum:0x${'a'.repeat(40)}`]),
      ])
        expect(d.members.map((c) => `${c.mark} ${c.key.split(':')[1]!.slice(0, 4)}`)).toEqual([
          'added cc', // sequence id 3
          'added 0xbb', // 5, wallets before installations
          'added bb', // 5
          'added ee', // 9
          'removed 0xaa', // 2
          'removed dd', // 2
        ])
    }
  })
  it('marks the creating step: every member added, recovery set', () => {
    const d = diffStates(null, stateOf([m(W)]))
    expect(d.created).toBe(true)
    expect(d.members.map((c) => c.mark)).toEqual(['added'])
    expect(d.recovery?.after?.id.text).toBe(W)
  })
  it('keys rows by identifier: added, removed (revocation cascade) and changed', () => {
    const a = stateOf([m(W), m('aa', W), m('bb', W)])
    const b = stateOf([m(W, null, 5n), m('cc', W)], { sequenceId: 2n })
    const d = diffStates(a, b)
    const marks = memberMarks(d)
    expect(marks.get('installation:cc')).toBe('added')
    expect(marks.get('installation:aa')).toBe('removed')
    expect(marks.get('installation:bb')).toBe('removed')
    expect(marks.get(`ethereum:${W}`)).toBe('changed')
    expect(d.members.find((c) => c.mark === 'changed')!.fields).toEqual(['chain id'])
    expect(d.sequenceId).toEqual({ before: 1n, after: 2n })
  })
  it('handles, display handle, claim count and replay keys', () => {
    const a = stateOf([m(W)], { handles: ['a', 'b'], claimCount: 2, seen: PSet.of(['k']) })
    const b = stateOf([m(W)], { handles: ['b', 'a'], claimCount: 3, seen: PSet.of(['k', 'k2']) })
    const d = diffStates(a, b)
    expect(d.handlesAdded).toEqual([])
    expect(d.displayHandle).toEqual({ before: 'b', after: 'a' })
    expect(d.claimCount).toEqual({ before: 2, after: 3 })
    expect(d.replayKeysAdded).toBe(1)
    expect(d.members).toEqual([])
  })
  it('the same state is an empty diff', () => {
    const a = stateOf([m(W)])
    expect(diffStates(a, a).empty).toBe(true)
    expect(diffStates(null, null).empty).toBe(true)
  })
})
