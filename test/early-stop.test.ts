/**
 * Issue #14, finding 1: verification stops once a failed check decides an update's
 * verdict (src/core/judge-order.ts, verifyUntilDecided), and no verdict changes for it.
 * Compared over every fixture of the corpus and a signed log with one bad signature in
 * every position, update by update, with the smallest prefix (one signature, so every
 * round of the early stop is exercised) and the default one; replay with and without
 * the early stop (verifyAfterStop verifies everything) gives the same steps. The fuzz
 * target (src/core/fuzz.test.ts) checks the same property over mutated inputs. Work is
 * counted, never timed.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../src/core/apply/update'
import { readLogs } from '../src/core/decode/logs'
import { decodeUpdate } from '../src/core/decode/update'
import { signatureFreeRefusal, verifyUntilDecided } from '../src/core/judge-order'
import { replay } from '../src/core/replay'
import type { AssociationState, InboxLog, UnverifiedUpdate } from '../src/core/types'
import type { SmartWalletVerifier } from '../src/core/verify/port'
import { verifyUpdate, type UpdateVerifyOptions, type VerifiedUpdate } from '../src/core/verify/update'
import { FakeSmartWalletVerifier } from './fixtures/fake-smart-wallet'
import { countingBackend as counting } from './support/counting-backend'
import { signedBigUpdate } from './support/big-update'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** What applyUpdate decides: the verdict and what it records, never the signature checks. */
function verdict(state: AssociationState | null, v: VerifiedUpdate, seq: bigint) {
  try {
    const a = applyUpdate(state, v, seq)
    return { status: 'applied', state: a.state, actions: a.actions.length }
  } catch (e) {
    if (e instanceof RejectedUpdate) {
      const { rule, actionIndex, message, details } = e.violation
      return { status: 'rejected', rule, actionIndex, message, details, actions: e.actions.length }
    }
    if (e instanceof PendingUpdate) return { status: 'pending', message: e.message, actions: e.actions.length }
    throw e
  }
}

/** Every update of the log judged three or four ways; the state advances by the full verdict. */
async function compareLog(log: InboxLog, ctx: UpdateVerifyOptions): Promise<number> {
  let state: AssociationState | null = null
  let compared = 0
  const entries = [...log.entries].sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : 1))
  for (const e of entries) {
    if ('error' in e.update) break
    const u = e.update
    const full = verdict(state, await verifyUpdate(u, ctx), e.sequenceId)
    expect(verdict(state, await verifyUntilDecided(state, u, e.sequenceId, ctx, 1), e.sequenceId)).toEqual(full)
    expect(verdict(state, await verifyUntilDecided(state, u, e.sequenceId, ctx), e.sequenceId)).toEqual(full)
    // As replay calls it: after signatureFreeRefusal found no refusal, its first apply skipped.
    if (!signatureFreeRefusal(state, u)) {
      const skipped = await verifyUntilDecided(state, u, e.sequenceId, ctx, undefined, true)
      expect(verdict(state, skipped, e.sequenceId)).toEqual(full)
    }
    compared++
    if (full.status !== 'applied') break
    state = full.state as AssociationState
  }
  return compared
}

/** The verdict fields of every step of a replay (signature checks and text left out). */
async function steps(log: InboxLog, ctx: UpdateVerifyOptions & { verifyAfterStop?: boolean }) {
  const t = await replay(log, ctx)
  return {
    head: t.head,
    ok: t.ok,
    steps: t.steps.map((s) => ({
      seq: s.sequenceId,
      status: s.status,
      rule: s.rule,
      actionIndex: s.actionIndex,
      message: s.message,
      details: s.details,
      stateAfter: s.stateAfter,
    })),
  }
}

interface IndexEntry {
  readonly name: string
  readonly verifier: 'none' | 'fake'
  readonly files: { readonly bundle: string }
}
const fixtures = (
  JSON.parse(readFileSync(join(ROOT, 'test/fixtures/index.json'), 'utf8')) as { fixtures: IndexEntry[] }
).fixtures

