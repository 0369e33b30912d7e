import { describe, expect, it } from 'vitest'
import { failureClass, fixItFor, rationaleFor } from './rationale'

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

describe('fixItFor (issue #12: rejections as fix-its)', () => {
  const RULE_WHY = 'the rule’s generic why'
  it('writes the rationale for the failing check, not the rule’s generic why', () => {
    const f = fixItFor(
      'IDENT-040',
      'new member signature signer ethereum 0xc differs from new_member_identifier ethereum 0xb',
      { check: 'signer-mismatch', role: 'new_member_signature', expected: 'ethereum 0xb', found: 'ethereum 0xc' },
      RULE_WHY,
    )
    expect(f.why).toMatch(/consent of the member being added/)
    expect(f.toFix).toBe(
      'Have ethereum 0xb sign the new member signature, or name ethereum 0xc as new_member_identifier.',
    )
    const other = fixItFor(
      'IDENT-040',
      'm',
      { check: 'signer-not-member', role: 'existing_member_signature', found: 'x', members: [], recovery: 'r' },
      RULE_WHY,
    )
    expect(other.why).not.toBe(f.why)
    expect(other.why).not.toBe(RULE_WHY)
    expect(other.toFix).toMatch(/recovery identifier/)
  })
  it('names the chain to sign on and the handle character to change', () => {
    expect(
      fixItFor('IDENT-046', 'm', { check: 'chain-mismatch', expected: 'eip155:1', found: 'eip155:10' }, RULE_WHY).toFix,
    ).toBe('Sign on chain eip155:1, the one recorded for this signer (this signature is on eip155:10).')
    expect(
      fixItFor('IDENT-078', 'm', { check: 'handle-grammar', found: 'nick!x', position: 4 }, RULE_WHY).toFix,
    ).toMatch(/^Change the character at position 4 \("!"\)/)
    expect(
      fixItFor('IDENT-013', 'm', { check: 'identifier-form', found: `0x${'AB'.repeat(20)}` }, RULE_WHY).toFix,
    ).toBe(`Write the address in lowercase: 0x${'ab'.repeat(20)}.`)
  })
  it('without details: the IDENT-001 class gives the fix, another rule keeps its why and has none', () => {
    const m =
      'actions[0].add.new_member_signature: signature is unset: the Signature holds only the retired legacy delegated signature (field 4); expected …'
    expect(fixItFor('IDENT-001', m, undefined, WHY).toFix).toMatch(/legacy field 4 is never verified/)
    expect(fixItFor('IDENT-040', 'm', undefined, RULE_WHY)).toEqual({ why: RULE_WHY, toFix: undefined })
  })
})
