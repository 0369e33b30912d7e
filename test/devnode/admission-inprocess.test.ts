/**
 * Admission in process, where a test needs a double the real process cannot take: the
 * fixture corpus's fake smart wallet verifier, a FreshnessCheck fake (IDENT-062), a clock
 * (the claim interval), a judgement held open (head_moved). Each test has its own real
 * SQLite file; the node is the same LocalNode main.ts runs, without the HTTP listener.
 */
import { readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../../src/core/decode/logs'
import { decodeUpdate } from '../../src/core/decode/update'
import { ChainUnreachableError } from '../../src/core/errors'
import { sortedEntries, replay } from '../../src/core/replay'
import { memberKey } from '../../src/core/types'
import type { SmartWalletVerifier } from '../../src/core/verify/port'
import type { FreshnessCheck, FreshnessRequest, FreshnessVerdict, ClaimPolicy } from '../../src/devnode/admission'
import { ApiError } from '../../src/devnode/errors'
import { LocalNode } from '../../src/devnode/node'
import { addMember, createInbox, type Signer } from '../../src/signing'
import { FakeSmartWalletVerifier } from '../fixtures/fake-smart-wallet'
import { ROOT } from './harness'
import { apiOf, nodeScratch, publishForSequenceId } from './in-process'
import { claim, installation, newInbox, smartWallet, update, wallet } from './updates'

const scratch = nodeScratch('devnode-inproc-')

const PERMISSIVE: ClaimPolicy = { minHandleLength: 0, reserved: [], claimIntervalNs: 0n }

function freshness(
  verdict: (r: FreshnessRequest) => FreshnessVerdict | Promise<FreshnessVerdict>,
): FreshnessCheck & { requests: FreshnessRequest[] } {
  const requests: FreshnessRequest[] = []
  return {
    requests,
    async check(r) {
      requests.push(r)
      return verdict(r)
    },
  }
}
const ALWAYS_FRESH = () => freshness(() => ({ fresh: true }))

function open(
  opts: {
    db?: string
    policy?: ClaimPolicy
    smartWallets?: SmartWalletVerifier
    freshness?: FreshnessCheck
    now?: () => bigint
  } = {},
) {
  const node = scratch.keep(
    new LocalNode({
      db: opts.db ?? scratch.db(),
      policy: opts.policy ?? PERMISSIVE,
      freshness: opts.freshness ?? ALWAYS_FRESH(),
      ...(opts.smartWallets ? { smartWallets: opts.smartWallets } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    }),
  )
  const api = apiOf(node)
  return { node, api, publish: publishForSequenceId(api), db: node.store.path }
}

// ---- the fixture corpus ---------------------------------------------------------------------

interface IndexEntry {
  name: string
  verifier: 'none' | 'fake'
  files: { bundle: string }
  expected: string
}
interface Expected {
  updates: { sequence_id: string; status: string; rule: string | null }[]
  state: null | {
    members: { kind: string; identifier: string; adder: string | null; chain_id: string | null }[]
    recovery: { kind: string; identifier: string; chain_id: string | null }
    handles: string[]
    claim_count: number
  }
}
const FIX = join(ROOT, 'test', 'fixtures')
const index = (JSON.parse(readFileSync(join(FIX, 'index.json'), 'utf8')) as { fixtures: IndexEntry[] }).fixtures

describe('IDENT-005: the fixture corpus through admission: applied updates are stored, the first refused one gets its rule', () => {
  for (const f of index) {
    it(`${f.name}`, async () => {
      const expected = JSON.parse(readFileSync(join(FIX, f.expected), 'utf8')) as Expected
      const [log] = readLogs(new Uint8Array(readFileSync(join(FIX, f.files.bundle))), f.files.bundle)
      const { node, publish } = open(f.verifier === 'fake' ? { smartWallets: new FakeSmartWalletVerifier() } : {})
      const status = new Map(expected.updates.map((u) => [u.sequence_id, u]))
      for (const entry of sortedEntries(log!)) {
        const want = status.get(entry.sequenceId.toString())!
        const bytes = 'error' in entry.update ? entry.update.bytes : entry.update.bytes
        if (want.status === 'applied') {
          expect(typeof (await publish(bytes!)), `update ${entry.sequenceId}`).toBe('bigint')
          continue
        }
        if (want.status === 'rejected' || want.status === 'pending') {
          if (bytes === undefined) break // not bytes at all (invalid hex): nothing to publish
          const r = await publish(bytes)
          expect(r, `update ${entry.sequenceId}`).toBeInstanceOf(ApiError)
          const e = r as ApiError
          const routedElsewhere = !('error' in entry.update) && entry.update.inboxId !== log!.inboxId
          if (want.status === 'pending') expect([e.status, e.rule]).toEqual([503, 'IDENT-061'])
          // A node files an update under the inbox it names (its topic), so an update that a
          // log file holds under another inbox is judged against the inbox it names.
          else if (routedElsewhere) expect(e.status).toBe(409)
          else expect([e.status, e.rule]).toEqual([want.rule === 'IDENT-001' ? 400 : 409, want.rule])
        }
        break // the log cannot be read past it; what follows is judged against another head
      }
      // The node's head is the declared state (its sequence ids are the node's own).
      const inboxId = log!.inboxId ?? (expected as unknown as { inbox_id: string }).inbox_id
      const head = await node.heads.get(inboxId)
      const st = expected.state
      if (st === null) {
        expect(head.state).toBeNull()
        return
      }
      const members = [...head.state!.members.values()]
        .map((m) => ({
          kind: m.id.kind,
          identifier: m.id.text,
          adder: m.adder ? m.adder.text : null,
          chain_id: m.chainId === null ? null : m.chainId.toString(),
        }))
        .sort((a, b) => (a.kind + a.identifier < b.kind + b.identifier ? -1 : 1))
      expect(members).toEqual(
        st.members
          .map((m) => ({ kind: m.kind, identifier: m.identifier, adder: m.adder, chain_id: m.chain_id }))
          .sort((a, b) => (a.kind + a.identifier < b.kind + b.identifier ? -1 : 1)),
      )
      expect(head.state!.handles).toEqual(st.handles)
      expect(head.state!.claimCount).toBe(st.claim_count)
      expect({ kind: head.state!.recovery.id.kind, identifier: head.state!.recovery.id.text }).toEqual({
        kind: st.recovery.kind,
        identifier: st.recovery.identifier,
      })
    })
  }
})

// ---- IDENT-062 ------------------------------------------------------------------------------

const SW_ADDRESS = `0x${'5a'.repeat(20)}`

async function smartWalletInbox(sw: Signer, install: Signer) {
  return update(undefined, createInbox(sw), addMember(sw, install))
}

/** A node that stored a smart wallet's inbox (with an installation `label`), then closed: its file is reopened next. */
async function storedSmartWalletInbox(label: string, nonce: bigint) {
  const first = open({ smartWallets: new FakeSmartWalletVerifier() })
  const install = installation(label)
  const built = await smartWalletInbox(smartWallet(SW_ADDRESS, nonce), install)
  expect(typeof (await first.publish(built.bytes))).toBe('bigint')
  await first.node.close(0)
  return { first, install, built }
}

describe('IDENT-062: a fresh block for every erc_6492 signature, at admission only', () => {
  it("IDENT-062: a fresh block is admitted; the check is asked for the signature's chain and block", async () => {
    const f = ALWAYS_FRESH()
    const { publish } = open({ smartWallets: new FakeSmartWalletVerifier(), freshness: f })
    const sw = smartWallet(SW_ADDRESS, 1234n, 10n)
    expect(typeof (await publish((await smartWalletInbox(sw, installation('fresh 1'))).bytes))).toBe('bigint')
    expect(f.requests).toEqual([{ chainId: 10n, blockNumber: 1234n }])
  })

  it('IDENT-062: a block above the head or too old is 409 stale_block, and nothing is stored', async () => {
    const stale = freshness(({ blockNumber }) => ({
      fresh: false,
      reason: `block ${blockNumber} is more than 1800 s older than the head`,
    }))
    const { publish, node } = open({ smartWallets: new FakeSmartWalletVerifier(), freshness: stale })
    const built = await smartWalletInbox(smartWallet(SW_ADDRESS, 77n), installation('stale 1'))
    const r = (await publish(built.bytes)) as ApiError
    expect([r.status, r.code, r.rule]).toEqual([409, 'stale_block', 'IDENT-062'])
    expect(r.message).toContain('block 77')
    expect(node.store.newestSequenceId(built.inboxId)).toBeNull()
  })

  it('IDENT-061: a freshness check that cannot tell is 503 chain_unreachable, never a rejection', async () => {
    const down = freshness(({ chainId }) => {
      throw new ChainUnreachableError(chainId, 'connection refused')
    })
    const { publish } = open({ smartWallets: new FakeSmartWalletVerifier(), freshness: down })
    const r = (await publish(
      (
        await smartWalletInbox(smartWallet(SW_ADDRESS, 5n), installation('down 1'))
      ).bytes,
    )) as ApiError
    expect([r.status, r.code, r.rule]).toEqual([503, 'chain_unreachable', 'IDENT-061'])
  })

  it('IDENT-062 runs only for an update not yet stored: after a restart with a check that calls every block stale, the stored log replays and the inbox admits updates', async () => {
    const { first, install, built } = await storedSmartWalletInbox('replay 62', 9n)
    const stale = freshness(() => ({ fresh: false, reason: 'stale' }))
    const again = open({ db: first.db, smartWallets: new FakeSmartWalletVerifier(), freshness: stale })
    expect(typeof (await again.publish((await claim(built.inboxId, 'after-restart', install)).bytes))).toBe('bigint')
    expect(stale.requests).toEqual([])
  })

  it('IDENT-061: a stored log that cannot be replayed now (its chain is unreachable) makes a publish to that inbox 503, and is retried on the next one', async () => {
    const { first, install, built } = await storedSmartWalletInbox('pending head', 3n)
    // No saved head (src/devnode/heads.ts): one that matches the log would be used, and
    // nothing replayed (issue #14, test/devnode/restart-heads.test.ts).
    const sql = new Database(first.db)
    sql.prepare('DELETE FROM heads').run()
    sql.close()
    let up = false
    const flaky: SmartWalletVerifier = {
      async verify(req) {
        if (!up) throw new ChainUnreachableError(req.chainId, 'down for the test')
        return new FakeSmartWalletVerifier().verify(req)
      },
    }
    const again = open({ db: first.db, smartWallets: flaky })
    const r = (await again.publish((await claim(built.inboxId, 'waits', install)).bytes)) as ApiError
    expect([r.status, r.code, r.rule]).toEqual([503, 'chain_unreachable', 'IDENT-061'])
    expect(r.message).toMatch(/stored log/)
    up = true
    expect(typeof (await again.publish((await claim(built.inboxId, 'waits', install)).bytes))).toBe('bigint')
  })
})

// ---- concurrency ----------------------------------------------------------------------------

describe('two publishes to one inbox never both apply against the same head', () => {
  it('in one node, admission is serialized per inbox: concurrent claims each apply on the previous head, with strictly increasing sequence ids', async () => {
    const { publish, node } = open()
    const w = wallet('serial')
    const created = await newInbox(w)
    await publish(created.bytes)
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claim(created.inboxId, `serial-${i}`, w)))
    const ids = (await Promise.all(claims.map((c) => publish(c.bytes)))) as bigint[]
    expect(ids.every((x) => typeof x === 'bigint')).toBe(true)
    expect(new Set(ids).size).toBe(8)
    const rows = node.store.updatesAfter(created.inboxId)
    expect(rows.map((r) => r.sequenceId)).toEqual([...rows.map((r) => r.sequenceId)].sort((a, b) => (a < b ? -1 : 1)))
    const trace = await replay({
      inboxId: created.inboxId,
      format: 'single-update',
      entries: rows.map((r) => ({ sequenceId: r.sequenceId, update: decodeUpdate(r.bytes) })),
    })
    expect(trace.ok).toBe(true)
    expect(trace.head!.claimCount).toBe(8)
  })

  it('409 head_moved: when another process stores an update for the inbox while this one judges (two nodes on one SQLite file), the judged update is refused and its retry applies', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let entered!: () => void
    const judging = new Promise<void>((r) => (entered = r))
    let hold = false
    const slow = freshness(async () => {
      if (hold) {
        entered()
        await held
      }
      return { fresh: true }
    })
    const a = open({ smartWallets: new FakeSmartWalletVerifier(), freshness: slow })
    const b = open({ db: a.db, smartWallets: new FakeSmartWalletVerifier() })
    const sw = smartWallet(SW_ADDRESS, 11n)
    const install = installation('moved')
    const created = await smartWalletInbox(sw, install)
    expect(typeof (await a.publish(created.bytes))).toBe('bigint')
    hold = true
    const viaA = await claim(created.inboxId, 'from-a', sw) // erc_6492: a's freshness check holds it
    const pendingA = a.publish(viaA.bytes)
    await judging
    const viaB = await claim(created.inboxId, 'from-b', install)
    const seqB = await b.publish(viaB.bytes)
    expect(typeof seqB).toBe('bigint')
    release()
    const r = (await pendingA) as ApiError
    expect([r.status, r.code, r.rule]).toEqual([409, 'head_moved', null])
    expect(r.message).toMatch(/the inbox's log moved/)
    hold = false
    const retried = await a.publish(viaA.bytes)
    expect(typeof retried).toBe('bigint')
    expect(retried as bigint).toBeGreaterThan(seqB as bigint)
    const head = await a.node.heads.get(created.inboxId)
    expect(head.state!.handles).toEqual(['from-b', 'from-a'])
    expect(head.state!.members.has(memberKey(install.identifier))).toBe(true)
  })
})

describe("the claim interval uses the node's clock", () => {
  it("claim_too_soon until exactly the interval has passed since the inbox's previous stored claim; another inbox is not affected", async () => {
    let now = 1_800_000_000_000_000_000n
    const { publish } = open({ policy: { ...PERMISSIVE, claimIntervalNs: 10_000_000_000n }, now: () => now })
    const w = wallet('interval')
    const w2 = wallet('interval 2')
    const x = await newInbox(w)
    const y = await newInbox(w2)
    await publish(x.bytes)
    await publish(y.bytes)
    expect(typeof (await publish((await claim(x.inboxId, 'first', w)).bytes))).toBe('bigint')
    now += 9_999_999_999n
    const soon = (await publish((await claim(x.inboxId, 'second', w)).bytes)) as ApiError
    expect([soon.status, soon.code, soon.rule]).toEqual([422, 'claim_too_soon', null])
    expect(typeof (await publish((await claim(y.inboxId, 'other-inbox', w2)).bytes))).toBe('bigint')
    now += 1n
    expect(typeof (await publish((await claim(x.inboxId, 'second', w)).bytes))).toBe('bigint')
  })
})
