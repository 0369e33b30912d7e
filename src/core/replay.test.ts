import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  addMember,
  claimHandle,
  createInbox,
  ethKeySigner,
  installationKeySigner,
  revokeMember,
  signUpdate,
  smartWalletSigner,
} from '../signing'
import { keccak256 } from '../crypto/keccak'

import { readLogs } from './decode/logs'
import { readPostgresCsvLog } from './decode/pg-csv'
import { LogInputError } from './errors'
import { replay, stateAt } from './replay'
import { toReport } from './report'
import type { InboxLog, LogEntry } from './types'
import type { SmartWalletVerifier } from './verify/port'

const key = (n: number) => new Uint8Array(32).fill(n)
const wallet = ethKeySigner(key(1))
const wallet2 = ethKeySigner(key(2))
const inst1 = installationKeySigner(key(3))
const inst2 = installationKeySigner(key(4))

async function logOf(...drafts: Parameters<typeof signUpdate>[0]['actions'][]): Promise<InboxLog> {
  const entries: LogEntry[] = []
  let inboxId: string | undefined
  for (const [i, actions] of drafts.entries()) {
    const u = await signUpdate({
      ...(inboxId ? { inboxId } : {}),
      clientTimestampNs: BigInt(1_700_000_000 + i) * 1_000_000_000n,
      actions,
    })
    inboxId ??= u.update.inboxId
    entries.push({
      sequenceId: BigInt(i + 1),
      update: {
        inboxId: u.update.inboxId,
        clientTimestampNs: u.update.clientTimestampNs,
        actions: u.update.actions,
        bytes: u.bytes,
        bytesSource: 'input',
      },
    })
  }
  return { entries, format: 'bundle-json' }
}

describe('replay', () => {
  it('IDENT-004: applies updates in ascending sequence id whatever their order in the file', async () => {
    const log = await logOf(
      [createInbox(wallet), addMember(wallet, inst1)],
      [addMember(wallet, wallet2)],
      [claimHandle('nick', inst1)],
    )
    const shuffled: InboxLog = { ...log, entries: [log.entries[2]!, log.entries[0]!, log.entries[1]!] }
    const t = await replay(shuffled)
    expect(t.steps.map((s) => [s.sequenceId, s.status])).toEqual([
      [1n, 'applied'],
      [2n, 'applied'],
      [3n, 'applied'],
    ])
    expect(t.ok).toBe(true)
    expect(t.head?.handles).toEqual(['nick'])
  })

  it('IDENT-004: two updates with one sequence id make the log unreadable', async () => {
    const log = await logOf([createInbox(wallet)])
    await expect(replay({ ...log, entries: [log.entries[0]!, log.entries[0]!] })).rejects.toBeInstanceOf(LogInputError)
  })

  it('IDENT-070: the state at a sequence id is refused for an id no update carries', async () => {
    const log = await logOf([createInbox(wallet), addMember(wallet, inst1)], [addMember(wallet, wallet2)])
    const t = await replay(log)
    expect(stateAt(t, 1n).state?.members.size).toBe(2)
    expect(stateAt(t, 2n).state?.members.size).toBe(3)
    expect(stateAt(t, 3n)).toMatchObject({ state: null })
    expect(stateAt(t, 3n).error).toMatch(/IDENT-070/)
  })

  it('IDENT-070 / IDENT-071: the log is not read past a rejected update, and later states are refused', async () => {
    const log = await logOf(
      [createInbox(wallet), addMember(wallet, inst1)],
      [addMember(inst1, inst2)],
      [addMember(wallet, wallet2)],
    )
    const t = await replay(log)
    expect(t.steps.map((s) => [s.status, s.rule, s.actionIndex])).toEqual([
      ['applied', null, null],
      ['rejected', 'IDENT-041', 0],
      ['not_applied', null, null],
    ])
    expect(t.steps[2]!.message).toBe('log cannot be read past sequence id 2')
    expect(t.head?.sequenceId).toBe(1n)
    expect(stateAt(t, 2n).state).toBeNull()
    expect(stateAt(t, 3n).state).toBeNull()
    expect(t.ok).toBe(false)
  })

  it('onStep gives each step as it is added, in order, the very objects of the Trace (past the stop too)', async () => {
    const log = await logOf(
      [createInbox(wallet), addMember(wallet, inst1)],
      [addMember(inst1, inst2)],
      [addMember(wallet, wallet2)],
    )
    const seen: [number, unknown][] = []
    let progressAfterStep = true
    const t = await replay(log, {
      verifyAfterStop: true,
      onStep: (step, index) => seen.push([index, step]),
      onProgress: (done) => {
        // Each update's step was given before its progress was.
        if (seen.length < done) progressAfterStep = false
      },
    })
    expect(seen.map(([i]) => i)).toEqual([0, 1, 2])
    expect(seen.map(([, s]) => s)).toEqual(t.steps)
    for (const [i, s] of seen) expect(s).toBe(t.steps[i])
    expect(progressAfterStep).toBe(true)
  })

  it('IDENT-061: a smart wallet signature with no route is pending, and the log stops there', async () => {
    const sw = smartWalletSigner({
      chainId: 8453n,
      address: `0x${'cd'.repeat(20)}`,
      blockNumber: 5n,
      signature: (h) => keccak256(h),
    })
    const log = await logOf([createInbox(wallet)], [addMember(wallet, sw)], [addMember(wallet, wallet2)])
    const t = await replay(log)
    expect(t.steps.map((s) => [s.status, s.rule])).toEqual([
      ['applied', null],
      ['pending', 'IDENT-061'],
      ['not_applied', null],
    ])
    const port: SmartWalletVerifier = {
      verify: async ({ hash, signature }) =>
        keccak256(hash).every((b, i) => b === signature[i]) ? 'valid' : 'invalid',
    }
    const t2 = await replay(log, { smartWallets: port })
    expect(t2.ok).toBe(true)
    expect(t2.head?.members.get(`ethereum:0x${'cd'.repeat(20)}`)?.chainId).toBe(8453n)
  })

  it('IDENT-050: republishing a revoked member’s original add is rejected', async () => {
    const log = await logOf(
      [createInbox(wallet), addMember(wallet, inst1)],
      [addMember(wallet, wallet2)],
      [revokeMember(wallet2, wallet)],
    )
    const replayed: InboxLog = { ...log, entries: [...log.entries, { ...log.entries[1]!, sequenceId: 4n }] }
    const t = await replay(replayed)
    expect(t.steps[3]).toMatchObject({ status: 'rejected', rule: 'IDENT-050', actionIndex: 0 })
  })

  it('IDENT-002: per-action states are recorded, and a rejected update leaves the state unchanged', async () => {
    const log = await logOf(
      [createInbox(wallet), addMember(wallet, inst1), addMember(inst1, wallet2)],
      [addMember(wallet, wallet2)],
    )
    const t = await replay(log)
    expect(t.steps[0]!.actions.map((a) => a.after?.members.size)).toEqual([1, 2, 3])
    expect(t.steps[1]).toMatchObject({ status: 'rejected', rule: 'IDENT-040' })
    expect(t.steps[1]!.stateAfter).toBe(t.steps[1]!.stateBefore)
  })

  it('IDENT-001: an undecodable entry is a rejected row, not an unreadable log', async () => {
    const log = await logOf([createInbox(wallet)])
    const t = await replay({
      ...log,
      entries: [...log.entries, { sequenceId: 2n, update: { error: 'IDENT-001: truncated', actionIndex: null } }],
    })
    expect(t.steps[1]).toMatchObject({ status: 'rejected', rule: 'IDENT-001', actionIndex: null, message: 'truncated' })
  })

  it('IDENT-071: replay is deterministic: the same log gives the same report', async () => {
    const log = await logOf([createInbox(wallet), addMember(wallet, inst1)], [claimHandle('a-b_c', wallet)])
    const a = JSON.stringify(toReport(await replay(log), 'x'))
    const b = JSON.stringify(toReport(await replay(log), 'x'))
    expect(a).toBe(b)
  })

  it('reports progress and can be cancelled between updates', async () => {
    const log = await logOf([createInbox(wallet)], [addMember(wallet, inst1)], [addMember(wallet, wallet2)])
    const seen: number[] = []
    await replay(log, { onProgress: (d) => seen.push(d) })
    expect(seen).toEqual([1, 2, 3])
    const ac = new AbortController()
    ac.abort(new Error('stop'))
    await expect(replay(log, { signal: ac.signal })).rejects.toThrow('stop')
  })
})

