/**
 * What-if edits of a log (issue #16): drop, move or duplicate an update, set a field of
 * its decoded structure, remove a list element or field, or replace its bytes outright.
 * The edited log is an ordinary log: the core replays it like any other, so every
 * verdict after an edit is the validator's own.
 *
 * Bytes: an update no edit touches keeps its exact bytes. An update whose fields are
 * edited is decoded with the generated schema, changed, and encoded again; fields the
 * schema does not know (such as the retired Signature field 4) are kept, but the
 * encoding is canonical, so an update that was not canonically encoded changes bytes
 * beyond the field edited. `set-bytes` writes any bytes at all, malformed ones included.
 *
 * The patch language (JSON, an array of operations; `seq` and `to` are sequence ids, as
 * a decimal string or a safe integer):
 *
 *     {"op": "drop",      "seq": "3"}
 *     {"op": "move",      "seq": "3", "to": "9"}      change the sequence id (replay order, IDENT-004)
 *     {"op": "duplicate", "seq": "2", "to": "14"}     a copy of the update's bytes under a new id
 *     {"op": "set",       "seq": "5", "path": "actions/0/claim_handle/handle", "value": "Nick"}
 *     {"op": "remove",    "seq": "5", "path": "actions/1"}
 *     {"op": "set-bytes", "seq": "5", "hex": "0a…"}   the update's whole bytes
 *     {"op": "move-action", "seq": "1", "from": 1, "to": 0}   reorder an update's actions
 *     {"op": "copy-action", "seq": "1", "from": 0, "to": 2}   a copy of action 0 at index 2
 *
 * A path names fields by their proto name or JSON name, list elements by index (the
 * length of the list appends), and a oneof member by its field name (setting one switches
 * the oneof to it). Values are proto3 JSON for the field: strings, numbers or decimal
 * strings for 64-bit integers, hex (optional 0x) for bytes, an enum value's name (with or
 * without its prefix) or number, an object for a message, an array for a list.
 */
import {
  clone,
  create,
  type DescEnum,
  type DescField,
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonValue,
  ScalarType,
  toBinary,
} from '@bufbuild/protobuf'
import { IdentityActionSchema, IdentityUpdateSchema } from '../../gen/identity/associations/association_pb'
import { hexToBytes } from '../../crypto/bytes'
import { describeJson, uint64FromJson } from '../decode/entry'
import type { InboxLog } from '../types'

/** One path step: a field name or a list index. */
export type PathSegment = string | number

export type EditOp =
  | { readonly op: 'drop'; readonly seq: bigint }
  | { readonly op: 'move'; readonly seq: bigint; readonly to: bigint }
  | { readonly op: 'duplicate'; readonly seq: bigint; readonly to: bigint }
  | { readonly op: 'set'; readonly seq: bigint; readonly path: readonly PathSegment[]; readonly value: JsonValue }
  | { readonly op: 'remove'; readonly seq: bigint; readonly path: readonly PathSegment[] }
  | { readonly op: 'set-bytes'; readonly seq: bigint; readonly bytes: Uint8Array }
  /** Moves action `from` of the update to index `to` (the others keep their order). */
  | { readonly op: 'move-action'; readonly seq: bigint; readonly from: number; readonly to: number }
  /** Inserts a copy of action `from` at index `to` (the length of the list appends). */
  | { readonly op: 'copy-action'; readonly seq: bigint; readonly from: number; readonly to: number }

/** One entry of an edited log: its sequence id and bytes, and whether an edit made it. */
export interface EditableEntry {
  readonly sequenceId: bigint
  /** Absent when the input held no bytes for it (say, invalid hex in a bundle). */
  readonly bytes: Uint8Array | undefined
  readonly serverTimestampNs?: bigint
  readonly edited: boolean
}

/** A patch that is not the patch language: names the operation (0-based) and what is wrong. */
export class PatchSyntaxError extends Error {
  override readonly name = 'PatchSyntaxError'
  constructor(
    readonly opIndex: number | null,
    message: string,
  ) {
    super(opIndex === null ? message : `patch operation ${opIndex}: ${message}`)
  }
}

