/**
 * A head state as bytes, for the results store (SQLite BLOB, PostgreSQL bytea), so a later
 * run resumes replay from it. The core's state is persistent collections; its
 * plain form is the transfer format's StateDelta from no state (src/worker/transfer.ts, the
 * same form the local node saves its heads in, src/devnode/heads.ts).
 *
 * Format 3 (written now) is a binary form of its own, written field by field into one
 * buffer: no V8 serializer, no intermediate arrays. About 750 bytes for an inbox of four
 * members and six replay keys. Layout (every count and length a LEB128 unsigned integer):
 *
 *   byte 3 (the format), text inbox id,
 *   count, then per member: kind, text id, adder (kind 255 = none, else kind and text),
 *     bigint client timestamp, bigint chain id, bigint added-at, relying party (text, or
 *     tag 255 for none),
 *   recovery: kind, text, bigint chain id,
 *   count, then each handle as text; claim count (float64); count, then each seen replay
 *   key as text; bigint sequence id.
 *
 *   kind    one byte: 0 ethereum, 1 installation, 2 passkey; 3: any other, its text follows
 *   text    one byte tag: 0 UTF-8 (length, bytes), 1 lowercase hex (length, bytes),
 *           2 `0x` + lowercase hex (length, bytes)
 *   bigint  one byte tag: 0 null, 1 a uint64 (8 bytes big-endian), 2 a larger non-negative
 *           one and 3 a negative one (length, magnitude big-endian)
 *
 * Format 2 (written before: the compact array under V8's serializer) is still read, so the
 * heads a store holds resume; older ones are replayed in full. STATE_FORMAT is stored
 * beside the bytes: a change of the core's rules or of this form bumps it.
 */
import { deserialize } from 'node:v8'
import type { AssociationState, Member, MemberId, MemberKind, Recovery } from '../core/types'
import { applyDelta, type StateDelta } from '../worker/transfer'

/** 1: the StateDelta object as V8 serializes it; 2: the compact array under V8's serializer; 3: the binary form above. */
export const STATE_FORMAT = 3

/** The formats decodeState reads. */
export const readsStateFormat = (format: number): boolean => format === 3 || format === 2

/** Member kinds by number (a kind not listed is written as its text). */
const KINDS: readonly MemberKind[] = ['ethereum', 'installation', 'passkey']
const KIND_TEXT = 3
const NONE = 255

const TEXT_UTF8 = 0
const TEXT_HEX = 1
const TEXT_0X_HEX = 2

const BIG_NULL = 0
const BIG_U64 = 1
const BIG_LARGE = 2
const BIG_NEGATIVE = 3
const U64_MAX = (1n << 64n) - 1n

/** Char code → value of a lowercase hex digit; -1 for any other (uppercase is text, not hex). */
const HEX_VALUE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1)
  for (let i = 0; i < 16; i++) t['0123456789abcdef'.charCodeAt(i)] = i
  return t
})()

/** Writes into one growing buffer (kept between calls: each state is copied out exactly). */
class Writer {
  private static scratch = Buffer.allocUnsafe(4096)
  private static scratchView = new DataView(Writer.scratch.buffer, Writer.scratch.byteOffset, Writer.scratch.length)
  buf = Writer.scratch
  view = Writer.scratchView
  at = 0

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n))
    this.buf.copy(next, 0, 0, this.at)
    this.buf = next
    this.view = new DataView(next.buffer, next.byteOffset, next.length)
    Writer.scratch = next
    Writer.scratchView = this.view
  }

  byte(b: number): void {
    this.room(1)
    this.buf[this.at++] = b
  }

  uint(n: number): void {
    this.room(5)
    while (n >= 0x80) {
      this.buf[this.at++] = (n & 0x7f) | 0x80
      n >>>= 7
    }
    this.buf[this.at++] = n
  }

  /** A text: as hex bytes when it is lowercase hex of whole bytes (with or without 0x), else UTF-8. */
  text(s: string): void {
    const start = this.at
    const from = s.length >= 2 && s.charCodeAt(0) === 48 && s.charCodeAt(1) === 120 ? 2 : 0
    if ((s.length - from) % 2 === 0) {
      const n = (s.length - from) / 2
      this.byte(from ? TEXT_0X_HEX : TEXT_HEX)
      this.uint(n)
      this.room(n)
      const buf = this.buf
      let at = this.at
      let i = from
      for (; i < s.length; i += 2) {
        const a = s.charCodeAt(i)
        const b = s.charCodeAt(i + 1)
        const hi = a < 128 ? HEX_VALUE[a]! : -1
        const lo = b < 128 ? HEX_VALUE[b]! : -1
        if (hi < 0 || lo < 0) break
        buf[at++] = (hi << 4) | lo
      }
      if (i >= s.length) {
        this.at = at
        return
      }
      this.at = start // not hex after all: written again as UTF-8
    }
    const n = Buffer.byteLength(s, 'utf8')
    this.byte(TEXT_UTF8)
    this.uint(n)
    this.room(n)
    this.buf.write(s, this.at, n, 'utf8')
    this.at += n
  }

  kind(k: MemberKind): void {
    switch (k) {
      case 'ethereum':
        this.byte(0)
        return
      case 'installation':
        this.byte(1)
        return
      case 'passkey':
        this.byte(2)
        return
      default:
        this.byte(KIND_TEXT)
        this.text(k)
    }
  }

  id(id: MemberId): void {
    this.kind(id.kind)
    this.text(id.text)
  }

  big(v: bigint | null): void {
    if (v === null) {
      this.byte(BIG_NULL)
      return
    }
    if (v >= 0n && v <= U64_MAX) {
      this.byte(BIG_U64)
      this.room(8)
      this.view.setBigUint64(this.at, v)
      this.at += 8
      return
    }
    const negative = v < 0n
    let hex = (negative ? -v : v).toString(16)
    if (hex.length % 2) hex = `0${hex}`
    this.byte(negative ? BIG_NEGATIVE : BIG_LARGE)
    this.uint(hex.length / 2)
    this.room(hex.length / 2)
    this.at += this.buf.write(hex, this.at, 'hex')
  }

  float(x: number): void {
    this.room(8)
    this.view.setFloat64(this.at, x)
    this.at += 8
  }

  /** The bytes written, copied out. */
  done(): Uint8Array {
    const out = new Uint8Array(this.at)
    out.set(this.buf.subarray(0, this.at))
    return out
  }
}

