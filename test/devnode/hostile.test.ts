/**
 * Issue #14 on the local node: signature-free rules before verification, verification off
 * the request path, a uint64 sequence id SQLite cannot hold, aborted requests. Work and
 * order are observed (counted calls, held promises, a fake worker), never timed.
 */
import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { decodeUpdate } from '../../src/core/decode/update'
import type { UnverifiedUpdate } from '../../src/core/types'
import type { ToVerifyWorker } from '../../src/core/verify/transfer'
import { verifyWorkerHandler } from '../../src/core/verify/worker-handler'
import { verifyUpdate, type VerifiedUpdate } from '../../src/core/verify/update'
import { Admission } from '../../src/devnode/admission'
import type { ApiError } from '../../src/devnode/errors'
import { LocalNode } from '../../src/devnode/node'
import { MAIN_THREAD_SIGNATURES, offThreadVerifier } from '../../src/devnode/off-thread'
import { addMember, claimHandle, createInbox, type DraftAction } from '../../src/signing'
import { NODE_VERDICTS } from '../../src/devnode/verify-context'
import { apiOf, nodeScratch, publishTo } from './in-process'
import { installation, newInbox, update, wallet } from './updates'

const scratch = nodeScratch('devnode-hostile-')

function open(verify?: (u: UnverifiedUpdate) => Promise<VerifiedUpdate>, log?: (line: string) => void) {
  const node = scratch.keep(new LocalNode({ db: scratch.db(), ...(log ? { log } : {}) }))
  const api = apiOf(node, verify ? new Admission(node.store, node.heads, { verify }) : node.admission)
  return { node, api, publish: publishTo(api) }
}

describe('issue #14: the local node under hostile input', () => {
  it('finding 1: a rule that needs no signature refuses with 409 before any signature is verified (the node as built)', async () => {
    // The node's verdict cache keeps every verdict its verification finds: none may appear.
    const { publish } = open()
    const w = wallet('sig-free-node')
    const u = await update(
      undefined,
      createInbox(w),
      addMember(w, installation('sig-free-node')),
      claimHandle('nick', w),
    )
    const cached = NODE_VERDICTS.size
    const r = (await publish(u.bytes)) as ApiError
    expect([r.status, r.rule]).toEqual([409, 'IDENT-079'])
    expect(NODE_VERDICTS.size).toBe(cached)
  })

  it('finding 1: a rule that needs no signature refuses with 409 before verification is called', async () => {
    let verified = 0
    const { publish } = open(async (u) => {
      verified++
      return verifyUpdate(u)
    })
    const w = wallet('sig-free')
    const u = await update(undefined, createInbox(w), addMember(w, installation('sig-free')), claimHandle('nick', w))
    const r = (await publish(u.bytes)) as ApiError
    expect([r.status, r.rule]).toEqual([409, 'IDENT-079'])
    expect(verified).toBe(0)
  })

  it('guard for finding 1: other requests are answered while a judgement is in flight', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let entered!: () => void
    const judging = new Promise<void>((r) => (entered = r))
    const { api, publish } = open(async (u) => {
      entered()
      await held
      return verifyUpdate(u)
    })
    const created = await newInbox(wallet('in-flight'))
    const pending = publish(created.bytes)
    await judging
    // The judgement is held open: query-newest and get-identity-updates still answer.
    const newest = await api.handle(
      'queryNewest',
      'json',
      new TextEncoder().encode(JSON.stringify({ inboxIds: [created.inboxId] })),
    )
    expect(JSON.parse(newest as string)).toEqual({})
    const got = await api.handle(
      'getIdentityUpdates',
      'json',
      new TextEncoder().encode(JSON.stringify({ requests: [{ inboxId: created.inboxId }] })),
    )
    expect(typeof got).toBe('string')
    release()
    expect(await pending).toBeInstanceOf(Uint8Array)
  })

  it('finding 1: an update with many signatures is verified on a worker, never on the request thread', async () => {
    // A fake worker: the real worker handler, answering on a later turn; it counts the
    // updates it is sent. Before the fix admission verified everything on its own thread.
    const jobs: number[] = []
    const v = offThreadVerifier(undefined, {
      spawn: (_i, events) => {
        const handle = verifyWorkerHandler(
          { post: (m) => setImmediate(() => events.message(m)), now: () => 0 },
          Promise.resolve({ ctx: {}, backend: 'test' }),
        )
        return {
          post: (m: ToVerifyWorker) => {
            for (const j of m.jobs) jobs.push(j.seq)
            void handle(m)
          },
          terminate: () => undefined,
        }
      },
    })
    const w = wallet('worker')
    const actions: DraftAction[] = [createInbox(w)]
    for (let i = 0; i <= MAIN_THREAD_SIGNATURES / 2; i++) actions.push(addMember(w, installation(`worker-${i}`)))
    const big = decodeUpdate((await update(undefined, ...actions)).bytes)
    const small = decodeUpdate((await newInbox(wallet('worker-small'))).bytes)
    try {
      const [vb, vs] = await Promise.all([v.verify(big), v.verify(small)])
      expect(vb.checks.length).toBeGreaterThan(MAIN_THREAD_SIGNATURES)
      expect(vb.checks.every((c) => c.verdict === 'valid')).toBe(true)
      expect(vs.checks.every((c) => c.verdict === 'valid')).toBe(true)
      // The large update went to the worker; the small one stayed on the main thread.
      expect(jobs).toEqual([0])
    } finally {
      v.close()
    }
  })

  it('finding 3: a sequence_id of 2^63 or more is answered with an empty log, never a 500', async () => {
    const { api, publish } = open()
    const created = await newInbox(wallet('uint64'))
    await publish(created.bytes)
    for (const seq of ['9223372036854775807', '9223372036854775808', '18446744073709551615']) {
      const body = JSON.stringify({ requests: [{ inboxId: created.inboxId, sequenceId: seq }] })
      const out = JSON.parse((await api.handle('getIdentityUpdates', 'json', new TextEncoder().encode(body))) as string)
      expect(out.responses).toHaveLength(1)
      expect(out.responses[0].updates ?? []).toEqual([])
    }
  })

  it('aborted client requests are not logged as internal errors', async () => {
    const lines: string[] = []
    const { node } = open(undefined, (l) => lines.push(l))
    const { port } = await node.listen('127.0.0.1', 0)
    let closed!: () => void
    const serverSawClose = new Promise<void>((r) => (closed = r))
    node.server.http1.once('request', (req) => req.once('close', () => closed()))
    const s = connect(port, '127.0.0.1')
    await new Promise<void>((r) => s.once('connect', () => r()))
    s.write(
      'POST /identity/v1/publish-identity-update HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\nContent-Length: 1000\r\n\r\nabc',
    )
    await new Promise((r) => setImmediate(r))
    s.destroy()
    await serverSawClose
    // A request after it: its answer comes after the aborted one's handling ended.
    const res = await fetch(`http://127.0.0.1:${port}/identity/v1/query-newest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"inboxIds":[]}',
    })
    expect(res.status).toBe(200)
    expect(lines.filter((l) => /internal error/.test(l))).toEqual([])
  })
})
