/**
 * The one-pass reader of the common form (./direct.ts) against the decoder of record
 * (decodeUpdateOfRecord: strict wire pass, fromBinary, IDENT-001 checks): wherever the
 * reader gives an update it is the one the decoder of record gives, field for field, and
 * it gives up on everything outside the form it reads (so errors always come from there).
 */
import { create, toBinary } from '@bufbuild/protobuf'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IdentityUpdateSchema } from '../../gen/identity/associations/association_pb'
import { concatBytes, utf8 } from '../../crypto/bytes'
import { RuleViolation } from '../errors'
import type { UnverifiedUpdate } from '../types'
import { decodeDirect } from './direct'
import { decodeUpdate, decodeUpdateOfRecord } from './update'
import { XMTPD_ROWS } from '../../../test/support/xmtpd-vectors'

const ROWS = XMTPD_ROWS.map((r) => r.bytes)

/** The decoder of record's answer: the update, or its RuleViolation. */
function ofRecord(b: Uint8Array): UnverifiedUpdate | RuleViolation {
  try {
    return decodeUpdateOfRecord(b)
  } catch (e) {
    if (e instanceof RuleViolation) return e
    throw e
  }
}

/** Both decoders on `b`: when the reader answers, its answer is the decoder of record's. */
function agree(b: Uint8Array): { direct: UnverifiedUpdate | null; record: UnverifiedUpdate | RuleViolation } {
  const direct = decodeDirect(b)
  const record = ofRecord(b)
  if (direct !== null) {
    expect(record).not.toBeInstanceOf(RuleViolation)
    expect(direct).toStrictEqual(record)
    expect(direct.bytes).toBe(b)
  }
  return { direct, record }
}

// --- wire building helpers --------------------------------------------------------------
const ld = (no: number, body: Uint8Array) => new BinaryWriter().tag(no, WireType.LengthDelimited).bytes(body).finish()
const vi = (no: number, v: bigint | number) => new BinaryWriter().tag(no, WireType.Varint).uint64(v).finish()
const str = (no: number, s: string) => ld(no, utf8(s))
const cat = (...parts: Uint8Array[]) => concatBytes(...parts)
const raw = (...bytes: number[]) => new Uint8Array(bytes)
const INBOX = 'ab'.repeat(32)
const erc191Sig = ld(1, ld(1, new Uint8Array(65).fill(7)))
const createAction = (sig: Uint8Array = erc191Sig) => ld(1, cat(str(1, `0x${'11'.repeat(20)}`), vi(2, 3), ld(3, sig)))
const update = (...parts: Uint8Array[]) => cat(...parts)
const plain = () => update(ld(1, createAction()), vi(2, 1712750400000000000n), str(3, INBOX))

// --- generated updates --------------------------------------------------------------------
const bytesArb = fc.uint8Array({ maxLength: 70 })
const textArb = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'binary-ascii', minLength: 60, maxLength: 90 }),
  fc.constantFrom('', '\uFEFF', '\uFEFFx', `0x${'ab'.repeat(20)}`, 'é'.repeat(40)),
)
const optText = fc.option(textArb, { nil: undefined })

/**
 * Encoded IdentityUpdates (canonical, by toBinary) of every shape, valid or not under
 * IDENT-001; `inForm`: every enum in 0..2^28-1 (the common form's limit), else any int32.
 */
