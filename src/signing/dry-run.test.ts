import { describe, expect, it } from 'vitest'
import { utf8 } from '../crypto'
import { stateReport } from '../core/report'
import { memberKey, type AssociationState } from '../core/types'
import {
  addMember,
  changeRecovery,
  claimHandle,
  createInbox,
  draftUpdate,
  revokeMember,
  signDraft,
  type Draft,
} from './draft'
import { draftDiff, dryRun, previewClaim, previewRecoveryChain, previewRevocationCascade } from './dry-run'
import { plannedSigner } from './roles'
import { installationKeySigner, passkeySigner, smartWalletSigner, type Signer } from './signers'
import {
  applySigned,
  buildState,
  fakeSmartWallets,
  T0,
  testKey,
  testSmartWallet,
  W1,
  W2,
  W3,
  I1,
  I2,
  I3,
} from './testkit'

const P1 = passkeySigner(testKey('p1'), { origin: 'https://inbox.example' })
const SW = testSmartWallet('sw', 8453n)

/** A signer that fails the test if it is ever asked: the dry run must never ask. */
function untouchable(s: Signer): Signer {
  const refuse = () => Promise.reject(new Error(`dry run asked ${s.identifier.text} to sign`))
  return Object.assign(Object.create(null) as object, s, { sign: refuse }) as Signer
}
const [w1, w2, w3, i1] = [W1, W2, W3, I1].map(untouchable) as [Signer, Signer, Signer, Signer]

/** W1 created the inbox; W1 added I1, W2 and P1; W2 added I2 and I3. */
let base: AssociationState
async function baseState(): Promise<AssociationState> {
  base ??= await buildState([
    () => ({ clientTimestampNs: T0, actions: [createInbox(W1), addMember(W1, I1)] }),
    (s) => ({ inboxId: s!.inboxId, clientTimestampNs: T0 + 1n, actions: [addMember(W1, W2)] }),
    (s) => ({
      inboxId: s!.inboxId,
      clientTimestampNs: T0 + 2n,
      actions: [addMember(W2, I2), addMember(W2, I3), addMember(W1, P1)],
    }),
  ])
  return base
}

const on = (state: AssociationState | null, actions: Parameters<typeof draftUpdate>[0]['actions']): Draft =>
  state
    ? draftUpdate({ inboxId: state.inboxId, clientTimestampNs: T0 + 100n, actions })
    : draftUpdate({ clientTimestampNs: T0, actions })

/** The dry run's predicted state equals what the core derives from the really signed update (seen keys aside). */
/** The dry run of `actions` on `state`, which must accept them. */
async function accepted(state: AssociationState, actions: Parameters<typeof on>[1]) {
  const r = await dryRun(state, on(state, actions))
  expect(r.ok).toBe(true)
  if (!r.ok) throw new Error(`refused: ${r.message}`)
  return r
}

/** The dry run of `actions` on `state` refuses it under `rule`, at `actionIndex` (null: the update as a whole). */
async function expectRefused(
  state: AssociationState,
  actions: Parameters<typeof on>[1],
  rule: string,
  actionIndex: number | null = 0,
): Promise<void> {
  expect(await dryRun(state, on(state, actions))).toMatchObject({ ok: false, rule, actionIndex })
}

async function expectPredictionMatchesSigning(state: AssociationState | null, draft: Draft): Promise<void> {
  const dry = await dryRun(state, draft)
  if (!dry.ok) throw new Error(`expected ok, got ${dry.rule}: ${dry.message}`)
  const real = await applySigned(state, await signDraft(draft), dry.after.sequenceId, fakeSmartWallets)
  const strip = (s: AssociationState) => ({ ...stateReport(s), seen_replay_keys: s.seen.size })
  expect(strip(dry.after)).toEqual(strip(real))
}

