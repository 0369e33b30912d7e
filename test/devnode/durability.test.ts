/**
 * Concurrency and durability against the real node process: conflicting publishes to
 * one inbox, to one node and to two nodes sharing one SQLite file (exactly one applies
 * per head; the others get 409 head_moved or their rule; sequence ids strictly
 * increase), and a kill -9 in the middle of a stream of publishes that loses no
 * acknowledged update and reuses no sequence id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto'
import { isDecoded } from '../../src/core/decode/entry'
import { replay } from '../../src/core/replay'
import { memberKey } from '../../src/core/types'
import { NodeError } from '../../src/network/client'
import { startNode, stopAll, tempDir, type RunningNode } from './harness'
import { add, claim, installation, newInbox, wallet } from './updates'

const tmp = tempDir()
const db = tmp.path('shared.db')
/** Two node processes on one SQLite file. */
let p: RunningNode
let q: RunningNode
beforeAll(async () => {
  ;[p, q] = await Promise.all([startNode({ db }), startNode({ db })])
})
afterAll(async () => {
  await stopAll()
  tmp.remove()
})

type Outcome = { ok: true; sequenceId: bigint } | { ok: false; status: number; code: string; rule: string | null }

async function attempt(p: Promise<{ sequenceId: bigint }>): Promise<Outcome> {
  try {
    return { ok: true, sequenceId: (await p).sequenceId }
  } catch (e) {
    if (e instanceof NodeError) return { ok: false, status: e.status, code: e.code, rule: e.rule }
    throw e
  }
}

describe('concurrent publishes to one inbox (IDENT-005)', () => {
  it('N conflicting adds of one installation to one node: exactly one is stored, every other is 409 (its rule or head_moved); non-conflicting claims all apply in order', async () => {
    const c = p.client()
    const w = wallet('conc')
    const created = await newInbox(w)
    await c.publishIdentityUpdate(created.bytes)
    const target = installation('conc target')
    // Each update adds the same installation, with its own timestamp (so its own signatures).
    const adds = await Promise.all(Array.from({ length: 12 }, () => add(created.inboxId, w, target)))
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(created.inboxId, `conc-${i}`, w)))
    const outcomes = await Promise.all([...adds, ...claims].map((u) => attempt(c.publishIdentityUpdate(u.bytes))))
    const addOutcomes = outcomes.slice(0, 12)
    expect(addOutcomes.filter((o) => o.ok)).toHaveLength(1)
    for (const o of addOutcomes.filter((o) => !o.ok)) {
      expect(o).toMatchObject({ status: 409 })
      if (!o.ok) expect(o.code === 'head_moved' || o.rule === 'IDENT-040').toBe(true)
    }
    expect(outcomes.slice(12).every((o) => o.ok)).toBe(true)
    const log = await c.getInboxLog(created.inboxId)
    const ids = log.entries.map((e) => e.sequenceId)
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)))
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toHaveLength(1 + 1 + 6)
    const trace = await replay(log)
    expect(trace.ok).toBe(true)
    expect(trace.head!.members.has(memberKey(target.identifier))).toBe(true)
    expect(trace.head!.claimCount).toBe(6)
  })

  it('two node processes on one SQLite file: of conflicting adds sent to both at once, exactly one is stored and the log still replays', async () => {
    const w = wallet('two procs')
    const created = await newInbox(w)
    await p.client().publishIdentityUpdate(created.bytes)
    // q sees p's update (it reads the shared file) and builds its head from it.
    expect(await q.client().queryNewest([created.inboxId])).toHaveLength(1)
    const target = installation('two procs target')
    const adds = await Promise.all(Array.from({ length: 10 }, () => add(created.inboxId, w, target)))
    const outcomes = await Promise.all(
      adds.map((u, i) => attempt((i % 2 ? q : p).client().publishIdentityUpdate(u.bytes))),
    )
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1)
    for (const o of outcomes) {
      if (!o.ok) {
        expect(o.status).toBe(409)
        expect(o.code === 'head_moved' || o.rule === 'IDENT-040', JSON.stringify(o)).toBe(true)
      }
    }
    // Both nodes serve the same log, and it replays.
    const fromP = await p.client().getInboxLog(created.inboxId)
    const fromQ = await q.client().getInboxLog(created.inboxId)
    expect(fromQ.entries.map((e) => e.sequenceId)).toEqual(fromP.entries.map((e) => e.sequenceId))
    expect(fromP.entries).toHaveLength(2)
    expect((await replay(fromP)).ok).toBe(true)
    // And the next update through either node applies on the moved head.
    const next = await claim(created.inboxId, 'two-procs', w)
    expect((await attempt(q.client().publishIdentityUpdate(next.bytes))).ok).toBe(true)
  })
})

describe('durability: synchronous=FULL in WAL mode', () => {
  it('kill -9 in the middle of a stream of publishes loses no acknowledged update, and a restarted node never reuses a sequence id', async () => {
    const node = p // q keeps running on the same file
    const c = node.client()
    const inboxes = await Promise.all(Array.from({ length: 40 }, (_, i) => newInbox(wallet(`kill ${i}`))))
    const acked: { inboxId: string; sequenceId: bigint; bytes: Uint8Array }[] = []
    let next = 0
    let killed = false
    // 4 publishers in parallel; kill -9 once 15 are acknowledged, with requests in flight.
    const worker = async () => {
      while (next < inboxes.length && !killed) {
        const u = inboxes[next++]!
        try {
          const { sequenceId } = await c.publishIdentityUpdate(u.bytes)
          acked.push({ inboxId: u.inboxId, sequenceId, bytes: u.bytes })
          if (acked.length === 15 && !killed) {
            killed = true
            await node.kill9()
          }
        } catch {
          /* in flight at the kill: not acknowledged */
        }
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
    expect(node.proc.signalCode).toBe('SIGKILL')
    expect(acked.length).toBeGreaterThanOrEqual(15)

    const again = await startNode({ db })
    const logs = await again.client().getIdentityUpdates(acked.map((a) => ({ inboxId: a.inboxId })))
    for (const [i, a] of acked.entries()) {
      const entries = logs[i]!.entries
      expect(
        entries.map((e) => e.sequenceId),
        a.inboxId,
      ).toEqual([a.sequenceId])
      const u = entries[0]!.update
      expect(isDecoded(u) && bytesToHex(u.bytes)).toBe(bytesToHex(a.bytes))
    }
    // Every stored id, acknowledged or not, is below the next one handed out.
    const all = await again.client().queryNewest(inboxes.map((u) => u.inboxId))
    // biome-ignore lint/complexity/useMathMinMax: bigints (Math.max takes numbers only)
    const maxStored = all.reduce((m, r) => (r.sequenceId > m ? r.sequenceId : m), 0n)
    const fresh = await newInbox(wallet('kill after restart'))
    const { sequenceId } = await again.client().publishIdentityUpdate(fresh.bytes)
    expect(sequenceId).toBeGreaterThan(maxStored)
    // q, which shared the file all along, serves the same acknowledged updates.
    const fromQ = await q.client().queryNewest(acked.map((a) => a.inboxId))
    expect(fromQ.map((r) => r.sequenceId)).toEqual(acked.map((a) => a.sequenceId))
    expect(await again.stop()).toBe(0)
    expect(await q.stop()).toBe(0)
  })
})
