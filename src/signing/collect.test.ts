import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, signEip191 } from '../crypto'
import { decodeUpdate } from '../core/decode/update'
import { verifyUpdate } from '../core/verify/update'
import { walletSigner, type Eip1193Request } from './browser/wallet'
import { collectSignatures, createCollector, type RoleEntry } from './collect'
import { addMember, createInbox, draftUpdate, claimHandle } from './draft'
import { plannedSigner } from './roles'
import type { Signer } from './signers'
import { fakeSmartWallets, T0, testKey, testSmartWallet, W1, W2, I1 } from './testkit'

/** A fake EIP-1193 wallet that signs personal_sign with `key`, whatever account it is asked for. */
function fakeWallet(key: Uint8Array, log: string[] = []): Eip1193Request {
  return async ({ method, params }) => {
    log.push(method)
    if (method !== 'personal_sign') throw Object.assign(new Error('unsupported'), { code: 4200 })
    const [hex] = params as [string, string]
    return `0x${bytesToHex(signEip191(key, hexToBytes(hex)))}`
  }
}

const counting = (s: Signer, calls: string[]): Signer => ({
  ...s,
  sign: (t) => (calls.push(s.identifier.text), s.sign(t)),
})
const newInboxDraft = (authorizer: Signer, installation: Signer = I1) =>
  draftUpdate({ clientTimestampNs: T0, actions: [createInbox(authorizer), addMember(authorizer, installation)] })

const states = (roles: readonly RoleEntry[]) => roles.map((r) => `${r.actionIndex}:${r.role}=${r.status.state}`)

