import { create, fromBinary, ScalarType, toBinary } from '@bufbuild/protobuf'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import {
  DoubleValueSchema,
  FloatValueSchema,
  SourceCodeInfo_LocationSchema,
  StructSchema,
  ValueSchema,
} from '@bufbuild/protobuf/wkt'
import { describe, expect, it } from 'vitest'
import { GetIdentityUpdatesResponseSchema } from '../../gen/identity/api/v1/identity_pb'
import { IdentityUpdateSchema } from '../../gen/identity/associations/association_pb'
import { concatBytes, utf8 } from '../../crypto/bytes'
import { checkWire, formatPath, isValidUtf8, scalarWireType, wireTypeName } from './wire'

const ld = (no: number, body: Uint8Array) => new BinaryWriter().tag(no, WireType.LengthDelimited).bytes(body).finish()
const vi = (no: number, v: bigint | number) => new BinaryWriter().tag(no, WireType.Varint).uint64(v).finish()
const raw = (...b: number[]) => new Uint8Array(b)
const cat = concatBytes

describe('checkWire', () => {
  it('accepts canonical encodings of the generated messages', () => {
    const m = create(IdentityUpdateSchema, {
      inboxId: 'x',
      clientTimestampNs: 5n,
      actions: [
        {
          kind: {
            case: 'claimHandle',
            value: { handle: 'h', signature: { signature: { case: 'erc191', value: { bytes: new Uint8Array(65) } } } },
          },
        },
      ],
    })
    expect(checkWire(IdentityUpdateSchema, toBinary(IdentityUpdateSchema, m))).toBeNull()
    expect(checkWire(IdentityUpdateSchema, new Uint8Array(0))).toBeNull()
  })

  it('reports path, segments, offset and detail for a wrong wire type', () => {
    // IdentityUpdate.actions[1].claim_handle.handle as a varint
    const bad = cat(ld(1, ld(5, ld(1, utf8('a')))), ld(1, ld(5, vi(1, 3))))
    const p = checkWire(IdentityUpdateSchema, bad)!
    expect(p.path).toBe('actions[1].claim_handle')
    expect(p.segments).toEqual([{ name: 'actions', index: 1 }, { name: 'claim_handle' }])
    expect(p.detail).toBe('field 1 (handle) has wire type varint, expected length-delimited')
    expect(p.offset).toBe(bad.length - 2)
    expect(p.message).toBe(
      `actions[1].claim_handle: field 1 (handle) has wire type varint, expected length-delimited, at byte ${bad.length - 2}`,
    )
  })

  it('adds baseOffset to every offset', () => {
    expect(checkWire(IdentityUpdateSchema, raw(0x18, 0), { baseOffset: 100 })!.offset).toBe(100)
  })

  it('skips unknown fields of every non-group wire type without reading them', () => {
    const unknown = cat(
      vi(20, 1),
      raw(0xa9, 0x01, 1, 2, 3, 4, 5, 6, 7, 8),
      ld(22, raw(0xff, 0xfe)),
      raw(0xbd, 0x01, 1, 2, 3, 4),
    )
    expect(checkWire(IdentityUpdateSchema, unknown)).toBeNull()
  })

  it('refuses group wire types (3 and 4), known or unknown', () => {
    expect(checkWire(IdentityUpdateSchema, raw(0xa3, 0x01, 0xa4, 0x01))!.detail).toMatch(
      /field 20 has the group wire type start-group/,
    )
    expect(checkWire(IdentityUpdateSchema, raw(0x0c))!.detail).toMatch(
      /field 1 \(actions\) has the group wire type end-group/,
    )
  })

  it('refuses invalid tags: field 0, wire types 6 and 7, a tag overflowing uint32', () => {
    for (const b of [raw(0x00), raw(0x0e), raw(0x0f), raw(0xff, 0xff, 0xff, 0xff, 0x7f)]) {
      expect(checkWire(IdentityUpdateSchema, b)!.detail).toMatch(/invalid field tag/)
    }
  })

  it('refuses truncation: a cut tag, varint, length, body and fixed-width value', () => {
    expect(checkWire(IdentityUpdateSchema, raw(0x80))!.detail).toMatch(/truncated: the input ends inside a field tag/)
    expect(checkWire(IdentityUpdateSchema, raw(0x10, 0x80))!.detail).toMatch(
      /truncated: field 2 \(client_timestamp_ns\) is a varint/,
    )
    expect(checkWire(IdentityUpdateSchema, raw(0x1a, 0x85))!.detail).toMatch(
      /truncated: the length of field 3 \(inbox_id\)/,
    )
    expect(checkWire(IdentityUpdateSchema, raw(0x1a, 0x05, 0x61))!.detail).toBe(
      'truncated: field 3 (inbox_id) declares 5 bytes, 1 byte remains',
    )
    expect(checkWire(DoubleValueSchema, raw(0x09, 1, 2, 3))!.detail).toBe(
      'truncated: field 1 (value) needs 8 bytes, 3 bytes remain',
    )
    expect(checkWire(IdentityUpdateSchema, raw(0xa9, 0x01, 1))!.detail).toMatch(
      /truncated: unknown field 21 needs 8 bytes/,
    )
  })

  it('refuses a varint longer than 10 bytes, also in an unknown field', () => {
    const long = [...new Array(10).fill(0x80), 0x01]
    expect(checkWire(IdentityUpdateSchema, raw(0x10, ...long))!.detail).toMatch(/longer than 10 bytes/)
    expect(checkWire(IdentityUpdateSchema, raw(0xa0, 0x01, ...long))!.detail).toMatch(
      /unknown field 20 is a varint longer than 10 bytes/,
    )
  })

  it('refuses a length above the remaining bytes even when it overflows 32 bits', () => {
    const p = checkWire(IdentityUpdateSchema, raw(0x1a, 0x81, 0x80, 0x80, 0x80, 0x10, 0x61))!
    expect(p.detail).toMatch(/declares 4294967297 bytes/)
  })

  it('checks the wire type of fixed-width fields', () => {
    expect(checkWire(DoubleValueSchema, raw(0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f))).toBeNull()
    expect(checkWire(DoubleValueSchema, raw(0x08, 0x01))!.detail).toBe(
      'field 1 (value) has wire type varint, expected 64-bit',
    )
    expect(checkWire(FloatValueSchema, raw(0x0d, 0, 0, 0x80, 0x3f))).toBeNull()
    expect(checkWire(FloatValueSchema, raw(0x09, 0, 0, 0, 0, 0, 0, 0, 0))!.detail).toMatch(/expected 32-bit/)
  })

  it('accepts repeated scalars packed or not, and checks packed bodies', () => {
    const unpacked = cat(vi(1, 1), vi(1, 300))
    const packed = ld(1, raw(0x01, 0xac, 0x02))
    expect(checkWire(SourceCodeInfo_LocationSchema, unpacked)).toBeNull()
    expect(checkWire(SourceCodeInfo_LocationSchema, packed)).toBeNull()
    expect(fromBinary(SourceCodeInfo_LocationSchema, packed).path).toEqual([1, 300])
    expect(checkWire(SourceCodeInfo_LocationSchema, ld(1, raw(0x01, 0xac)))!.detail).toMatch(
      /element of packed field 1 \(path\)/,
    )
    expect(checkWire(SourceCodeInfo_LocationSchema, raw(0x0d, 1, 2, 3, 4))!.detail).toBe(
      'field 1 (path) has wire type 32-bit, expected varint or packed length-delimited',
    )
  })

  it('checks UTF-8 in repeated strings and in map entries, and recurses into map values', () => {
    expect(checkWire(SourceCodeInfo_LocationSchema, ld(6, raw(0xc3, 0x28)))!.detail).toBe(
      'field 6 (leading_detached_comments)[0] is not valid UTF-8',
    )
    const entry = (k: Uint8Array, v: Uint8Array) => ld(1, cat(ld(1, k), ld(2, v)))
    const okValue = ld(3, utf8('s')) // Value.string_value
    expect(checkWire(StructSchema, entry(utf8('k'), okValue))).toBeNull()
    expect(checkWire(StructSchema, entry(raw(0xff), okValue))!.detail).toMatch(
      /map entry key of fields is not valid UTF-8/,
    )
    const badValue = vi(3, 1) // Value.string_value as a varint
    const p = checkWire(StructSchema, entry(utf8('k'), badValue))!
    expect(p.path).toBe('fields[0]')
    expect(p.detail).toBe('field 3 (string_value) has wire type varint, expected length-delimited')
  })

  it('checks nested messages of a Value (oneof members)', () => {
    expect(checkWire(ValueSchema, ld(5, ld(1, ld(1, utf8('k')))))).toBeNull()
    expect(checkWire(ValueSchema, vi(5, 1))!.detail).toBe(
      'field 5 (struct_value) has wire type varint, expected length-delimited',
    )
  })

  it('walks the container message but does not look inside unknown fields', () => {
    expect(checkWire(GetIdentityUpdatesResponseSchema, ld(1, ld(2, vi(1, 9))))).toBeNull()
    expect(checkWire(GetIdentityUpdatesResponseSchema, ld(1, ld(2, ld(1, raw(1)))))!.path).toBe(
      'responses[0].updates[0]',
    )
    expect(checkWire(IdentityUpdateSchema, ld(99, raw(0x0e, 0xff)))).toBeNull()
  })

  it('refuses nesting deeper than maxDepth', () => {
    let v = ld(3, utf8('x'))
    for (let i = 0; i < 5; i++) v = ld(5, ld(1, cat(ld(1, utf8('k')), ld(2, v))))
    expect(checkWire(ValueSchema, v)).toBeNull()
    expect(checkWire(ValueSchema, v, { maxDepth: 3 })!.detail).toMatch(/nested deeper than 3/)
  })
})