export function encodeState(state: AssociationState): Uint8Array {
  const w = new Writer()
  w.byte(3)
  w.text(state.inboxId)
  w.uint(state.members.size)
  for (const m of state.members.values()) {
    w.id(m.id)
    if (m.adder) w.id(m.adder)
    else w.byte(NONE)
    w.big(m.clientTimestampNs)
    w.big(m.chainId)
    w.big(m.addedAt)
    if (m.relyingParty === undefined) w.byte(NONE)
    else w.text(m.relyingParty)
  }
  w.id(state.recovery.id)
  w.big(state.recovery.chainId)
  w.uint(state.handles.length)
  for (const h of state.handles) w.text(h)
  w.float(state.claimCount)
  w.uint(state.seen.size)
  for (const k of state.seen) w.text(k)
  w.big(state.sequenceId)
  return w.done()
}

class Truncated extends Error {}

/** Reads format 3 (throws on anything malformed: decodeState answers null). */
class Reader {
  private at = 0
  private readonly view: Buffer
  constructor(bytes: Uint8Array) {
    this.view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  private need(n: number): void {
    if (this.at + n > this.view.length) throw new Truncated('state: truncated')
  }

  byte(): number {
    this.need(1)
    return this.view[this.at++]!
  }

  uint(): number {
    let n = 0
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte()
      n += (b & 0x7f) * 2 ** shift
      if (b < 0x80) return n
    }
    throw new Error('state: a length too long')
  }

  private slice(n: number): Buffer {
    this.need(n)
    const b = this.view.subarray(this.at, this.at + n)
    this.at += n
    return b
  }

  textOf(tag: number): string {
    const n = this.uint()
    const b = this.slice(n)
    if (tag === TEXT_UTF8) return b.toString('utf8')
    if (tag === TEXT_HEX) return b.toString('hex')
    if (tag === TEXT_0X_HEX) return `0x${b.toString('hex')}`
    throw new Error('state: not a text')
  }

  text(): string {
    return this.textOf(this.byte())
  }

  kindOf(b: number): MemberKind {
    if (b === KIND_TEXT) return this.text() as MemberKind
    const k = KINDS[b]
    if (k === undefined) throw new Error('state: not a member kind')
    return k
  }

  id(): MemberId {
    const kind = this.kindOf(this.byte())
    return { kind, text: this.text() }
  }

  big(): bigint | null {
    const tag = this.byte()
    if (tag === BIG_NULL) return null
    if (tag === BIG_U64) {
      this.need(8)
      const v = this.view.readBigUInt64BE(this.at)
      this.at += 8
      return v
    }
    if (tag !== BIG_LARGE && tag !== BIG_NEGATIVE) throw new Error('state: not a bigint')
    const n = this.uint()
    const v = BigInt(`0x${this.slice(n).toString('hex') || '0'}`)
    return tag === BIG_NEGATIVE ? -v : v
  }

  bigint(): bigint {
    const v = this.big()
    if (v === null) throw new Error('state: not a bigint')
    return v
  }

