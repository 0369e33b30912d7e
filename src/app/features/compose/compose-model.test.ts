import { describe, expect, it } from 'vitest'
import { memberKey, type AssociationState } from '../../../core/types'
import {
  addMember,
  createCollector,
  createInbox,
  dryRun,
  ethKeySigner,
  inboxIdOf,
  installationKeySigner,
  passkeySigner,
  type Signer,
} from '../../../signing'
import { buildState, T0, testKey } from '../../../signing/testkit'
import type { AppSigner, AppSignerSource } from '../../model/app-signer'
import { shortId } from '../../ui/format'
import {
  actionsFor,
  laterClientTime,
  afterSigned,
  buildDraft,
  EMPTY_FORM,
  eligible,
  parseNonce,
  partiesOf,
  signGate,
  slotViews,
  TYPED,
  unavailable,
  withDefaults,
  type ComposeForm,
  type Party,
} from './compose-model'

const wallet = ethKeySigner(testKey('wallet'))
const other = ethKeySigner(testKey('other wallet'))
const inst1 = installationKeySigner(testKey('installation 1'))
const inst2 = installationKeySigner(testKey('installation 2'))
const passkey = passkeySigner(testKey('passkey'), { origin: 'http://localhost:4173' })

const app = (source: AppSignerSource, signer: Signer, label: string): AppSigner => ({
  id: `${source}:${signer.identifier.text}`,
  source,
  label,
  identifier: signer.identifier,
  signer,
  interactive: source === 'wallet' || source === 'passkey',
})

const W = app('wallet', wallet, 'E2E Wallet')
const I1 = app('installation', inst1, 'installation one')
const I2 = app('installation', inst2, 'installation two')
const P = app('passkey', passkey, 'passkey laptop')

/** An inbox created by `wallet` with installation 1 added by it. */
async function inbox(): Promise<AssociationState> {
  const id = inboxIdOf(wallet, 0n)
  return buildState([
    () => ({ clientTimestampNs: T0, actions: [createInbox(wallet)] }),
    () => ({ inboxId: id, clientTimestampNs: T0 + 1n, actions: [addMember(wallet, inst1)] }),
  ])
}

function form(state: AssociationState | null, parties: readonly Party[], f: Partial<ComposeForm>): ComposeForm {
  return withDefaults({ ...EMPTY_FORM, ...f }, state, parties)
}

async function gateOf(
  state: AssociationState | null,
  parties: readonly Party[],
  f: ComposeForm,
  confirmedFor: string | null = null,
) {
  const build = buildDraft(f, { state, parties, clientTimestampNs: T0 + 10n })
  const dry = build.draft ? await dryRun(state, build.draft) : null
  const slots = build.draft ? slotViews(build.draft, parties, null) : []
  return { build, dry, slots, gate: signGate({ build, dry, confirmedFor, slots, busy: false }) }
}

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
    const state = await inbox()
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
    const state = await inbox()
    const moved: AssociationState = { ...state, recovery: { id: other.identifier, chainId: null } }
    const p = partiesOf(moved, []).find((x) => x.identifier.text === other.identifier.text)!
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
    expect(actionsFor(await inbox())).toEqual(['add', 'revoke', 'change_recovery_address', 'claim_handle'])
  })
  it('fills each slot with the first eligible party, preferring signers this browser holds', async () => {
    const state = await inbox()
    const parties = partiesOf(state, [W, I2])
    const f = form(state, parties, { action: 'create_inbox' })
    expect(f.action).toBe('add')
    expect(f.existing).toBe(`signer:${W.id}`)
    expect(f.newMember).toBe(`signer:${I2.id}`)
    expect(f.claimer).toBe(`signer:${W.id}`)
    expect(f.revokeTarget).toBe(memberKey(wallet.identifier))
  })
})

