/**
 * A strict wire-type pass over protobuf binary, driven by a message descriptor from
 * src/gen, run before `fromBinary` (../shared/notes/toolchain.md §5).
 *
 * protobuf-es does not check the wire type of a known field: `inbox_id` sent as a
 * varint decodes to "" and `client_timestamp_ns` sent length-delimited decodes to a
 * number read from the length prefix. An update read that way is not "the
 * IdentityUpdate defined above, with the field numbers and types shown" (IDENT-001),
 * so this pass rejects it first, with a reason that names the field path, the field and
 * the byte offset:
 *
 *   actions[0].add.new_member_signature: field 3 (installation_key) has wire type
 *   varint, expected length-delimited, at byte 57
 *
 * What it checks, for every field of every known message, recursively:
 * - the tag is a valid tag (field number 1..2^29-1, wire type 0, 1, 2 or 5);
 * - the group wire types 3 and 4 are rejected everywhere, also on unknown fields
 *   (proto3 has no groups, and a group on the wire is not something this format carries);
 * - a known field has its type's wire type: length-delimited for message, string, bytes
 *   and map; 64-bit for fixed64, sfixed64 and double; 32-bit for fixed32, sfixed32 and
 *   float; varint for the other scalars and for enums. A repeated scalar or enum field is
 *   also accepted packed (length-delimited, holding a whole number of elements);
 * - nothing is truncated: a tag, varint (at most 10 bytes), fixed-width value or
 *   length-delimited body that runs past the end of its enclosing message is rejected;
 * - a known string field is valid UTF-8 (fatal decoding; a leading U+FEFF is text, as
 *   protobuf-es reads it, not a byte order mark);
 * - the body of a known message field is checked as that message.
 * Unknown fields are skipped, with their framing checked but their content not read
 * (the spec ignores an unknown field beside a listed one, e.g. Signature field 4).
 *
 * Repeated singular fields (the same non-repeated field number twice) are accepted:
 * protobuf's standard semantics are "last one wins" for scalars and "merge" for
 * messages, which is what `fromBinary` does, and this pass keeps those semantics. That
 * never changes which bytes are hashed or kept: the decoder keeps the input bytes, never
 * a re-encoding. Likewise two members of one oneof: the last one on the wire wins.
 *
 * The pass is pure and allocation-light; it never throws, it returns a `WireProblem`.
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf'
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'

/** One step of a field path: a field name, and the element index for a repeated field. */
export interface WirePathSegment {
  readonly name: string
  readonly index?: number
}

/** Why bytes are not a well-formed encoding of the message, and where. */
export interface WireProblem {
  /** The path of the message holding the failing field: '' for the top-level message. */
  readonly path: string
  readonly segments: readonly WirePathSegment[]
  /** Absolute byte offset (the start of the failing field's tag, or of the failure). */
  readonly offset: number
  /** What was expected and what was found, without the path and offset. */
  readonly detail: string
  /** `<path>: <detail>, at byte <offset>` (no path prefix at the top level). */
  readonly message: string
}

export interface CheckWireOptions {
  /** Added to every offset reported: the position of `bytes` inside a larger input. */
  readonly baseOffset?: number
  /** Nesting limit for known message fields (default 64). */
  readonly maxDepth?: number
}

export const WIRE_TYPE_NAMES: Readonly<Record<number, string>> = {
  [WireType.Varint]: 'varint',
  [WireType.Bit64]: '64-bit',
  [WireType.LengthDelimited]: 'length-delimited',
  [WireType.StartGroup]: 'start-group',
  [WireType.EndGroup]: 'end-group',
  [WireType.Bit32]: '32-bit',
}

/** The name of a wire type, as used in messages: varint, 64-bit, length-delimited, … */
export function wireTypeName(wt: number): string {
  return WIRE_TYPE_NAMES[wt] ?? `invalid (${wt})`
}