/** A well-formed operation that cannot apply to this log: names the operation and why. */
export class EditError extends Error {
  override readonly name = 'EditError'
  constructor(
    readonly opIndex: number,
    message: string,
  ) {
    super(`patch operation ${opIndex}: ${message}`)
  }
}

const OPS = ['drop', 'move', 'duplicate', 'set', 'remove', 'set-bytes', 'move-action', 'copy-action'] as const
const MAX_OPS = 10_000

/** Parses the patch language (a JSON value already parsed) into operations. */
export function parsePatch(doc: unknown): EditOp[] {
  if (!Array.isArray(doc))
    throw new PatchSyntaxError(null, `a patch is a JSON array of operations, not ${describeJson(doc)}`)
  if (doc.length > MAX_OPS)
    throw new PatchSyntaxError(null, `a patch holds at most ${MAX_OPS} operations, not ${doc.length}`)
  return doc.map((raw, i) => parseOp(raw, i))
}

function parseOp(raw: unknown, i: number): EditOp {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new PatchSyntaxError(i, `an operation is a JSON object, not ${describeJson(raw)}`)
  const o = raw as Record<string, unknown>
  const op = o.op
  if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op))
    throw new PatchSyntaxError(i, `"op" must be one of ${OPS.join(', ')}, not ${describeJson(op)}`)
  const allowed: Record<string, readonly string[]> = {
    drop: ['op', 'seq'],
    move: ['op', 'seq', 'to'],
    duplicate: ['op', 'seq', 'to'],
    set: ['op', 'seq', 'path', 'value'],
    remove: ['op', 'seq', 'path'],
    'set-bytes': ['op', 'seq', 'hex'],
    'move-action': ['op', 'seq', 'from', 'to'],
    'copy-action': ['op', 'seq', 'from', 'to'],
  }
  for (const k of Object.keys(o)) {
    if (!allowed[op]!.includes(k))
      throw new PatchSyntaxError(i, `${op} takes ${allowed[op]!.join(', ')}; unknown key ${JSON.stringify(k)}`)
  }
  const seq = seqField(o, 'seq', i)
  switch (op) {
    case 'drop':
      return { op, seq }
    case 'move':
    case 'duplicate':
      return { op, seq, to: seqField(o, 'to', i) }
    case 'set':
      if (!('value' in o)) throw new PatchSyntaxError(i, 'set needs a "value"')
      return { op, seq, path: pathField(o, i), value: o.value as JsonValue }
    case 'remove':
      return { op, seq, path: pathField(o, i) }
    case 'move-action':
    case 'copy-action':
      return { op, seq, from: indexField(o, 'from', i), to: indexField(o, 'to', i) }
    default: {
      const hex = o.hex
      if (typeof hex !== 'string')
        throw new PatchSyntaxError(i, `set-bytes needs "hex", a string, not ${describeJson(hex)}`)
      return {
        op: 'set-bytes',
        seq,
        bytes: hexValue(hex, () => new PatchSyntaxError(i, `"hex" is not hex: ${describeJson(hex)}`)),
      }
    }
  }
}

function seqField(o: Record<string, unknown>, key: string, i: number): bigint {
  const v = uint64FromJson(o[key])
  if (typeof v !== 'bigint') throw new PatchSyntaxError(i, `"${key}" ${v.reason}`)
  return v
}

function indexField(o: Record<string, unknown>, key: string, i: number): number {
  const v = o[key]
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new PatchSyntaxError(i, `"${key}" is an action index, a whole number from 0, not ${describeJson(v)}`)
  return v
}

function pathField(o: Record<string, unknown>, i: number): PathSegment[] {
  const p = o.path
  if (typeof p !== 'string')
    throw new PatchSyntaxError(
      i,
      `"path" must be a string such as "actions/0/claim_handle/handle", not ${describeJson(p)}`,
    )
  return parsePath(p, (why) => new PatchSyntaxError(i, why))
}

