/**
 * Issue #12, rejections as fix-its: a RuleViolation carries what its check compared
 * (expected and found, the member set, chains, the replay key, the handle position).
 */
import { describe, expect, it } from 'vitest'
import type { ViolationDetails } from '../errors'
import { handleProblemPosition } from '../handles'
import { describeMember } from '../text/identifier'
import type { AssociationState } from '../types'
import { applyUpdate, RejectedUpdate } from './update'
import { A, add, B, build, by, C, chain, claim, create, eth, I1, ID, recover, revoke, type Draft } from './testkit'

function details(state: AssociationState | null, drafts: Draft[]): { rule: string; details: ViolationDetails | null } {
  try {
    applyUpdate(state, build(state?.inboxId ?? ID, drafts), 99n)
  } catch (e) {
    if (e instanceof RejectedUpdate) return { rule: e.violation.rule, details: e.violation.details }
    throw e
  }
  throw new Error('expected a rejection')
}

const created = () => chain([create(A), add(I1, by(A))])

describe('RuleViolation details', () => {
  it('IDENT-040: the new member signature by another signer names expected and found', () => {
    expect(details(created(), [add(B, by(A), by(C))])).toEqual({
      rule: 'IDENT-040',
      details: {
        check: 'signer-mismatch',
        role: 'new_member_signature',
        expected: describeMember(B),
        found: describeMember(C),
      },
    })
  })

  it('IDENT-040: an adder outside the inbox lists the members and the recovery identifier it was checked against', () => {
    const r = details(created(), [add(C, by(B))])
    expect(r.rule).toBe('IDENT-040')
    expect(r.details).toMatchObject({
      check: 'signer-not-member',
      role: 'existing_member_signature',
      found: describeMember(B),
      recovery: describeMember(A),
    })
    expect([...r.details!.members!].sort()).toEqual([describeMember(A), describeMember(I1)].sort())
    expect(r.details!.memberCount).toBeUndefined()
  })

  it('IDENT-040: a large member set is listed in part, with its size', () => {
    const many = Array.from({ length: 40 }, (_, n) => add(eth(0x100 + n), by(A)))
    const s = chain([create(A)], ...many.map((d) => [d]))
    const r = details(s, [add(C, by(B))])
    expect(r.details!.members).toHaveLength(32)
    expect(r.details!.memberCount).toBe(41)
  })

  it('IDENT-043 / IDENT-045: the recovery identifier is expected, the signer found', () => {
    for (const d of [revoke(I1, by(B)), recover(C, by(B))]) {
      const r = details(created(), [d])
      expect(r.details).toMatchObject({
        check: 'signer-mismatch',
        expected: describeMember(A),
        found: describeMember(B),
        recovery: describeMember(A),
      })
    }
  })

  it('IDENT-046: the recorded chain is expected, the signature’s chain found', () => {
    const onChain = chain([create(A, { sig: by(A, { kind: 'erc_6492', chainId: 1n }) })])
    expect(details(onChain, [add(B, by(A, { kind: 'erc_6492', chainId: 10n }))])).toEqual({
      rule: 'IDENT-046',
      details: { check: 'chain-mismatch', role: 'existing_member_signature', expected: 'eip155:1', found: 'eip155:10' },
    })
    expect(details(created(), [add(B, by(A, { kind: 'erc_6492', chainId: 1n }))]).details).toMatchObject({
      expected: 'none',
      found: 'eip155:1',
    })
  })

  it('IDENT-050: the whole replay key that was already seen', () => {
    const key = 'ab'.repeat(32)
    const s = chain([create(A, { sig: by(A, { key }) })])
    expect(details(s, [add(B, by(A, { key }))])).toEqual({
      rule: 'IDENT-050',
      details: {
        check: 'replay',
        role: 'existing_member_signature',
        expected: 'a replay key not yet seen',
        found: describeMember(A),
        replayKey: key,
      },
    })
  })

  it('IDENT-078: the handle and the position where the grammar fails', () => {
    expect(details(created(), [claim('nick!x', by(A))])).toMatchObject({
      rule: 'IDENT-078',
      details: { check: 'handle-grammar', found: 'nick!x', position: 4 },
    })
  })

  it('IDENT-081: a claim signer outside the inbox lists the members, not the recovery identifier', () => {
    const r = details(created(), [claim('nick', by(B))])
    expect(r.rule).toBe('IDENT-081')
    expect(r.details).toMatchObject({ check: 'signer-not-member', found: describeMember(B) })
    expect(r.details!.recovery).toBeUndefined()
    expect(r.details!.members).toContain(describeMember(I1))
  })

  it('IDENT-030, IDENT-031, IDENT-011, IDENT-012: each names its check', () => {
    expect(details(created(), [add(B, by(A, { verdict: 'invalid' }))]).details).toMatchObject({
      check: 'signature-invalid',
      role: 'existing_member_signature',
    })
    expect(details(created(), [add(B, by(A), by(B, { kind: 'installation_key' }))]).details).toMatchObject({
      check: 'signature-kind',
      expected: 'erc_191 or erc_6492',
      found: 'installation_key',
    })
    expect(details(null, [add(B, by(A))]).details).toMatchObject({
      check: 'no-state',
      expected: 'create_inbox',
      found: 'add',
    })
    expect(details(null, [create(A, { sig: by(B) })]).details).toMatchObject({
      check: 'signer-mismatch',
      expected: describeMember(A),
      found: describeMember(B),
    })
  })
})

describe('handleProblemPosition', () => {
  it('is the position of the character the problem names', () => {
    expect(handleProblemPosition('nick')).toBe(-1)
    expect(handleProblemPosition('')).toBe(0)
    expect(handleProblemPosition('niCk')).toBe(2)
    expect(handleProblemPosition('1nick')).toBe(0)
    expect(handleProblemPosition('#1234')).toBe(0)
    expect(handleProblemPosition('a'.repeat(28))).toBe(27)
    expect(handleProblemPosition('nick#12a4')).toBe(7)
    expect(handleProblemPosition('nick#123')).toBe(8)
    expect(handleProblemPosition('nick#12345')).toBe(9)
    expect(handleProblemPosition('ník')).toBe(1)
  })
})
