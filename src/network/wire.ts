/**
 * A strict field walker over protobuf binary for the answers the network client reads
 * by hand (where the exact bytes of an embedded IdentityUpdate must be kept): every tag,
 * varint, fixed-width value and length is checked against the end of its message, and
 * the group wire types (which proto3 never uses) are refused. It reads a body's
 * top-level fields only; nested messages are walked by calling it again on their body.
 */
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
import { wireTypeName } from '../core/decode/wire'

export type WireField =
  | { readonly no: number; readonly wt: WireType.Varint; readonly at: number; readonly value: bigint }
  | { readonly no: number; readonly wt: WireType.LengthDelimited; readonly at: number; readonly body: Uint8Array }
  | { readonly no: number; readonly wt: WireType.Bit32 | WireType.Bit64; readonly at: number }

/** Why bytes are not well-formed protobuf; `offset` is absolute when a base was given. */
export class WireError extends Error {
  override readonly name = 'WireError'
  constructor(
    readonly offset: number,
    readonly detail: string,
  ) {
    super(`${detail}, at byte ${offset}`)
  }
}

/** The fields of one message body, in wire order. @throws WireError */
export function readFields(buf: Uint8Array, what: string, base = 0): WireField[] {
  const out: WireField[] = []
  const r = new BinaryReader(buf)
  while (r.pos < r.len) {
    const at = r.pos
    let no: number
    let wt: WireType
    try {
      ;[no, wt] = r.tag()
    } catch (e) {
      throw new WireError(
        base + at,
        e instanceof RangeError ? `${what} ends inside a field tag (truncated)` : `${what} has an invalid field tag`,
      )
    }
    const fail = (d: string) => new WireError(base + at, `${what}: field ${no} ${d}`)
    if (wt === WireType.Varint) {
      let v: bigint
      try {
        v = BigInt(r.uint64())
      } catch (e) {
        throw fail(e instanceof RangeError ? 'is a varint that runs past the end' : 'is a varint over 10 bytes')
      }
      out.push({ no, wt, at: base + at, value: v })
    } else if (wt === WireType.LengthDelimited) {
      let len: bigint
      try {
        len = BigInt(r.uint64())
      } catch {
        throw fail('has a length that runs past the end')
      }
      if (len > BigInt(r.len - r.pos)) throw fail(`declares ${len} bytes where ${r.len - r.pos} remain (truncated)`)
      const start = r.pos
      r.pos += Number(len)
      out.push({ no, wt, at: base + at, body: buf.subarray(start, r.pos) })
    } else if (wt === WireType.Bit32 || wt === WireType.Bit64) {
      const size = wt === WireType.Bit64 ? 8 : 4
      if (r.pos + size > r.len) throw fail(`needs ${size} bytes where ${r.len - r.pos} remain (truncated)`)
      r.pos += size
      out.push({ no, wt, at: base + at })
    } else {
      throw fail(`has the wire type ${wireTypeName(wt)}, which proto3 does not use`)
    }
  }
  return out
}

/** Requires a field's wire type. @throws WireError */
export function expectWireType(f: WireField, wt: WireType, what: string, name: string): void {
  if (f.wt !== wt) {
    throw new WireError(
      f.at,
      `${what}: field ${f.no} (${name}) has wire type ${wireTypeName(f.wt)}, expected ${wireTypeName(wt)}`,
    )
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A string field's text. @throws WireError when it is not UTF-8 */
export function fieldText(f: WireField & { wt: WireType.LengthDelimited }, what: string, name: string): string {
  try {
    return utf8.decode(f.body)
  } catch {
    throw new WireError(f.at, `${what}: field ${f.no} (${name}) is not valid UTF-8`)
  }
}
