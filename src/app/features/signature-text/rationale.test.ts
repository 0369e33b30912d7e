import { describe, expect, it } from 'vitest'
import { failureClass, rationaleFor } from './rationale'

const WHY = 'An empty update passes every signature rule, because it carries no signature'

describe('rationaleFor (issue #12: IDENT-001 "why" per failure class)', () => {
  it('keeps the rule’s why for an empty update and for other rules', () => {
    expect(rationaleFor('IDENT-001', 'the update has no actions', WHY)).toBe(WHY)
    expect(rationaleFor('IDENT-040', 'the signer is not a member', 'because')).toBe('because')
  })
  it('does not explain a truncated update with the empty-update why', () => {
    const m = 'actions[0]: truncated: add_association declares 120 bytes, 7 remain'
    expect(failureClass('IDENT-001', m)).toBe('truncated')
    const r = rationaleFor('IDENT-001', m, WHY)!
    expect(r).not.toContain('empty update')
    expect(r).toMatch(/end before a field/)
  })
  it('explains the retired field 4 as such', () => {
    const m =
      'actions[1].add_association.new_member_signature: signature is unset: the Signature holds only the retired legacy delegated signature (field 4); expected one of …'
    expect(failureClass('IDENT-001', m)).toBe('field-4')
    expect(rationaleFor('IDENT-001', m, WHY)).toMatch(/retired legacy delegated signature/)
  })
})