  float(): number {
    this.need(8)
    const x = this.view.readDoubleBE(this.at)
    this.at += 8
    return x
  }

  get end(): boolean {
    return this.at === this.view.length
  }
}

function decode3(bytes: Uint8Array): AssociationState | null {
  const r = new Reader(bytes)
  if (r.byte() !== 3) return null
  const inboxId = r.text()
  const put: Member[] = []
  for (let n = r.uint(); n > 0; n--) {
    const id = r.id()
    const a = r.byte()
    const adder = a === NONE ? null : { kind: r.kindOf(a), text: r.text() }
    const clientTimestampNs = r.bigint()
    const chainId = r.big()
    const addedAt = r.bigint()
    const rp = r.byte()
    put.push({
      id,
      adder,
      clientTimestampNs,
      chainId,
      addedAt,
      ...(rp === NONE ? {} : { relyingParty: r.textOf(rp) }),
    })
  }
  const recovery: Recovery = { id: r.id(), chainId: r.big() }
  const handles: string[] = []
  for (let n = r.uint(); n > 0; n--) handles.push(r.text())
  const claimCount = r.float()
  const seen: string[] = []
  for (let n = r.uint(); n > 0; n--) seen.push(r.text())
  const sequenceId = r.bigint()
  if (!r.end) return null
  return applyDelta(null, {
    inboxId,
    ...(put.length ? { put } : {}),
    recovery,
    handles,
    claimCount,
    ...(seen.length ? { seen } : {}),
    sequenceId,
  })
}

/**
 * The state of bytes written in `format` (default: the current one), or null when they are
 * not a saved state of it (the caller replays in full).
 */
export function decodeState(bytes: Uint8Array, format: number = STATE_FORMAT): AssociationState | null {
  try {
    if (format === 3) return decode3(bytes)
    if (format === 2) return decode2(bytes)
    return null
  } catch {
    return null
  }
}

// Format 2: the compact array of the state's fields under V8's serializer (read only).

/** Values per member in format 2's flat member list. */
const MEMBER_WIDTH = 8

function unpackText(v: unknown): string {
  if (typeof v === 'string') return v
  if (!(v instanceof Uint8Array) || v.length < 2 || v[0]! > 1) throw new Error('state: not a text')
  const hex = Buffer.from(v.buffer, v.byteOffset + 1, v.byteLength - 1).toString('hex')
  return v[0] === 1 ? `0x${hex}` : hex
}

function unpackKind(v: unknown): MemberKind {
  if (typeof v === 'number' && KINDS[v] !== undefined) return KINDS[v]
  if (typeof v === 'string') return v as MemberKind
  throw new Error('state: not a member kind')
}

function unpackBig(v: unknown): bigint {
  if (typeof v !== 'bigint') throw new Error('state: not a bigint')
  return v
}

const unpackId = (kind: unknown, text: unknown): MemberId => ({ kind: unpackKind(kind), text: unpackText(text) })

function decode2(bytes: Uint8Array): AssociationState | null {
  const v = deserialize(bytes) as unknown
  if (!Array.isArray(v) || v.length !== 7) return null
  const [inboxId, members, recovery, handles, claimCount, seen, sequenceId] = v as unknown[]
  if (!Array.isArray(members) || members.length % MEMBER_WIDTH !== 0) return null
  if (!Array.isArray(recovery) || recovery.length !== 3) return null
  if (!Array.isArray(handles) || !handles.every((h) => typeof h === 'string')) return null
  if (typeof claimCount !== 'number' || !Array.isArray(seen)) return null
  const put: Member[] = []
  for (let i = 0; i < members.length; i += MEMBER_WIDTH) {
    const [kind, text, adderKind, adderText, ts, chainId, addedAt, relyingParty] = members.slice(i, i + MEMBER_WIDTH)
    if (relyingParty !== undefined && typeof relyingParty !== 'string') return null
    put.push({
      id: unpackId(kind, text),
      adder: adderKind === null ? null : unpackId(adderKind, adderText),
      clientTimestampNs: unpackBig(ts),
      chainId: chainId === null ? null : unpackBig(chainId),
      addedAt: unpackBig(addedAt),
      ...(relyingParty === undefined ? {} : { relyingParty }),
    })
  }
  const rec: Recovery = {
    id: unpackId(recovery[0], recovery[1]),
    chainId: recovery[2] === null ? null : unpackBig(recovery[2]),
  }
  const delta: StateDelta = {
    inboxId: unpackText(inboxId),
    ...(put.length ? { put } : {}),
    recovery: rec,
    handles: handles as string[],
    claimCount,
    ...(seen.length ? { seen: seen.map(unpackText) } : {}),
    sequenceId: unpackBig(sequenceId),
  }
  return applyDelta(null, delta)
}
