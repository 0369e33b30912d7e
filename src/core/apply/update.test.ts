import fc from 'fast-check'
import { PSet } from '../persistent'
import { describe, expect, it } from 'vitest'
import { deriveInboxId } from '../inbox-id'
import type { AssociationState, MemberId } from '../types'
import { memberKey } from '../types'
import type { SignatureCheck } from '../trace'
import { type ApplyContext, requireFresh } from './context'
import { applyUpdate, PendingUpdate, RejectedUpdate } from './update'
import { A, add, B, build, by, C, chain, claim, create, I1, I2, ID, P1, recover, revoke, type Draft } from './testkit'

function rejects(
  state: AssociationState | null,
  drafts: Draft[],
  inboxId: string = state?.inboxId ?? ID,
): { rule: string; actionIndex: number | null; message: string } {
  try {
    applyUpdate(state, build(inboxId, drafts), 99n)
  } catch (e) {
    if (e instanceof RejectedUpdate)
      return { rule: e.violation.rule, actionIndex: e.violation.actionIndex, message: e.violation.message }
    throw e
  }
  throw new Error('expected a rejection')
}

const created = () => chain([create(A), add(I1, by(A))])
const has = (s: AssociationState, id: MemberId) => s.members.has(memberKey(id))

describe('applyUpdate', () => {
  it('IDENT-001: an update with no actions is rejected, action index null', () => {
    expect(rejects(null, [])).toMatchObject({ rule: 'IDENT-001', actionIndex: null })
  })

  it('IDENT-010 / IDENT-012: a CreateInbox makes the initial identifier the only member and the recovery identifier, with its chain id', () => {
    const s = applyUpdate(
      null,
      build(deriveInboxId(A.text, 7n), [create(A, { nonce: 7n, sig: by(A, { kind: 'erc_6492', chainId: 10n }) })]),
      1n,
    ).state
    expect(s.inboxId).toBe(deriveInboxId(A.text, 7n))
    expect([...s.members.keys()]).toEqual([memberKey(A)])
    expect(s.members.get(memberKey(A))).toMatchObject({ adder: null, chainId: 10n, addedAt: 1n })
    expect(s.recovery).toEqual({ id: A, chainId: 10n })
  })

  it('IDENT-012: a creator signature by another identifier is rejected', () => {
    expect(rejects(null, [create(A, { sig: by(B) })])).toMatchObject({ rule: 'IDENT-012', actionIndex: 0 })
  })

  it('IDENT-012: a passkey inbox is created by its passkey and records it as recovery', () => {
    const s = applyUpdate(null, build(deriveInboxId(P1.text, 0n), [create(P1)]), 1n).state
    expect(s.recovery).toEqual({ id: P1, chainId: null })
    expect(s.members.get(memberKey(P1))?.id).toEqual(P1)
  })

  it('IDENT-011: the first action applied to an inbox with no state must be a CreateInbox', () => {
    expect(rejects(null, [add(I1, by(A))])).toMatchObject({ rule: 'IDENT-011', actionIndex: 0 })
  })

  it('IDENT-011: a second CreateInbox, in the same update or a later one, is rejected', () => {
    expect(rejects(null, [create(A), create(A, { nonce: 1n })])).toMatchObject({ rule: 'IDENT-011', actionIndex: 1 })
    expect(rejects(created(), [create(A)])).toMatchObject({ rule: 'IDENT-011', actionIndex: 0 })
  })

  it('IDENT-003: an update naming another inbox than its actions produce is rejected, action index null', () => {
    expect(rejects(null, [create(A)], deriveInboxId(A.text, 1n))).toMatchObject({
      rule: 'IDENT-003',
      actionIndex: null,
    })
    expect(rejects(created(), [add(B, by(A))], 'ff'.repeat(32))).toMatchObject({ rule: 'IDENT-003', actionIndex: null })
  })

  it('IDENT-013: an Ethereum identifier not 0x + 40 lowercase hex is rejected in create, add, revoke and recovery', () => {
    const upper = `0x${'A'.repeat(40)}`
    expect(rejects(null, [create(A, { identifierText: upper })])).toMatchObject({ rule: 'IDENT-013', actionIndex: 0 })
    expect(rejects(created(), [add(B, by(A), by(B), upper)])).toMatchObject({ rule: 'IDENT-013', actionIndex: 0 })
    expect(
      rejects(created(), [{ kind: 'revoke', member: B, recovery: by(A), identifierText: '0x1234' }]),
    ).toMatchObject({ rule: 'IDENT-013', actionIndex: 0 })
    expect(
      rejects(created(), [{ kind: 'recover', to: B, recovery: by(A), identifierText: B.text.slice(2) }]),
    ).toMatchObject({ rule: 'IDENT-013', actionIndex: 0 })
  })

  it('IDENT-077: a CreateInbox or ChangeRecoveryAddress of kind HANDLE or an unlisted value is rejected', () => {
    expect(rejects(null, [create(A, { identifierKind: 3 })])).toMatchObject({ rule: 'IDENT-077', actionIndex: 0 })
    expect(rejects(null, [create(A, { identifierKind: 9 })])).toMatchObject({ rule: 'IDENT-077', actionIndex: 0 })
    expect(rejects(created(), [recover(B, by(A), 3)])).toMatchObject({ rule: 'IDENT-077', actionIndex: 0 })
  })

  it('IDENT-077: IDENTIFIER_KIND_UNSPECIFIED reads as Ethereum', () => {
    const s = applyUpdate(null, build(ID, [create(A, { identifierKind: 0 })]), 1n).state
    expect(s.recovery.id).toEqual(A)
  })

  it('IDENT-030: a signature that does not verify rejects the update at its action', () => {
    expect(rejects(created(), [add(B, by(A)), add(C, by(A, { verdict: 'invalid' }))])).toMatchObject({
      rule: 'IDENT-030',
      actionIndex: 1,
    })
  })

  it('IDENT-060: an erc_6492 signature the wallet does not validate is rejected under IDENT-060', () => {
    expect(rejects(created(), [add(B, by(A), by(B, { kind: 'erc_6492', verdict: 'invalid' }))])).toMatchObject({
      rule: 'IDENT-060',
      actionIndex: 0,
    })
  })

  it('IDENT-031: a signature kind that cannot stand for the member kind is rejected', () => {
    // an installation key signature standing for an Ethereum new member
    expect(rejects(created(), [add(B, by(A), by(B, { kind: 'installation_key' }))])).toMatchObject({
      rule: 'IDENT-031',
      actionIndex: 0,
    })
    // a passkey signature for an Ethereum recovery identifier
    expect(rejects(created(), [revoke(I1, by(A, { kind: 'passkey' }))])).toMatchObject({
      rule: 'IDENT-031',
      actionIndex: 0,
    })
    expect(rejects(created(), [recover(B, by(A, { kind: 'installation_key' }))])).toMatchObject({
      rule: 'IDENT-031',
      actionIndex: 0,
    })
    // an erc_191 signature for a passkey creator
    expect(rejects(null, [create(P1, { sig: by(P1, { kind: 'erc_191' }) })], deriveInboxId(P1.text, 0n))).toMatchObject(
      { rule: 'IDENT-031', actionIndex: 0 },
    )
  })

  it('IDENT-040: the new member signature signer must be the new member', () => {
    expect(rejects(created(), [add(B, by(A), by(C))])).toMatchObject({ rule: 'IDENT-040', actionIndex: 0 })
  })

  it('IDENT-040: the existing signer must be a member or the recovery identifier', () => {
    expect(rejects(created(), [add(C, by(B))])).toMatchObject({ rule: 'IDENT-040', actionIndex: 0 })
  })

  it('IDENT-040: the two signers may not be equal', () => {
    expect(rejects(created(), [add(A, by(A), by(A))])).toMatchObject({ rule: 'IDENT-040', actionIndex: 0 })
  })

  it('IDENT-040: adding a current member is rejected', () => {
    const s = chain([create(A), add(B, by(A))])
    expect(rejects(s, [add(B, by(A))])).toMatchObject({ rule: 'IDENT-040', actionIndex: 0 })
  })

  it('IDENT-040: the recovery identifier that is not a member may add', () => {
    const s = chain([create(A)], [recover(B, by(A))], [add(C, by(B))])
    expect(s.members.get(memberKey(C))?.adder).toEqual(B)
  })

  it('IDENT-041: an installation never adds an installation, but may add a wallet or passkey', () => {
    expect(rejects(created(), [add(I2, by(I1))])).toMatchObject({ rule: 'IDENT-041', actionIndex: 0 })
    const s = chain([create(A), add(I1, by(A))], [add(B, by(I1))], [add(P1, by(I1))])
    expect(has(s, B) && has(s, P1)).toBe(true)
  })

  it('IDENT-042: an add records the adder, the client time and the new member signature chain id', () => {
    const s = applyUpdate(
      created(),
      build(ID, [add(B, by(A), by(B, { kind: 'erc_6492', chainId: 8453n }))], 42n),
      5n,
    ).state
    expect(s.members.get(memberKey(B))).toMatchObject({ adder: A, clientTimestampNs: 42n, chainId: 8453n, addedAt: 5n })
  })

  it('IDENT-043: only the recovery identifier revokes', () => {
    const s = chain([create(A), add(B, by(A))])
    expect(rejects(s, [revoke(A, by(B))])).toMatchObject({ rule: 'IDENT-043', actionIndex: 0 })
  })

  it('IDENT-044: a revocation removes the member and the installations it added, and nothing else', () => {
    const s = chain([create(A), add(I1, by(A))], [add(B, by(A))], [add(I2, by(B))], [add(C, by(B))])
    const after = applyUpdate(s, build(ID, [revoke(B, by(A))]), 9n).state
    expect(has(after, B)).toBe(false)
    expect(has(after, I2)).toBe(false) // installation added by B
    expect(has(after, C)).toBe(true) // a wallet added by B stays
    expect(has(after, I1)).toBe(true)
    expect(after.recovery).toEqual(s.recovery)
  })

  it('IDENT-044: revoking a non-member removes the installations it added as recovery identifier', () => {
    const s = chain([create(A)], [recover(B, by(A))], [add(I1, by(B))])
    expect(has(s, I1)).toBe(true)
    const after = applyUpdate(s, build(ID, [revoke(B, by(B))]), 9n).state
    expect(has(after, I1)).toBe(false)
    expect(has(after, A)).toBe(true)
  })

  it('IDENT-044: the recovery identifier may revoke itself as a member and keeps its role and chain id', () => {
    const s = chain([
      create(A, { sig: by(A, { kind: 'erc_6492', chainId: 1n }) }),
      add(I1, by(A, { kind: 'erc_6492', chainId: 1n })),
    ])
    const after = applyUpdate(s, build(ID, [revoke(A, by(A, { kind: 'erc_6492', chainId: 1n }))]), 3n).state
    expect(has(after, A)).toBe(false)
    expect(has(after, I1)).toBe(false)
    expect(after.recovery).toEqual({ id: A, chainId: 1n })
  })

  it('IDENT-045: only the recovery identifier changes recovery; the new one signs nothing and gets its member chain or none', () => {
    const s = chain([create(A), add(B, by(A), by(B, { kind: 'erc_6492', chainId: 5n }))])
    expect(rejects(s, [recover(C, by(B, { kind: 'erc_6492', chainId: 5n }))])).toMatchObject({
      rule: 'IDENT-045',
      actionIndex: 0,
    })
    const toMember = applyUpdate(s, build(ID, [recover(B, by(A))]), 3n).state
    expect(toMember.recovery).toEqual({ id: B, chainId: 5n })
    expect(toMember.members).toBe(s.members)
    const toStranger = applyUpdate(s, build(ID, [recover(C, by(A))]), 3n).state
    expect(toStranger.recovery).toEqual({ id: C, chainId: null })
    const toPasskey = applyUpdate(s, build(ID, [recover(P1, by(A))]), 3n).state
    expect(toPasskey.recovery.id).toEqual(P1)
    expect(rejects(toPasskey, [revoke(B, by(P1, { kind: 'erc_191' }))])).toMatchObject({ rule: 'IDENT-031' })
  })

  it('IDENT-046: a member signing on another chain than it was added on is rejected', () => {
    const s = created() // A added via erc_191: chain none
    expect(rejects(s, [add(B, by(A, { kind: 'erc_6492', chainId: 1n }))])).toMatchObject({
      rule: 'IDENT-046',
      actionIndex: 0,
    })
    const onChain = chain([create(A, { sig: by(A, { kind: 'erc_6492', chainId: 1n }) })])
    expect(rejects(onChain, [add(B, by(A, { kind: 'erc_6492', chainId: 10n }))])).toMatchObject({
      rule: 'IDENT-046',
      actionIndex: 0,
    })
    expect(rejects(onChain, [claim('nick', by(A))])).toMatchObject({ rule: 'IDENT-046', actionIndex: 0 })
  })

  it('IDENT-046: the recovery identifier keeps its chain after its revocation as a member', () => {
    const s = chain(
      [create(A, { sig: by(A, { kind: 'erc_6492', chainId: 1n }) })],
      [revoke(A, by(A, { kind: 'erc_6492', chainId: 1n }))],
    )
    expect(rejects(s, [revoke(B, by(A, { kind: 'erc_6492', chainId: 2n }))])).toMatchObject({
      rule: 'IDENT-046',
      actionIndex: 0,
    })
    expect(rejects(s, [recover(B, by(A))])).toMatchObject({ rule: 'IDENT-046', actionIndex: 0 })
    expect(rejects(s, [add(B, by(A))])).toMatchObject({ rule: 'IDENT-046', actionIndex: 0 })
    expect(() => applyUpdate(s, build(ID, [add(B, by(A, { kind: 'erc_6492', chainId: 1n }))]), 3n)).not.toThrow()
  })

  it('IDENT-050: a replay key among the seen keys is rejected; within one update a signature may serve two actions', () => {
    const sigA = by(A, { key: 'aa' })
    const s = chain([create(A, { sig: sigA }), add(I1, sigA)]) // the real network reuses the wallet signature like this
    expect(s.seen.has('aa')).toBe(true)
    expect(rejects(s, [add(B, by(A, { key: 'aa' }))])).toMatchObject({ rule: 'IDENT-050', actionIndex: 0 })
  })

  it('IDENT-050: every signature key of an applied update is recorded', () => {
    const s = applyUpdate(created(), build(ID, [add(B, by(A, { key: '01' }), by(B, { key: '02' }))]), 3n).state
    expect(s.seen.has('01') && s.seen.has('02')).toBe(true)
  })

  it('IDENT-078: a handle outside the grammar is rejected and never rewritten', () => {
    for (const h of ['Nick', 'nick#123', '1nick', 'a'.repeat(28), 'nick#12345', '', 'ni ck', 'nick#', 'ník']) {
      expect(rejects(created(), [claim(h, by(A))])).toMatchObject({ rule: 'IDENT-078', actionIndex: 0 })
    }
  })

  it('IDENT-079: a claim with any other action in one update is rejected, action index null', () => {
    expect(rejects(created(), [add(B, by(A)), claim('nick', by(A))])).toMatchObject({
      rule: 'IDENT-079',
      actionIndex: null,
    })
    expect(rejects(created(), [claim('nick', by(A)), claim('nock', by(A))])).toMatchObject({
      rule: 'IDENT-079',
      actionIndex: null,
    })
  })

  it('IDENT-080: the 65th claim is rejected; re-claims count', () => {
    let s = created()
    for (let n = 0; n < 64; n++)
      s = applyUpdate(s, build(ID, [claim(n % 2 ? 'nick' : 'nock', by(A))]), BigInt(10 + n)).state
    expect(s.claimCount).toBe(64)
    expect(rejects(s, [claim('other', by(A))])).toMatchObject({ rule: 'IDENT-080', actionIndex: 0 })
  })

  it('IDENT-081: a claim signed by a non-member (a revoked installation) is rejected', () => {
    const s = chain([create(A), add(I1, by(A))], [revoke(I1, by(A))])
    expect(rejects(s, [claim('nick', by(I1))])).toMatchObject({ rule: 'IDENT-081', actionIndex: 0 })
  })

  it('IDENT-081: any current member signs a claim: installation, wallet or passkey', () => {
    const s = chain(
      [create(A), add(I1, by(A))],
      [add(P1, by(A))],
      [claim('one', by(I1))],
      [claim('two', by(P1))],
      [claim('three', by(A))],
    )
    expect(s.handles).toEqual(['one', 'two', 'three'])
  })

  it('IDENT-082: a claim appends its handle, a re-claim moves it to the end, and members are untouched', () => {
    const s = chain([create(A), add(I1, by(A))], [claim('nick', by(A))], [claim('nick#2341', by(A))])
    const again = applyUpdate(s, build(ID, [claim('nick', by(A))]), 9n).state
    expect(again.handles).toEqual(['nick#2341', 'nick'])
    expect(again.claimCount).toBe(3)
    expect(again.members).toBe(s.members)
    expect(again.recovery).toBe(s.recovery)
  })

  it('IDENT-083: a CreateInbox starts with no handles; other actions leave handles and claim count', () => {
    const s = chain([create(A), add(I1, by(A))], [claim('nick', by(A))])
    const after = chain(
      [create(A), add(I1, by(A))],
      [claim('nick', by(A))],
      [add(B, by(A))],
      [recover(B, by(A))],
      [revoke(I1, by(B))],
    )
    expect(created().handles).toEqual([])
    expect(created().claimCount).toBe(0)
    expect(after.handles).toEqual(s.handles)
    expect(after.claimCount).toBe(1)
  })

  it('IDENT-084: a claim is never rejected for policy: a short or reserved-looking name applies', () => {
    const s = chain([create(A)], [claim('a', by(A))], [claim('admin', by(A))], [claim('support', by(A))])
    expect(s.handles).toEqual(['a', 'admin', 'support'])
  })

  it('IDENT-002: a rejected update leaves the state exactly as it was, even after earlier actions applied', () => {
    const s = created()
    const before = JSON.stringify([...s.members.keys()])
    const seen = s.seen
    expect(rejects(s, [add(B, by(A)), add(C, by(C))])).toMatchObject({ rule: 'IDENT-040', actionIndex: 1 })
    expect(JSON.stringify([...s.members.keys()])).toBe(before)
    expect(s.seen).toBe(seen)
  })

  it('IDENT-004: actions apply in order, each from the state the previous one produced', () => {
    const s = applyUpdate(
      null,
      build(ID, [create(A), add(B, by(A)), add(I1, by(B)), recover(B, by(A)), revoke(A, by(B))]),
      1n,
    ).state
    expect([...s.members.keys()].sort()).toEqual([memberKey(B), memberKey(I1)].sort())
    expect(s.recovery.id).toEqual(B)
  })

  it('IDENT-061: an unreachable smart wallet signature makes the update pending, not rejected', () => {
    try {
      applyUpdate(
        created(),
        build(ID, [add(B, by(A), by(B, { kind: 'erc_6492', verdict: 'unreachable', chainId: 1n }))]),
        3n,
      )
      throw new Error('expected pending')
    } catch (e) {
      expect(e).toBeInstanceOf(PendingUpdate)
    }
  })

  it('IDENT-061: an update that fails a rule is rejected even if it also holds a signature that cannot be judged', () => {
    expect(
      rejects(created(), [
        add(B, by(A), by(B, { kind: 'erc_6492', verdict: 'unreachable', chainId: 1n })),
        add(C, by(C)),
      ]),
    ).toMatchObject({ rule: 'IDENT-040', actionIndex: 1 })
  })

  it('reports the first rule met, checking actions in order', () => {
    expect(rejects(created(), [add(B, by(C)), add(I2, by(I1))])).toMatchObject({ rule: 'IDENT-040', actionIndex: 0 })
  })
})

