import { fromBinary, toBinary, toJson, create } from '@bufbuild/protobuf'
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { describe, expect, it } from 'vitest'
import { IdentityUpdateSchema } from '../../gen/identity/associations/association_pb'
import { concatBytes, utf8 } from '../../crypto/bytes'
import { RuleViolation } from '../errors'
import type { UnverifiedUpdate, WireAction, WireSignature } from '../types'
import { encodeUpdate } from '../encode/update'
import { JsonBigInt } from './json'
import { decodeUpdate, decodeUpdateFromJson } from './update'
import { checkWire } from './wire'
import { XMTPD_ROWS } from '../../../test/support/xmtpd-vectors'

// --- wire building helpers --------------------------------------------------------------
const ld = (no: number, body: Uint8Array) => new BinaryWriter().tag(no, WireType.LengthDelimited).bytes(body).finish()
const vi = (no: number, v: bigint | number) => new BinaryWriter().tag(no, WireType.Varint).uint64(v).finish()
const str = (no: number, s: string) => ld(no, utf8(s))
const cat = (...parts: Uint8Array[]) => concatBytes(...parts)
const raw = (...bytes: number[]) => new Uint8Array(bytes)

const ADDR = `0x${'11'.repeat(20)}`
const INBOX = 'ab'.repeat(32)
const erc191Sig = ld(1, ld(1, new Uint8Array(65).fill(7))) // Signature { erc_191 { bytes } }
const instSig = ld(3, cat(ld(1, new Uint8Array(64).fill(8)), ld(2, new Uint8Array(32).fill(9))))
const legacySig = ld(4, cat(ld(1, new Uint8Array(20).fill(5)), ld(2, erc191Sig))) // retired field 4
const instMember = ld(2, new Uint8Array(32).fill(9))
const createBody = (sig: Uint8Array = erc191Sig) => cat(str(1, ADDR), vi(2, 3), ld(3, sig))
const addBody = (member: Uint8Array = instMember, existing: Uint8Array = erc191Sig, next: Uint8Array = instSig) =>
  cat(ld(1, member), ld(2, existing), ld(3, next))
const revokeBody = (member: Uint8Array = instMember, sig: Uint8Array = erc191Sig) => cat(ld(1, member), ld(2, sig))
const changeBody = (sig: Uint8Array = erc191Sig) => cat(str(1, `0x${'22'.repeat(20)}`), ld(2, sig), vi(3, 1))
const claimBody = (sig: Uint8Array = erc191Sig) => cat(str(1, 'nick'), ld(2, sig))
const action = (kindNo: number, body: Uint8Array) => ld(kindNo, body)
const update = (actions: Uint8Array[], ts: bigint = 1712750400000000000n, inbox = INBOX) =>
  cat(...actions.map((a) => ld(1, a)), vi(2, ts), str(3, inbox))

function violation(bytes: Uint8Array): RuleViolation {
  try {
    decodeUpdate(bytes)
  } catch (e) {
    if (e instanceof RuleViolation) return e
    throw e
  }
  throw new Error('expected a RuleViolation, the update decoded')
}

// --- real-world vectors -----------------------------------------------------------------
const ROWS = XMTPD_ROWS.map((r) => ({ seq: Number(r.seq), bytes: r.bytes }))

