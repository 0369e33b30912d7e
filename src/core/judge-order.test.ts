/**
 * signatureFreeRefusal runs only the checks an update meets before its first signature
 * read; this holds it to its definition, applyUpdate with no signature check at all (a
 * refusal then, or a read of an absent check), over random updates that break every
 * signature-free rule: IDENT-001, IDENT-011, IDENT-013, IDENT-077, IDENT-078, IDENT-079,
 * IDENT-080, on no state, a fresh state and one at the claim limit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_CLAIMS } from './handles'
import { deriveInboxId } from './inbox-id'
import { add, build, by, claim, create, eth, inst, pk, recover, revoke } from './apply/testkit'
import { applyUpdate, PendingUpdate, RejectedUpdate } from './apply/update'
import { signatureFreeRefusal } from './judge-order'
import type { AssociationState, MemberId, UnverifiedUpdate } from './types'
import { SignatureNeeded } from './verify/update'

const ids: MemberId[] = [eth(1), eth(2), inst(1), pk(1)]
const ID = deriveInboxId(eth(1).text, 0n)
const GENESIS = applyUpdate(null, build(ID, [create(eth(1)), add(inst(1), by(eth(1)))]), 1n).state
const states: (AssociationState | null)[] = [null, GENESIS, { ...GENESIS, claimCount: MAX_CLAIMS }]

const id = fc.constantFrom(...ids)
const sig = id.map((m) => by(m))
const badEth = fc.constantFrom('0xABC', `0x${'G'.repeat(40)}`, 'not an address')
const kindNumber = fc.constantFrom(0, 1, 2, 3, 9)
const draft = fc.oneof(
  fc.tuple(id, kindNumber).map(([m, k]) => create(m, { identifierKind: k })),
  fc.tuple(badEth, kindNumber).map(([t, k]) => create(eth(1), { identifierKind: k, identifierText: t })),
  fc.tuple(id, sig).map(([m, s]) => add(m, s)),
  fc.tuple(badEth, sig).map(([t, s]) => add(eth(3), s, undefined, t)),
  fc.tuple(id, sig).map(([m, s]) => revoke(m, s)),
  fc.tuple(id, sig, kindNumber).map(([m, s, k]) => recover(m, s, k)),
  fc.tuple(fc.constantFrom('nick', 'bad handle!', ''), sig).map(([h, s]) => claim(h, s)),
)

/** The definition: applyUpdate with no check, a refusal or null when it reads a check. */
function byApply(state: AssociationState | null, update: UnverifiedUpdate): RejectedUpdate | null {
  try {
    applyUpdate(state, { update, text: '', checks: [] }, 2n)
    return null
  } catch (e) {
    if (e instanceof RejectedUpdate) return e
    if (e instanceof SignatureNeeded || e instanceof PendingUpdate) return null
    throw e
  }
}

const shape = (r: RejectedUpdate | null) => r && { violation: { ...r.violation }, actions: r.actions }

describe('signatureFreeRefusal', () => {
  it('gives what applyUpdate with no signature check gives, for every update and state', () => {
    let refused = 0
    fc.assert(
      fc.property(fc.constantFrom(...states), fc.array(draft, { maxLength: 3 }), (state, drafts) => {
        const { update } = build(ID, drafts)
        const expected = byApply(state, update)
        if (expected) refused++
        expect(shape(signatureFreeRefusal(state, update))).toEqual(shape(expected))
      }),
      { numRuns: 1000 },
    )
    // The random updates reach both answers (a test that can fail either way).
    expect(refused).toBeGreaterThan(100)
    expect(refused).toBeLessThan(900)
  })
})