function updates(inForm: boolean): fc.Arbitrary<Uint8Array> {
  const u64Arb = fc.oneof(
    fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    fc.bigInt({ min: 0n, max: 1n << 30n }),
    fc.constantFrom(0n, (1n << 53n) - 1n, 1n << 53n, (1n << 63n) - 1n, 1n << 63n, (1n << 64n) - 1n),
  )
  const kindArb = inForm
    ? fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 ** 28 - 1 }))
    : fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })

  const signatureArb = fc.oneof(
    bytesArb.map((bytes) => ({ case: 'erc191' as const, value: { bytes } })),
    fc
      .record({ accountId: textArb, blockNumber: u64Arb, signature: bytesArb })
      .map((value) => ({ case: 'erc6492' as const, value })),
    fc.record({ bytes: bytesArb, publicKey: bytesArb }).map((value) => ({ case: 'installationKey' as const, value })),
    fc
      .record({ publicKey: bytesArb, signature: bytesArb, authenticatorData: bytesArb, clientDataJson: bytesArb })
      .map((value) => ({ case: 'passkey' as const, value })),
    fc.constant({ case: undefined }),
  )
  const sigInit = fc.option(
    signatureArb.map((signature) => ({ signature })),
    { nil: undefined, freq: 8 },
  )
  const memberInit = fc.option(
    fc
      .oneof(
        textArb.map((value) => ({ case: 'ethereumAddress' as const, value })),
        bytesArb.map((value) => ({ case: 'installationPublicKey' as const, value })),
        fc.record({ key: bytesArb, relyingParty: optText }).map((value) => ({ case: 'passkey' as const, value })),
        fc.constant({ case: undefined }),
      )
      .map((kind) => ({ kind })),
    { nil: undefined, freq: 8 },
  )
  const actionInit = fc.oneof(
    fc
      .record({
        initialIdentifier: textArb,
        nonce: u64Arb,
        initialIdentifierSignature: sigInit,
        initialIdentifierKind: kindArb,
        relyingParty: optText,
      })
      .map((value) => ({ kind: { case: 'createInbox' as const, value } })),
    fc
      .record({
        newMemberIdentifier: memberInit,
        existingMemberSignature: sigInit,
        newMemberSignature: sigInit,
        relyingParty: optText,
      })
      .map((value) => ({ kind: { case: 'add' as const, value } })),
    fc
      .record({ memberToRevoke: memberInit, recoveryIdentifierSignature: sigInit })
      .map((value) => ({ kind: { case: 'revoke' as const, value } })),
    fc
      .record({
        newRecoveryIdentifier: textArb,
        existingRecoveryIdentifierSignature: sigInit,
        newRecoveryIdentifierKind: kindArb,
        relyingParty: optText,
      })
      .map((value) => ({ kind: { case: 'changeRecoveryAddress' as const, value } })),
    fc
      .record({ handle: textArb, signature: sigInit })
      .map((value) => ({ kind: { case: 'claimHandle' as const, value } })),
    fc.constant({ kind: { case: undefined } }),
  )
  return fc
    .record({ actions: fc.array(actionInit, { maxLength: 3 }), clientTimestampNs: u64Arb, inboxId: textArb })
    .map((init) => toBinary(IdentityUpdateSchema, create(IdentityUpdateSchema, init as never)))
}

/** The top-level fields of an update, each as its bytes (tag included), for reordering and repeating. */
function topFields(b: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = []
  let p = 0
  while (p < b.length) {
    const start = p
    const wt = b[p++]! & 7
    let n = 0
    let scale = 1
    for (;;) {
      const x = b[p++]!
      n += (x & 0x7f) * scale
      scale *= 128
      if (x < 0x80) break
    }
    if (wt === WireType.LengthDelimited) p += n
    out.push(b.subarray(start, p))
  }
  return out
}