/** The wire type a scalar is encoded with when not packed. */
export function scalarWireType(t: ScalarType): WireType {
  switch (t) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WireType.Bit64
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return WireType.Bit32
    default:
      return WireType.Varint
  }
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** True when `b` is well-formed UTF-8 (no overlongs, surrogates or truncated sequences). */
export function isValidUtf8(b: Uint8Array): boolean {
  try {
    utf8Fatal.decode(b)
    return true
  } catch {
    return false
  }
}

const fieldTables = new WeakMap<DescMessage, Map<number, DescField>>()

function fieldsByNumber(desc: DescMessage): Map<number, DescField> {
  let t = fieldTables.get(desc)
  if (!t) {
    t = new Map(desc.fields.map((f) => [f.number, f]))
    fieldTables.set(desc, t)
  }
  return t
}

/** The failure with the path where it was found (a function, not a closure per message: see issue #14). */
function failAt(segs: WirePathSegment[], fail: Fail): { fail: Fail; segs: WirePathSegment[] } {
  return { fail, segs }
}

/** A failure found while walking: the detail and the absolute offset. */
class Fail {
  constructor(
    readonly offset: number,
    readonly detail: string,
  ) {}
}

/** Remaining-bytes wording for truncation messages. */
function remain(n: number): string {
  return n === 1 ? '1 byte remains' : `${n} bytes remain`
}

/**
 * Reads a varint (at most 10 bytes) at r.pos; returns its value (a number below 2^35, else a
 * bigint), or a Fail.
 * `what` names the varint in messages ("field 2 (nonce)", "the length of field 1 (actions)").
 */
function readVarint(r: BinaryReader, base: number, at: number, what: string): number | bigint | Fail {
  const start = r.pos
  // Fast path (issue #14): up to five bytes (below 2^35) as a number, no BigInt per field.
  const buf = (r as unknown as { readonly buf: Uint8Array }).buf
  let value = 0
  let scale = 1
  for (let p = start; p < r.len && p < start + 5; p++) {
    const x = buf[p]!
    value += (x & 0x7f) * scale
    if (x < 0x80) {
      r.pos = p + 1
      return value
    }
    scale *= 128
  }
  try {
    const v = r.uint64()
    return typeof v === 'bigint' ? v : BigInt(v)
  } catch (e) {
    if (e instanceof RangeError) {
      return new Fail(base + at, `truncated: ${what} is a varint that runs past the end (${remain(r.len - start)})`)
    }
    return new Fail(base + at, `${what} is a varint longer than 10 bytes`)
  }
}

/** Checks one packed body: a whole number of elements of wire type `wt`. */
function checkPacked(body: Uint8Array, wt: WireType, base: number, at: number, label: string): Fail | null {
  if (wt === WireType.Bit64 || wt === WireType.Bit32) {
    const size = wt === WireType.Bit64 ? 8 : 4
    return body.length % size === 0
      ? null
      : new Fail(base + at, `${label} is packed with ${body.length} bytes, not a whole number of ${size}-byte elements`)
  }
  const r = new BinaryReader(body)
  while (r.pos < r.len) {
    const v = readVarint(r, base, at, `an element of packed ${label}`)
    if (v instanceof Fail) return v
  }
  return null
}

interface Walk {
  readonly maxDepth: number
  /** Unknown fields skipped so far (counted, never materialised). */
  unknownFields: number
}

/** The next field tag of `r`, or the failure at its offset (truncation, or `invalid(message)`). */
function readTag(r: BinaryReader, base: number, invalid: (message: string) => string): [number, WireType] | Fail {
  const tagAt = r.pos
  try {
    return r.tag()
  } catch (e) {
    if (e instanceof RangeError) return new Fail(base + tagAt, 'truncated: the input ends inside a field tag')
    return new Fail(base + tagAt, invalid(e instanceof Error ? e.message : String(e)))
  }
}

/**
 * Walks `buf` (the body of a message of type `desc`, starting at absolute `base`).
 * Returns null when well-formed, else the failure with its path.
 */