describe('dryRun', () => {
  it('reports the exact signature text and its UTF-8 length before any signer is asked', async () => {
    const d = on(null, [createInbox(w1), addMember(w1, i1)])
    const r = await dryRun(null, d)
    expect(r.text).toBe(d.text)
    expect(r.utf8Length).toBe(utf8(d.text).length)
    expect(r.signatures.map((s) => [s.actionIndex, s.role, s.signer.text, s.chainId, s.source])).toEqual([
      [0, 'initial_identifier_signature', W1.identifier.text, null, 'planned'],
      [1, 'existing_member_signature', W1.identifier.text, null, 'planned'],
      [1, 'new_member_signature', I1.identifier.text, null, 'planned'],
    ])
  })

  describe('CreateInbox', () => {
    it('ok: a new inbox with the creator as only member and recovery identifier (IDENT-012), its diff and predicted state', async () => {
      const d = on(null, [createInbox(w1)])
      const r = await dryRun(null, d)
      expect(r.ok).toBe(true)
      if (!r.ok) return
      expect(r.after.inboxId).toBe(d.inboxId)
      expect(r.diff.created).toBe(true)
      expect(r.diff.membersAdded.map((m) => m.id.text)).toEqual([W1.identifier.text])
      expect(r.diff.recovery?.after.id.text).toBe(W1.identifier.text)
      expect(r.diff.replayKeysAdded).toBe(1)
      await expectPredictionMatchesSigning(null, on(null, [createInbox(W1), addMember(W1, I1)]))
    })

    it('fails IDENT-011 on an inbox that already has state', async () => {
      const s = await baseState()
      const r = await dryRun(s, draftUpdate({ inboxId: s.inboxId, clientTimestampNs: T0, actions: [createInbox(w1)] }))
      expect(r).toMatchObject({ ok: false, rule: 'IDENT-011', actionIndex: 0 })
    })

    it('fails IDENT-012 when the initial identifier is not its signer', async () => {
      const r = await dryRun(null, on(null, [createInbox(w1, { initialIdentifier: W2.identifier.text })]))
      expect(r).toMatchObject({ ok: false, rule: 'IDENT-012', actionIndex: 0 })
    })
  })

  describe('AddAssociation', () => {
    it('ok: adds the member with its adder (IDENT-042); the prediction matches the signed update', async () => {
      const s = await baseState()
      const r = await accepted(s, [addMember(w1, w3)])
      const added = r.diff.membersAdded
      expect(added.map((m) => [m.id.text, m.adder?.text])).toEqual([[W3.identifier.text, W1.identifier.text]])
      expect(r.after.sequenceId).toBe(s.sequenceId + 1n)
      await expectPredictionMatchesSigning(s, on(s, [addMember(W1, W3)]))
    })

    it('fails IDENT-040 when the existing signer is neither a member nor the recovery identifier', async () => {
      const s = await baseState()
      const r = await dryRun(s, on(s, [addMember(w3, installationKeySigner(testKey('i9')))]))
      expect(r).toMatchObject({ ok: false, rule: 'IDENT-040', actionIndex: 0 })
      if (!r.ok) expect(r.message).toContain(W3.identifier.text)
    })

    it('fails IDENT-040 when the new member is already a member', async () => {
      const s = await baseState()
      await expectRefused(s, [addMember(w1, i1)], 'IDENT-040')
    })

    it('fails IDENT-041 when an installation adds an installation', async () => {
      const s = await baseState()
      await expectRefused(s, [addMember(i1, installationKeySigner(testKey('i9')))], 'IDENT-041')
    })

    it('names the failing action of a multi-action draft (IDENT-002: nothing applies)', async () => {
      const s = await baseState()
      await expectRefused(s, [addMember(w1, w3), addMember(i1, installationKeySigner(testKey('i9')))], 'IDENT-041', 1)
    })

    it('records a smart contract wallet member with its chain id, from the signer kind', async () => {
      const s = await baseState()
      const r = await accepted(s, [addMember(w1, SW)])
      expect(r.signatures[1]).toMatchObject({ role: 'new_member_signature', kind: 'erc_6492', chainId: 8453n })
      expect(r.diff.membersAdded[0]?.chainId).toBe(8453n)
      await expectPredictionMatchesSigning(s, on(s, [addMember(W1, SW)]))
    })

    it('refuses to guess the chain of a smart wallet signer that states none', async () => {
      const s = await baseState()
      const bare = smartWalletSigner({
        chainId: 1n,
        address: `0x${'1'.repeat(40)}`,
        blockNumber: 1n,
        signature: () => new Uint8Array(1),
      })
      await expect(dryRun(s, on(s, [addMember(w1, bare)]))).rejects.toThrow(/chain id/)
      const r = await dryRun(s, on(s, [addMember(w1, bare)]), { chainIdOf: () => 1n })
      expect(r.ok).toBe(true)
    })
  })

  describe('RevokeAssociation', () => {
    it('ok: removes the member and every installation it added (IDENT-044), as previewRevocationCascade says', async () => {
      const s = await baseState()
      const r = await accepted(s, [revokeMember(W2, w1)])
      const removed = r.diff.membersRemoved.map((m) => m.id.text).sort()
      expect(removed).toEqual([W2.identifier.text, I2.identifier.text, I3.identifier.text].sort())
      const preview = previewRevocationCascade(s, W2)
      expect(preview.removed.map((m) => m.id.text).sort()).toEqual(removed)
      expect(preview.installations.map((m) => m.id.text).sort()).toEqual(
        [I2.identifier.text, I3.identifier.text].sort(),
      )
      await expectPredictionMatchesSigning(s, on(s, [revokeMember(W2, W1)]))
    })

    it('fails IDENT-043 when the signer is not the recovery identifier', async () => {
      const s = await baseState()
      await expectRefused(s, [revokeMember(I1, w2)], 'IDENT-043')
    })
  })

  describe('ChangeRecoveryAddress', () => {
    it('ok: the recovery identifier becomes the passkey, members unchanged (IDENT-045)', async () => {
      const s = await baseState()
      const r = await accepted(s, [changeRecovery(P1, w1)])
      expect(r.diff.recovery).toMatchObject({
        before: { id: W1.identifier },
        after: { id: P1.identifier, chainId: null },
      })
      expect(r.diff.membersAdded).toEqual([])
      expect(r.diff.membersRemoved).toEqual([])
      await expectPredictionMatchesSigning(s, on(s, [changeRecovery(P1, W1)]))
    })

    it('fails IDENT-045 when the signer is not the recovery identifier', async () => {
      const s = await baseState()
      await expectRefused(s, [changeRecovery(W3, w2)], 'IDENT-045')
    })

    it('fails IDENT-031 when the recovery identifier is a passkey and a wallet key signs for it', async () => {
      const s = await buildState([() => ({ clientTimestampNs: T0, actions: [createInbox(P1)] })])
      await expectRefused(s, [changeRecovery(W1, w1)], 'IDENT-031')
    })
  })

  describe('ClaimHandle', () => {
    it('ok: the handle joins the end as display handle and the claim count grows (IDENT-082)', async () => {
      const s = await baseState()
      const r = await accepted(s, [claimHandle('nick', i1)])
      expect(r.diff.handles).toEqual({ before: [], after: ['nick'] })
      expect(r.diff.displayHandle).toEqual({ before: null, after: 'nick' })
      expect(r.diff.claimCount).toEqual({ before: 0, after: 1 })
      await expectPredictionMatchesSigning(s, on(s, [claimHandle('nick', I1)]))
    })

    it('fails IDENT-078 for a handle outside the grammar', async () => {
      const s = await baseState()
      await expectRefused(s, [claimHandle('Nick', w1)], 'IDENT-078')
    })

    it('fails IDENT-079 when a claim shares its update', async () => {
      const s = await baseState()
      await expectRefused(s, [claimHandle('nick', w1), addMember(w1, w3)], 'IDENT-079', null)
    })

    it('fails IDENT-080 at 64 claims', async () => {
      const s = { ...(await baseState()), claimCount: 64 }
      await expectRefused(s, [claimHandle('nick', w1)], 'IDENT-080')
    })

    it('fails IDENT-081 when the signer is not a current member', async () => {
      const s = await baseState()
      await expectRefused(s, [claimHandle('nick', w3)], 'IDENT-081')
    })

    it('fails IDENT-046 when a smart wallet member signs on another chain than it was added on', async () => {
      const s = await buildState(
        [
          () => ({ clientTimestampNs: T0, actions: [createInbox(W1)] }),
          (st) => ({ inboxId: st!.inboxId, clientTimestampNs: T0 + 1n, actions: [addMember(W1, SW)] }),
        ],
        fakeSmartWallets,
      )
      const sameAddressOtherChain = plannedSigner(SW.identifier, { kind: 'erc_6492', chainId: 1n })
      await expectRefused(s, [claimHandle('nick', sameAddressOtherChain)], 'IDENT-046')
      expect((await dryRun(s, on(s, [claimHandle('nick', SW)]))).ok).toBe(true)
    })
  })

  it('works with planned signers (identifier and kind only), which are never asked', async () => {
    const s = await baseState()
    const r = await dryRun(
      s,
      on(s, [addMember(plannedSigner(W1.identifier), plannedSigner(P1.identifier, { origin: 'https://x.example' }))]),
    )
    expect(r).toMatchObject({ ok: false, rule: 'IDENT-040' }) // P1 is already a member
    const q = await dryRun(s, on(s, [addMember(plannedSigner(W1.identifier), plannedSigner(W3.identifier))]))
    expect(q.ok).toBe(true)
  })

  it('verifies a signature the draft already carries (raw override) for real, instead of assuming it', async () => {
    const s = await baseState()
    const other = await W1.sign('some other text')
    const r = await dryRun(s, on(s, [claimHandle('nick', w1, { signature: { raw: other } })]))
    expect(r).toMatchObject({ ok: false, rule: 'IDENT-081', actionIndex: 0 })
    // The raw signature recovers to some unrelated address, which is not a member (IDENT-081):
    // the dry run judged the carried signature, not the planned signer.
    if (!r.ok) expect(r.signatures[0]?.source).toBe('carried')
    const good = await W1.sign(on(s, [claimHandle('nick', w1)]).text)
    expect((await dryRun(s, on(s, [claimHandle('nick', w1, { signature: { raw: good } })]))).ok).toBe(true)
  })

  it('predicts IDENT-030 for a signer the draft has sign another text', async () => {
    const s = await baseState()
    await expectRefused(s, [claimHandle('nick', w1, { signature: { over: { clientTimestampNs: 5n } } })], 'IDENT-030')
  })

  it('fails IDENT-003 when the draft names another inbox than the state', async () => {
    const s = await baseState()
    const r = await dryRun(
      s,
      draftUpdate({ inboxId: 'f'.repeat(64), clientTimestampNs: T0, actions: [claimHandle('nick', w1)] }),
    )
    expect(r).toMatchObject({ ok: false, rule: 'IDENT-003', actionIndex: null })
  })

  it('never mutates the state it runs against', async () => {
    const s = await baseState()
    const before = stateReport(s)
    await dryRun(s, on(s, [revokeMember(W2, w1)]))
    await dryRun(s, on(s, [claimHandle('nick', w1)]))
    expect(stateReport(s)).toEqual(before)
  })
})

