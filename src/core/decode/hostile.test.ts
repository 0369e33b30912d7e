/**
 * Issue #14, finding 2: hostile input to the decoders costs work in proportion to what
 * the answer needs. The work is counted, never timed: every `fromBinary` call is
 * wrapped and the unknown fields it materialised ($unknown entries, at any depth) are
 * added up.
 */
import type { Message } from '@bufbuild/protobuf'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LogInputError, RuleViolation } from '../errors'
import { encodeGetIdentityUpdatesResponse, encodeUpdate } from '../encode/update'
import { readLogs } from './logs'
import { decodeUpdate, decodeUpdateOfRecord, UNKNOWN_FIELDS_READ } from './update'
import { thrown } from '../../../test/support/xmtpd-vectors'

const counted = vi.hoisted(() => ({ unknown: 0, calls: 0, readers: 0 }))

// Our code's BinaryReaders (protobuf-es's own fromBinary imports its reader by a relative path, not counted).
vi.mock('@bufbuild/protobuf/wire', async (importOriginal) => {
  const real = await importOriginal<typeof import('@bufbuild/protobuf/wire')>()
  class CountingReader extends real.BinaryReader {
    constructor(...args: ConstructorParameters<typeof real.BinaryReader>) {
      super(...args)
      counted.readers++
    }
  }
  return { ...real, BinaryReader: CountingReader }
})

vi.mock('@bufbuild/protobuf', async (importOriginal) => {
  const real = await importOriginal<typeof import('@bufbuild/protobuf')>()
  const count = (v: unknown, seen: Set<unknown>): number => {
    if (v === null || typeof v !== 'object' || seen.has(v) || v instanceof Uint8Array) return 0
    seen.add(v)
    let n = 0
    for (const [k, x] of Object.entries(v)) {
      if (k === '$unknown' && Array.isArray(x)) n += x.length
      else n += count(x, seen)
    }
    return n
  }
  return {
    ...real,
    fromBinary: ((...args: Parameters<typeof real.fromBinary>) => {
      const m = real.fromBinary(...args) as Message
      counted.calls++
      counted.unknown += count(m, new Set())
      return m
    }) as typeof real.fromBinary,
  }
})

beforeEach(() => {
  counted.unknown = 0
  counted.calls = 0
  counted.readers = 0
})

/** A real-shaped update (a claim), then `n` one-byte-value unknown fields 6 (tag 0x30). */
function withUnknown(n: number): Uint8Array {
  const u = encodeUpdate({
    inboxId: 'i'.repeat(64),
    clientTimestampNs: 1n,
    actions: [{ kind: 'claim_handle', handle: 'nick', signature: { kind: 'erc_191', bytes: new Uint8Array(65) } }],
  })
  const out = new Uint8Array(u.length + 2 * n)
  out.set(u)
  for (let i = 0; i < n; i++) out.set([0x30, 0x61], u.length + 2 * i)
  return out
}

describe('issue #14: bounded decoding work', () => {
  it('finding 2: hex text is not read as raw protobuf', () => {
    // '0a' text is, as raw bytes, 0x30 0x61: an unknown varint field 6, two bytes each.
    const text = new TextEncoder().encode('0a'.repeat(50_000))
    const err = thrown(() => readLogs(text, 'hex.txt'), LogInputError)
    const attempts = err.attempts
    expect(attempts.some((a) => a.format === 'binary' && /not tried/.test(a.detail))).toBe(true)
    expect(attempts.some((a) => a.format.startsWith('single-update') && !a.format.startsWith('hex'))).toBe(false)
    expect(counted.unknown).toBe(0)
  })

  it('finding 2: an update with 100,000 unknown fields materialises none of them', () => {
    const u = decodeUpdate(withUnknown(100_000))
    expect(u.actions).toHaveLength(1)
    expect(counted.calls).toBe(1)
    expect(counted.unknown).toBe(0)
  })

  it('guard for finding 2: a few unknown fields are still read and named, as before', () => {
    decodeUpdate(withUnknown(3))
    expect(counted.unknown).toBe(3)
    expect(UNKNOWN_FIELDS_READ).toBeGreaterThan(3)
  })

  it('finding 2: a raw binary update is decoded once by auto-detection, not once per reading', () => {
    readLogs(withUnknown(10))
    expect(counted.calls).toBe(1)
  })

  it('finding 2: an unset signature among many unknown fields says how many, not which', () => {
    // A claim whose Signature holds 2,000 unknown fields 9 and nothing else.
    const sig = new Uint8Array(2000 * 2).map((_, i) => (i % 2 === 0 ? 0x48 : 0x01))
    const claim = [0x0a, 0x04, ...new TextEncoder().encode('nick'), 0x12, ...varint(sig.length), ...sig]
    const action = [0x2a, ...varint(claim.length), ...claim]
    const bytes = new Uint8Array([0x0a, ...varint(action.length), ...action])
    const err = thrown(() => decodeUpdate(bytes), RuleViolation)
    expect(err.message).toContain('the update carries 2000 unknown fields')
    expect(err.message.length).toBeLessThan(400)
    expect(counted.unknown).toBe(0)
  })
})

describe('issue #14: garbage per update', () => {
  it('finding 8: the wire walks read small fields in place, with no BinaryReader per message body', () => {
    // A response of 1,000 claims: the container walk and the strict pass over five nested
    // bodies per update made a reader (and its DataView) for each, about 6,000 here.
    const u = encodeUpdate({
      inboxId: 'tiny',
      clientTimestampNs: 1n,
      actions: [{ kind: 'claim_handle', handle: 'tiny', signature: { kind: 'erc_191', bytes: new Uint8Array(8) } }],
    })
    const file = encodeGetIdentityUpdatesResponse([
      {
        inboxId: 'a'.repeat(64),
        updates: Array.from({ length: 1000 }, (_, i) => ({ sequenceId: BigInt(i + 1), bytes: u })),
      },
    ])
    counted.readers = 0
    const [log] = readLogs(file)
    expect(log!.entries).toHaveLength(1000)
    // These updates are in the common form, read by ./direct.ts in one pass (no fromBinary).
    expect(log!.entries.every((e) => 'inboxId' in e.update)).toBe(true)
    // The few left: a multi-byte varint or tag somewhere (the container's length prefix).
    expect(counted.readers).toBeLessThan(10)
    // The decoder of record's strict pass over the same updates makes none either.
    counted.readers = 0
    for (let i = 0; i < 1000; i++) decodeUpdateOfRecord(u)
    expect(counted.calls).toBe(1000)
    expect(counted.readers).toBeLessThan(10)
  })
})

function varint(n: number): number[] {
  const out: number[] = []
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  out.push(n)
  return out
}