describe('wireTypeName', () => {
  it('names every wire type and flags invalid ones', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(wireTypeName)).toEqual([
      'varint',
      '64-bit',
      'length-delimited',
      'start-group',
      'end-group',
      '32-bit',
      'invalid (6)',
    ])
  })
})

describe('scalarWireType', () => {
  it('maps scalars to their wire types', () => {
    expect(scalarWireType(ScalarType.STRING)).toBe(WireType.LengthDelimited)
    expect(scalarWireType(ScalarType.BYTES)).toBe(WireType.LengthDelimited)
    expect(scalarWireType(ScalarType.FIXED64)).toBe(WireType.Bit64)
    expect(scalarWireType(ScalarType.SFIXED32)).toBe(WireType.Bit32)
    expect(scalarWireType(ScalarType.UINT64)).toBe(WireType.Varint)
    expect(scalarWireType(ScalarType.BOOL)).toBe(WireType.Varint)
  })
})

describe('isValidUtf8', () => {
  it('accepts well-formed UTF-8 and refuses the classic invalid forms', () => {
    expect(isValidUtf8(utf8('héllo \u{1F600}'))).toBe(true)
    expect(isValidUtf8(raw(0xef, 0xbb, 0xbf))).toBe(true)
    for (const b of [
      raw(0xc3, 0x28),
      raw(0xed, 0xa0, 0x80),
      raw(0xc0, 0x80),
      raw(0xf4, 0x90, 0x80, 0x80),
      raw(0xe2, 0x82),
    ]) {
      expect(isValidUtf8(b)).toBe(false)
    }
  })
})

describe('formatPath', () => {
  it('joins names with dots and puts indices in brackets', () => {
    expect(formatPath([])).toBe('')
    expect(formatPath([{ name: 'actions', index: 0 }, { name: 'add' }, { name: 'new_member_signature' }])).toBe(
      'actions[0].add.new_member_signature',
    )
  })
})