describe('buildDraft: CreateInbox', () => {
  it('derives the inbox id from the identifier and nonce as typed (IDENT-010) and dry-runs to a new state', async () => {
    const parties = partiesOf(null, [W])
    const { build, dry, gate } = await gateOf(null, parties, form(null, parties, { nonce: '7' }))
    expect(build.inboxId).toBe(inboxIdOf(wallet, 7n))
    expect(build.draft!.text).toContain(`Inbox ID: ${inboxIdOf(wallet, 7n)}`)
    expect(build.draft!.text).toContain(`- Create inbox\n  (Owner: ${wallet.identifier.text})`)
    expect(dry!.ok).toBe(true)
    if (dry!.ok) expect(dry!.diff.created).toBe(true)
    expect(gate).toEqual({ enabled: true, reason: '' })
  })
  it('says what is missing: a creator, a valid nonce', () => {
    const b = buildDraft(form(null, [], { nonce: 'x' }), { state: null, parties: [], clientTimestampNs: T0 })
    expect(b.draft).toBeNull()
    expect(b.problems).toEqual([
      expect.stringMatching(/choose the wallet or local key/),
      expect.stringMatching(/not a decimal whole number/),
    ])
  })
  it('creates with a passkey as initial identifier of kind passkey', async () => {
    const parties = partiesOf(null, [W, P])
    const { build, dry } = await gateOf(null, parties, form(null, parties, { createKind: 'passkey' }))
    expect(build.draft!.text).toContain(`(Owner: ${passkey.identifier.text})`)
    expect(dry!.ok).toBe(true)
  })
})

describe('buildDraft: AddAssociation', () => {
  it('drafts an add of a new installation approved by the wallet; both signatures are slots', async () => {
    const state = await inbox()
    const parties = partiesOf(state, [W, I2])
    const { build, dry, slots, gate } = await gateOf(state, parties, form(state, parties, { action: 'add' }))
    expect(build.draft!.text).toContain(`- Grant messaging access to app\n  (ID: ${inst2.identifier.text})`)
    expect(dry!.ok && dry!.diff.membersAdded.map((m) => m.id.text)).toEqual([inst2.identifier.text])
    expect(slots.map((s) => [s.role, s.signerLabel, s.state])).toEqual([
      ['existing_member_signature', 'E2E Wallet', 'missing'],
      ['new_member_signature', 'installation two', 'missing'],
    ])
    expect(gate.enabled).toBe(true)
  })
  it('refuses the same party on both sides (IDENT-040)', async () => {
    const state = await inbox()
    const parties = partiesOf(state, [W])
    const b = buildDraft(
      { ...form(state, parties, { action: 'add' }), newMember: `signer:${W.id}` },
      { state, parties, clientTimestampNs: T0 },
    )
    expect(b.problems).toContainEqual(expect.stringMatching(/IDENT-040/))
  })
  it('shows the core rule when an installation approves an installation (IDENT-041)', async () => {
    const state = await inbox()
    const parties = partiesOf(state, [I2])
    const f = {
      ...form(state, parties, { action: 'add' }),
      existing: `member:${memberKey(inst1.identifier)}`,
      newMember: `signer:${I2.id}`,
    }
    const { dry, gate } = await gateOf(state, parties, f)
    expect(dry!.ok).toBe(false)
    if (!dry!.ok) expect(dry!.rule).toBe('IDENT-041')
    expect(gate.reason).toMatch(/IDENT-041/)
  })
  it('keeps Sign disabled and names the missing signer when this browser holds none for the approver', async () => {
    const state = await inbox()
    const parties = partiesOf(state, [P])
    const f = {
      ...form(state, parties, { action: 'add' }),
      existing: `member:${memberKey(wallet.identifier)}`,
      newMember: `signer:${P.id}`,
    }
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
    const state = await inbox()
    const parties = partiesOf(state, [W])
    const f = form(state, parties, { action: 'revoke', revokeTarget: memberKey(wallet.identifier) })
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
    const state = await inbox()
    const parties = partiesOf(state, [W])
    const f = form(state, parties, { action: 'revoke', revokeTarget: memberKey(inst1.identifier) })
    const { build, dry } = await gateOf(state, parties, f)
    expect(build.draft!.text).toContain(`(ID: ${inst1.identifier.text})`)
    expect(dry!.ok).toBe(true)
  })
})

