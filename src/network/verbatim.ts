/**
 * Carrying protobuf bodies verbatim through Connect-ES (proto/inspector/wire/v1).
 *
 * Connect-ES serializes with the method's schemas: a GetIdentityUpdatesResponse read with
 * its own schema would decode every IdentityUpdate and lose the exact bytes the node
 * served (protobuf-es does not re-encode byte-identically, toolchain.md §5). So a call
 * goes through a copy of the method whose output (and, on the node, input) is
 * `inspector.wire.v1.Verbatim`, a message with no known fields: reading keeps every
 * top-level field as an unknown field holding its exact bytes, writing puts them back in
 * order. The path (/package.Service/Method) is the real method's, so a real node sees
 * an ordinary call. The body is then parsed strictly by this project's own code.
 */
import { fromBinary, toBinary, type DescMethod } from '@bufbuild/protobuf'
import { type Verbatim, VerbatimSchema } from '../gen/inspector/wire/v1/verbatim_pb'

export type { Verbatim }

/** The method with its output (and with `input: true` its input) carried as Verbatim. */
export function verbatimMethod<M extends DescMethod>(method: M, sides: { input?: boolean } = {}): M {
  return Object.freeze({
    ...method,
    output: VerbatimSchema,
    ...(sides.input ? { input: VerbatimSchema } : {}),
    toString: () => method.toString(),
  }) as unknown as M
}

/** The body a Verbatim message was read from (tags re-written minimal, field bytes exact). */
export function verbatimBytes(msg: Verbatim): Uint8Array {
  return toBinary(VerbatimSchema, msg)
}

/** A Verbatim message that writes exactly `bytes` (which must be well-framed protobuf). */
export function verbatimOf(bytes: Uint8Array): Verbatim {
  return fromBinary(VerbatimSchema, bytes)
}