/** `actions/0/add/new_member_identifier` → ['actions', 0, 'add', 'new_member_identifier']; a leading `/` is allowed. */
export function parsePath(text: string, fail: (why: string) => Error = (why) => new Error(why)): PathSegment[] {
  const body = text.startsWith('/') ? text.slice(1) : text
  if (body === '') throw fail('the path is empty: name a field of the update, such as "client_timestamp_ns"')
  return body.split('/').map((s) => {
    if (/^(0|[1-9][0-9]{0,5})$/.test(s)) return Number(s)
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) return s
    throw fail(`path step ${JSON.stringify(s)} is neither a field name nor a list index`)
  })
}

function hexValue(text: string, fail: () => Error): Uint8Array {
  const body = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
  if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) throw fail()
  return hexToBytes(body.toLowerCase())
}

/** The entries of a log as editable entries, in the log's order. */
export function editableEntries(log: InboxLog): EditableEntry[] {
  return log.entries.map((e) => {
    const bytes = 'error' in e.update ? e.update.bytes : e.update.bytes
    const base = { sequenceId: e.sequenceId, bytes, edited: false }
    return e.serverTimestampNs === undefined ? base : { ...base, serverTimestampNs: e.serverTimestampNs }
  })
}

/**
 * Applies the operations in order to the entries. Each operation names its update by the
 * sequence id it has at that point (after earlier moves). The result keeps the input's
 * order, a duplicate placed after its original; replay sorts by sequence id (IDENT-004).
 */
export function applyEdits(entries: readonly EditableEntry[], ops: readonly EditOp[]): EditableEntry[] {
  let out = [...entries]
  ops.forEach((op, i) => {
    const at = out.findIndex((e) => e.sequenceId === op.seq)
    if (at < 0) throw new EditError(i, `no update has sequence id ${op.seq}${seqList(out)}`)
    const entry = out[at]!
    const taken = (to: bigint): void => {
      if (out.some((e) => e.sequenceId === to))
        throw new EditError(i, `sequence id ${to} is already taken: two updates with one id make a log unreadable`)
    }
    switch (op.op) {
      case 'drop':
        out = out.filter((_, k) => k !== at)
        return
      case 'move':
        if (op.to === op.seq) return
        taken(op.to)
        out[at] = { ...entry, sequenceId: op.to, edited: true }
        return
      case 'duplicate':
        taken(op.to)
        out.splice(at + 1, 0, { ...withoutServerTime(entry), sequenceId: op.to, edited: true })
        return
      case 'set-bytes':
        out[at] = { ...entry, bytes: op.bytes, edited: true }
        return
      default: {
        if (entry.bytes === undefined)
          throw new EditError(
            i,
            `the update at sequence id ${op.seq} has no bytes to edit: replace them with set-bytes`,
          )
        let msg: ReturnType<typeof fromBinary<typeof IdentityUpdateSchema>>
        try {
          msg = fromBinary(IdentityUpdateSchema, entry.bytes)
        } catch (e) {
          throw new EditError(
            i,
            `the update at sequence id ${op.seq} does not decode as an IdentityUpdate (${(e as Error).message}): only drop, move, duplicate and set-bytes apply to it`,
          )
        }
        try {
          if (op.op === 'set') setPath(IdentityUpdateSchema, msg, op.path, op.value)
          else if (op.op === 'remove') removePath(IdentityUpdateSchema, msg, op.path)
          else reorderAction(msg.actions, op, (a) => clone(IdentityActionSchema, a))
        } catch (e) {
          if (e instanceof PathError)
            throw new EditError(
              i,
              `${op.op} ${'path' in op ? pathText(op.path) : `action ${op.from}`} at sequence id ${op.seq}: ${e.message}`,
            )
          throw e
        }
        out[at] = { ...entry, bytes: toBinary(IdentityUpdateSchema, msg), edited: true }
      }
    }
  })
  return out
}

/** move-action and copy-action on the update's list of actions; a PathError names a bad index. */
function reorderAction<A>(
  actions: A[],
  op: { readonly op: 'move-action' | 'copy-action'; readonly from: number; readonly to: number },
  copy: (a: A) => A,
): void {
  const n = actions.length
  if (op.from >= n)
    throw new PathError(`the update has ${n} action${n === 1 ? '' : 's'}, so there is no action ${op.from}`)
  const last = op.op === 'move-action' ? n - 1 : n
  if (op.to > last) throw new PathError(`"to" is at most ${last} here (${n} action${n === 1 ? '' : 's'}), not ${op.to}`)
  const [a] = op.op === 'move-action' ? actions.splice(op.from, 1) : [copy(actions[op.from]!)]
  actions.splice(op.to, 0, a!)
}