describe('buildDraft: ChangeRecoveryAddress', () => {
  it('rotates to a passkey that is not a member: no chain id, and a confirmation naming it', async () => {
    const state = await inbox()
    const parties = partiesOf(state, [W, P])
    const f = form(state, parties, { action: 'change_recovery_address', recoveryTarget: `signer:${P.id}` })
    const { build, dry, gate } = await gateOf(state, parties, f)
    expect(build.recoveryChain!.isMember).toBe(false)
    expect(build.recoveryChain!.chainId).toBeNull()
    expect(build.confirmation).toContain(`passkey ${passkey.identifier.text} becomes the recovery identifier`)
    expect(build.draft!.text).toContain(`- Change inbox recovery address\n  (Address: ${passkey.identifier.text})`)
    expect(dry!.ok && dry!.diff.recovery!.after.id).toEqual(passkey.identifier)
    expect(gate.reason).toMatch(/confirm/)
  })
  it('takes a typed identifier and shows the core rule when it is not lowercase (IDENT-013)', async () => {
    const state = await inbox()
    const parties = partiesOf(state, [W])
    const typed = `0x${'AB'.repeat(20)}`
    const f = form(state, parties, { action: 'change_recovery_address', recoveryTarget: TYPED, recoveryTyped: typed })
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
    const state = await inbox()
    const parties = partiesOf(state, [W])
    const ok = await gateOf(state, parties, form(state, parties, { action: 'claim_handle', handle: 'nick#2341' }))
    expect(ok.build.draft!.text).toContain('- Claim handle\n  (Handle: nick#2341)')
    expect(ok.gate.enabled).toBe(true)
    const bad = await gateOf(state, parties, form(state, parties, { action: 'claim_handle', handle: 'Nick' }))
    expect(bad.build.claim!.valid).toBe(false)
    expect(bad.build.claim!.problem).toMatch(/uppercase/)
    expect(bad.dry!.ok).toBe(false)
    if (!bad.dry!.ok) expect(bad.dry!.rule).toBe('IDENT-078')
    expect(bad.gate.enabled).toBe(false)
  })
  it('shows a claim of a held handle as moving it to the end (IDENT-082)', async () => {
    const base = await inbox()
    const state: AssociationState = { ...base, handles: ['nick', 'nick#2341'], claimCount: 2 }
    const parties = partiesOf(state, [W])
    const { build, dry } = await gateOf(
      state,
      parties,
      form(state, parties, { action: 'claim_handle', handle: 'nick' }),
    )
    expect(build.claim!.alreadyHeld).toBe(true)
    expect(build.claim!.handlesAfter).toEqual(['nick#2341', 'nick'])
    expect(build.claim!.summary).toMatch(/moves it to the end/)
    expect(dry!.ok && dry!.diff.displayHandle).toEqual({ before: 'nick#2341', after: 'nick' })
  })
  it('asks for a handle and a signer', async () => {
    const state = await inbox()
    const b = buildDraft(form(state, [], { action: 'claim_handle' }), { state, parties: [], clientTimestampNs: T0 })
    expect(b.problems).toEqual(['type the handle to claim', 'choose the member who signs the claim'])
  })
})

describe('slotViews', () => {
  it('shows the collector status of each slot, naming a wallet that signed with another account', async () => {
    const state = await inbox()
    const impostor: Signer = { ...wallet, sign: (t) => other.sign(t) } // a wallet answering with another account
    const W2 = app('wallet', impostor, 'E2E Wallet')
    const parties = partiesOf(state, [W2, I2])
    const { build } = await gateOf(state, parties, form(state, parties, { action: 'add' }))
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
    const state = await inbox()
    // This browser holds only a passkey that is not a member: no member can approve or claim.
    const parties = partiesOf(state, [P])
    const f = form(state, parties, { action: 'claim_handle', handle: 'nick' })
    expect(f.claimer).toBe('')
    expect(f.existing).toBe('')
    const b = buildDraft(f, { state, parties, clientTimestampNs: T0 })
    expect(b.problems).toEqual(['choose the member who signs the claim'])
    // A member chosen by the person stays chosen.
    const chosen = form(state, parties, { action: 'claim_handle', claimer: `member:${memberKey(wallet.identifier)}` })
    expect(chosen.claimer).toBe(`member:${memberKey(wallet.identifier)}`)
  })
  it('explains a missing passkey signer without its 130 hex characters', async () => {
    const state = await inbox()
    const withPk = partiesOf(state, [P])
    const f = {
      ...form(state, withPk, { action: 'add' }),
      existing: `member:${memberKey(wallet.identifier)}`,
      newMember: `signer:${P.id}`,
    }
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
    const state = await inbox()
    const parties = partiesOf(state, [W])
    const f = form(state, parties, { action: 'claim_handle', handle: 'nick' })
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
