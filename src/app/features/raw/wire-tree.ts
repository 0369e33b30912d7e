/**
 * The raw view's wire walker: an IdentityUpdate's protobuf fields as a tree, each node
 * with its byte range, its tag / length header and its value, named from the generated
 * descriptors (the app's one wire module: the only app file that imports src/gen).
 *
 * It never throws and never re-encodes: it reads the bytes as given, flags fields the
 * definition does not list (unknown), the retired Signature field 4 (the legacy delegated
 * signature, spec section 4 / IDENT-001), a known field with the wrong wire type, and a
 * message that is cut short (malformed, with the offset where reading stopped).
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf'
import { WireType } from '@bufbuild/protobuf/wire'
import { type FieldFault, type FieldVisitor, walkFields } from '../../../core/decode/fields'
import { expectedWireType, WIRE_TYPE_NAMES } from '../../../core/decode/wire'
import { IdentityUpdateSchema } from '../../../gen/identity/associations/association_pb'

type WireFlag = 'unknown' | 'retired' | 'wrong-wire-type' | 'malformed'

export interface WireNode {
  /** Field path, e.g. `actions[0].add.new_member_signature.erc_191.bytes`. */
  readonly path: string
  readonly no: number
  /** Field name from the descriptor; null for an unknown field. */
  readonly name: string | null
  /** Declared type (`string`, `uint64`, `Signature`, …) or `unknown`. */
  readonly type: string
  readonly wireType: number
  /** Offset of the field's tag. */
  readonly offset: number
  /** Offset of the value (after the tag and, for length-delimited fields, the length). */
  readonly valueOffset: number
  /** End offset (exclusive). */
  readonly end: number
  /** A readable value for scalars: decimal, quoted string, enum name; null for messages and unread values. */
  readonly value: string | null
  readonly children: readonly WireNode[]
  readonly flags: readonly WireFlag[]
  /** Why a node is flagged, in words. */
  readonly note: string
}

export interface WireTree {
  readonly nodes: readonly WireNode[]
  readonly length: number
  /** Set when the top-level message could not be read to its end. */
  readonly problem: { readonly offset: number; readonly detail: string } | null
}

export { WIRE_TYPE_NAMES }

const SIGNATURE = 'xmtp.identity.associations.Signature'
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function typeName(f: DescField): string {
  if (f.fieldKind === 'message') return f.message.name
  if (f.fieldKind === 'enum') return f.enum.name
  if (f.fieldKind === 'list')
    return `repeated ${f.listKind === 'message' ? f.message.name : f.listKind === 'enum' ? f.enum.name : ScalarType[f.scalar].toLowerCase()}`
  if (f.fieldKind === 'map') return 'map'
  return ScalarType[f.scalar].toLowerCase()
}

function messageOf(f: DescField): DescMessage | null {
  if (f.fieldKind === 'message') return f.message
  if (f.fieldKind === 'list' && f.listKind === 'message') return f.message
  return null
}

function isStringField(f: DescField): boolean {
  return (
    (f.fieldKind === 'scalar' || (f.fieldKind === 'list' && f.listKind === 'scalar')) && f.scalar === ScalarType.STRING
  )
}

function varintValue(f: DescField | undefined, v: bigint): string {
  if (!f) return v.toString()
  if (f.fieldKind === 'enum' || (f.fieldKind === 'list' && f.listKind === 'enum')) {
    const e = f.enum.values.find((x) => BigInt(x.number) === v)
    return e ? `${e.name} (${v})` : `${v} (not a listed value)`
  }
  const t = f.fieldKind === 'scalar' || f.fieldKind === 'list' ? f.scalar : undefined
  if (t === ScalarType.BOOL) return v === 0n ? 'false' : 'true'
  if (t === ScalarType.INT32 || t === ScalarType.INT64) return BigInt.asIntN(64, v).toString()
  if (t === ScalarType.SINT32 || t === ScalarType.SINT64) return ((v >> 1n) ^ -(v & 1n)).toString()
  return v.toString()
}

const fieldIndex = new WeakMap<DescMessage, Map<number, DescField>>()
function fieldsOf(desc: DescMessage): Map<number, DescField> {
  let m = fieldIndex.get(desc)
  if (!m) fieldIndex.set(desc, (m = new Map(desc.fields.map((f) => [f.number, f]))))
  return m
}

/** A field whose tag has been read: what the tree will say about it. */
interface Pending {
  readonly no: number
  readonly wt: number
  readonly at: number
  readonly f: DescField | undefined
  readonly path: string
  readonly flags: WireFlag[]
  readonly notes: string[]
}

/** The reason a field could not be read to its end, in the tree's words. */
function faultDetail(fault: FieldFault): string {
  switch (fault.kind) {
    case 'group':
      return `group wire type ${WIRE_TYPE_NAMES[fault.wt] ?? fault.wt}, which proto3 does not use`
    case 'fixed-truncated':
      return `needs ${fault.size} bytes (truncated)`
    case 'past-end':
      return `declares ${fault.length} bytes, ${fault.remaining} remain (truncated)`
    case 'varint-truncated':
    case 'length-truncated':
      return 'runs past the end (truncated)'
    default:
      // BinaryReader's word for a varint over 10 bytes
      return 'invalid varint'
  }
}

/**
 * The visitor that builds the nodes of one message body (under `desc`, at `path`) from
 * the shared field reader; `end` is the body's absolute end.
 */
