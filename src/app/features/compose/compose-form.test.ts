import { describe, expect, it } from 'vitest'
import { memberKey, type AssociationState } from '../../../core/types'
import { actionsFor, parseNonce } from './compose-form'
import { eligible, partiesOf } from './parties'
import { formOf, otherWallet, smallInbox, wallet, inst1, W, I1, I2, P } from './compose-testkit'

describe('parseNonce', () => {
  it('accepts decimal uint64 values', () => {
    expect(parseNonce('0')).toEqual({ ok: true, value: 0n })
    expect(parseNonce(' 42 ')).toEqual({ ok: true, value: 42n })
    expect(parseNonce('18446744073709551615')).toEqual({ ok: true, value: 18446744073709551615n })
  })
  it.each([
    ['', /empty/],
    ['-1', /not a decimal whole number/],
    ['1.5', /not a decimal whole number/],
    ['0x10', /not a decimal whole number/],
    ['18446744073709551616', /largest uint64/],
  ])('refuses %j with the reason', (text, why) => {
    const r = parseNonce(text)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.problem).toMatch(why)
  })
})

describe('partiesOf', () => {
  it('lists the registry first, then the members this browser holds no signer for', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [I2, W])
    expect(parties.map((p) => p.ref)).toEqual([
      `signer:${I2.id}`,
      `signer:${W.id}`,
      `member:${memberKey(inst1.identifier)}`,
    ])
    const w = parties[1]!
    expect([w.isMember, w.isRecovery, w.app]).toEqual([true, true, W])
    expect(parties[0]!.isMember).toBe(false)
    expect(parties[2]!.app).toBeNull()
    expect(parties[2]!.label).toMatch(/no signer in this browser/)
  })
  it('lists a recovery identifier that is not a member', async () => {
    const state = await smallInbox()
    const moved: AssociationState = { ...state, recovery: { id: otherWallet.identifier, chainId: null } }
    const p = partiesOf(moved, []).find((x) => x.identifier.text === otherWallet.identifier.text)!
    expect([p.isMember, p.isRecovery]).toEqual([false, true])
  })
  it('offers only signers of the chosen kind as the creator of a new inbox', () => {
    const parties = partiesOf(null, [W, I1, P])
    expect(eligible(parties, 'creator', 'ethereum').map((p) => p.app)).toEqual([W])
    expect(eligible(parties, 'creator', 'passkey').map((p) => p.app)).toEqual([P])
  })
})

describe('actionsFor and withDefaults', () => {
  it('offers CreateInbox without a state and every other action with one', async () => {
    expect(actionsFor(null)).toEqual(['create_inbox'])
    expect(actionsFor(await smallInbox())).toEqual(['add', 'revoke', 'change_recovery_address', 'claim_handle'])
  })
  it('fills each slot with the first eligible party, preferring signers this browser holds', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [W, I2])
    const f = formOf(state, parties, { action: 'create_inbox' })
    expect(f.action).toBe('add')
    expect(f.existing).toBe(`signer:${W.id}`)
    expect(f.newMember).toBe(`signer:${I2.id}`)
    expect(f.claimer).toBe(`signer:${W.id}`)
    expect(f.revokeTarget).toBe(memberKey(wallet.identifier))
  })
})
