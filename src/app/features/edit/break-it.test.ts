import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sha256 } from '../../../crypto/hash'
import { utf8 } from '../../../crypto/bytes'
import { applyEdits, editableEntries } from '../../../core/encode/edit'
import { encodeBundleJson } from '../../../core/encode/update'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import type { Trace } from '../../../core/trace'
import type { InboxLog } from '../../../core/types'
import { ethKeySigner, installationKeySigner } from '../../../signing/signers'
import { BREAK_ITS, type BreakId, type BreakSigners, type EditBase } from './break-it'

const fixture = (name: string): InboxLog =>
  readLogs(new Uint8Array(readFileSync(new URL(`../../../../test/fixtures/${name}.json`, import.meta.url))), name)[0]!

/** The fixture generator's keys (scripts/gen-fixtures.ts): sha256 of `fixture-key-<label>`. */
const fixtureKey = (label: string): Uint8Array => sha256(utf8(`fixture-key-${label}`))

function baseOf(t: Trace): EditBase {
  return {
    steps: t.steps,
    head: t.head ? { members: new Set(t.head.members.keys()), recovery: t.head.recovery.id } : null,
  }
}

let fresh = 0
const noKeys: BreakSigners = {
  held: [],
  freshInstallation: () => installationKeySigner(fixtureKey(`fresh-${fresh++}`)),
}

const byId = (id: BreakId) => BREAK_ITS.find((b) => b.id === id)!

/** Builds the break-it on the log, applies its operations with the core's edit, replays, and returns the target's verdict. */
async function breakAndReplay(log: InboxLog, id: BreakId, signers: BreakSigners = noKeys) {
  const r = await byId(id).build(baseOf(await replay(log)), signers)
  if (!r.ok) throw new Error(`not available: ${r.reason}`)
  const entries = applyEdits(editableEntries(log), r.plan.ops)
  const bundle = encodeBundleJson({
    ...(log.inboxId ? { inboxId: log.inboxId } : {}),
    updates: entries.map((e) => ({ sequenceId: e.sequenceId, bytes: e.bytes! })),
  })
  const edited = await replay(readLogs(bundle, 'edited.json')[0]!)
  const step = edited.steps.find((s) => s.sequenceId === r.plan.target)!
  const before = edited.steps.filter((s) => s.sequenceId < r.plan.target)
  return { plan: r.plan, step, before, edited }
}

describe('BREAK_ITS', () => {
  const log = fixture('valid-full-life')

  it('IDENT-050: replaying a revoked member’s add is refused by its seen replay keys', async () => {
    const { plan, step, before } = await breakAndReplay(log, 'replay-add')
    expect(plan.ops).toEqual([{ op: 'duplicate', seq: 8n, to: 14n }])
    expect(step.status).toBe('rejected')
    expect(step.rule).toBe('IDENT-050')
    expect(plan.expect).toBe('IDENT-050')
    expect(before.every((s) => s.status === 'applied')).toBe(true)
  })

  it('IDENT-041: an installation that adds an installation, signed with a held member key, is refused', async () => {
    const w2 = ethKeySigner(fixtureKey('wallet-2')) // the recovery identifier at the head of valid-full-life
    const { plan, step, edited } = await breakAndReplay(log, 'installation-adds-installation', {
      ...noKeys,
      held: [w2],
    })
    expect(plan.target).toBe(15n)
    // The held wallet's add of a fresh installation applies; that installation's add of another is refused.
    expect(edited.steps.find((s) => s.sequenceId === 14n)!.status).toBe('applied')
    expect(step.rule).toBe('IDENT-041')
    expect(step.signatures.every((c) => c.verdict === 'valid')).toBe(true)
  })

  it('IDENT-041: a held installation of the inbox adds a fresh one in a single update', async () => {
    const i4 = installationKeySigner(fixtureKey('installation-4'))
    const { plan, step } = await breakAndReplay(log, 'installation-adds-installation', { ...noKeys, held: [i4] })
    expect(plan.target).toBe(14n)
    expect(step.rule).toBe('IDENT-041')
  })

  it('IDENT-041: disabled with the reason when this browser holds no key of the inbox', async () => {
    const stranger = ethKeySigner(fixtureKey('wallet-4'))
    const r = await byId('installation-adds-installation').build(baseOf(await replay(log)), {
      ...noKeys,
      held: [stranger],
    })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.reason).toMatch(/import one in Signers/)
  })

  it('IDENT-020: one character of the inbox id changes the text, so the signatures no longer verify (IDENT-030)', async () => {
    const { plan, step } = await breakAndReplay(log, 'text-inbox-id')
    expect(step.rule).toBe('IDENT-030')
    expect(step.signatureText).not.toBe(null)
    const original = (await replay(log)).steps.find((s) => s.sequenceId === plan.target)!.signatureText!
    // Exactly one character of the text differs.
    expect(step.signatureText!.length).toBe(original.length)
    expect([...original].filter((c, k) => c !== step.signatureText![k]).length).toBe(1)
  })

  it('IDENT-078: a handle with a capital letter is refused', async () => {
    const { plan, step } = await breakAndReplay(log, 'capital-handle')
    expect(plan.target).toBe(7n)
    expect(step.rule).toBe('IDENT-078')
    expect(step.update!.actions[0]).toMatchObject({ kind: 'claim_handle', handle: 'Nick' })
  })

  it('IDENT-043: a revocation signed by a member that is not the recovery identifier is refused', async () => {
    const { plan, step } = await breakAndReplay(log, 'revoke-by-member')
    expect(plan.ops).toEqual([{ op: 'drop', seq: 9n }])
    expect(step.sequenceId).toBe(10n)
    expect(step.rule).toBe('IDENT-043')
  })

  it('high s: the re-encoded signature verifies, and its canonical replay key is caught by IDENT-050', async () => {
    const { step } = await breakAndReplay(log, 'high-s')
    expect(step.rule).toBe('IDENT-050')
    const existing = step.signatures.find((c) => c.role === 'existing_member_signature')!
    expect(existing.verdict).toBe('valid')
    expect(step.message).toMatch(/existing member signature/)
  })

  it('each builder is disabled with a reason when its target is missing', async () => {
    // IDENT-043-revoke-by-non-recovery stops at sequence id 3 and has no claim or recovery change.
    const stopped = baseOf(await replay(fixture('IDENT-043-revoke-by-non-recovery')))
    for (const id of [
      'replay-add',
      'high-s',
      'installation-adds-installation',
      'capital-handle',
      'revoke-by-member',
    ] as const) {
      const r = await byId(id).build(stopped, noKeys)
      expect(r.ok, id).toBe(false)
      if (!r.ok) expect(r.reason.length, id).toBeGreaterThan(20)
    }
    const r = await byId('replay-add').build(stopped, noKeys)
    if (!r.ok) expect(r.reason).toMatch(/stops at sequence id 3/)
  })
})
