import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { serialize } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../core/decode/logs'
import { LogInputError } from '../core/errors'
import { sortedEntries } from '../core/replay'
import type { AssociationState, InboxLog, Member, MemberId, MemberKind } from '../core/types'
import { fastContext } from '../core/verify/fast'
import { applyDelta, stateDelta } from '../worker/transfer'
import { auditOne } from './job'
import { decodeState, encodeState, STATE_FORMAT } from './state-codec'

const DIR = join(import.meta.dirname, '..', '..', 'test', 'fixtures')

/** The fixture corpus's readable logs (test/fixtures/*.json, not the expected reports). */
function fixtureLogs(): { name: string; log: InboxLog }[] {
  const out: { name: string; log: InboxLog }[] = []
  for (const name of readdirSync(DIR).filter((n) => n.endsWith('.json') && !n.endsWith('.expected.json'))) {
    try {
      for (const log of readLogs(readFileSync(join(DIR, name)), name)) {
        sortedEntries(log)
        out.push({ name, log })
      }
    } catch (e) {
      if (!(e instanceof LogInputError)) throw e
    }
  }
  return out
}

// Format 2 as it was written: every lowercase hex text as bytes behind a 0x flag, kinds by number.
const text2 = (t: string): string | Uint8Array => {
  const m = /^(0x)?((?:[0-9a-f]{2})+)$/.exec(t)
  return m ? new Uint8Array([m[1] ? 1 : 0, ...Buffer.from(m[2]!, 'hex')]) : t
}
const kind2 = (k: MemberKind) => ['ethereum', 'installation', 'passkey'].indexOf(k)
const format2 = (st: AssociationState): Uint8Array => {
  const d = stateDelta(null, st)
  const members = (d.put ?? []).flatMap((m) => [
    kind2(m.id.kind),
    text2(m.id.text),
    m.adder ? kind2(m.adder.kind) : null,
    m.adder ? text2(m.adder.text) : null,
    m.clientTimestampNs,
    m.chainId,
    m.addedAt,
    m.relyingParty,
  ])
  const r = d.recovery!
  return new Uint8Array(
    serialize([
      text2(d.inboxId!),
      members,
      [kind2(r.id.kind), text2(r.id.text), r.chainId],
      d.handles ?? [],
      d.claimCount ?? 0,
      (d.seen ?? []).map(text2),
      d.sequenceId ?? 0n,
    ]),
  )
}

const withoutChecked = (row: Record<string, unknown>) => {
  const { checked: _, ...r } = row
  return r
}

describe('auditOne', () => {
  it('resumed from the head of any prefix of a log gives the whole replay row, judging only the rest', async () => {
    const opts = (await fastContext()).ctx
    for (const { name, log } of fixtureLogs()) {
      const entries = sortedEntries(log)
      const whole = await auditOne({ source: name, key: 'k', log }, opts)
      expect(whole.row.checked).toBe(entries.length)
      for (const k of new Set([1, Math.floor(entries.length / 2), entries.length - 1])) {
        if (k < 1 || k >= entries.length) continue
        const prefix = await auditOne({ source: name, key: 'k', log: { ...log, entries: entries.slice(0, k) } }, opts)
        const resumed = await auditOne({ source: name, key: 'k', log, prior: prefix.head }, opts)
        expect(withoutChecked({ ...resumed.row }), `${name} from ${k}`).toEqual(withoutChecked({ ...whole.row }))
        const pending = prefix.row.first_failure?.status === 'pending'
        // A pending stop is judged again in full; a rejection stays (nothing after it is read).
        const judged = pending ? entries.length : prefix.row.first_failure ? 0 : entries.length - k
        expect(resumed.row.checked, `${name} from ${k}`).toBe(judged)
      }
    }
  })

  it('replays in full when the log no longer begins with what the head was built from', async () => {
    const opts = (await fastContext()).ctx
    const [first] = readLogs(readFileSync(join(DIR, 'valid-full-life.json')), 'valid-full-life.json')
    const entries = sortedEntries(first!)
    const prefix = await auditOne({ source: 's', key: 'k', log: { ...first!, entries: entries.slice(0, 5) } }, opts)
    const edited = { ...first!, entries: [...entries.slice(0, 2), ...entries.slice(3)] }
    const again = await auditOne({ source: 's', key: 'k', log: edited, prior: prefix.head }, opts)
    expect(again.row.checked).toBe(edited.entries.length)
    const fresh = await auditOne({ source: 's', key: 'k', log: edited }, opts)
    expect(withoutChecked({ ...again.row })).toEqual(withoutChecked({ ...fresh.row }))
  })
})

