import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { deriveInboxId } from '../inbox-id'
import { stateReport } from '../report'
import type { AssociationState, MemberId } from '../types'
import { applyUpdate, PendingUpdate, RejectedUpdate } from './update'
import { add, build, by, claim, create, eth, inst, pk, recover, revoke } from './testkit'

const ids: MemberId[] = [eth(1), eth(2), eth(3), inst(1), inst(2), pk(1)]
const ID = deriveInboxId(eth(1).text, 0n)
const id = fc.constantFrom(...ids)
const sig = fc
  .record({
    signer: id,
    verdict: fc.constantFrom('valid', 'valid', 'valid', 'invalid' as const),
    key: fc.constantFrom(undefined, '01', '02'),
  })
  .map((s) => by(s.signer, { verdict: s.verdict, ...(s.key ? { key: s.key } : {}) }))
const draft = fc.oneof(
  fc.tuple(id, sig).map(([m, s]) => add(m, s)),
  fc.tuple(id, sig, sig).map(([m, s, t]) => add(m, s, t)),
  fc.tuple(id, sig).map(([m, s]) => revoke(m, s)),
  fc.tuple(id, sig).map(([m, s]) => recover(m, s)),
  fc.tuple(fc.constantFrom('nick', 'Nick', 'nock#1234'), sig).map(([h, s]) => claim(h, s)),
)
const update = fc.array(draft, { minLength: 1, maxLength: 3 })

const snapshot = (s: AssociationState | null) => (s ? JSON.stringify(stateReport(s)) : 'null')

/** Folds random updates; returns every (before, after-or-rejection) pair. */
const GENESIS = applyUpdate(null, build(ID, [create(eth(1)), add(inst(1), by(eth(1)))]), 1n).state

function fold(updates: ReturnType<typeof build>[]) {
  let state: AssociationState | null = GENESIS
  const out: { before: AssociationState | null; snap: string; result: 'applied' | 'rejected' | 'pending' }[] = []
  updates.forEach((u, n) => {
    const before: AssociationState | null = state
    const snap = snapshot(before)
    try {
      state = applyUpdate(before, u, BigInt(n + 2)).state
      out.push({ before, snap, result: 'applied' })
    } catch (e) {
      if (!(e instanceof RejectedUpdate) && !(e instanceof PendingUpdate)) throw e
      out.push({ before, snap, result: e instanceof RejectedUpdate ? 'rejected' : 'pending' })
    }
  })
  return { out, state }
}

describe('apply properties', () => {
  it('IDENT-002: apply never mutates its input, and a rejected update leaves the state as it was', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 12 }), (us) => {
        const { out } = fold(us.map((u) => build(ID, u)))
        for (const o of out) expect(snapshot(o.before)).toBe(o.snap)
      }),
      { numRuns: 300 },
    )
  })

  it('IDENT-004: replay is deterministic: the same updates give the same state', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 10 }), (us) => {
        const built = us.map((u) => build(ID, u))
        expect(snapshot(fold(built).state)).toBe(snapshot(fold(built).state))
      }),
      { numRuns: 200 },
    )
  })

  it('IDENT-044 / IDENT-041: invariants hold in every reachable state: every installation was added by a non-installation, the inbox id never changes', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 12 }), (us) => {
        const { state } = fold(us.map((u) => build(ID, u)))
        if (!state) return
        expect(state.inboxId).toBe(ID)
        for (const m of state.members.values())
          if (m.id.kind === 'installation') expect(m.adder?.kind).not.toBe('installation')
        expect(state.handles.length).toBeLessThanOrEqual(state.claimCount)
        expect(new Set(state.handles).size).toBe(state.handles.length)
        // the cascade index holds exactly the installation members, under their adders
        const indexed = [...state.installationsByAdder.entries()]
          .flatMap(([adder, set]) => [...set].map((k) => `${adder}>${k}`))
          .sort()
        const scanned = [...state.members.entries()]
          .filter(([, m]) => m.id.kind === 'installation')
          .map(([k, m]) => `${m.adder!.kind}:${m.adder!.text}>${k}`)
          .sort()
        expect(indexed).toEqual(scanned)
      }),
      { numRuns: 300 },
    )
  })
})