class TreeWalk implements FieldVisitor {
  readonly nodes: WireNode[] = []
  problem: { offset: number; detail: string } | null = null
  private readonly counts = new Map<number, number>()
  private cur: Pending | null = null

  constructor(
    private readonly desc: DescMessage,
    private readonly path: string,
    private readonly depth: number,
    private readonly end: number,
  ) {}

  private pending(no: number, wt: number, at: number): Pending {
    const desc = this.desc
    const f = fieldsOf(desc).get(no)
    const idx = this.counts.get(no) ?? 0
    this.counts.set(no, idx + 1)
    const seg = f ? (f.fieldKind === 'list' ? `${f.name}[${idx}]` : f.name) : `#${no}`
    const path = this.path ? `${this.path}.${seg}` : seg
    const flags: WireFlag[] = []
    const notes: string[] = []
    if (!f) {
      if (desc.typeName === SIGNATURE && no === 4) {
        flags.push('retired')
        notes.push(
          'Signature field 4: the retired legacy delegated signature; alone it leaves the signature unset (IDENT-001), beside a listed field it is ignored',
        )
      } else {
        flags.push('unknown')
        notes.push(`field ${no} is not in ${desc.name}: ignored by a validator beside listed fields`)
      }
    }
    const expected = f ? expectedWireType(f) : null
    const packedOk = f?.fieldKind === 'list' && f.listKind !== 'message' && wt === WireType.LengthDelimited
    if (expected !== null && wt !== expected && !packedOk) {
      flags.push('wrong-wire-type')
      notes.push(
        `${f!.name} is ${typeName(f!)}, expected wire type ${WIRE_TYPE_NAMES[expected]}, found ${WIRE_TYPE_NAMES[wt] ?? wt} (IDENT-001)`,
      )
    }
    return { no, wt, at, f, path, flags, notes }
  }

  /** The field's descriptor when its value can be read as declared (right wire type). */
  private static readable(c: Pending): DescField | undefined {
    return c.f && !c.flags.includes('wrong-wire-type') ? c.f : undefined
  }

  private push(c: Pending, valueOffset: number, end: number, value: string | null, children: WireNode[]): true {
    this.nodes.push({
      path: c.path,
      no: c.no,
      name: c.f ? c.f.name : null,
      type: c.f ? typeName(c.f) : 'unknown',
      wireType: c.wt,
      offset: c.at,
      valueOffset,
      end,
      value,
      children,
      flags: c.flags,
      note: c.notes.join('; '),
    })
    return true
  }

  tag(no: number, wt: WireType, at: number): boolean {
    this.cur = this.pending(no, wt, at)
    return true
  }

  varint(_no: number, _at: number, value: number | bigint, valueAt: number, end: number): boolean {
    const c = this.cur!
    return this.push(c, valueAt, end, varintValue(TreeWalk.readable(c), BigInt(value)), [])
  }

  fixed(_no: number, _wt: WireType, _at: number, valueAt: number, end: number): boolean {
    return this.push(this.cur!, valueAt, end, null, [])
  }

  bytes(_no: number, _at: number, body: Uint8Array, bodyAt: number, end: number): boolean {
    const c = this.cur!
    const f = TreeWalk.readable(c)
    const sub = f ? messageOf(f) : null
    let value: string | null = null
    let children: WireNode[] = []
    if (sub) {
      if (this.depth > 32) c.notes.push('nested too deep to show')
      else {
        const w = new TreeWalk(sub, c.path, this.depth + 1, end)
        walkFields(body, bodyAt, w)
        children = w.nodes
        if (w.problem) {
          c.flags.push('malformed')
          c.notes.push(w.problem.detail)
        }
      }
    } else if (f && isStringField(f)) {
      try {
        value = JSON.stringify(utf8.decode(body))
      } catch {
        c.flags.push('malformed')
        c.notes.push('not valid UTF-8 (IDENT-001)')
      }
    }
    return this.push(c, bodyAt, end, value, children)
  }

  fault(fault: FieldFault): void {
    if (fault.kind === 'tag-truncated') {
      this.problem = { offset: fault.at, detail: 'truncated inside a field tag' }
      return
    }
    if (fault.kind === 'tag-invalid') {
      this.problem = { offset: fault.at, detail: `invalid field tag (${fault.reason})` }
      return
    }
    const c = fault.kind === 'group' ? this.pending(fault.no, fault.wt, fault.at) : this.cur!
    const detail = faultDetail(fault)
    c.flags.push('malformed')
    c.notes.push(detail)
    this.push(c, fault.pos, this.end, null, [])
    this.problem = { offset: fault.at, detail: `${c.path}: ${detail}` }
  }
}

/** The field tree of IdentityUpdate bytes (or of another message, for tests). */
export function wireTree(bytes: Uint8Array, desc: DescMessage = IdentityUpdateSchema): WireTree {
  const w = new TreeWalk(desc, '', 0, bytes.length)
  walkFields(bytes, 0, w)
  return { nodes: w.nodes, length: bytes.length, problem: w.problem }
}

/** Every node of a tree, depth first. */
export function* flatten(nodes: readonly WireNode[], depth = 0): Generator<{ node: WireNode; depth: number }> {
  for (const node of nodes) {
    yield { node, depth }
    yield* flatten(node.children, depth + 1)
  }
}
