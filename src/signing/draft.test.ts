import { describe, expect, it } from 'vitest'
import { bytesToHex, sha256, utf8 } from '../crypto'
import { decodeUpdate } from '../core/decode/update'
import { deriveInboxId } from '../core/inbox-id'
import { signatureText } from '../core/text/signature-text'
import { verifyUpdate } from '../core/verify/update'
import { IdentifierKindValue, type WireSignature } from '../core/types'
import {
  addMember,
  changeRecovery,
  claimHandle,
  createInbox,
  draftText,
  draftUpdate,
  inboxIdOf,
  revokeMember,
  signDraft,
  signUpdate,
} from './draft'
import { ethKeySigner, installationKeySigner, passkeySigner } from './signers'

const key = (label: string): Uint8Array => sha256(utf8(`draft test key ${label}`))
const W1 = ethKeySigner(key('w1'))
const W2 = ethKeySigner(key('w2'))
const I1 = installationKeySigner(key('i1'))
const P1 = passkeySigner(key('p1'), { origin: 'https://inbox.example' })
const T = 1712750400000000000n

describe('draftUpdate', () => {
  it('derives the inbox id from the CreateInbox (IDENT-010) and builds the signature text before signing', () => {
    const d = draftUpdate({ clientTimestampNs: T, actions: [createInbox(W1, { nonce: 3n }), addMember(W1, I1)] })
    expect(d.inboxId).toBe(deriveInboxId(W1.identifier.text, 3n))
    expect(d.text).toBe(
      [
        'XMTP : Authenticate to inbox',
        '',
        `Inbox ID: ${d.inboxId}`,
        'Current time: 2024-04-10T12:00:00Z',
        '',
        '- Create inbox',
        `  (Owner: ${W1.identifier.text})`,
        '- Grant messaging access to app',
        `  (ID: ${I1.identifier.text})`,
        '',
        'For more info: https://xmtp.org/signatures',
      ].join('\n'),
    )
  })

  it('needs an inbox id when the first action is not a CreateInbox', () => {
    expect(() => draftUpdate({ clientTimestampNs: T, actions: [claimHandle('nick', W1)] })).toThrow(/inboxId/)
  })

  it('reads a client_timestamp_ns of 2^63 or more as before 1970, rounding down (IDENT-020)', () => {
    const d = draftUpdate({ inboxId: 'x', clientTimestampNs: (1n << 64n) - 1n, actions: [claimHandle('nick', W1)] })
    expect(d.text).toContain('Current time: 1969-12-31T23:59:59Z')
  })
})

