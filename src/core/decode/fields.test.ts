import { WireType } from '@bufbuild/protobuf/wire'
import { describe, expect, it } from 'vitest'
import { eachField, type FieldFault, type FieldVisitor, packedVarintFault, walkFields } from './fields'

const raw = (...b: number[]) => new Uint8Array(b)

/** Everything a walk says, in order, as plain records. */
function record(buf: Uint8Array, base = 0, stopAt?: string): { events: unknown[]; complete: boolean } {
  const events: unknown[] = []
  const go = (name: string) => name !== stopAt
  const v: FieldVisitor = {
    tag(no, wt, at) {
      events.push({ tag: no, wt, at })
      return go('tag')
    },
    varint(no, at, value, valueAt, end) {
      events.push({ varint: no, at, value, valueAt, end })
      return go('varint')
    },
    fixed(no, wt, at, valueAt, end) {
      events.push({ fixed: no, wt, at, valueAt, end })
      return go('fixed')
    },
    bytes(no, at, body, bodyAt, end) {
      events.push({ bytes: no, at, body: Array.from(body), bodyAt, end })
      return go('bytes')
    },
    fault(f: FieldFault) {
      events.push({ fault: f })
    },
  }
  const complete = walkFields(buf, base, v)
  return { events, complete }
}

function faultOf(buf: Uint8Array, base = 0): FieldFault {
  const { events, complete } = record(buf, base)
  expect(complete).toBe(false)
  const last = events.at(-1) as { fault?: FieldFault }
  expect(last.fault).toBeDefined()
  return last.fault!
}

describe('walkFields (the one protobuf field reader)', () => {
  it('reports every field with absolute offsets: tag, value start and end', () => {
    // field 1 varint 150; field 2 LEN "hi"; field 3 fixed32; field 4 fixed64; field 16 (a two-byte tag) varint 1
    const buf = raw(
      0x08,
      0x96,
      0x01,
      0x12,
      0x02,
      0x68,
      0x69,
      0x1d,
      1,
      2,
      3,
      4,
      0x21,
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      0x80,
      0x01,
      1,
    )
    const { events, complete } = record(buf, 100)
    expect(complete).toBe(true)
    expect(events).toEqual([
      { tag: 1, wt: WireType.Varint, at: 100 },
      { varint: 1, at: 100, value: 150, valueAt: 101, end: 103 },
      { tag: 2, wt: WireType.LengthDelimited, at: 103 },
      { bytes: 2, at: 103, body: [0x68, 0x69], bodyAt: 105, end: 107 },
      { tag: 3, wt: WireType.Bit32, at: 107 },
      { fixed: 3, wt: WireType.Bit32, at: 107, valueAt: 108, end: 112 },
      { tag: 4, wt: WireType.Bit64, at: 112 },
      { fixed: 4, wt: WireType.Bit64, at: 112, valueAt: 113, end: 121 },
      { tag: 16, wt: WireType.Varint, at: 121 },
      { varint: 16, at: 121, value: 1, valueAt: 123, end: 124 },
    ])
  })

  it('gives a varint below 2^35 as a number and a longer one as an exact bigint', () => {
    const small = record(raw(0x08, 0xff, 0xff, 0xff, 0xff, 0x7f)).events[1] as { value: unknown }
    expect(small.value).toBe(2 ** 35 - 1)
    const max = record(raw(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)).events[1] as {
      value: unknown
      end: number
    }
    expect(max.value).toBe(2n ** 64n - 1n)
    expect(max.end).toBe(11)
  })

  it('reads an empty body as complete with no fields', () => {
    expect(record(raw())).toEqual({ events: [], complete: true })
  })

  it('stops where a visitor returns false', () => {
    const buf = raw(0x08, 1, 0x10, 2)
    expect(record(buf, 0, 'tag').events).toEqual([{ tag: 1, wt: WireType.Varint, at: 0 }])
    const r = record(buf, 0, 'varint')
    expect(r.complete).toBe(false)
    expect(r.events).toHaveLength(2)
  })

  it('a truncated tag and an invalid tag are faults at the tag, with the reader reason', () => {
    expect(faultOf(raw(0x08, 1, 0x80), 10)).toMatchObject({ kind: 'tag-truncated', at: 12 })
    expect(faultOf(raw(0x00))).toEqual({ kind: 'tag-invalid', at: 0, reason: 'illegal tag: field no 0 wire type 0' })
    // wire types 6 and 7 do not exist
    expect(faultOf(raw(0x0e))).toEqual({ kind: 'tag-invalid', at: 0, reason: 'illegal tag: field no 1 wire type 6' })
    expect(faultOf(raw(0x0f))).toEqual({ kind: 'tag-invalid', at: 0, reason: 'illegal tag: field no 1 wire type 7' })
    expect(faultOf(raw(0xff, 0xff, 0xff, 0xff, 0x7f))).toMatchObject({
      kind: 'tag-invalid',
      reason: 'illegal tag: varint overflows uint32',
    })
  })

  it('refuses the group wire types 3 and 4 before the visitor sees the tag', () => {
    for (const [b, wt] of [
      [0x0b, WireType.StartGroup],
      [0x0c, WireType.EndGroup],
    ] as const) {
      const { events } = record(raw(0x08, 1, b), 5)
      expect(events.at(-1)).toEqual({ fault: { kind: 'group', at: 7, no: 1, wt, pos: 8 } })
      expect(events.some((e) => (e as { tag?: number; wt?: number }).wt === wt)).toBe(false)
    }
    // a two-byte group tag: the position after it
    expect(faultOf(raw(0x83, 0x01))).toEqual({ kind: 'group', at: 0, no: 16, wt: WireType.StartGroup, pos: 2 })
  })

  it('a varint value that runs past the end or over 10 bytes is a fault naming what remains', () => {
    expect(faultOf(raw(0x08, 0x80, 0x80), 4)).toMatchObject({ kind: 'varint-truncated', at: 4, no: 1, remaining: 2 })
    // one byte past the 5-byte fast path, still truncated
    expect(faultOf(raw(0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80))).toMatchObject({
      kind: 'varint-truncated',
      remaining: 6,
    })
    expect(faultOf(raw(0x10, ...new Array(11).fill(0x80), 0x01))).toMatchObject({
      kind: 'varint-too-long',
      at: 0,
      no: 2,
      remaining: 12,
      pos: 1,
    })
  })

  it('a broken length prefix is a length fault, a length past the end a past-end fault', () => {
    expect(faultOf(raw(0x0a, 0x80))).toMatchObject({ kind: 'length-truncated', no: 1, remaining: 1 })
    expect(faultOf(raw(0x0a, ...new Array(10).fill(0xff)))).toMatchObject({ kind: 'length-too-long', remaining: 10 })
    expect(faultOf(raw(0x08, 1, 0x12, 0x05, 1, 2), 20)).toEqual({
      kind: 'past-end',
      at: 22,
      no: 2,
      wt: WireType.LengthDelimited,
      length: 5,
      remaining: 2,
      pos: 24,
    })
    // a length of 2^64-1 is kept exact
    expect(faultOf(raw(0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))).toMatchObject({
      kind: 'past-end',
      length: 2n ** 64n - 1n,
      remaining: 0,
    })
  })

  it('a fixed-width value cut short is a fault with its size', () => {
    expect(faultOf(raw(0x0d, 1, 2, 3))).toMatchObject({ kind: 'fixed-truncated', size: 4, remaining: 3, pos: 1 })
    expect(faultOf(raw(0x09, 1, 2, 3, 4, 5, 6, 7), 3)).toMatchObject({ kind: 'fixed-truncated', at: 3, size: 8 })
  })

  it('does not enter a body: a nested message is walked by calling it again', () => {
    // field 1 holds a body that is itself broken (a truncated varint): the outer walk is fine
    const inner = raw(0x08, 0x80)
    const { complete, events } = record(raw(0x0a, inner.length, ...inner))
    expect(complete).toBe(true)
    const b = events[1] as { body: number[]; bodyAt: number }
    expect(faultOf(new Uint8Array(b.body), b.bodyAt)).toMatchObject({ kind: 'varint-truncated', at: 2 })
  })
})