// --- domain fixtures ----------------------------------------------------------------------
const sigE: WireSignature = { kind: 'erc_191', bytes: new Uint8Array(65).fill(1) }
const sigI: WireSignature = {
  kind: 'installation_key',
  bytes: new Uint8Array(64).fill(2),
  publicKey: new Uint8Array(32).fill(3),
}
const sigS: WireSignature = {
  kind: 'erc_6492',
  accountId: `eip155:1:0x${'44'.repeat(20)}`,
  blockNumber: 19_000_000n,
  signature: new Uint8Array([1, 2, 3]),
}
const sigP: WireSignature = {
  kind: 'passkey',
  publicKey: new Uint8Array(33).fill(4),
  signature: new Uint8Array(70).fill(5),
  authenticatorData: new Uint8Array(37).fill(6),
  clientDataJson: utf8('{"type":"webauthn.get"}'),
}
const ALL_ACTIONS: WireAction[] = [
  {
    kind: 'create_inbox',
    initialIdentifier: ADDR,
    nonce: 7n,
    initialIdentifierKind: 1,
    initialIdentifierSignature: sigE,
  },
  {
    kind: 'create_inbox',
    initialIdentifier: 'aa'.repeat(33),
    nonce: 0n,
    initialIdentifierKind: 2,
    relyingParty: 'example.com',
    initialIdentifierSignature: sigP,
  },
  {
    kind: 'add',
    newMemberIdentifier: { kind: 'installation', key: new Uint8Array(32).fill(3) },
    existingMemberSignature: sigE,
    newMemberSignature: sigI,
  },
  {
    kind: 'add',
    newMemberIdentifier: { kind: 'passkey', key: new Uint8Array(33).fill(4), relyingParty: 'example.com' },
    existingMemberSignature: sigS,
    newMemberSignature: sigP,
    relyingParty: 'example.com',
  },
  {
    kind: 'add',
    newMemberIdentifier: { kind: 'passkey', key: new Uint8Array(33).fill(4) },
    existingMemberSignature: sigI,
    newMemberSignature: sigP,
  },
  { kind: 'revoke', memberToRevoke: { kind: 'ethereum', address: ADDR }, recoveryIdentifierSignature: sigS },
  {
    kind: 'change_recovery_address',
    newRecoveryIdentifier: `0x${'22'.repeat(20)}`,
    newRecoveryIdentifierKind: 0,
    existingRecoveryIdentifierSignature: sigE,
  },
  {
    kind: 'change_recovery_address',
    newRecoveryIdentifier: 'bb'.repeat(33),
    newRecoveryIdentifierKind: 2,
    relyingParty: 'rp.example',
    existingRecoveryIdentifierSignature: sigP,
  },
  { kind: 'claim_handle', handle: 'nick#2341', signature: sigI },
]

function domain(u: UnverifiedUpdate) {
  return { inboxId: u.inboxId, clientTimestampNs: u.clientTimestampNs, actions: u.actions }
}

