import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareMembers, firstMembers, membersInOrder } from './member-order'
import { PMap, PSet } from './persistent'
import { type AssociationState, type InboxId, type Member, memberKey } from './types'

const stateOf = (members: readonly Member[]): AssociationState => ({
  inboxId: 'aa'.repeat(32) as InboxId,
  members: PMap.of(members.map((m) => [memberKey(m.id), m] as const)),
  recovery: { id: { kind: 'ethereum', text: `0x${'1'.repeat(40)}` }, chainId: null },
  installationsByAdder: PMap.empty(),
  handles: [],
  claimCount: 0,
  seen: PSet.empty(),
  sequenceId: 1n,
})

const member = fc
  .record({
    kind: fc.constantFrom('ethereum' as const, 'passkey' as const, 'installation' as const),
    text: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 1, maxLength: 6 }),
    addedAt: fc.bigInt({ min: 0n, max: 20n }),
  })
  .map(
    ({ kind, text, addedAt }): Member => ({
      id: { kind, text },
      adder: null,
      clientTimestampNs: 0n,
      chainId: null,
      addedAt,
    }),
  )

describe('member order', () => {
  it('lists wallets, passkeys, then installations, each by the update that added them, ties by identifier', () => {
    const m = (kind: Member['id']['kind'], text: string, addedAt: bigint): Member => ({
      id: { kind, text },
      adder: null,
      clientTimestampNs: 0n,
      chainId: null,
      addedAt,
    })
    const list = [
      m('installation', 'aa', 1n),
      m('passkey', 'bb', 3n),
      m('ethereum', 'cc', 2n),
      m('ethereum', 'ab', 2n),
      m('ethereum', 'zz', 1n),
    ]
    expect(membersInOrder(stateOf(list)).map((x) => x.id.text)).toEqual(['zz', 'ab', 'cc', 'bb', 'aa'])
  })

  it('firstMembers(state, n) is the first n of membersInOrder, whatever the size (property)', () => {
    fc.assert(
      fc.property(fc.array(member, { maxLength: 80 }), fc.integer({ min: 1, max: 40 }), (list, n) => {
        const state = stateOf(list)
        const all = membersInOrder(state)
        expect(all.every((x, i) => i === 0 || compareMembers(all[i - 1]!, x) < 0)).toBe(true)
        expect(firstMembers(state, n)).toEqual(all.slice(0, n))
      }),
      { numRuns: 300 },
    )
  })
})