function walkMessage(
  desc: DescMessage,
  buf: Uint8Array,
  base: number,
  segs: WirePathSegment[],
  depth: number,
  w: Walk,
): { fail: Fail; segs: WirePathSegment[] } | null {
  if (depth > w.maxDepth) return failAt(segs, new Fail(base, `messages nested deeper than ${w.maxDepth} levels`))
  const table = fieldsByNumber(desc)
  const seen = new Map<number, number>()
  const r = new BinaryReader(buf)
  while (r.pos < r.len) {
    const tagAt = r.pos
    const tag = readTag(r, base, (m) => `invalid field tag (${m.replace(/^illegal tag: /, '')})`)
    if (tag instanceof Fail) return failAt(segs, tag)
    const [no, wt] = tag
    if (wt === WireType.StartGroup || wt === WireType.EndGroup) {
      const f = table.get(no)
      const name = f ? `field ${no} (${f.name})` : `field ${no}`
      return failAt(
        segs,
        new Fail(base + tagAt, `${name} has the group wire type ${wireTypeName(wt)}, which proto3 does not use`),
      )
    }
    const field = table.get(no)
    if (!field) {
      // Unknown field: skip it, checking only its framing.
      w.unknownFields++
      const f = skipUnknown(r, wt, no, base, tagAt)
      if (f) return failAt(segs, f)
      continue
    }
    const label = `field ${no} (${field.name})`
    const expected = expectedWireType(field)
    const packable = isPackable(field)
    const acceptable = wt === expected || (packable && wt === WireType.LengthDelimited)
    if (!acceptable) {
      const exp = packable ? `${wireTypeName(expected)} or packed length-delimited` : wireTypeName(expected)
      return failAt(segs, new Fail(base + tagAt, `${label} has wire type ${wireTypeName(wt)}, expected ${exp}`))
    }
    const occurrence = seen.get(no) ?? 0
    seen.set(no, occurrence + 1)
    switch (wt) {
      case WireType.Varint: {
        const v = readVarint(r, base, tagAt, label)
        if (v instanceof Fail) return failAt(segs, v)
        break
      }
      case WireType.Bit64:
      case WireType.Bit32: {
        const size = wt === WireType.Bit64 ? 8 : 4
        if (r.pos + size > r.len) {
          return failAt(
            segs,
            new Fail(base + tagAt, `truncated: ${label} needs ${size} bytes, ${remain(r.len - r.pos)}`),
          )
        }
        r.pos += size
        break
      }
      case WireType.LengthDelimited: {
        const len = readVarint(r, base, tagAt, `the length of ${label}`)
        if (len instanceof Fail) return failAt(segs, len)
        const left = r.len - r.pos
        if (len > left) {
          return failAt(segs, new Fail(base + tagAt, `truncated: ${label} declares ${len} bytes, ${remain(left)}`))
        }
        const bodyAt = r.pos
        const body = buf.subarray(bodyAt, bodyAt + Number(len))
        r.pos += Number(len)
        const f = checkLengthDelimited(field, body, base, bodyAt, tagAt, label, segs, occurrence, depth, w)
        if (f) return f
        break
      }
      default:
        return failAt(segs, new Fail(base + tagAt, `${label} has invalid wire type ${wt}`))
    }
  }
  return null
}

