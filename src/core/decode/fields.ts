/**
 * The one protobuf field reader (issue #17): it walks the fields of one message body in
 * wire order and tells a visitor what it finds, each field with its absolute byte offsets.
 * The strict decoder pass (./wire.ts), the log reader's container walk (./logs.ts), the
 * raw view's field tree (app/features/raw/wire-tree.ts) and the network client's reader
 * (network/wire.ts) all read tags through it; each turns a `FieldFault` into its own words.
 *
 * What it reads, and where it stops (a fault is always the last thing a visitor hears):
 * - a tag: a uint32 varint with field number 1..2^29-1 and wire type 0..5, as
 *   @bufbuild/protobuf's BinaryReader reads it (its reason is kept for an invalid tag);
 * - the group wire types 3 and 4 are refused before the visitor sees the tag (proto3 has
 *   no groups);
 * - a varint (at most 10 bytes), a 32- or 64-bit value, or a length and the body it
 *   declares; whatever runs past the end of the body is a fault, never a read past it.
 * Nested messages are not entered: a visitor walks a body by calling `walkFields` again.
 *
 * It allocates nothing per field on well-formed input beyond the body's `subarray`: a
 * varint below 2^35 is a number read in place (the decoder's hot path, issue #14), a
 * longer one a bigint read by BinaryReader, which also gives the exact failure.
 */
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'

/** Why the walk stopped. `at` is the absolute offset of the failing field's tag. */
export type FieldFault =
  | {
      /** The input ends inside a tag. */
      readonly kind: 'tag-truncated'
      readonly at: number
      readonly reason: string
    }
  | {
      /** The tag is not a valid one. */
      readonly kind: 'tag-invalid'
      readonly at: number
      /** BinaryReader's reason, e.g. `illegal tag: field no 0 wire type 0`. */
      readonly reason: string
    }
  | {
      readonly kind: 'group'
      readonly at: number
      readonly no: number
      readonly wt: WireType
      /** Absolute position after the tag. */
      readonly pos: number
    }
  | {
      /** The value (`varint-*`) or the length prefix (`length-*`) is a broken varint. */
      readonly kind: 'varint-truncated' | 'varint-too-long' | 'length-truncated' | 'length-too-long'
      readonly at: number
      readonly no: number
      readonly wt: WireType
      /** Bytes from the start of the varint to the end of the body. */
      readonly remaining: number
      /** Absolute position where reading stopped (as BinaryReader leaves it). */
      readonly pos: number
    }
  | {
      readonly kind: 'fixed-truncated'
      readonly at: number
      readonly no: number
      readonly wt: WireType.Bit32 | WireType.Bit64
      readonly size: 4 | 8
      /** Bytes after the tag. */
      readonly remaining: number
      readonly pos: number
    }
  | {
      /** A length-delimited field declares more bytes than its message has left. */
      readonly kind: 'past-end'
      readonly at: number
      readonly no: number
      readonly wt: WireType.LengthDelimited
      readonly length: number | bigint
      /** Bytes after the length. */
      readonly remaining: number
      readonly pos: number
    }

/**
 * What a walk tells. Offsets are absolute (`base` added); `end` is exclusive. A callback
 * returning false stops the walk there (the visitor keeps its own reason).
 */
export interface FieldVisitor {
  /** A field's tag (never a group tag), before its value is read. */
  tag(no: number, wt: WireType, at: number): boolean
  varint(no: number, at: number, value: number | bigint, valueAt: number, end: number): boolean
  fixed(no: number, wt: WireType.Bit32 | WireType.Bit64, at: number, valueAt: number, end: number): boolean
  bytes(no: number, at: number, body: Uint8Array, bodyAt: number, end: number): boolean
  fault(fault: FieldFault): void
}

const VARINT_TRUNCATED = -1
const VARINT_TOO_LONG = -2

/**
 * Where a walk is in its body. The BinaryReader (and its DataView) is made only for what
 * is not read in place, a varint of five bytes or more or a tag of two or more: a walk of
 * a message whose fields are all small made one reader per message body, about a third of
 * the garbage of decoding a million tiny updates (issue #14, finding 8).
 */
interface Cursor {
  pos: number
  readonly len: number
  reader: BinaryReader | null
}

/** The cursor's BinaryReader, at the cursor's position. */
function readerAt(c: Cursor, buf: Uint8Array): BinaryReader {
  const r = (c.reader ??= new BinaryReader(buf))
  r.pos = c.pos
  return r
}

/**
 * A varint at c.pos: a number below 2^35 read in place, else a bigint through BinaryReader;
 * VARINT_TRUNCATED or VARINT_TOO_LONG when broken (c.pos then where BinaryReader left it).
 */
function varint(c: Cursor, buf: Uint8Array): number | bigint {
  const start = c.pos
  let value = 0
  let scale = 1
  for (let p = start; p < c.len && p < start + 5; p++) {
    const x = buf[p]!
    value += (x & 0x7f) * scale
    if (x < 0x80) {
      c.pos = p + 1
      return value
    }
    scale *= 128
  }
  const r = readerAt(c, buf)
  try {
    const v = r.uint64()
    return typeof v === 'bigint' ? v : BigInt(v)
  } catch (e) {
    return e instanceof RangeError ? VARINT_TRUNCATED : VARINT_TOO_LONG
  } finally {
    c.pos = r.pos
  }
}