describe('encodeState', () => {
  it('round-trips every head state of the corpus to an equal state digest', async () => {
    const opts = (await fastContext()).ctx
    const { stateDigest } = await import('./row')
    const { replay } = await import('../core/replay')
    for (const { log } of fixtureLogs()) {
      const head = (await replay(log, opts)).head
      if (!head) continue
      expect(stateDigest(decodeState(encodeState(head)))).toBe(stateDigest(head))
    }
    expect(decodeState(new Uint8Array([1, 2, 3]))).toBeNull()
  })

  it('round-trips every field exactly, hex or not, prefixed or not', async () => {
    const opts = (await fastContext()).ctx
    const { replay } = await import('../core/replay')
    for (const { log } of fixtureLogs()) {
      const head = (await replay(log, opts)).head
      if (!head) continue
      const back = decodeState(encodeState(head))!
      expect(stateDelta(null, back)).toEqual(stateDelta(null, head))
      // The revocation index as applyDelta rebuilds it: the core's may keep an adder's emptied set.
      const nonEmpty = (s: AssociationState) =>
        new Map([...s.installationsByAdder].filter(([, set]) => set.size > 0).map(([k, set]) => [k, new Set(set)]))
      expect(nonEmpty(back)).toEqual(nonEmpty(head))
    }
    const eth = (text: string): MemberId => ({ kind: 'ethereum', text })
    const odd: Member[] = [
      { id: eth('0xAbCd'), adder: null, clientTimestampNs: 1n, chainId: null, addedAt: 1n },
      { id: eth('0x'), adder: eth('0xAbCd'), clientTimestampNs: 2n, chainId: 8453n, addedAt: 2n },
      {
        id: { kind: 'installation', text: 'abc' },
        adder: eth('0x'),
        clientTimestampNs: 3n,
        chainId: null,
        addedAt: 3n,
      },
      {
        id: { kind: 'passkey', text: '00ff' },
        adder: eth('0xAbCd'),
        clientTimestampNs: 4n,
        chainId: null,
        relyingParty: 'example.com',
        addedAt: 4n,
      },
      { id: { kind: 'future' as MemberKind, text: '' }, adder: null, clientTimestampNs: 0n, chainId: 1n, addedAt: 5n },
    ]
    const state = applyDelta(null, {
      inboxId: 'not hex',
      put: odd,
      recovery: { id: eth('0x00'), chainId: 10n },
      handles: ['alice', '0xab'],
      claimCount: 2,
      seen: ['ab', 'AB', '0xab'],
      sequenceId: 99n,
    })
    expect(stateDelta(null, decodeState(encodeState(state))!)).toEqual(stateDelta(null, state))
  })

  it('reads the heads of format 2 (V8-serialized arrays) that a store may hold, and resumes from them', async () => {
    const opts = (await fastContext()).ctx
    const { stateDigest } = await import('./row')
    const { replay } = await import('../core/replay')
    let resumedOne = false
    for (const { name, log } of fixtureLogs()) {
      const head = (await replay(log, opts)).head
      if (!head) continue
      expect(stateDigest(decodeState(format2(head), 2)), name).toBe(stateDigest(head))
      // A format-3 reader must not take format-2 bytes for its own.
      expect(decodeState(format2(head), 3)).toBeNull()
      const entries = sortedEntries(log)
      if (entries.length < 2) continue
      const k = entries.length - 1
      const prefix = await auditOne({ source: name, key: 'k', log: { ...log, entries: entries.slice(0, k) } }, opts)
      if (prefix.row.first_failure || !prefix.head.state) continue
      const prefixHead = decodeState(prefix.head.state)!
      const old = { ...prefix.head, stateFormat: 2, state: format2(prefixHead) }
      const whole = await auditOne({ source: name, key: 'k', log }, opts)
      const resumed = await auditOne({ source: name, key: 'k', log, prior: old }, opts)
      expect(withoutChecked({ ...resumed.row }), name).toEqual(withoutChecked({ ...whole.row }))
      expect(resumed.row.checked).toBe(1)
      expect(resumed.head.stateFormat).toBe(STATE_FORMAT)
      if (resumed.head.state) expect(stateDigest(decodeState(resumed.head.state))).toBe(whole.row.state_digest)
      resumedOne = true
    }
    expect(resumedOne).toBe(true)
  })

  it('is smaller than format 2 and refuses truncated or padded bytes', async () => {
    const opts = (await fastContext()).ctx
    const { replay } = await import('../core/replay')
    const [log] = readLogs(readFileSync(join(DIR, 'valid-full-life.json')), 'valid-full-life.json')
    const head = (await replay(log!, opts)).head!
    const bytes = encodeState(head)
    expect(bytes[0]).toBe(3)
    expect(bytes.length).toBeLessThan(format2(head).length)
    expect(decodeState(bytes.subarray(0, bytes.length - 1))).toBeNull()
    expect(decodeState(new Uint8Array([...bytes, 0]))).toBeNull()
  })
})

describe('stateJson', () => {
  it('is exactly JSON.stringify(stateReport(state)) for every head of the corpus and for odd states', async () => {
    const opts = (await fastContext()).ctx
    const { stateJson } = await import('./row')
    const { stateReport } = await import('../core/report')
    const { replay } = await import('../core/replay')
    let n = 0
    for (const { log } of fixtureLogs()) {
      const head = (await replay(log, opts)).head
      if (!head) continue
      expect(stateJson(head)).toBe(JSON.stringify(stateReport(head)))
      n++
    }
    expect(n).toBeGreaterThan(5)
    const eth = (text: string): MemberId => ({ kind: 'ethereum', text })
    const odd = applyDelta(null, {
      inboxId: 'in"box\\\u2028',
      put: [
        { id: eth('0xAbCd'), adder: null, clientTimestampNs: 1n, chainId: null, addedAt: 2n },
        { id: eth('0xab'), adder: eth('0xAbCd'), clientTimestampNs: 2n, chainId: 8453n, addedAt: 2n },
        { id: { kind: 'passkey', text: 'é\n' }, adder: eth('0xab'), clientTimestampNs: 3n, chainId: null, addedAt: 1n },
        { id: { kind: 'installation', text: '00' }, adder: null, clientTimestampNs: 0n, chainId: 0n, addedAt: 1n },
      ],
      recovery: { id: eth('0x00'), chainId: 10n ** 40n },
      handles: ['alice', 'b"ob', '\u0000', ''],
      claimCount: 3,
      seen: ['ff', 'AB', '0xab', 'a b', '"'],
      sequenceId: 18446744073709551615n,
    })
    expect(stateJson(odd)).toBe(JSON.stringify(stateReport(odd)))
    expect(stateJson({ ...odd, claimCount: Number.NaN })).toBe(
      JSON.stringify(stateReport({ ...odd, claimCount: Number.NaN })),
    )
  })
})