/** A CreateInbox and `adds` installation adds; with `bad`, the signature at that add is corrupted. */
async function bigUpdate(adds: number, bad: number | null): Promise<UnverifiedUpdate> {
  const u = decodeUpdate(await signedBigUpdate('early-stop-', adds))
  if (bad === null) return u
  // The same update with one installation signature's bytes flipped (a valid form, a bad signature).
  const action = u.actions[bad + 1]!
  if (action.kind !== 'add' || action.newMemberSignature.kind !== 'installation_key') throw new Error('not an add')
  const sig = action.newMemberSignature
  const bytes = sig.bytes.slice()
  bytes[0]! ^= 1
  const actionsOut = u.actions.map((a, i) => (i === bad + 1 ? { ...action, newMemberSignature: { ...sig, bytes } } : a))
  return { ...u, actions: actionsOut }
}

describe('issue #14, finding 1: verification stops once a failed check decides the verdict', () => {
  it('finding 1: verification stops after a decided failure: a bad signature at add 5 of 300 verifies few signatures, same 409 rule', async () => {
    const u = await bigUpdate(300, 5)
    const full = counting()
    const verified = await verifyUpdate(u, { crypto: full.backend })
    const all = verdict(null, verified, 1n)
    expect(all).toMatchObject({ status: 'rejected', rule: 'IDENT-030', actionIndex: 6 })
    // 601 checks: the wallet's one signature, carried by the CreateInbox and by each of the 300
    // adds, is verified once (src/core/verify/update.ts); each installation signature once.
    expect(verified.checks.length).toBe(601)
    expect(full.count()).toBe(301)
    const early = counting()
    const v = await verifyUntilDecided(null, u, 1n, { crypto: early.backend })
    expect(verdict(null, v, 1n)).toEqual(all)
    // The prefix doubles from 16: the deciding signature (the 14th check) is in the first 16,
    // so at most 16 signatures are verified (fewer: the wallet's repeats are one signature).
    expect(early.count()).toBeGreaterThan(0)
    expect(early.count()).toBeLessThanOrEqual(16)
    expect(v.checks.slice(16).every((c) => c.verdict === 'unchecked' && /IDENT-030/.test(c.reason))).toBe(true)
  })

  it('finding 1: replay of a one-update log stops verifying at the deciding signature, with the same step', async () => {
    const u = await bigUpdate(300, 200)
    const log: InboxLog = { entries: [{ sequenceId: 1n, update: u }], format: 'single-update' }
    const early = counting()
    const a = await steps(log, { crypto: early.backend })
    const b = await steps(log, { verifyAfterStop: true })
    expect(a).toEqual(b)
    expect(a.steps[0]).toMatchObject({ status: 'rejected', rule: 'IDENT-030', actionIndex: 201 })
    // 16, 32, … 512 checks of 601 → fewer than the 301 distinct signatures full verification
    // checks, and at least the 201 installation signatures up to the deciding one.
    expect(early.count()).toBeLessThan(301)
    expect(early.count()).toBeGreaterThanOrEqual(201)
  })

  it('guard for finding 1: a bad signature in any position gives the verdict full verification gives', async () => {
    for (const bad of [null, 0, 1, 7, 8, 15, 16, 31, 39]) {
      const u = await bigUpdate(40, bad)
      const compared = await compareLog({ entries: [{ sequenceId: 1n, update: u }], format: 'single-update' }, {})
      expect(compared).toBe(1)
    }
  })

  it('guard for finding 1: early stop gives every fixture the same verdicts, update by update and through replay', async () => {
    let compared = 0
    for (const f of fixtures) {
      const file = join(ROOT, 'test/fixtures', f.files.bundle)
      const smartWallets: SmartWalletVerifier | undefined =
        f.verifier === 'fake' ? new FakeSmartWalletVerifier() : undefined
      const ctx = smartWallets ? { smartWallets } : {}
      for (const log of readLogs(new Uint8Array(readFileSync(file)), file)) {
        compared += await compareLog(log, ctx)
        expect(await steps(log, ctx), f.name).toEqual(await steps(log, { ...ctx, verifyAfterStop: true }))
      }
    }
    expect(compared).toBeGreaterThan(fixtures.length)
  })
})
