/**
 * Issue #14, finding 1 on the local node: a large publish is decoded and judged on the
 * judge worker (src/devnode/judge.ts), never on the request thread. Observed by counting
 * the request thread's decodes of a publish (the worker loads its own modules, so its
 * decodes are not counted here), and by the answers, which are the ones the request
 * thread gives: never timed.
 */
import { describe, expect, it, vi } from 'vitest'
import { fromBinary } from '@bufbuild/protobuf'
import { PublishIdentityUpdateResponseSchema } from '../../src/gen/identity/api/v1/identity_pb'
import { startTsWorker } from '../../src/cli/pool/node-pool'
import type { SmartWalletRequest, SmartWalletVerifier } from '../../src/core/verify/port'
import { Admission, type FreshnessCheck, type FreshnessRequest } from '../../src/devnode/admission'
import type { ApiError } from '../../src/devnode/errors'
import { LARGE_PUBLISH_BYTES } from '../../src/devnode/judge-thread'
import { LocalNode } from '../../src/devnode/node'
import { NodeApi } from '../../src/devnode/api'
import { frameField1 } from '../../src/network/client'
import { addMember, claimHandle, createInbox, type DraftAction } from '../../src/signing'
import { apiOf, nodeScratch, publishForSequenceId } from './in-process'
import { FakeSmartWalletVerifier } from '../fixtures/fake-smart-wallet'
import { installation, smartWallet, update, wallet } from './updates'

const decodes = vi.hoisted(() => ({ n: 0 }))
vi.mock('../../src/devnode/codec', async (original) => {
  const m = await original<typeof import('../../src/devnode/codec')>()
  return {
    ...m,
    decodePublish: (...a: Parameters<typeof m.decodePublish>) => {
      decodes.n++
      return m.decodePublish(...a)
    },
  }
})

const scratch = nodeScratch('devnode-judge-')

function open(opts: { smartWallets?: SmartWalletVerifier; freshness?: FreshnessCheck } = {}) {
  const node = scratch.keep(
    new LocalNode({
      db: scratch.db(),
      ...(opts.smartWallets ? { smartWallets: opts.smartWallets } : {}),
      ...(opts.freshness ? { freshness: opts.freshness } : {}),
    }),
  )
  const api = apiOf(node)
  return { node, api, publish: publishForSequenceId(api) }
}

/** A fake smart wallet port that counts its calls; `invalidAt` makes that call's answer 'invalid'. */
function countingWallet(invalidAt: number | null = null) {
  const fake = new FakeSmartWalletVerifier()
  const calls: SmartWalletRequest[] = []
  const port: SmartWalletVerifier = {
    async verify(r) {
      calls.push(r)
      return calls.length - 1 === invalidAt ? 'invalid' : fake.verify(r)
    },
  }
  return { port, calls }
}

function freshness(): FreshnessCheck & { requests: FreshnessRequest[] } {
  const requests: FreshnessRequest[] = []
  return {
    requests,
    async check(r) {
      requests.push(r)
      return { fresh: true }
    },
  }
}

/** A smart wallet's CreateInbox and `adds` installation adds: one erc_6492 signature per action. */
async function bigSmartWallet(label: string, adds: number) {
  const sw = smartWallet(`0x${label.repeat(20)}`, 4242n, 10n)
  const actions: DraftAction[] = [createInbox(sw)]
  for (let i = 0; i < adds; i++) actions.push(addMember(sw, installation(`sw ${label} ${i}`)))
  const u = await update(undefined, ...actions)
  expect(u.bytes.length).toBeGreaterThan(LARGE_PUBLISH_BYTES)
  return u
}

/** A CreateInbox and `adds` installation adds (and a claim, which IDENT-079 refuses, with `claim`). */
async function big(label: string, adds: number, claim = false) {
  const w = wallet(label)
  const actions: DraftAction[] = [createInbox(w)]
  for (let i = 0; i < adds; i++) actions.push(addMember(w, installation(`${label} ${i}`)))
  if (claim) actions.push(claimHandle('nick', w))
  const u = await update(undefined, ...actions)
  expect(u.bytes.length).toBeGreaterThan(LARGE_PUBLISH_BYTES)
  return u
}