describe('collectSignatures', () => {
  it('asks each signer once, in the update order, reports every status change, and returns bytes the core verifies', async () => {
    const calls: string[] = []
    const changes: string[] = []
    const w1 = counting(W1, calls)
    const i1 = counting(I1, calls)
    const r = await collectSignatures(newInboxDraft(w1, i1), [], {
      onStatus: (_all, c) => changes.push(`${c.key}=${c.status.state}`),
    })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(calls).toEqual([W1.identifier.text, I1.identifier.text]) // the wallet signs create and add once
    expect(changes).toEqual([
      '0:initial_identifier_signature=requested',
      '1:existing_member_signature=requested',
      '0:initial_identifier_signature=signed',
      '1:existing_member_signature=signed',
      '1:new_member_signature=requested',
      '1:new_member_signature=signed',
    ])
    const v = await verifyUpdate(decodeUpdate(r.signed.bytes))
    expect(v.checks.every((c) => c.verdict === 'valid')).toBe(true)
    expect(r.signed.signatures.map((s) => s.signer?.text)).toEqual([
      W1.identifier.text,
      W1.identifier.text,
      I1.identifier.text,
    ])
  })

  it('catches a wallet that signed with another account, names it, submits nothing, and asks only that role again', async () => {
    const log: string[] = []
    // The app believes it talks to W1's account; the wallet signs with W2's key.
    const wrong = walletSigner(fakeWallet(testKey('w2'), log), W1.identifier.text)
    const draft = draftUpdate({ inboxId: 'a'.repeat(64), clientTimestampNs: T0, actions: [addMember(wrong, I1)] })
    const calls: string[] = []
    const c = createCollector(draft, [], {})
    const first = await c.run([counting(I1, calls)])
    expect(first.ok).toBe(false)
    if (first.ok) return
    expect('signed' in first).toBe(false)
    expect(first.failed.map((f) => f.role)).toEqual(['existing_member_signature'])
    const st = first.failed[0]!.status
    expect(st.state === 'failed' && st.code).toBe('wrong_signer')
    expect(st.state === 'failed' && st.reason).toContain(W2.identifier.text) // names the account that signed
    expect(st.state === 'failed' && st.reason).toContain(W1.identifier.text)
    expect(states(first.roles)).toEqual(['0:existing_member_signature=failed', '0:new_member_signature=missing'])
    expect(calls).toEqual([]) // stopped at the first failure: the installation was not asked
    // The user switches the wallet to the right account: run again with a signer for W1.
    const right = walletSigner(fakeWallet(testKey('w1'), log), W1.identifier.text)
    const second = await c.run([right])
    expect(second.ok).toBe(true)
    expect(calls).toEqual([I1.identifier.text])
    expect(log).toEqual(['personal_sign', 'personal_sign'])
  })

  it('reports a user rejection (EIP-1193 4001) per role, and leaves the others missing', async () => {
    const reject: Eip1193Request = async () => {
      throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
    }
    const r = await collectSignatures(newInboxDraft(walletSigner(reject, W1.identifier.text)))
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.failed.map((f) => [f.role, f.status.state === 'failed' && f.status.code])).toEqual([
      ['initial_identifier_signature', 'user_rejected'],
      ['existing_member_signature', 'user_rejected'],
    ])
    expect(r.missing.map((m) => m.role)).toEqual(['new_member_signature'])
  })

  it('reports a signer that does not answer in time as timeout', async () => {
    const never: Signer = { ...W1, sign: () => new Promise(() => {}) }
    const r = await collectSignatures(newInboxDraft(never), [], { timeoutMs: 20 })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.failed[0]!.status).toMatchObject({ state: 'failed', code: 'timeout' })
  })

  it('refuses a signature that does not verify over the text', async () => {
    const corrupt: Signer = { ...W1, sign: async () => ({ kind: 'erc_191', bytes: new Uint8Array(65).fill(7) }) }
    const r = await collectSignatures(newInboxDraft(corrupt))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.failed[0]!.status).toMatchObject({ state: 'failed', code: 'invalid_signature' })
    const otherText: Signer = { ...W1, sign: () => W1.sign('another text') }
    const q = await collectSignatures(newInboxDraft(otherText))
    // A signature over another text recovers to an unrelated address: caught as wrong_signer.
    if (!q.ok) expect(q.failed[0]!.status).toMatchObject({ state: 'failed', code: 'wrong_signer' })
  })

  it('replaces planned signers by supplied signers with the same identifier', async () => {
    const draft = newInboxDraft(plannedSigner(W1.identifier), plannedSigner(I1.identifier))
    const none = await collectSignatures(draft)
    expect(none.ok).toBe(false)
    if (!none.ok) expect(none.failed[0]!.status).toMatchObject({ code: 'no_signer' })
    const r = await collectSignatures(draft, [I1, W1])
    expect(r.ok).toBe(true)
  })

  it('asks every signer with continueAfterFailure, so the UI shows all that is still missing', async () => {
    const draft = newInboxDraft(plannedSigner(W1.identifier))
    const r = await collectSignatures(draft, [], { continueAfterFailure: true })
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(states(r.roles)).toEqual([
        '0:initial_identifier_signature=failed',
        '1:existing_member_signature=failed',
        '1:new_member_signature=signed',
      ])
  })

  it('verifies a smart contract wallet signature through the verifier port, and calls it unverifiable without one', async () => {
    const sw = testSmartWallet('sw', 8453n)
    const draft = draftUpdate({ clientTimestampNs: T0, actions: [createInbox(sw)] })
    expect((await collectSignatures(draft, [], { smartWallets: fakeSmartWallets })).ok).toBe(true)
    const r = await collectSignatures(draft)
    if (!r.ok) expect(r.failed[0]!.status).toMatchObject({ code: 'unverifiable' })
    else throw new Error('expected unverifiable')
  })

  it('refuses drafts with test-only overrides', () => {
    const d = draftUpdate({
      inboxId: 'a'.repeat(64),
      clientTimestampNs: T0,
      actions: [claimHandle('nick', W1, { signature: { over: { text: 'x' } } })],
    })
    expect(() => createCollector(d)).toThrow(/test override/)
  })
})
