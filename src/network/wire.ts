/**
 * The strict field list (core/decode/fields.ts reads it) for the answers the network client reads
 * by hand (where the exact bytes of an embedded IdentityUpdate must be kept): every tag,
 * varint, fixed-width value and length is checked against the end of its message, and
 * the group wire types (which proto3 never uses) are refused. It reads a body's
 * top-level fields only; nested messages are walked by calling it again on their body.
 */
import type { WireType } from '@bufbuild/protobuf/wire'
import { eachField, type FieldFault, type WireField } from '../core/decode/fields'
import { fieldFaultDetail, wireTypeMismatch } from '../core/decode/wire'

export type { WireField }

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

/** The network client's words for a fault of the shared field reader in the body of `what`. */
function wireFault(f: FieldFault, what: string): WireError {
  switch (f.kind) {
    case 'tag-truncated':
      return new WireError(f.at, `${what} ends inside a field tag (truncated)`)
    case 'tag-invalid':
      return new WireError(f.at, `${what} has an invalid field tag`)
    default:
      return new WireError(f.at, `${what}: field ${f.no} ${fieldFaultDetail(f)}`)
  }
}

/** The fields of one message body, in wire order (read by core/decode/fields.ts). @throws WireError */
export function readFields(buf: Uint8Array, what: string, base = 0): WireField[] {
  const out: WireField[] = []
  const fault = eachField(buf, base, (f) => out.push(f))
  if (fault) throw wireFault(fault, what)
  return out
}

/** Requires a field's wire type. @throws WireError */
export function expectWireType(f: WireField, wt: WireType, what: string, name: string): void {
  const mismatch = wireTypeMismatch(f, wt, what, name)
  if (mismatch) throw new WireError(f.at, mismatch)
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