describe('requireFresh', () => {
  it('IDENT-050: refuses exactly the keys seen before, and records the set union gives, in its iteration order (property)', () => {
    // Few distinct keys, so duplicates, small and large sets all occur.
    const hex = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: min, maxLength: max })
    const key = fc.oneof(hex(1, 3), hex(100, 130))
    fc.assert(
      fc.property(fc.array(key, { maxLength: 60 }), fc.array(key, { maxLength: 4 }), (before, keys) => {
        const seen = PSet.of(before)
        const ctx: ApplyContext = {
          sequenceId: 1n,
          clientTimestampNs: 0n,
          seenBefore: seen,
          replayKeys: [],
          seen,
          unreachable: [],
          check: () => {
            throw new Error('not read')
          },
        }
        const fresh: string[] = []
        for (const k of keys) {
          const check = { role: 'signature', replayKey: k } as SignatureCheck
          let refused: unknown = null
          try {
            requireFresh(ctx, { signer: A, chainId: null, check }, 0)
          } catch (e) {
            refused = e
          }
          if (seen.has(k)) expect(refused).toMatchObject({ rule: 'IDENT-050' })
          else {
            expect(refused).toBeNull()
            fresh.push(k)
          }
        }
        const theirs = seen.union(fresh)
        expect(new Set(ctx.seen)).toEqual(new Set(theirs))
        expect([...ctx.seen]).toEqual([...theirs])
        expect([...seen]).toEqual([...PSet.of(before)]) // never mutated
        if (fresh.length === 0) expect(ctx.seen).toBe(seen)
      }),
      { numRuns: 500 },
    )
  })
})