describe('decodeDirect', () => {
  it('reads every xmtpd vector the decoder of record reads, to the same update', () => {
    let read = 0
    for (const b of ROWS) {
      const { direct, record } = agree(b)
      if (!(record instanceof RuleViolation)) {
        expect(direct).not.toBeNull()
        read++
      }
    }
    expect(read).toBeGreaterThan(0)
  })

  it('keeps bytes fields as subarrays of the input, as protobuf-es reads them', () => {
    const b = plain()
    const u = decodeDirect(b)!
    const a = u.actions[0]!
    expect(a.kind).toBe('create_inbox')
    if (a.kind !== 'create_inbox' || a.initialIdentifierSignature.kind !== 'erc_191') throw new Error('unexpected')
    expect(a.initialIdentifierSignature.bytes.buffer).toBe(b.buffer)
    expect(u.clientTimestampNs).toBe(1712750400000000000n)
    expect(u.inboxId).toBe(INBOX)
  })

  it('gives up on what is outside the common form, leaving it to the decoder of record', () => {
    const cases: Record<string, Uint8Array> = {
      'no actions': update(vi(2, 1), str(3, INBOX)),
      'an unknown top-level field': update(plain(), vi(9, 1)),
      'a two-byte tag': update(plain(), vi(16, 1)),
      'inbox_id twice': update(plain(), str(3, INBOX)),
      'client_timestamp_ns twice': update(plain(), vi(2, 5)),
      'inbox_id as a varint': update(ld(1, createAction()), vi(3, 1)),
      'a 10-byte uint64 above 2^64': update(ld(1, createAction()), raw(0x10, ...new Array(9).fill(0xff), 0x02)),
      'an 11-byte varint': update(ld(1, createAction()), raw(0x10, ...new Array(10).fill(0x80), 0x00)),
      'a group': update(plain(), raw(0x1b, 0x1c)),
      'a truncated field': plain().subarray(0, 30),
      'invalid UTF-8': update(ld(1, createAction()), ld(3, raw(0xc3, 0x28))),
      'an action with two kinds': update(ld(1, cat(createAction(), createAction()))),
      'an empty action': update(ld(1, new Uint8Array(0))),
      'a legacy signature only': update(ld(1, createAction(ld(4, raw(0x0a, 0x00))))),
      'a signature beside the legacy one': update(ld(1, createAction(cat(erc191Sig, ld(4, raw(0x0a, 0x00)))))),
      'an empty signature': update(ld(1, createAction(new Uint8Array(0)))),
      'a signature with two members': update(ld(1, createAction(cat(erc191Sig, erc191Sig)))),
      'a create_inbox without a signature': update(ld(1, ld(1, str(1, 'x')))),
      'a 5-byte length': update(raw(0x0a, 0x80, 0x80, 0x80, 0x80, 0x00)),
      'a negative identifier kind': update(ld(1, ld(1, cat(ld(3, erc191Sig), vi(4, (1n << 64n) - 1n))))),
    }
    for (const [what, b] of Object.entries(cases)) {
      expect(decodeDirect(b), what).toBeNull()
      // decodeUpdate is the decoder of record's answer here, error text included.
      const record = ofRecord(b)
      if (record instanceof RuleViolation) expect(() => decodeUpdate(b), what).toThrow(record.message)
      else expect(decodeUpdate(b), what).toStrictEqual(record)
    }
  })

  it('reads a leading U+FEFF as text and a present empty relying party as ""', () => {
    const b = update(ld(1, ld(1, cat(str(1, '\uFEFFid'), ld(3, erc191Sig), str(5, '')))), str(3, '\uFEFF'))
    const { direct } = agree(b)
    expect(direct?.inboxId).toBe('\uFEFF')
    expect(direct?.actions[0]).toMatchObject({ initialIdentifier: '\uFEFFid', relyingParty: '' })
  })

  it('reads every generated update in the common form that the decoder of record reads, to the same update', () => {
    fc.assert(
      fc.property(updates(true), (b) => {
        const { direct, record } = agree(b)
        if (!(record instanceof RuleViolation)) expect(direct).not.toBeNull()
      }),
      { numRuns: 1500 },
    )
  })

  it('agrees with the decoder of record on generated updates with any int32 as an enum', () => {
    fc.assert(
      fc.property(updates(false), (b) => {
        agree(b)
      }),
      { numRuns: 1000 },
    )
  })

  it('agrees with the decoder of record when top-level fields are reordered or repeated', () => {
    fc.assert(
      fc.property(updates(true), fc.array(fc.nat(), { maxLength: 6 }), (b, picks) => {
        const fields = topFields(b)
        if (fields.length === 0) return
        agree(cat(...picks.map((i) => fields[i % fields.length]!)))
      }),
      { numRuns: 800 },
    )
  })

  it('agrees with the decoder of record on byte mutations of vectors and generated updates', () => {
    const mutate = (b: Uint8Array, at: number, value: number, cut: number) => {
      const m = b.slice(0, b.length - (cut % 3))
      if (m.length > 0) m[at % m.length] = value
      return m
    }
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...ROWS), updates(true)),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat()), { minLength: 1, maxLength: 3 }),
        (b, ms) => {
          let m = b
          for (const [at, value, cut] of ms) m = mutate(m, at, value, cut)
          agree(m)
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('agrees with the decoder of record on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        agree(b)
      }),
      { numRuns: 1500 },
    )
  })
})