describe('issue #14, finding 1: large publishes judged off the request thread', () => {
  it('finding 1: a large update that applies is decoded, verified and applied on the judge worker, and stored as the request thread would', async () => {
    const { node, publish } = open()
    const u = await big('judge applies', 100)
    decodes.n = 0
    const seq = await publish(u.bytes)
    expect(typeof seq).toBe('bigint')
    expect(decodes.n).toBe(0)
    // Stored byte for byte; the head is the state replay builds (Member.addedAt is the real id).
    expect(node.store.updatesAfter(u.inboxId)[0]!.bytes).toEqual(u.bytes)
    const head = await node.heads.get(u.inboxId)
    expect(head.kind).toBe('ok')
    expect(head.state!.members.size).toBe(101)
    expect([...head.state!.members.values()].every((m) => m.addedAt === seq)).toBe(true)
    expect(head.state!.sequenceId).toBe(seq)
    node.heads.forget(u.inboxId)
    const replayed = await node.heads.get(u.inboxId)
    const sorted = (s: NonNullable<typeof head.state>) =>
      [...s.members.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))
    expect(sorted(replayed.state!)).toEqual(sorted(head.state!))
    expect(new Set(replayed.state!.seen)).toEqual(new Set(head.state!.seen))
    expect(replayed.state!.recovery).toEqual(head.state!.recovery)
    // Published again: the same update no longer applies (IDENT-011, the inbox exists).
    const again = (await publish(u.bytes)) as ApiError
    expect([again.status, again.rule]).toEqual([409, 'IDENT-011'])
    expect(decodes.n).toBe(0)
  })

  it('finding 1: a large update refused by a rule gets the same 409 from the judge worker', async () => {
    const { publish } = open()
    const u = await big('judge refused', 90, true)
    decodes.n = 0
    const r = (await publish(u.bytes)) as ApiError
    expect([r.status, r.code, r.rule]).toEqual([409, 'rule_violation', 'IDENT-079'])
    expect(r.message).toContain(`head of inbox ${u.inboxId}`)
    expect(decodes.n).toBe(0)
  })

  it('finding 1: a large body that is not an update gets the 400 (IDENT-001) from the judge worker', async () => {
    const { publish } = open()
    const junk = new Uint8Array(LARGE_PUBLISH_BYTES + 10).fill(0xff)
    decodes.n = 0
    const r = (await publish(junk)) as ApiError
    expect([r.status, r.code, r.rule]).toEqual([400, 'malformed_update', 'IDENT-001'])
    expect(decodes.n).toBe(0)
  })

  it('an ordinary (small) publish is still decoded on the request thread: no worker for it', async () => {
    const { publish } = open()
    const w = wallet('judge small')
    const u = await update(undefined, createInbox(w))
    decodes.n = 0
    expect(typeof (await publish(u.bytes))).toBe('bigint')
    expect(decodes.n).toBe(1)
  })

  it('finding 1: a large publish with erc_6492 signatures is judged on the judge worker too; the request thread only answers its smart wallet calls', async () => {
    const { port, calls } = countingWallet()
    const fresh = freshness()
    const { node, publish } = open({ smartWallets: port, freshness: fresh })
    const u = await bigSmartWallet('5b', 100)
    decodes.n = 0
    const seq = await publish(u.bytes)
    expect(typeof seq).toBe('bigint')
    // Before: the update went back to the request thread, decoded and verified there.
    expect(decodes.n).toBe(0)
    expect(calls).toHaveLength(101)
    // IDENT-062 still checked on the request thread, once per (chain, block).
    expect(fresh.requests).toEqual([{ chainId: 10n, blockNumber: 4242n }])
    expect(node.store.updatesAfter(u.inboxId)[0]!.bytes).toEqual(u.bytes)
    const head = await node.heads.get(u.inboxId)
    expect(head.state!.members.size).toBe(101)
  })

  it('finding 1: a large erc_6492 publish whose chain cannot be reached is 503 (IDENT-061) from the judge worker', async () => {
    const { publish } = open()
    const u = await bigSmartWallet('5c', 90)
    decodes.n = 0
    const r = (await publish(u.bytes)) as ApiError
    expect([r.status, r.code, r.rule]).toEqual([503, 'chain_unreachable', 'IDENT-061'])
    expect(r.message).toContain('no route for chain eip155:10')
    expect(decodes.n).toBe(0)
  })

  it('finding 1: the judge worker stops verifying once a failed check decides: a bad smart wallet signature early asks the port for a prefix only', async () => {
    // The fourth erc_6492 signature (add 3's existing member signature) is invalid.
    const { port, calls } = countingWallet(3)
    const { publish } = open({ smartWallets: port, freshness: freshness() })
    const u = await bigSmartWallet('5d', 120)
    const r = (await publish(u.bytes)) as ApiError
    expect([r.status, r.rule]).toEqual([409, 'IDENT-060'])
    // Before: all 121 were asked, then the update refused at action 3.
    expect(calls.length).toBeGreaterThanOrEqual(4)
    expect(calls.length).toBeLessThanOrEqual(16)
  })

  it('finding 1: the judge worker starts once and is reused by later large publishes (kept warm)', async () => {
    const { node } = open()
    let starts = 0
    const admission = new Admission(node.store, node.heads, {
      startJudgeWorker: () => {
        starts++
        return startTsWorker(new URL('../../src/devnode/judge-worker.ts', import.meta.url), 'devnode-judge-test')
      },
    })
    const api = new NodeApi({ store: node.store, heads: node.heads, admission })
    try {
      for (const label of ['warm 1', 'warm 2', 'warm 3']) {
        const u = await big(label, 90)
        const out = (await api.handle('publish', 'binary', frameField1(u.bytes))) as Uint8Array
        expect(fromBinary(PublishIdentityUpdateResponseSchema, out).sequenceId).toBeGreaterThan(0n)
      }
      expect(starts).toBe(1)
    } finally {
      admission.close()
    }
  })
})