describe('signDraft', () => {
  it('encodes an update that decodes to the signed fields, and every signature verifies to its signer over the text', async () => {
    const inboxId = inboxIdOf(W1)
    const s = await signUpdate({
      clientTimestampNs: T,
      actions: [createInbox(W1), addMember(W1, I1), addMember(I1, W2), addMember(W1, P1)],
    })
    const decoded = decodeUpdate(s.bytes)
    expect(decoded.inboxId).toBe(inboxId)
    expect(decoded.actions).toEqual(s.update.actions)
    expect(signatureText(decoded)).toBe(s.text)
    const v = await verifyUpdate(decoded)
    expect(v.text).toBe(s.text)
    expect(v.checks.map((c) => [c.actionIndex, c.role, c.verdict, c.signer?.text])).toEqual([
      [0, 'initial_identifier_signature', 'valid', W1.identifier.text],
      [1, 'existing_member_signature', 'valid', W1.identifier.text],
      [1, 'new_member_signature', 'valid', I1.identifier.text],
      [2, 'existing_member_signature', 'valid', I1.identifier.text],
      [2, 'new_member_signature', 'valid', W2.identifier.text],
      [3, 'existing_member_signature', 'valid', W1.identifier.text],
      [3, 'new_member_signature', 'valid', P1.identifier.text],
    ])
    // The replay keys it declares are the ones the verifier derives.
    expect(s.signatures.map((x) => x.replayKey)).toEqual(v.checks.map((c) => c.replayKey))
  })

  it('asks a signer once for one text: the creator wallet signs create and its first add with one signature', async () => {
    let calls = 0
    const counting = { ...W1, sign: (t: string) => (calls++, W1.sign(t)) }
    const s = await signUpdate({ clientTimestampNs: T, actions: [createInbox(counting), addMember(counting, I1)] })
    expect(calls).toBe(1)
    expect(s.signatures[0]!.signature).toEqual(s.signatures[1]!.signature)
  })

  it('names a passkey by its key with its origin as relying party, and a passkey recovery with kind PASSKEY', async () => {
    const s = await signUpdate({ inboxId: 'i', clientTimestampNs: T, actions: [addMember(W1, P1)] })
    const a = s.update.actions[0]!
    expect(a.kind === 'add' && a.newMemberIdentifier).toEqual({
      kind: 'passkey',
      key: P1.publicKey,
      relyingParty: 'https://inbox.example',
    })
    expect(a.kind === 'add' && a.relyingParty).toBe('https://inbox.example')
    const c = (await signUpdate({ inboxId: 'i', clientTimestampNs: T, actions: [changeRecovery(P1, W1)] })).update
      .actions[0]!
    expect(c.kind === 'change_recovery_address' && [c.newRecoveryIdentifier, c.newRecoveryIdentifierKind]).toEqual([
      P1.identifier.text,
      IdentifierKindValue.PASSKEY,
    ])
  })

  it('overrides: a raw signature, a signature over another text, a transformed signature, a mutated identifier', async () => {
    const raw: WireSignature = { kind: 'erc_191', bytes: new Uint8Array(65).fill(9) }
    const d = draftUpdate({
      inboxId: inboxIdOf(W1),
      clientTimestampNs: T,
      actions: [
        revokeMember(I1, W1, { signature: { raw } }),
        revokeMember(W2, W1, { signature: { over: { clientTimestampNs: T + 1_000_000_000n } } }),
        revokeMember({ kind: 'ethereum', address: W2.identifier.text.toUpperCase() }, W1, {
          signature: {
            transform: (sig) =>
              sig.kind === 'erc_191' ? { ...sig, bytes: sig.bytes.map((b, i) => (i === 64 ? b - 27 : b)) } : sig,
          },
        }),
      ],
    })
    const s = await signDraft(d)
    const a0 = s.update.actions[0]!
    const a1 = s.update.actions[1]!
    const a2 = s.update.actions[2]!
    expect(a0.kind === 'revoke' && a0.recoveryIdentifierSignature).toBe(raw)
    expect(s.signatures[0]!.signer).toBeNull()
    const other = draftText(d, { clientTimestampNs: T + 1_000_000_000n })
    expect(other).not.toBe(d.text)
    expect(a1.kind === 'revoke' && a1.recoveryIdentifierSignature).toEqual(await W1.sign(other))
    const plain = await W1.sign(d.text)
    if (plain.kind !== 'erc_191' || a2.kind !== 'revoke' || a2.recoveryIdentifierSignature.kind !== 'erc_191')
      throw new Error('kind')
    expect(a2.recoveryIdentifierSignature.bytes[64]).toBe(plain.bytes[64]! - 27)
    expect(a2.memberToRevoke).toEqual({ kind: 'ethereum', address: W2.identifier.text.toUpperCase() })
    expect(d.text).toContain(`(Address: ${W2.identifier.text.toUpperCase()})`)
  })

  it('is deterministic: the same draft signs to the same bytes', async () => {
    const input = { clientTimestampNs: T, actions: [createInbox(W1), addMember(W1, I1), addMember(W1, P1)] }
    expect(bytesToHex((await signUpdate(input)).bytes)).toBe(bytesToHex((await signUpdate(input)).bytes))
  })
})