describe('previewRevocationCascade', () => {
  it('IDENT-044: lists the installations the member added, and nothing else', async () => {
    const s = await baseState()
    const c = previewRevocationCascade(s, W1)
    expect(c.member?.id.text).toBe(W1.identifier.text)
    expect(c.installations.map((m) => m.id.text)).toEqual([I1.identifier.text])
    expect(c.keepsRecoveryRole).toBe(true)
    expect(c.summary).toMatch(/removes ethereum 0x.* and 1 installation it added; it stays the recovery identifier/)
  })

  it('IDENT-044: a non-member target still removes the installations it added', async () => {
    const s = await baseState()
    const c = previewRevocationCascade(s, { kind: 'ethereum', address: W3.identifier.text })
    expect(c.member).toBeNull()
    expect(c.removed).toEqual([])
    expect(c.summary).toMatch(/is not a member and no installation/)
  })

  it('accepts a carried MemberIdentifier or a MemberId', async () => {
    const s = await baseState()
    expect(previewRevocationCascade(s, W2.identifier).installations).toHaveLength(2)
    expect(previewRevocationCascade(s, I1.identifier).installations).toHaveLength(0)
  })
})

describe('previewRecoveryChain', () => {
  it('IDENT-045: a current member gives the role its recorded chain id', async () => {
    const s = await buildState(
      [
        () => ({ clientTimestampNs: T0, actions: [createInbox(W1)] }),
        (st) => ({ inboxId: st!.inboxId, clientTimestampNs: T0 + 1n, actions: [addMember(W1, SW)] }),
      ],
      fakeSmartWallets,
    )
    const p = previewRecoveryChain(s, SW)
    expect(p).toMatchObject({ isMember: true, chainId: 8453n })
    expect(p.explanation).toContain('eip155:8453')
    const dry = await dryRun(s, on(s, [changeRecovery(SW.identifier.text, W1)]))
    expect(dry.ok && dry.after.recovery.chainId).toBe(8453n)
  })

  it('IDENT-045: an identifier that is not a member gives the role no chain id', async () => {
    const s = await baseState()
    expect(previewRecoveryChain(s, W3.identifier.text)).toMatchObject({
      isMember: false,
      chainId: null,
      id: W3.identifier,
    })
    expect(previewRecoveryChain(s, P1)).toMatchObject({ isMember: true, chainId: null })
  })
})

