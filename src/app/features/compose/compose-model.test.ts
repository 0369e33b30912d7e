import { describe, expect, it } from 'vitest'
import { memberKey, type AssociationState } from '../../../core/types'
import { inboxIdOf } from '../../../signing'
import { T0 } from '../../../signing/testkit'
import type { AppSigner } from '../../model/app-signer'
import { shortId } from '../../ui/format'
import { type ComposeForm, TYPED } from './compose-form'
import { buildDraft } from './compose-model'
import { partiesOf } from './parties'
import { unavailable } from './sign-gate'
import { addForm, formOf, gateOf, passkey, smallInbox, wallet, inst1, inst2, W, I2, P } from './compose-testkit'

/** The draft, dry run, slots and Sign gate of the form `f` (with its defaults) on `state`, with `signers` connected. */
async function formGate(state: AssociationState | null, signers: readonly AppSigner[], f: Partial<ComposeForm>) {
  const parties = partiesOf(state, signers)
  return gateOf(state, parties, formOf(state, parties, f))
}

describe('buildDraft: CreateInbox', () => {
  it('derives the inbox id from the identifier and nonce as typed (IDENT-010) and dry-runs to a new state', async () => {
    const { build, dry, gate } = await formGate(null, [W], { nonce: '7' })
    expect(build.inboxId).toBe(inboxIdOf(wallet, 7n))
    expect(build.draft!.text).toContain(`Inbox ID: ${inboxIdOf(wallet, 7n)}`)
    expect(build.draft!.text).toContain(`- Create inbox\n  (Owner: ${wallet.identifier.text})`)
    expect(dry!.ok).toBe(true)
    if (dry!.ok) expect(dry!.diff.created).toBe(true)
    expect(gate).toEqual({ enabled: true, reason: '' })
  })
  it('says what is missing: a creator, a valid nonce', () => {
    const b = buildDraft(formOf(null, [], { nonce: 'x' }), { state: null, parties: [], clientTimestampNs: T0 })
    expect(b.draft).toBeNull()
    expect(b.problems).toEqual([
      expect.stringMatching(/choose the wallet or local key/),
      expect.stringMatching(/not a decimal whole number/),
    ])
  })
  it('creates with a passkey as initial identifier of kind passkey', async () => {
    const { build, dry } = await formGate(null, [W, P], { createKind: 'passkey' })
    expect(build.draft!.text).toContain(`(Owner: ${passkey.identifier.text})`)
    expect(dry!.ok).toBe(true)
  })
})

describe('buildDraft: AddAssociation', () => {
  it('drafts an add of a new installation approved by the wallet; both signatures are slots', async () => {
    const { build, dry, slots, gate } = await formGate(await smallInbox(), [W, I2], { action: 'add' })
    expect(build.draft!.text).toContain(`- Grant messaging access to app\n  (ID: ${inst2.identifier.text})`)
    expect(dry!.ok && dry!.diff.membersAdded.map((m) => m.id.text)).toEqual([inst2.identifier.text])
    expect(slots.map((s) => [s.role, s.signerLabel, s.state])).toEqual([
      ['existing_member_signature', 'E2E Wallet', 'missing'],
      ['new_member_signature', 'installation two', 'missing'],
    ])
    expect(gate.enabled).toBe(true)
  })
  it('refuses the same party on both sides (IDENT-040)', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [W])
    const b = buildDraft(
      { ...formOf(state, parties, { action: 'add' }), newMember: `signer:${W.id}` },
      { state, parties, clientTimestampNs: T0 },
    )
    expect(b.problems).toContainEqual(expect.stringMatching(/IDENT-040/))
  })
  it('shows the core rule when an installation approves an installation (IDENT-041)', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [I2])
    const f = addForm(state, parties, `member:${memberKey(inst1.identifier)}`, `signer:${I2.id}`)
    const { dry, gate } = await gateOf(state, parties, f)
    expect(dry!.ok).toBe(false)
    if (!dry!.ok) expect(dry!.rule).toBe('IDENT-041')
    expect(gate.reason).toMatch(/IDENT-041/)
  })
  it('keeps Sign disabled and names the missing signer when this browser holds none for the approver', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [P])
    const f = addForm(state, parties, `member:${memberKey(wallet.identifier)}`, `signer:${P.id}`)
    const { dry, slots, gate } = await gateOf(state, parties, f)
    expect(dry!.ok).toBe(true)
    expect(unavailable(slots)).toEqual([
      expect.stringContaining(`ethereum ${shortId(wallet.identifier.text)} (no signer for it in this browser`),
    ])
    expect(gate.enabled).toBe(false)
    expect(gate.reason).toMatch(/existing member’s approval/)
  })
})