describe('decodeUpdate', () => {
  describe('round trips', () => {
    it('encode → decode gives the same domain value for every action and signature kind', () => {
      const u = { inboxId: INBOX, clientTimestampNs: 1712750400000000000n, actions: ALL_ACTIONS }
      const bytes = encodeUpdate(u)
      const d = decodeUpdate(bytes)
      expect(domain(d)).toEqual(u)
      expect(d.bytes).toBe(bytes)
      expect(d.bytesSource).toBe('input')
    })

    it('each action alone round-trips', () => {
      for (const a of ALL_ACTIONS) {
        const u = { inboxId: INBOX, clientTimestampNs: 5n, actions: [a] }
        expect(domain(decodeUpdate(encodeUpdate(u)))).toEqual(u)
      }
    })

    it('keeps non-canonical input bytes exactly (fields out of order, unknown fields)', () => {
      const canonical = update([action(1, createBody())])
      // inbox_id first, then an unknown field, then the timestamp, then the action
      const shuffled = cat(str(3, INBOX), vi(15, 42), vi(2, 1712750400000000000n), ld(1, action(1, createBody())))
      const a = decodeUpdate(canonical)
      const b = decodeUpdate(shuffled)
      expect(domain(b)).toEqual(domain(a))
      expect(b.bytes).toBe(shuffled)
      expect(b.bytes).not.toEqual(toBinary(IdentityUpdateSchema, fromBinary(IdentityUpdateSchema, shuffled)))
    })

    it('keeps the kinds as numbers (IDENT-077 is checked elsewhere) and Ethereum addresses as carried (IDENT-013)', () => {
      const upper = `0x${'AB'.repeat(20)}`
      const body = cat(str(1, upper), vi(2, 0), ld(3, erc191Sig), vi(4, 7))
      const d = decodeUpdate(update([action(1, body)]))
      const a = d.actions[0]!
      expect(a.kind === 'create_inbox' && a.initialIdentifierKind).toBe(7)
      expect(a.kind === 'create_inbox' && a.initialIdentifier).toBe(upper)
      const c = decodeUpdate(update([action(4, cat(str(1, upper), ld(2, erc191Sig), vi(3, 3)))])).actions[0]!
      expect(c.kind === 'change_recovery_address' && c.newRecoveryIdentifierKind).toBe(3)
      const r = decodeUpdate(update([action(3, revokeBody(str(1, upper)))])).actions[0]!
      expect(r.kind === 'revoke' && r.memberToRevoke).toEqual({ kind: 'ethereum', address: upper })
    })

    it('repeated singular fields follow protobuf semantics: the last scalar wins, a second oneof member replaces the first', () => {
      const d = decodeUpdate(cat(ld(1, action(1, createBody())), str(3, 'first'), str(3, INBOX)))
      expect(d.inboxId).toBe(INBOX)
      // Signature with erc_191 then installation_key: the last member on the wire wins.
      const sig = cat(erc191Sig, instSig)
      const a = decodeUpdate(update([action(1, createBody(sig))])).actions[0]!
      expect(a.kind === 'create_inbox' && a.initialIdentifierSignature.kind).toBe('installation_key')
    })
  })

  describe('duplicate singular message fields', () => {
    it('IDENT-001: merge as in standard protobuf, so a later field-4-only Signature does not unset an earlier erc_191', () => {
      // initial_identifier_signature twice: { erc_191 } then { field 4 }: merged, erc_191 stays set.
      const body = cat(str(1, ADDR), vi(2, 0), ld(3, erc191Sig), ld(3, legacySig))
      const a = decodeUpdate(update([action(1, body)])).actions[0]!
      expect(a.kind === 'create_inbox' && a.initialIdentifierSignature.kind).toBe('erc_191')
      // and the input bytes are kept, not the merged re-encoding
      const bytes = update([action(1, body)])
      expect(decodeUpdate(bytes).bytes).toBe(bytes)
    })
  })

  describe('IDENT-001 empty actions', () => {
    it('IDENT-001 rejects an update with no actions (actionIndex null)', () => {
      const v = violation(cat(vi(2, 1), str(3, INBOX)))
      expect(v.rule).toBe('IDENT-001')
      expect(v.actionIndex).toBeNull()
      expect(v.message).toMatch(/no actions/)
    })
    it('IDENT-001 rejects zero bytes and a message of only unknown fields (actionIndex null)', () => {
      expect(violation(new Uint8Array(0)).actionIndex).toBeNull()
      const v = violation(cat(vi(9, 1), str(10, 'x')))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', null])
    })
  })

  describe('IDENT-001 action kind unset', () => {
    it('IDENT-001 rejects an empty IdentityAction with its index', () => {
      const v = violation(update([action(1, createBody()), new Uint8Array(0)]))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 1])
      expect(v.message).toMatch(/actions\[1\]: kind is unset \(empty IdentityAction\)/)
    })
    it('IDENT-001 rejects an IdentityAction holding only an unknown field', () => {
      const v = violation(update([ld(9, createBody())]))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 0])
      expect(v.message).toMatch(/only unknown field 9/)
    })
    it('IDENT-001 accepts an unknown field beside a set kind (ignored)', () => {
      const d = decodeUpdate(update([cat(action(1, createBody()), vi(9, 1))]))
      expect(d.actions[0]!.kind).toBe('create_inbox')
    })
  })

  describe('IDENT-001 MemberIdentifier kind unset', () => {
    it('IDENT-001 rejects an add whose new_member_identifier is empty', () => {
      const v = violation(update([action(1, createBody()), action(2, addBody(new Uint8Array(0)))]))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 1])
      expect(v.message).toMatch(/actions\[1\]\.add\.new_member_identifier: kind is unset/)
    })
    it('IDENT-001 rejects a revoke whose member_to_revoke holds only an unknown field', () => {
      const v = violation(update([action(3, revokeBody(ld(7, utf8('x'))))]))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 0])
      expect(v.message).toMatch(/member_to_revoke: kind is unset \(the MemberIdentifier holds only unknown field 7\)/)
    })
    it('IDENT-001 rejects an add with no new_member_identifier at all', () => {
      const v = violation(update([action(2, cat(ld(2, erc191Sig), ld(3, instSig)))]))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 0])
      expect(v.message).toMatch(/new_member_identifier is missing/)
    })
  })

  describe('IDENT-001 Signature signature unset', () => {
    const cases: [string, (s: Uint8Array) => Uint8Array, RegExp][] = [
      [
        'create_inbox.initial_identifier_signature',
        (s) => action(1, createBody(s)),
        /create_inbox\.initial_identifier_signature/,
      ],
      ['add.existing_member_signature', (s) => action(2, addBody(instMember, s)), /add\.existing_member_signature/],
      ['add.new_member_signature', (s) => action(2, addBody(instMember, erc191Sig, s)), /add\.new_member_signature/],
      [
        'revoke.recovery_identifier_signature',
        (s) => action(3, revokeBody(instMember, s)),
        /revoke\.recovery_identifier_signature/,
      ],
      [
        'change_recovery_address.existing_recovery_identifier_signature',
        (s) => action(4, changeBody(s)),
        /change_recovery_address\.existing_recovery_identifier_signature/,
      ],
      ['claim_handle.signature', (s) => action(5, claimBody(s)), /claim_handle\.signature/],
    ]
    for (const [name, build, path] of cases) {
      it(`IDENT-001 rejects an empty Signature in ${name} with the action index`, () => {
        const v = violation(update([action(1, createBody()), build(new Uint8Array(0))]))
        expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 1])
        expect(v.message).toMatch(path)
        expect(v.message).toMatch(/signature is unset/)
      })
      it(`IDENT-001 rejects a Signature in ${name} holding only the retired field 4`, () => {
        const v = violation(update([build(legacySig)]))
        expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 0])
        expect(v.message).toContain('only the retired legacy delegated signature (field 4)')
      })
    }
    it('IDENT-001 rejects a missing Signature (field absent)', () => {
      const v = violation(update([action(1, cat(str(1, ADDR), vi(2, 0)))]))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 0])
      expect(v.message).toMatch(/initial_identifier_signature is missing/)
    })
    it('IDENT-001 rejects a Signature holding only an unknown field other than 4', () => {
      const v = violation(update([action(1, createBody(ld(6, raw(1, 2))))]))
      expect(v.actionIndex).toBe(0)
      expect(v.message).toMatch(/only unknown field 6/)
      expect(v.message).not.toContain('field 4')
    })
    it('IDENT-001 names field 4 and the other unknown fields when a Signature holds several', () => {
      const v = violation(update([action(1, createBody(cat(legacySig, vi(9, 1))))]))
      expect(v.message).toContain('only the retired legacy delegated signature (field 4) and unknown field 9')
    })
    it('IDENT-001: field 4 beside erc_191 is ignored, the listed signature is used (either order)', () => {
      for (const sig of [cat(legacySig, erc191Sig), cat(erc191Sig, legacySig)]) {
        const a = decodeUpdate(update([action(1, createBody(sig))])).actions[0]!
        expect(a.kind).toBe('create_inbox')
        expect(a.kind === 'create_inbox' && a.initialIdentifierSignature).toEqual({
          kind: 'erc_191',
          bytes: new Uint8Array(65).fill(7),
        })
      }
    })
    it('IDENT-001 reports the first failing action in order', () => {
      const v = violation(update([action(1, createBody()), action(2, addBody(new Uint8Array(0))), new Uint8Array(0)]))
      expect(v.actionIndex).toBe(1)
    })
  })

  describe('IDENT-001 wire types', () => {
    it('IDENT-001 rejects inbox_id sent as a varint (tag 0x18 instead of 0x1a), actionIndex null', () => {
      const bytes = cat(ld(1, action(1, createBody())), vi(2, 1), raw(0x18, 0x00))
      const v = violation(bytes)
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', null])
      expect(v.message).toBe(
        `field 3 (inbox_id) has wire type varint, expected length-delimited, at byte ${bytes.length - 2}`,
      )
    })
    it('IDENT-001 rejects client_timestamp_ns sent length-delimited (12 01 00), actionIndex null', () => {
      const v = violation(cat(ld(1, action(1, createBody())), raw(0x12, 0x01, 0x00), str(3, INBOX)))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', null])
      expect(v.message).toMatch(
        /^field 2 \(client_timestamp_ns\) has wire type length-delimited, expected varint, at byte \d+$/,
      )
    })
    it('IDENT-001 names the path, field, wire types and byte offset inside an action', () => {
      const member = ld(1, instMember)
      const existing = ld(2, erc191Sig)
      const bad = ld(3, raw(0x18, 0x05)) // Signature field 3 (installation_key) as a varint
      const body = cat(member, existing, bad)
      const bytes = update([action(2, body)])
      // 2 (actions tag+len) + 3 (add tag + 2-byte len) + member + existing + 2 (field 3 tag+len)
      const addHeader = action(2, body).length - body.length
      const outerHeader = ld(1, action(2, body)).length - action(2, body).length
      const offset = outerHeader + addHeader + member.length + existing.length + 2
      const v = violation(bytes)
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 0])
      expect(v.message).toBe(
        `actions[0].add.new_member_signature: field 3 (installation_key) has wire type varint, expected length-delimited, at byte ${offset}`,
      )
      expect(bytes[offset]).toBe(0x18)
    })
    it('IDENT-001 rejects a group wire type, also on an unknown field', () => {
      expect(violation(cat(ld(1, action(1, createBody())), raw(0x4b, 0x4c))).message).toMatch(
        /group wire type start-group/,
      )
      const v = violation(update([action(1, cat(createBody(), raw(0x0b)))]))
      expect(v.actionIndex).toBe(0)
      expect(v.message).toMatch(/field 1 \(initial_identifier\) has the group wire type start-group/)
    })
    it('IDENT-001 rejects wire types 6 and 7, field number 0 and an 11-byte varint', () => {
      for (const bad of [raw(0x0e), raw(0x0f), raw(0x00), raw(0x10, ...new Array(10).fill(0xff), 0x01)]) {
        const v = violation(cat(ld(1, action(1, createBody())), bad))
        expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', null])
      }
    })
  })

  describe('IDENT-001 truncation', () => {
    it('IDENT-001 rejects every cut of a real update except at a top-level field boundary', () => {
      const full = ROWS[0]!.bytes
      const boundaries = new Set<number>()
      const r = new BinaryReader(full)
      while (r.pos < r.len) {
        const [no, wt] = r.tag()
        r.skip(wt, no)
        boundaries.add(r.pos)
      }
      let rejected = 0
      for (let cut = 0; cut < full.length; cut++) {
        const part = full.subarray(0, cut)
        if (boundaries.has(cut)) {
          expect(() => decodeUpdate(part)).not.toThrow()
          continue
        }
        const v = violation(part)
        expect(v.rule).toBe('IDENT-001')
        if (cut > 0) expect(v.message).toMatch(/truncated|runs past the end/)
        rejected++
      }
      expect(rejected).toBe(full.length - boundaries.size + 1) // every cut but the boundaries (cut 0 is "no actions")
    })
    it('IDENT-001 reports a truncation inside an action body with that action index', () => {
      const inner = action(1, createBody())
      const cut = ld(1, inner.subarray(0, inner.length - 3)) // action body cut, outer length consistent
      const v = violation(cat(ld(1, action(1, createBody())), cut))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 1])
      expect(v.message).toMatch(/^actions\[1\]: truncated/)
    })
  })

  describe('IDENT-001 UTF-8', () => {
    it('IDENT-001 rejects invalid UTF-8 in inbox_id (c3 28), actionIndex null', () => {
      const v = violation(cat(ld(1, action(1, createBody())), ld(3, raw(0xc3, 0x28))))
      expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', null])
      expect(v.message).toMatch(/field 3 \(inbox_id\) is not valid UTF-8/)
    })
    it('IDENT-001 rejects invalid UTF-8 in an ethereum_address (surrogate, overlong) with the action index', () => {
      for (const bad of [raw(0xed, 0xa0, 0x80), raw(0xc0, 0xaf), raw(0xff)]) {
        const v = violation(update([action(1, createBody()), action(3, revokeBody(ld(1, bad)))]))
        expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 1])
        expect(v.message).toMatch(
          /^actions\[1\]\.revoke\.member_to_revoke: field 1 \(ethereum_address\) is not valid UTF-8/,
        )
      }
    })
    it('keeps a leading U+FEFF in a string as text', () => {
      const d = decodeUpdate(update([action(1, createBody())], 1n, `\uFEFF${INBOX}`))
      expect(d.inboxId).toBe(`\uFEFF${INBOX}`)
    })
  })

  describe('real-world vectors (xmtpd inbox_log.csv)', () => {
    it('has 19 rows', () => expect(ROWS.map((r) => r.seq)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1)))
    it('IDENT-001: all 19 rows pass the strict wire-type pass (they are structurally IdentityUpdates)', () => {
      for (const row of ROWS) expect(checkWire(IdentityUpdateSchema, row.bytes)).toBeNull()
    })
    it('rows 1-7 decode, keeping their bytes', () => {
      for (const row of ROWS.slice(0, 7)) {
        const d = decodeUpdate(row.bytes)
        expect(d.bytes).toBe(row.bytes)
        expect(d.actions.length).toBe(row.seq === 7 ? 1 : 2)
        expect(d.actions[0]!.kind).toBe(row.seq === 7 ? 'add' : 'create_inbox')
      }
    })
    it('rows 8-19 are structurally well-formed but IDENT-001 rejects them: their wallet signatures carry only field 4', () => {
      for (const row of ROWS.slice(7)) {
        // Inspect: the CreateInbox and the add's existing member signature hold only field 4.
        const m = fromBinary(IdentityUpdateSchema, row.bytes)
        const c = m.actions[0]!.kind
        const a = m.actions[1]!.kind
        expect(c.case).toBe('createInbox')
        expect(a.case).toBe('add')
        if (c.case !== 'createInbox' || a.case !== 'add') continue
        const s0 = c.value.initialIdentifierSignature!
        expect(s0.signature.case).toBeUndefined()
        expect(s0.$unknown?.map((f) => f.no)).toEqual([4])
        expect(a.value.existingMemberSignature!.signature.case).toBeUndefined()
        expect(a.value.existingMemberSignature!.$unknown?.map((f) => f.no)).toEqual([4])
        expect(a.value.newMemberSignature!.signature.case).toBe('installationKey')
        const v = violation(row.bytes)
        expect([v.rule, v.actionIndex]).toEqual(['IDENT-001', 0])
        expect(v.message).toContain('only the retired legacy delegated signature (field 4)')
      }
    })
  })
})