describe('eachField', () => {
  it('gives records with bigint varints and body offsets, then the fault that stopped it', () => {
    const seen: unknown[] = []
    const fault = eachField(raw(0x08, 7, 0x12, 1, 0x41, 0x1d, 0, 0, 0, 0, 0x80), 2, (f) => seen.push(f))
    expect(seen).toEqual([
      { no: 1, wt: WireType.Varint, at: 2, value: 7n },
      { no: 2, wt: WireType.LengthDelimited, at: 4, body: raw(0x41), bodyAt: 6 },
      { no: 3, wt: WireType.Bit32, at: 7 },
    ])
    expect(fault).toMatchObject({ kind: 'tag-truncated', at: 12 })
    expect(eachField(raw(0x08, 1), 0, () => {})).toBeNull()
  })

  it('stops at the first field whose callback throws', () => {
    let calls = 0
    expect(() =>
      eachField(raw(0x08, 1, 0x08, 2), 0, () => {
        calls++
        throw new Error('stop')
      }),
    ).toThrow('stop')
    expect(calls).toBe(1)
  })
})

describe('packedVarintFault', () => {
  it('accepts whole varints and names the first broken one with what remains', () => {
    expect(packedVarintFault(raw())).toBeNull()
    expect(packedVarintFault(raw(1, 0x96, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))).toBeNull()
    expect(packedVarintFault(raw(1, 2, 0x80))).toEqual({ kind: 'varint-truncated', remaining: 1 })
    expect(packedVarintFault(raw(1, ...new Array(10).fill(0x80), 0))).toEqual({
      kind: 'varint-too-long',
      remaining: 11,
    })
  })
})
