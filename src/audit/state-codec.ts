/**
 * A head state as bytes, for the results store (SQLite BLOB, PostgreSQL bytea), so a later
 * run resumes replay from it. The core's state is persistent immutable.js collections; its
 * plain form is the transfer format's StateDelta from no state (src/worker/transfer.ts, the
 * same form the local node saves its heads in, src/devnode/heads.ts), written with V8's
 * serializer (bigint and Uint8Array kept exactly) as a compact array: members as flat
 * tuples with their kinds as numbers, and every lowercase hex text (inbox id, addresses,
 * installation keys, replay keys) as its bytes. That halves a head (about 0.8 kB instead of
 * 1.8 kB for an inbox of four members), and with it the store's pages written (docs/audit.md).
 * STATE_FORMAT is stored beside it: a change of the core's rules or of this form bumps it,
 * and older heads are replayed again.
 */
import { deserialize, serialize } from 'node:v8'
import type { AssociationState, Member, MemberId, MemberKind, Recovery } from '../core/types'
import { applyDelta, stateDelta, type StateDelta } from '../worker/transfer'

/** 1: the StateDelta object as V8 serializes it; 2: the compact array (see the module comment). */
export const STATE_FORMAT = 2

/** Member kinds by number (a kind not listed is written as its text). */
const KINDS: readonly MemberKind[] = ['ethereum', 'installation', 'passkey']
/** Values per member in the flat member list. */
const MEMBER_WIDTH = 8

const HEX = /^(0x)?(?:[0-9a-f]{2})+$/

/** A text as bytes when it is lowercase hex (first byte: 1 when it had a 0x prefix), else as it is. */
function packText(s: string): string | Uint8Array {
  const m = HEX.exec(s)
  if (!m) return s
  const hex = m[1] ? s.slice(2) : s
  const out = new Uint8Array(1 + hex.length / 2)
  out[0] = m[1] ? 1 : 0
  out.set(Buffer.from(hex, 'hex'), 1)
  return out
}

function unpackText(v: unknown): string {
  if (typeof v === 'string') return v
  if (!(v instanceof Uint8Array) || v.length < 2 || v[0]! > 1) throw new Error('state: not a text')
  const hex = Buffer.from(v.buffer, v.byteOffset + 1, v.byteLength - 1).toString('hex')
  return v[0] === 1 ? `0x${hex}` : hex
}

const packKind = (k: MemberKind): number | string => {
  const i = KINDS.indexOf(k)
  return i >= 0 ? i : k
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

export function encodeState(state: AssociationState): Uint8Array {
  const d = stateDelta(null, state)
  const members: unknown[] = []
  for (const m of d.put ?? [])
    members.push(
      packKind(m.id.kind),
      packText(m.id.text),
      m.adder ? packKind(m.adder.kind) : null,
      m.adder ? packText(m.adder.text) : null,
      m.clientTimestampNs,
      m.chainId,
      m.addedAt,
      m.relyingParty,
    )
  const r = d.recovery!
  return new Uint8Array(
    serialize([
      packText(d.inboxId!),
      members,
      [packKind(r.id.kind), packText(r.id.text), r.chainId],
      d.handles ?? [],
      d.claimCount ?? 0,
      (d.seen ?? []).map(packText),
      d.sequenceId ?? 0n,
    ]),
  )
}

/** The state, or null when the bytes are not a saved state (the caller replays in full). */
export function decodeState(bytes: Uint8Array): AssociationState | null {
  try {
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
  } catch {
    return null
  }
}