describe('replay of the real network rows (../shared/vectors)', () => {
  const csv = readFileSync(new URL('../../../shared/vectors/xmtpd-inbox-log.csv', import.meta.url), 'utf8')

  it('IDENT-030 / IDENT-001: rows 1 to 7 apply (recovery bytes 0, 1 and 27), rows 8 to 19 are rejected under IDENT-001', async () => {
    const logs = readPostgresCsvLog(csv)
    const rows = new Map<bigint, string>()
    for (const log of logs) {
      const t = await replay(log)
      for (const s of t.steps) rows.set(s.sequenceId, `${s.status}:${s.rule}`)
    }
    for (let n = 1n; n <= 19n; n++)
      expect(rows.get(n), `row ${n}`).toBe(n <= 7n ? 'applied:null' : 'rejected:IDENT-001')
  })

  it('IDENT-004: rows 6 and 7 are one inbox’s two-update log with two installations', async () => {
    const log = readLogs(csv).find((l) => l.entries.length === 2)!
    const t = await replay(log)
    expect(t.head?.members.size).toBe(3)
    expect([...t.head!.members.values()].filter((m) => m.id.kind === 'installation')).toHaveLength(2)
  })

  it('IDENT-001: mutated real bytes never crash replay; every outcome is a rule or an input error', async () => {
    const row = csv.split('\n')[1]!.split(',')[3]!.slice(2)
    const bytes = Uint8Array.from(row.match(/../g)!.map((h) => parseInt(h, 16)))
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.integer({ min: 0, max: 255 }),
        async (at, v) => {
          const m = bytes.slice()
          m[at] = v
          let logs: InboxLog[]
          try {
            logs = readLogs(m)
          } catch (e) {
            expect(e).toBeInstanceOf(LogInputError)
            return
          }
          for (const log of logs) {
            const t = await replay(log)
            for (const s of t.steps) if (s.status === 'rejected') expect(s.rule).toMatch(/^IDENT-\d{3}$/)
          }
        },
      ),
      { numRuns: 150 },
    )
  })
})
