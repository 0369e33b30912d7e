import { describe, expect, it } from 'vitest'
import type { AuditOutcome } from './job'
import { openMemoryStore } from './memory-store'
import { unreadableRow } from './row'
import { GapTracker, gapsByInbox } from './sources'

const A = 'a'.repeat(64)
const B = 'b'.repeat(64)
const bytes = (n: number) => new Uint8Array([n])

describe('the in-memory audit store', () => {
  it('merges a node snapshot by inbox (a sequence id once), cuts shards by prefix and reads one inbox back', async () => {
    const s = openMemoryStore()
    const run = await s.openRun('k', { sources: [], chains: [] })
    await s.putSnapshot(run, [{ source: 'n', key: B, inboxId: B, entries: [{ seq: 5n, bytes: bytes(5) }] }])
    await s.putSnapshot(run, [
      { source: 'n', key: A, inboxId: A, entries: [{ seq: 3n, bytes: bytes(3) }] },
      {
        source: 'n',
        key: B,
        inboxId: B,
        entries: [
          { seq: 2n, bytes: bytes(2) },
          { seq: 5n, bytes: bytes(9) },
        ],
      },
    ])
    expect(await s.snapshotInboxes(run)).toBe(2)
    expect(await s.shardsOf(run, 1)).toEqual(['a', 'b'])
    const [b] = await s.shard(run, 'b')
    expect(b!.entries!.map((e) => [e.seq, e.bytes![0]])).toEqual([
      [2n, 2],
      [5n, 5],
    ])
    expect((await s.shard(run, A)).map((l) => l.key)).toEqual([A])
    await s.clearSnapshot(run)
    expect(await s.snapshotInboxes(run)).toBe(0)
  })

  it('marks units done, keeps no row, and keeps heads only when asked', async () => {
    const outcome = (source: string): AuditOutcome => {
      const row = unreadableRow(source, null, 'x')
      return {
        source,
        key: '',
        row,
        head: { lastSeq: null, logDigest: row.log_digest, stateFormat: 1, state: null, row },
      }
    }
    for (const keepHeads of [false, true]) {
      const s = openMemoryStore({ keepHeads })
      const run = await s.openRun('k', { sources: ['f1', 'f2'], chains: [] })
      await s.addUnits(run, ['f2', 'f1'])
      await s.commit(run, ['f1'], [{ unit: 'f1', outcome: outcome('f1') }])
      expect(await s.units(run)).toEqual([
        { unit: 'f1', done: true },
        { unit: 'f2', done: false },
      ])
      const rows = []
      for await (const r of s.rows(run)) rows.push(...r)
      expect(rows).toEqual([])
      expect(Object.keys(await s.priorsOfSources(['f1']))).toEqual(keepHeads ? ['f1'] : [])
      expect((await s.priors([{ source: 'f1', key: '' }])).size).toBe(keepHeads ? 1 : 0)
    }
  })
})

describe('holes in the originator sequence ids', () => {
  it('name the inboxes on either side, the inbox when both are one, and list the hole on those rows', () => {
    const g = new GapTracker()
    g.see([
      { seq: 1n, inbox: A },
      { seq: 3n, inbox: A },
      { seq: 2n, inbox: B },
      { seq: 6n, inbox: A },
      { seq: 9n, inbox: null },
      { seq: 10n, inbox: B },
    ])
    expect(g.gaps).toEqual([
      { after: '3', before: '6', missing: '2', after_inbox: A, before_inbox: A, inbox_id: A },
      { after: '6', before: '9', missing: '2', after_inbox: A, before_inbox: null },
    ])
    const by = gapsByInbox(g.gaps)
    expect(by.get(A)).toEqual([
      { after: '3', before: '6', missing: '2' },
      { after: '6', before: '9', missing: '2' },
    ])
    expect(by.has(B)).toBe(false)
  })
})