/**
 * Walks the fields of `buf` (a message body starting at absolute offset `base`), calling
 * `v` for each, in wire order. Returns true when the body was read to its end.
 */
export function walkFields(buf: Uint8Array, base: number, v: FieldVisitor): boolean {
  const r: Cursor = { pos: 0, len: buf.length, reader: null }
  const len = r.len
  while (r.pos < len) {
    const tagPos = r.pos
    const at = base + tagPos
    let no: number
    let wt: WireType
    const b = buf[tagPos]!
    if (b < 0x80 && b >= 8 && (b & 7) < 6) {
      // A one-byte valid tag (fields 1..15), read in place.
      no = b >>> 3
      wt = b & 7
      r.pos = tagPos + 1
    } else {
      const reader = readerAt(r, buf)
      try {
        ;[no, wt] = reader.tag()
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e)
        v.fault(e instanceof RangeError ? { kind: 'tag-truncated', at, reason } : { kind: 'tag-invalid', at, reason })
        return false
      }
      r.pos = reader.pos
    }
    if (wt === WireType.StartGroup || wt === WireType.EndGroup) {
      v.fault({ kind: 'group', at, no, wt, pos: base + r.pos })
      return false
    }
    if (!v.tag(no, wt, at)) return false
    const valuePos = r.pos
    switch (wt) {
      case WireType.Varint: {
        const x = varint(r, buf)
        if (x === VARINT_TRUNCATED || x === VARINT_TOO_LONG) {
          const kind = x === VARINT_TRUNCATED ? 'varint-truncated' : 'varint-too-long'
          v.fault({ kind, at, no, wt, remaining: len - valuePos, pos: base + r.pos })
          return false
        }
        if (!v.varint(no, at, x, base + valuePos, base + r.pos)) return false
        break
      }
      case WireType.Bit64:
      case WireType.Bit32: {
        const size = wt === WireType.Bit64 ? 8 : 4
        if (valuePos + size > len) {
          v.fault({ kind: 'fixed-truncated', at, no, wt, size, remaining: len - valuePos, pos: base + valuePos })
          return false
        }
        r.pos = valuePos + size
        if (!v.fixed(no, wt, at, base + valuePos, base + r.pos)) return false
        break
      }
      default: {
        // LengthDelimited: the only wire type left once groups are refused and tag() checked.
        const n = varint(r, buf)
        if (n === VARINT_TRUNCATED || n === VARINT_TOO_LONG) {
          const kind = n === VARINT_TRUNCATED ? 'length-truncated' : 'length-too-long'
          v.fault({ kind, at, no, wt, remaining: len - valuePos, pos: base + r.pos })
          return false
        }
        const bodyPos = r.pos
        const left = len - bodyPos
        if (n > left) {
          v.fault({
            kind: 'past-end',
            at,
            no,
            wt: WireType.LengthDelimited,
            length: n,
            remaining: left,
            pos: base + bodyPos,
          })
          return false
        }
        r.pos = bodyPos + Number(n)
        if (!v.bytes(no, at, buf.subarray(bodyPos, r.pos), base + bodyPos, base + r.pos)) return false
      }
    }
  }
  return true
}

/** One field of a body, as `eachField` gives it; a varint's value as a bigint. */
export type WireField =
  | { readonly no: number; readonly wt: WireType.Varint; readonly at: number; readonly value: bigint }
  | {
      readonly no: number
      readonly wt: WireType.LengthDelimited
      readonly at: number
      readonly body: Uint8Array
      readonly bodyAt: number
    }
  | { readonly no: number; readonly wt: WireType.Bit32 | WireType.Bit64; readonly at: number }

/**
 * The fields of `buf` one by one as records, for readers that look at a few known fields
 * (the log container, the network answers). `each` may throw; the walk then stops.
 * Returns the fault that stopped the walk, or null when `buf` was read to its end.
 */
export function eachField(buf: Uint8Array, base: number, each: (f: WireField) => void): FieldFault | null {
  let fault: FieldFault | null = null
  walkFields(buf, base, {
    tag: () => true,
    varint(no, at, value) {
      each({ no, wt: WireType.Varint, at, value: BigInt(value) })
      return true
    },
    fixed(no, wt, at) {
      each({ no, wt, at })
      return true
    },
    bytes(no, at, body, bodyAt) {
      each({ no, wt: WireType.LengthDelimited, at, body, bodyAt })
      return true
    },
    fault(f) {
      fault = f
    },
  })
  return fault
}

/**
 * The first broken varint of a packed body: its kind and the bytes from its start to the
 * end of the body, or null when the body is a whole number of varints.
 */
export function packedVarintFault(
  body: Uint8Array,
): { readonly kind: 'varint-truncated' | 'varint-too-long'; readonly remaining: number } | null {
  const r: Cursor = { pos: 0, len: body.length, reader: null }
  while (r.pos < r.len) {
    const start = r.pos
    const x = varint(r, body)
    if (x === VARINT_TRUNCATED) return { kind: 'varint-truncated', remaining: r.len - start }
    if (x === VARINT_TOO_LONG) return { kind: 'varint-too-long', remaining: r.len - start }
  }
  return null
}
