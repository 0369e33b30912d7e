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
import { WireType } from '@bufbuild/protobuf/wire'
import { type FieldFault, type FieldVisitor, packedVarintFault, walkFields } from './fields'

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

/**
 * `<what>: field <no> (<name>) has wire type <found>, expected <wt>` when a field of a
 * hand-read message (the log container, the network answers) arrives with the wrong wire
 * type, else null.
 */
export function wireTypeMismatch(
  f: { readonly no: number; readonly wt: WireType },
  wt: WireType,
  what: string,
  name: string,
): string | null {
  return f.wt === wt
    ? null
    : `${what}: field ${f.no} (${name}) has wire type ${wireTypeName(f.wt)}, expected ${wireTypeName(wt)}`
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

/** A broken varint in the decoder's words; `what` names it ("field 2 (nonce)", "the length of …"). */
function varintDetail(truncated: boolean, what: string, remaining: number): string {
  return truncated
    ? `truncated: ${what} is a varint that runs past the end (${remain(remaining)})`
    : `${what} is a varint longer than 10 bytes`
}

const TAG_TRUNCATED = 'truncated: the input ends inside a field tag'

/** A fault in a field's value or length (not in its tag). */
type FramingFault = Exclude<FieldFault, { kind: 'tag-truncated' | 'tag-invalid' | 'group' }>

/**
 * A framing fault of the field labelled `label` in the decoder's words. `fixedRemain`:
 * say how many bytes remain after a truncated fixed-width value.
 */
function framingDetail(f: FramingFault, label: string, fixedRemain: boolean): string {
  switch (f.kind) {
    case 'varint-truncated':
    case 'varint-too-long':
      return varintDetail(f.kind === 'varint-truncated', label, f.remaining)
    case 'length-truncated':
    case 'length-too-long':
      return varintDetail(f.kind === 'length-truncated', `the length of ${label}`, f.remaining)
    case 'fixed-truncated':
      return `truncated: ${label} needs ${f.size} bytes${fixedRemain ? `, ${remain(f.remaining)}` : ''}`
    case 'past-end':
      return `truncated: ${label} declares ${f.length} bytes, ${remain(f.remaining)}`
  }
}

/**
 * What is wrong with field `f.no` (a fault past its tag) in the words of the hand readers of
 * containers and answers (decode/logs.ts, network/wire.ts), which prefix `<what>: field N `.
 */
export function fieldFaultDetail(f: Exclude<FieldFault, { kind: 'tag-truncated' | 'tag-invalid' }>): string {
  switch (f.kind) {
    case 'group':
      return `has the group wire type ${wireTypeName(f.wt)}, which proto3 does not use`
    case 'varint-truncated':
      return 'is a varint that runs past the end'
    case 'varint-too-long':
      return 'is a varint longer than 10 bytes'
    case 'length-truncated':
    case 'length-too-long':
      return 'has a length that runs past the end'
    case 'past-end':
      return `declares ${f.length} bytes, ${f.remaining} remain (truncated)`
    case 'fixed-truncated':
      return `needs ${f.size} bytes, ${f.remaining} remain (truncated)`
  }
}

/** Checks one packed body: a whole number of elements of wire type `wt`; `at` is the field's tag. */
function checkPacked(body: Uint8Array, wt: WireType, at: number, label: string): Fail | null {
  if (wt === WireType.Bit64 || wt === WireType.Bit32) {
    const size = wt === WireType.Bit64 ? 8 : 4
    return body.length % size === 0
      ? null
      : new Fail(at, `${label} is packed with ${body.length} bytes, not a whole number of ${size}-byte elements`)
  }
  const f = packedVarintFault(body)
  return f
    ? new Fail(at, varintDetail(f.kind === 'varint-truncated', `an element of packed ${label}`, f.remaining))
    : null
}

interface Walk {
  readonly maxDepth: number
  /** Unknown fields skipped so far (counted, never materialised). */
  unknownFields: number
}

type Found = { fail: Fail; segs: WirePathSegment[] } | null

/**
 * What the checks below share: a varint or fixed field's wire type was checked at its tag,
 * so its value passes; `found` is the first failure, with its path.
 */
abstract class BodyCheck implements FieldVisitor {
  found: Found = null

  constructor(
    protected readonly segs: WirePathSegment[],
    protected readonly depth: number,
    protected readonly w: Walk,
  ) {}

  abstract tag(no: number, wt: WireType, at: number): boolean
  abstract bytes(no: number, at: number, body: Uint8Array, bodyAt: number, end: number): boolean
  abstract fault(fault: FieldFault): void

  varint(): boolean {
    return true
  }

  fixed(): boolean {
    return true
  }
}

/** The visitor that checks one message body against its descriptor (see the module header). */
class MessageCheck extends BodyCheck {
  private readonly seen = new Map<number, number>()
  private field: DescField | undefined = undefined
  private no = 0
  private label = ''
  private occurrence = 0

  constructor(
    private readonly table: Map<number, DescField>,
    segs: WirePathSegment[],
    depth: number,
    w: Walk,
  ) {
    super(segs, depth, w)
  }

  tag(no: number, wt: WireType, at: number): boolean {
    const field = this.table.get(no)
    this.field = field
    this.no = no
    if (!field) {
      // Unknown field: skipped, only its framing checked.
      this.w.unknownFields++
      return true
    }
    const label = `field ${no} (${field.name})`
    this.label = label
    const expected = expectedWireType(field)
    const packable = isPackable(field)
    if (wt !== expected && !(packable && wt === WireType.LengthDelimited)) {
      const exp = packable ? `${wireTypeName(expected)} or packed length-delimited` : wireTypeName(expected)
      this.found = failAt(this.segs, new Fail(at, `${label} has wire type ${wireTypeName(wt)}, expected ${exp}`))
      return false
    }
    const occurrence = this.seen.get(no) ?? 0
    this.seen.set(no, occurrence + 1)
    this.occurrence = occurrence
    return true
  }

  bytes(_no: number, at: number, body: Uint8Array, bodyAt: number): boolean {
    const field = this.field
    if (!field) return true
    this.found = checkLengthDelimited(
      field,
      body,
      bodyAt,
      at,
      this.label,
      this.segs,
      this.occurrence,
      this.depth,
      this.w,
    )
    return this.found === null
  }

  fault(f: FieldFault): void {
    let detail: string
    if (f.kind === 'tag-truncated') detail = TAG_TRUNCATED
    else if (f.kind === 'tag-invalid') detail = `invalid field tag (${f.reason.replace(/^illegal tag: /, '')})`
    else if (f.kind === 'group') {
      const field = this.table.get(f.no)
      const name = field ? `field ${f.no} (${field.name})` : `field ${f.no}`
      detail = `${name} has the group wire type ${wireTypeName(f.wt)}, which proto3 does not use`
    } else detail = framingDetail(f, this.field ? this.label : `unknown field ${this.no}`, true)
    this.found = failAt(this.segs, new Fail(f.at, detail))
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
): Found {
  if (depth > w.maxDepth) return failAt(segs, new Fail(base, `messages nested deeper than ${w.maxDepth} levels`))
  const check = new MessageCheck(fieldsByNumber(desc), segs, depth, w)
  walkFields(buf, base, check)
  return check.found
}

/** `bodyAt` and `tagAt` are absolute offsets. */
function checkLengthDelimited(
  field: DescField,
  body: Uint8Array,
  bodyAt: number,
  tagAt: number,
  label: string,
  segs: WirePathSegment[],
  occurrence: number,
  depth: number,
  w: Walk,
): Found {
  switch (field.fieldKind) {
    case 'scalar':
      if (field.scalar === ScalarType.STRING && !isValidUtf8(body)) {
        return failAt(segs, new Fail(tagAt, `${label} is not valid UTF-8`))
      }
      return null
    case 'enum': // a packed enum only occurs in lists; a singular enum is never LEN
      return null
    case 'message':
      return walkMessage(field.message, body, bodyAt, [...segs, { name: field.name }], depth + 1, w)
    case 'list':
      if (field.listKind === 'message') {
        return walkMessage(
          field.message,
          body,
          bodyAt,
          [...segs, { name: field.name, index: occurrence }],
          depth + 1,
          w,
        )
      }
      if (field.listKind === 'scalar' && field.scalar === ScalarType.STRING) {
        return isValidUtf8(body) ? null : failAt(segs, new Fail(tagAt, `${label}[${occurrence}] is not valid UTF-8`))
      }
      if (field.listKind === 'scalar' && field.scalar === ScalarType.BYTES) return null
      {
        const elem = field.listKind === 'enum' ? WireType.Varint : scalarWireType(field.scalar)
        const f = checkPacked(body, elem, tagAt, label)
        return f ? failAt(segs, f) : null
      }
    case 'map': {
      const check = new MapEntryCheck(field, [...segs, { name: field.name, index: occurrence }], depth + 1, w)
      walkFields(body, bodyAt, check)
      return check.found
    }
  }
}

/** A map entry is a message with key = 1 and value = 2. */
class MapEntryCheck extends BodyCheck {
  private known = false
  private no = 0
  private label = ''

  constructor(
    private readonly field: DescField & { fieldKind: 'map' },
    segs: WirePathSegment[],
    depth: number,
    w: Walk,
  ) {
    super(segs, depth, w)
  }

  tag(no: number, wt: WireType, at: number): boolean {
    this.no = no
    this.known = no === 1 || no === 2
    if (!this.known) {
      this.w.unknownFields++
      return true
    }
    const field = this.field
    const label = no === 1 ? `map entry key of ${field.name}` : `map entry value of ${field.name}`
    this.label = label
    const expected =
      no === 1
        ? scalarWireType(field.mapKey)
        : field.mapKind === 'scalar'
          ? scalarWireType(field.scalar)
          : field.mapKind === 'enum'
            ? WireType.Varint
            : WireType.LengthDelimited
    if (wt !== expected) {
      this.found = failAt(
        this.segs,
        new Fail(at, `${label} has wire type ${wireTypeName(wt)}, expected ${wireTypeName(expected)}`),
      )
      return false
    }
    return true
  }

  bytes(no: number, at: number, sub: Uint8Array, subAt: number): boolean {
    if (!this.known) return true
    const field = this.field
    const isString =
      no === 1 ? field.mapKey === ScalarType.STRING : field.mapKind === 'scalar' && field.scalar === ScalarType.STRING
    if (isString && !isValidUtf8(sub)) {
      this.found = failAt(this.segs, new Fail(at, `${this.label} is not valid UTF-8`))
      return false
    }
    if (no === 2 && field.mapKind === 'message') {
      this.found = walkMessage(field.message, sub, subAt, this.segs, this.depth + 1, this.w)
    }
    return this.found === null
  }

  fault(f: FieldFault): void {
    let detail: string
    if (f.kind === 'tag-truncated') detail = TAG_TRUNCATED
    else if (f.kind === 'tag-invalid') detail = 'invalid field tag in a map entry'
    else if (f.kind === 'group') detail = `map entry field ${f.no} has the group wire type ${wireTypeName(f.wt)}`
    else detail = this.known ? framingDetail(f, this.label, false) : framingDetail(f, `unknown field ${this.no}`, true)
    this.found = failAt(this.segs, new Fail(f.at, detail))
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
