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
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
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

interface WalkResult {
  nodes: WireNode[]
  problem: { offset: number; detail: string } | null
}

/** Walks one message body `buf` (at absolute offset `base`) under `desc` (null: unknown content). */
function walk(buf: Uint8Array, base: number, desc: DescMessage, path: string, depth: number): WalkResult {
  const nodes: WireNode[] = []
  const r = new BinaryReader(buf)
  const counts = new Map<number, number>()
  while (r.pos < r.len) {
    const at = r.pos
    let no: number
    let wt: WireType
    try {
      ;[no, wt] = r.tag()
    } catch (e) {
      return {
        nodes,
        problem: {
          offset: base + at,
          detail:
            e instanceof RangeError ? 'truncated inside a field tag' : `invalid field tag (${(e as Error).message})`,
        },
      }
    }
    const f = fieldsOf(desc).get(no)
    const idx = counts.get(no) ?? 0
    counts.set(no, idx + 1)
    const name = f ? f.name : null
    const seg = f ? (f.fieldKind === 'list' ? `${f.name}[${idx}]` : f.name) : `#${no}`
    const p = path ? `${path}.${seg}` : seg
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
    const fail = (detail: string): WalkResult => {
      nodes.push({
        path: p,
        no,
        name,
        type: f ? typeName(f) : 'unknown',
        wireType: wt,
        offset: base + at,
        valueOffset: base + r.pos,
        end: base + r.len,
        value: null,
        children: [],
        flags: [...flags, 'malformed'],
        note: [...notes, detail].join('; '),
      })
      return { nodes, problem: { offset: base + at, detail: `${p}: ${detail}` } }
    }
    let value: string | null = null
    let children: WireNode[] = []
    let valueOffset = r.pos
    try {
      switch (wt) {
        case WireType.Varint: {
          const v = BigInt(r.uint64())
          value = varintValue(f && !flags.includes('wrong-wire-type') ? f : undefined, v)
          break
        }
        case WireType.Bit64:
          if (r.pos + 8 > r.len) return fail('needs 8 bytes (truncated)')
          r.pos += 8
          break
        case WireType.Bit32:
          if (r.pos + 4 > r.len) return fail('needs 4 bytes (truncated)')
          r.pos += 4
          break
        case WireType.LengthDelimited: {
          const len = BigInt(r.uint64())
          valueOffset = r.pos
          if (len > BigInt(r.len - r.pos)) return fail(`declares ${len} bytes, ${r.len - r.pos} remain (truncated)`)
          const body = buf.subarray(r.pos, r.pos + Number(len))
          r.pos += Number(len)
          const sub = f && !flags.includes('wrong-wire-type') ? messageOf(f) : null
          if (sub) {
            if (depth > 32) notes.push('nested too deep to show')
            else {
              const w = walk(body, base + valueOffset, sub, p, depth + 1)
              children = w.nodes
              if (w.problem) {
                flags.push('malformed')
                notes.push(w.problem.detail)
              }
            }
          } else if (f && isStringField(f) && !flags.includes('wrong-wire-type')) {
            try {
              value = JSON.stringify(utf8.decode(body))
            } catch {
              flags.push('malformed')
              notes.push('not valid UTF-8 (IDENT-001)')
            }
          }
          break
        }
        default:
          return fail(`group wire type ${WIRE_TYPE_NAMES[wt] ?? wt}, which proto3 does not use`)
      }
    } catch (e) {
      return fail(e instanceof RangeError ? 'runs past the end (truncated)' : (e as Error).message)
    }
    nodes.push({
      path: p,
      no,
      name,
      type: f ? typeName(f) : 'unknown',
      wireType: wt,
      offset: base + at,
      valueOffset: base + valueOffset,
      end: base + r.pos,
      value,
      children,
      flags,
      note: notes.join('; '),
    })
  }
  return { nodes, problem: null }
}

/** The field tree of IdentityUpdate bytes (or of another message, for tests). */
export function wireTree(bytes: Uint8Array, desc: DescMessage = IdentityUpdateSchema): WireTree {
  const w = walk(bytes, 0, desc, '', 0)
  return { nodes: w.nodes, length: bytes.length, problem: w.problem }
}

/** Every node of a tree, depth first. */
export function* flatten(nodes: readonly WireNode[], depth = 0): Generator<{ node: WireNode; depth: number }> {
  for (const node of nodes) {
    yield { node, depth }
    yield* flatten(node.children, depth + 1)
  }
}