function checkLengthDelimited(
  field: DescField,
  body: Uint8Array,
  base: number,
  bodyAt: number,
  tagAt: number,
  label: string,
  segs: WirePathSegment[],
  occurrence: number,
  depth: number,
  w: Walk,
): { fail: Fail; segs: WirePathSegment[] } | null {
  switch (field.fieldKind) {
    case 'scalar':
      if (field.scalar === ScalarType.STRING && !isValidUtf8(body)) {
        return failAt(segs, new Fail(base + tagAt, `${label} is not valid UTF-8`))
      }
      return null
    case 'enum': // a packed enum only occurs in lists; a singular enum is never LEN
      return null
    case 'message':
      return walkMessage(field.message, body, base + bodyAt, [...segs, { name: field.name }], depth + 1, w)
    case 'list':
      if (field.listKind === 'message') {
        return walkMessage(
          field.message,
          body,
          base + bodyAt,
          [...segs, { name: field.name, index: occurrence }],
          depth + 1,
          w,
        )
      }
      if (field.listKind === 'scalar' && field.scalar === ScalarType.STRING) {
        return isValidUtf8(body)
          ? null
          : failAt(segs, new Fail(base + tagAt, `${label}[${occurrence}] is not valid UTF-8`))
      }
      if (field.listKind === 'scalar' && field.scalar === ScalarType.BYTES) return null
      {
        const elem = field.listKind === 'enum' ? WireType.Varint : scalarWireType(field.scalar)
        const f = checkPacked(body, elem, base, tagAt, label)
        return f ? failAt(segs, f) : null
      }
    case 'map': {
      const f = checkMapEntry(
        field,
        body,
        base + bodyAt,
        [...segs, { name: field.name, index: occurrence }],
        depth + 1,
        w,
      )
      return f
    }
  }
}

/** A map entry is a message with key = 1 and value = 2. */
function checkMapEntry(
  field: DescField & { fieldKind: 'map' },
  body: Uint8Array,
  base: number,
  segs: WirePathSegment[],
  depth: number,
  w: Walk,
): { fail: Fail; segs: WirePathSegment[] } | null {
  const r = new BinaryReader(body)
  while (r.pos < r.len) {
    const tagAt = r.pos
    const tag = readTag(r, base, () => 'invalid field tag in a map entry')
    if (tag instanceof Fail) return failAt(segs, tag)
    const [no, wt] = tag
    if (wt === WireType.StartGroup || wt === WireType.EndGroup) {
      return failAt(segs, new Fail(base + tagAt, `map entry field ${no} has the group wire type ${wireTypeName(wt)}`))
    }
    if (no !== 1 && no !== 2) {
      w.unknownFields++
      const f = skipUnknown(r, wt, no, base, tagAt)
      if (f) return failAt(segs, f)
      continue
    }
    const label = no === 1 ? `map entry key of ${field.name}` : `map entry value of ${field.name}`
    const expected =
      no === 1
        ? scalarWireType(field.mapKey)
        : field.mapKind === 'scalar'
          ? scalarWireType(field.scalar)
          : field.mapKind === 'enum'
            ? WireType.Varint
            : WireType.LengthDelimited
    if (wt !== expected) {
      return failAt(
        segs,
        new Fail(base + tagAt, `${label} has wire type ${wireTypeName(wt)}, expected ${wireTypeName(expected)}`),
      )
    }
    if (wt === WireType.Varint) {
      const v = readVarint(r, base, tagAt, label)
      if (v instanceof Fail) return failAt(segs, v)
    } else if (wt === WireType.Bit64 || wt === WireType.Bit32) {
      const size = wt === WireType.Bit64 ? 8 : 4
      if (r.pos + size > r.len) return failAt(segs, new Fail(base + tagAt, `truncated: ${label} needs ${size} bytes`))
      r.pos += size
    } else {
      const len = readVarint(r, base, tagAt, `the length of ${label}`)
      if (len instanceof Fail) return failAt(segs, len)
      if (len > r.len - r.pos) {
        return failAt(
          segs,
          new Fail(base + tagAt, `truncated: ${label} declares ${len} bytes, ${remain(r.len - r.pos)}`),
        )
      }
      const at = r.pos
      const sub = body.subarray(at, at + Number(len))
      r.pos += Number(len)
      const isString =
        no === 1 ? field.mapKey === ScalarType.STRING : field.mapKind === 'scalar' && field.scalar === ScalarType.STRING
      if (isString && !isValidUtf8(sub)) return failAt(segs, new Fail(base + tagAt, `${label} is not valid UTF-8`))
      if (no === 2 && field.mapKind === 'message') {
        const f = walkMessage(field.message, sub, base + at, segs, depth + 1, w)
        if (f) return f
      }
    }
  }
  return null
}