describe('previewClaim', () => {
  it('IDENT-078: says why a handle is refused', () => {
    expect(previewClaim(null, 'Nick')).toMatchObject({
      valid: false,
      ok: false,
      problem: expect.stringContaining('uppercase'),
    })
    expect(previewClaim(null, 'nick#12')).toMatchObject({
      valid: false,
      problem: expect.stringContaining('four digits'),
    })
  })

  it('shows a claim of a held handle as moving it to the end (IDENT-082), and the claims left of 64 (IDENT-080)', async () => {
    let s = await baseState()
    s = { ...s, handles: ['nick', 'nick#2341'], claimCount: 2 }
    const p = previewClaim(s, 'nick')
    expect(p).toMatchObject({
      valid: true,
      ok: true,
      alreadyHeld: true,
      alreadyDisplay: false,
      claimsLeft: 62,
      handlesAfter: ['nick#2341', 'nick'],
    })
    expect(p.summary).toContain('moves it to the end')
    expect(previewClaim(s, 'nick#2341')).toMatchObject({ alreadyDisplay: true, handlesAfter: ['nick', 'nick#2341'] })
    expect(previewClaim({ ...s, claimCount: 64 }, 'other')).toMatchObject({ ok: false, claimsLeft: 0 })
    expect(previewClaim(null, 'nick')).toMatchObject({ valid: true, ok: false })
  })
})

describe('draftDiff', () => {
  it('is empty between a state and itself', async () => {
    const s = await baseState()
    expect(draftDiff(s, s)).toMatchObject({
      created: false,
      membersAdded: [],
      membersRemoved: [],
      recovery: null,
      handles: null,
      replayKeysAdded: 0,
    })
    expect(s.members.has(memberKey(W1.identifier))).toBe(true)
  })
})