function withoutServerTime(e: EditableEntry): EditableEntry {
  const { serverTimestampNs: _, ...rest } = e
  return rest
}

function seqList(entries: readonly EditableEntry[]): string {
  if (entries.length === 0) return ' (the log is empty)'
  const ids = entries.slice(0, 12).map((e) => e.sequenceId.toString())
  return ` (the log has ${ids.join(', ')}${entries.length > 12 ? `, … ${entries.length} in all` : ''})`
}

function pathText(path: readonly PathSegment[]): string {
  return path.join('/')
}

class PathError extends Error {}

// A decoded message, seen as a record of its local field names (protobuf-es v2 messages are plain objects).
type Msg = Record<string, unknown>
interface OneofValue {
  case: string | undefined
  value?: unknown
}

function fieldOf(desc: DescMessage, name: PathSegment): DescField {
  if (typeof name === 'number') throw new PathError(`${desc.name} is a message: index ${name} needs a list`)
  const f = desc.fields.find((x) => x.name === name || x.localName === name || x.jsonName === name)
  if (!f) {
    const names = desc.fields.map((x) => x.name).join(', ')
    throw new PathError(`${desc.name} has no field ${JSON.stringify(name)} (its fields: ${names})`)
  }
  return f
}

/** The value of field `f` in `msg`, or undefined when a oneof holds another member. */
function getField(msg: Msg, f: DescField): unknown {
  if (f.oneof) {
    const o = msg[f.oneof.localName] as OneofValue
    return o.case === f.localName ? o.value : undefined
  }
  return msg[f.localName]
}

function putField(msg: Msg, f: DescField, value: unknown): void {
  if (f.oneof) msg[f.oneof.localName] = { case: f.localName, value }
  else msg[f.localName] = value
}

/** Walks to the message that holds the last step, creating absent messages on the way. */
function walk(
  desc: DescMessage,
  msg: Msg,
  path: readonly PathSegment[],
): { desc: DescMessage; msg: Msg; list?: { f: DescField; items: unknown[] } } {
  let d = desc
  let m = msg
  for (let k = 0; k < path.length - 1; k++) {
    const step = path[k]!
    const f = fieldOf(d, step)
    if (f.fieldKind === 'list') {
      const items = getField(m, f) as unknown[]
      const next = path[k + 1]!
      if (typeof next !== 'number')
        throw new PathError(`${f.name} is a list: the step after it must be an index, not ${JSON.stringify(next)}`)
      if (k + 1 === path.length - 1) return { desc: d, msg: m, list: { f, items } }
      if (f.listKind !== 'message') throw new PathError(`${f.name}[${next}] has no fields`)
      if (next >= items.length)
        throw new PathError(`${f.name} has ${items.length} element(s); index ${next} is past its end`)
      d = f.message
      m = items[next] as Msg
      k++
      continue
    }
    if (f.fieldKind === 'scalar') throw new PathError(`${f.name} is ${scalarName(f.scalar)}, with no fields`)
    if (f.fieldKind !== 'message') throw new PathError(`${f.name} is an enum, with no fields`)
    let child = getField(m, f) as Msg | undefined
    if (child === undefined) {
      child = create(f.message) as unknown as Msg
      putField(m, f, child)
    }
    d = f.message
    m = child
  }
  return { desc: d, msg: m }
}

function setPath(desc: DescMessage, msg: Msg, path: readonly PathSegment[], value: JsonValue): void {
  const w = walk(desc, msg, path)
  const last = path[path.length - 1]!
  if (w.list) {
    const { f, items } = w.list
    const k = last as number
    if (k > items.length)
      throw new PathError(`${f.name} has ${items.length} element(s); set index ${k} or less (${items.length} appends)`)
    items[k] = listItem(f, value)
    return
  }
  const f = fieldOf(w.desc, last)
  putField(w.msg, f, fieldValue(f, value))
}