/** Skips an unknown field (wire types 0, 1, 2, 5), checking that it fits. */
function skipUnknown(r: BinaryReader, wt: WireType, no: number, base: number, tagAt: number): Fail | null {
  const label = `unknown field ${no}`
  switch (wt) {
    case WireType.Varint: {
      const v = readVarint(r, base, tagAt, label)
      return v instanceof Fail ? v : null
    }
    case WireType.Bit64:
    case WireType.Bit32: {
      const size = wt === WireType.Bit64 ? 8 : 4
      if (r.pos + size > r.len)
        return new Fail(base + tagAt, `truncated: ${label} needs ${size} bytes, ${remain(r.len - r.pos)}`)
      r.pos += size
      return null
    }
    case WireType.LengthDelimited: {
      const len = readVarint(r, base, tagAt, `the length of ${label}`)
      if (len instanceof Fail) return len
      if (len > r.len - r.pos) {
        return new Fail(base + tagAt, `truncated: ${label} declares ${len} bytes, ${remain(r.len - r.pos)}`)
      }
      r.pos += Number(len)
      return null
    }
    default:
      return new Fail(base + tagAt, `${label} has invalid wire type ${wt}`)
  }
}

/** The wire type a known field must arrive with (packed lists aside). */
export function expectedWireType(field: DescField): WireType {
  switch (field.fieldKind) {
    case 'scalar':
      return scalarWireType(field.scalar)
    case 'enum':
      return WireType.Varint
    case 'message':
      // Delimited (group) encoding is a proto2/editions feature; proto3 never uses it,
      // and group wire types are refused before this is asked.
      return WireType.LengthDelimited
    case 'list':
      if (field.listKind === 'message') return WireType.LengthDelimited
      if (field.listKind === 'enum') return WireType.Varint
      return scalarWireType(field.scalar)
    case 'map':
      return WireType.LengthDelimited
  }
}

/** A repeated scalar (not string or bytes) or enum field: also accepted packed. */
function isPackable(field: DescField): boolean {
  if (field.fieldKind !== 'list') return false
  if (field.listKind === 'enum') return true
  if (field.listKind !== 'scalar') return false
  return field.scalar !== ScalarType.STRING && field.scalar !== ScalarType.BYTES
}

/** Formats a path: `actions[0].add.new_member_signature`. */
export function formatPath(segs: readonly WirePathSegment[]): string {
  return segs.map((s) => (s.index === undefined ? s.name : `${s.name}[${s.index}]`)).join('.')
}

/**
 * The strict wire-type pass: null when `bytes` is a well-formed encoding of `desc`
 * under the rules in this module's header, else the first problem in byte order.
 */
export function checkWire(desc: DescMessage, bytes: Uint8Array, options: CheckWireOptions = {}): WireProblem | null {
  return checkWireCounted(desc, bytes, options).problem
}

/**
 * checkWire, also telling how many unknown fields it skipped (in well-formed bytes: all
 * of them), so a caller can decide not to materialise them (issue #14, finding 2).
 */
export function checkWireCounted(
  desc: DescMessage,
  bytes: Uint8Array,
  options: CheckWireOptions = {},
): { readonly problem: WireProblem | null; readonly unknownFields: number } {
  const w: Walk = { maxDepth: options.maxDepth ?? 64, unknownFields: 0 }
  const found = walkMessage(desc, bytes, options.baseOffset ?? 0, [], 0, w)
  return { problem: found ? toProblem(found) : null, unknownFields: w.unknownFields }
}

function toProblem(found: { fail: Fail; segs: WirePathSegment[] }): WireProblem {
  const path = formatPath(found.segs)
  const { offset, detail } = found.fail
  return {
    path,
    segments: found.segs,
    offset,
    detail,
    message: `${path ? `${path}: ` : ''}${detail}, at byte ${offset}`,
  }
}