describe('buildDraft: RevokeAssociation', () => {
  it('shows the cascade and enables Sign only once this exact draft is confirmed', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [W])
    const f = formOf(state, parties, { action: 'revoke', revokeTarget: memberKey(wallet.identifier) })
    const before = await gateOf(state, parties, f)
    expect(before.build.cascade!.installations.map((m) => m.id.text)).toEqual([inst1.identifier.text])
    expect(before.build.confirmation).toMatch(
      /removes ethereum .* and 1 installation it added; it stays the recovery identifier/,
    )
    expect(before.build.draft!.text).toContain(`- Unlink address from inbox\n  (Address: ${wallet.identifier.text})`)
    expect(before.gate).toEqual({ enabled: false, reason: expect.stringMatching(/confirm the consequence/) })
    const confirmed = await gateOf(state, parties, f, before.build.draft!.text)
    expect(confirmed.gate.enabled).toBe(true)
    // A confirmation of another text (an older draft) does not count.
    expect((await gateOf(state, parties, f, `${before.build.draft!.text} `)).gate.enabled).toBe(false)
    if (confirmed.dry!.ok)
      expect(confirmed.dry!.diff.membersRemoved.map((m) => m.id.kind).sort()).toEqual(['ethereum', 'installation'])
  })
  it('revokes an installation by its key', async () => {
    const revokeTarget = memberKey(inst1.identifier)
    const { build, dry } = await formGate(await smallInbox(), [W], { action: 'revoke', revokeTarget })
    expect(build.draft!.text).toContain(`(ID: ${inst1.identifier.text})`)
    expect(dry!.ok).toBe(true)
  })
})

describe('buildDraft: ChangeRecoveryAddress', () => {
  it('rotates to a passkey that is not a member: no chain id, and a confirmation naming it', async () => {
    const f = { action: 'change_recovery_address', recoveryTarget: `signer:${P.id}` } as const
    const { build, dry, gate } = await formGate(await smallInbox(), [W, P], f)
    expect(build.recoveryChain!.isMember).toBe(false)
    expect(build.recoveryChain!.chainId).toBeNull()
    expect(build.confirmation).toContain(`passkey ${passkey.identifier.text} becomes the recovery identifier`)
    expect(build.draft!.text).toContain(`- Change inbox recovery address\n  (Address: ${passkey.identifier.text})`)
    expect(dry!.ok && dry!.diff.recovery!.after.id).toEqual(passkey.identifier)
    expect(gate.reason).toMatch(/confirm/)
  })
  it('takes a typed identifier and shows the core rule when it is not lowercase (IDENT-013)', async () => {
    const state = await smallInbox()
    const parties = partiesOf(state, [W])
    const typed = `0x${'AB'.repeat(20)}`
    const f = formOf(state, parties, { action: 'change_recovery_address', recoveryTarget: TYPED, recoveryTyped: typed })
    const { dry, gate } = await gateOf(state, parties, f, null)
    expect(dry!.ok).toBe(false)
    if (!dry!.ok) expect(dry!.rule).toBe('IDENT-013')
    expect(gate.reason).toMatch(/IDENT-013/)
    const empty = buildDraft({ ...f, recoveryTyped: ' ' }, { state, parties, clientTimestampNs: T0 })
    expect(empty.problems).toEqual([expect.stringMatching(/type the new recovery identifier \(0x and 40 lowercase/)])
  })
})

describe('buildDraft: ClaimHandle', () => {
  it('drafts a valid claim and refuses a bad spelling with the grammar reason and the core rule (IDENT-078)', async () => {
    const state = await smallInbox()
    const ok = await formGate(state, [W], { action: 'claim_handle', handle: 'nick#2341' })
    expect(ok.build.draft!.text).toContain('- Claim handle\n  (Handle: nick#2341)')
    expect(ok.gate.enabled).toBe(true)
    const bad = await formGate(state, [W], { action: 'claim_handle', handle: 'Nick' })
    expect(bad.build.claim!.valid).toBe(false)
    expect(bad.build.claim!.problem).toMatch(/uppercase/)
    expect(bad.dry!.ok).toBe(false)
    if (!bad.dry!.ok) expect(bad.dry!.rule).toBe('IDENT-078')
    expect(bad.gate.enabled).toBe(false)
  })
  it('shows a claim of a held handle as moving it to the end (IDENT-082)', async () => {
    const base = await smallInbox()
    const state: AssociationState = { ...base, handles: ['nick', 'nick#2341'], claimCount: 2 }
    const parties = partiesOf(state, [W])
    const { build, dry } = await gateOf(
      state,
      parties,
      formOf(state, parties, { action: 'claim_handle', handle: 'nick' }),
    )
    expect(build.claim!.alreadyHeld).toBe(true)
    expect(build.claim!.handlesAfter).toEqual(['nick#2341', 'nick'])
    expect(build.claim!.summary).toMatch(/moves it to the end/)
    expect(dry!.ok && dry!.diff.displayHandle).toEqual({ before: 'nick#2341', after: 'nick' })
  })
  it('asks for a handle and a signer', async () => {
    const state = await smallInbox()
    const b = buildDraft(formOf(state, [], { action: 'claim_handle' }), { state, parties: [], clientTimestampNs: T0 })
    expect(b.problems).toEqual(['type the handle to claim', 'choose the member who signs the claim'])
  })
})