function removePath(desc: DescMessage, msg: Msg, path: readonly PathSegment[]): void {
  const w = walk(desc, msg, path)
  const last = path[path.length - 1]!
  if (w.list) {
    const { f, items } = w.list
    const k = last as number
    if (k >= items.length) throw new PathError(`${f.name} has ${items.length} element(s); index ${k} is past its end`)
    items.splice(k, 1)
    return
  }
  const f = fieldOf(w.desc, last)
  if (f.oneof) {
    const o = w.msg[f.oneof.localName] as OneofValue
    if (o.case === f.localName) w.msg[f.oneof.localName] = { case: undefined }
    return
  }
  const fresh = create(w.desc) as unknown as Msg
  w.msg[f.localName] = fresh[f.localName]
}

function fieldValue(f: DescField, value: JsonValue): unknown {
  switch (f.fieldKind) {
    case 'list':
      if (!Array.isArray(value))
        throw new PathError(`${f.name} is a list: its value is a JSON array, not ${describeJson(value)}`)
      return value.map((v) => listItem(f, v))
    case 'message':
      return messageValue(f.message, f.name, value)
    case 'enum':
      return enumValue(f.enum, f.name, value)
    case 'scalar':
      return scalarValue(f.scalar, f.name, value)
    default:
      throw new PathError(`${f.name} is a map, which no identity update field is`)
  }
}

function listItem(f: DescField, value: JsonValue): unknown {
  if (f.fieldKind !== 'list') throw new PathError(`${f.name} is not a list`)
  switch (f.listKind) {
    case 'message':
      return messageValue(f.message, `${f.name} element`, value)
    case 'enum':
      return enumValue(f.enum, f.name, value)
    default:
      return scalarValue(f.scalar, f.name, value)
  }
}

function messageValue(desc: DescMessage, name: string, value: JsonValue): unknown {
  try {
    return fromJson(desc, value)
  } catch (e) {
    throw new PathError(`${name} takes a ${desc.name} in proto3 JSON: ${(e as Error).message}`)
  }
}

function enumValue(desc: DescEnum, name: string, value: JsonValue): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) return value
  if (typeof value === 'string') {
    const v = desc.values.find(
      (x) => x.name === value || x.localName === value || x.name === `${desc.sharedPrefix ?? ''}${value}`,
    )
    if (v) return v.number
  }
  const names = desc.values.map((x) => x.name).join(', ')
  throw new PathError(`${name} is the enum ${desc.name}: one of ${names}, or an int32, not ${describeJson(value)}`)
}

function scalarName(t: ScalarType): string {
  switch (t) {
    case ScalarType.STRING:
      return 'a string'
    case ScalarType.BYTES:
      return 'bytes'
    case ScalarType.BOOL:
      return 'a bool'
    default:
      return `a ${ScalarType[t].toLowerCase()}`
  }
}

function scalarValue(t: ScalarType, name: string, value: JsonValue): unknown {
  const bad = (what: string): PathError => new PathError(`${name} is ${what}, not ${describeJson(value)}`)
  switch (t) {
    case ScalarType.STRING:
      if (typeof value !== 'string') throw bad('a string')
      return value
    case ScalarType.BOOL:
      if (typeof value !== 'boolean') throw bad('true or false')
      return value
    case ScalarType.BYTES:
      if (typeof value !== 'string') throw bad('bytes, written as hex')
      return hexValue(value, () => bad('bytes, written as hex'))
    case ScalarType.UINT64:
    case ScalarType.FIXED64: {
      const v = uint64FromJson(value)
      if (typeof v !== 'bigint') throw bad('a uint64 (a decimal string or a safe integer)')
      return v
    }
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64: {
      const ok =
        (typeof value === 'string' && /^-?(0|[1-9][0-9]*)$/.test(value)) ||
        (typeof value === 'number' && Number.isSafeInteger(value))
      const v = ok ? BigInt(value as string | number) : null
      if (v === null || v < -(1n << 63n) || v >= 1n << 63n) throw bad('an int64 (a decimal string or a safe integer)')
      return v
    }
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff)
        throw bad('a uint32')
      return value
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31)
        throw bad('an int32')
      return value
    default:
      if (typeof value !== 'number') throw bad('a number')
      return value
  }
}