describe('decodeUpdateFromJson', () => {
  const json = (bytes: Uint8Array, useProtoFieldName = false) =>
    toJson(IdentityUpdateSchema, fromBinary(IdentityUpdateSchema, bytes), { useProtoFieldName })

  it('gives the same domain value as the binary decoding, with canonical bytes', () => {
    for (const row of ROWS.slice(0, 7)) {
      const b = decodeUpdate(row.bytes)
      for (const snake of [false, true]) {
        const j = decodeUpdateFromJson(json(row.bytes, snake), '$')
        expect(domain(j)).toEqual(domain(b))
        expect(j.bytesSource).toBe('canonical-encoding')
        expect(j.bytes).toEqual(toBinary(IdentityUpdateSchema, fromBinary(IdentityUpdateSchema, row.bytes)))
      }
    }
  })

  it('round-trips every action kind', () => {
    const u = { inboxId: INBOX, clientTimestampNs: 18446744073709551615n, actions: ALL_ACTIONS }
    const bytes = encodeUpdate(u)
    const j = decodeUpdateFromJson(json(bytes), '$')
    expect(domain(j)).toEqual(u)
    expect(j.bytes).toEqual(bytes)
  })

  it('accepts 64-bit integers as strings, safe numbers and exact big integers from the strict JSON reader', () => {
    const base = json(update([action(1, createBody())])) as Record<string, unknown>
    expect(decodeUpdateFromJson({ ...base, clientTimestampNs: 12345 }, '$').clientTimestampNs).toBe(12345n)
    const big = decodeUpdateFromJson({ ...base, clientTimestampNs: new JsonBigInt('18446744073709551615') }, '$')
    expect(big.clientTimestampNs).toBe(18446744073709551615n)
  })

  it('IDENT-001 rejects a JSON number above 2^53 (already rounded by JSON.parse)', () => {
    const base = json(update([action(1, createBody())])) as Record<string, unknown>
    // biome-ignore lint/correctness/noPrecisionLoss: a JSON number above 2^53, rounded on purpose
    const e = catchJson({ ...base, clientTimestampNs: 9007199254740993 })
    expect([e.rule, e.actionIndex]).toEqual(['IDENT-001', null])
    expect(e.message).toMatch(/above 2\^53/)
  })

  it('IDENT-001: an exact big integer in a string field is not turned into a string', () => {
    const base = json(update([action(1, createBody())])) as Record<string, unknown>
    expect(catchJson({ ...base, inboxId: new JsonBigInt('123456789012345678901234') }).rule).toBe('IDENT-001')
  })

  it('IDENT-001 rejects empty actions, an unset kind, an unset signature and an unset member kind', () => {
    expect([catchJson({ inboxId: INBOX }).actionIndex, catchJson({ actions: [] }).actionIndex]).toEqual([null, null])
    const ok = (json(update([action(1, createBody())])) as { actions: unknown[] }).actions[0]
    expect(catchJson({ actions: [ok, {}] }).actionIndex).toBe(1)
    const emptySig = { createInbox: { initialIdentifier: ADDR, initialIdentifierSignature: {} } }
    const e = catchJson({ actions: [emptySig] })
    expect([e.rule, e.actionIndex]).toEqual(['IDENT-001', 0])
    expect(e.message).toMatch(/signature is unset/)
    const emptyMember = { revoke: { memberToRevoke: {}, recoveryIdentifierSignature: { erc191: { bytes: 'AA==' } } } }
    expect(catchJson({ actions: [ok, emptyMember] }).actionIndex).toBe(1)
  })

  it('IDENT-001 rejects a key the definition does not list (the retired delegated signature) with the action index', () => {
    const ok = (json(update([action(1, createBody())])) as { actions: unknown[] }).actions[0]
    const legacy = { createInbox: { initialIdentifier: ADDR, initialIdentifierSignature: { delegatedErc191: {} } } }
    const e = catchJson({ actions: [ok, legacy] })
    expect([e.rule, e.actionIndex]).toEqual(['IDENT-001', 1])
  })

  it('IDENT-001 rejects two members of one oneof, a lone surrogate and a non-object', () => {
    const two = { createInbox: { initialIdentifier: ADDR }, add: {} }
    expect(catchJson({ actions: [two] }).actionIndex).toBe(0)
    const ok = json(update([action(1, createBody())])) as Record<string, unknown>
    expect(catchJson({ ...ok, inboxId: '\ud800' }).message).toMatch(/lone UTF-16 surrogate/)
    for (const v of [null, [], 'x', 3]) expect(catchJson(v).rule).toBe('IDENT-001')
  })

  it('a message built with create() decodes the same way', () => {
    const m = create(IdentityUpdateSchema, {
      inboxId: INBOX,
      actions: [
        {
          kind: {
            case: 'claimHandle',
            value: { handle: 'x', signature: { signature: { case: 'erc191', value: { bytes: new Uint8Array(65) } } } },
          },
        },
      ],
    })
    const j = decodeUpdateFromJson(toJson(IdentityUpdateSchema, m), '$.update')
    expect(j.actions[0]).toEqual({
      kind: 'claim_handle',
      handle: 'x',
      signature: { kind: 'erc_191', bytes: new Uint8Array(65) },
    })
  })
})

function catchJson(v: unknown): RuleViolation {
  try {
    decodeUpdateFromJson(v, '$')
  } catch (e) {
    if (e instanceof RuleViolation) return e
    throw e
  }
  throw new Error('expected a RuleViolation')
}
