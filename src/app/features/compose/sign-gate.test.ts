import { describe, expect, it } from 'vitest'
import { memberKey } from '../../../core/types'
import { createCollector, type Signer } from '../../../signing'
import { T0 } from '../../../signing/testkit'
import { afterSigned, EMPTY_FORM, type ComposeForm } from './compose-form'
import { buildDraft } from './compose-model'
import { partiesOf } from './parties'
import { laterClientTime, signGate, slotViews, unavailable } from './sign-gate'
import { addForm, formOf, gateOf, heldSigner, otherWallet, smallInbox, wallet, W, I2, P } from './compose-testkit'

describe('laterClientTime (the draft after a signed one, IDENT-050)', () => {
  const S = 1_000_000_000n
  it('is now when now is in a later second than the signed time', () => {
    expect(laterClientTime(10n * S + 5n, 12n * S + 7n)).toBe(12n * S + 7n)
    expect(laterClientTime(10n * S + 5n, 11n * S)).toBe(11n * S)
  })
  it('moves to the next second when now is in the same second (or the clock went back)', () => {
    expect(laterClientTime(10n * S + 5n, 10n * S + 999_999_999n)).toBe(11n * S)
    expect(laterClientTime(10n * S, 10n * S)).toBe(11n * S)
    expect(laterClientTime(10n * S + 5n, 9n * S)).toBe(11n * S)
  })
  it('so the same claim drafted twice within a second gets another signature text', () => {
    const signed = 1_712_750_400n * S + 123n
    const again = laterClientTime(signed, signed + 1_000_000n)
    expect(again / S).not.toBe(signed / S)
  })
})

describe('slotViews', () => {
  it('shows the collector status of each slot, naming a wallet that signed with another account', async () => {
    const state = await smallInbox()
    const impostor: Signer = { ...wallet, sign: (t) => otherWallet.sign(t) } // a wallet answering with another account
    const W2 = heldSigner('wallet', impostor, 'E2E Wallet')
    const parties = partiesOf(state, [W2, I2])
    const { build } = await gateOf(state, parties, formOf(state, parties, { action: 'add' }))
    const c = createCollector(build.draft!, [])
    const r = await c.run()
    expect(r.ok).toBe(false)
    const views = slotViews(build.draft!, parties, c.roles)
    expect(views[0]!.state).toBe('failed')
    expect(views[0]!.reason).toMatch(/signed by ethereum .*the wallet signed with another account.*\(wrong_signer\)/)
    expect(views[1]!.state).toBe('missing')
  })
})

describe('issue #12 defects of the composer', () => {
  it('never preselects a member this browser holds no signer for (approver, claimer)', async () => {
    const state = await smallInbox()
    // This browser holds only a passkey that is not a member: no member can approve or claim.
    const parties = partiesOf(state, [P])
    const f = formOf(state, parties, { action: 'claim_handle', handle: 'nick' })
    expect(f.claimer).toBe('')
    expect(f.existing).toBe('')
    const b = buildDraft(f, { state, parties, clientTimestampNs: T0 })
    expect(b.problems).toEqual(['choose the member who signs the claim'])
    // A member chosen by the person stays chosen.
    const chosen = formOf(state, parties, { action: 'claim_handle', claimer: `member:${memberKey(wallet.identifier)}` })
    expect(chosen.claimer).toBe(`member:${memberKey(wallet.identifier)}`)
  })
  it('explains a missing passkey signer without its 130 hex characters', async () => {
    const state = await smallInbox()
    const withPk = partiesOf(state, [P])
    const f = addForm(state, withPk, `member:${memberKey(wallet.identifier)}`, `signer:${P.id}`)
    const { slots, gate } = await gateOf(state, withPk, f)
    expect(gate.enabled).toBe(false)
    expect(gate.reason).not.toMatch(/[0-9a-f]{24,}/i)
    expect(unavailable(slots)[0]!.length).toBeLessThan(160)
  })
  it('does not draft the same claim again after it was signed and appended', () => {
    const f: ComposeForm = { ...EMPTY_FORM, action: 'claim_handle', handle: 'bobby', claimer: 'signer:x' }
    const next = afterSigned(f)
    expect(next.handle).toBe('')
    expect(next.action).toBe('claim_handle')
    expect(next.claimer).toBe('signer:x')
    expect(afterSigned({ ...EMPTY_FORM, action: 'add', newMember: 'signer:y', existing: 'signer:w' })).toMatchObject({
      newMember: '',
      existing: 'signer:w',
    })
  })
  it('keeps Sign closed while the node is asked about the handle, and when it names another inbox (handle_taken)', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [W])
    const f = formOf(state, parties, { action: 'claim_handle', handle: 'nick' })
    const { build, dry, slots } = await gateOf(state, parties, f)
    expect(signGate({ build, dry, confirmedFor: null, slots, busy: false }).enabled).toBe(true)
    const checking = signGate({
      build,
      dry,
      confirmedFor: null,
      slots,
      busy: false,
      handle: { kind: 'checking', handle: 'nick' },
    })
    expect(checking.enabled).toBe(false)
    expect(checking.reason).toMatch(/asking the node whether "nick" is free/)
    const other = 'ab'.repeat(32)
    const taken = signGate({
      build,
      dry,
      confirmedFor: null,
      slots,
      busy: false,
      handle: { kind: 'taken', handle: 'nick', inboxId: other },
    })
    expect(taken.enabled).toBe(false)
    expect(taken.reason).toMatch(/held by inbox abab.*handle_taken/)
  })
})
