/**
 * SubscribeEnvelopes on the local node (xmtpd's ReplicationApi), against the real node
 * process: stored envelopes after the cursor, then each new one as it is stored, whatever
 * transport published it; many subscribers each see every publish once, in order; the
 * subscriber limit is a RESOURCE_EXHAUSTED naming it; a subscriber that never reads does
 * not stall publishes and is ended RESOURCE_EXHAUSTED with its cursor; a node restarted
 * on the same store serves a resumed subscription from its cursor. Also GetSyncCursor.
 */
import { connect as h2connect } from 'node:http2'
import { create, fromBinary, toBinary, type MessageShape } from '@bufbuild/protobuf'
import { Code, ConnectError, createClient } from '@connectrpc/connect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type OriginatorEnvelopeSchema,
  UnsignedOriginatorEnvelopeSchema,
} from '../../src/gen/xmtpv4/envelopes/envelopes_pb'
import { SubscribeEnvelopesRequestSchema } from '../../src/gen/xmtpv4/message_api/message_api_pb'
import { QueryApi, ReplicationApi } from '../../src/gen/xmtpv4/message_api/query_api_pb'
import { MetadataApi } from '../../src/gen/xmtpv4/metadata_api/metadata_api_pb'
import { identityTopic } from '../../src/network/d14n'
import { nodeTransportFor } from '../../src/network/transports-node'
import { type RunningNode, startNode, stopAll, tempDir } from './harness'
import { add, newInbox, wallet } from './updates'

type Kind = 'grpc' | 'grpc-web' | 'connect'

const tmp = tempDir('subscribe-')

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

const seqOf = (env: MessageShape<typeof OriginatorEnvelopeSchema>): bigint =>
  fromBinary(UnsignedOriginatorEnvelopeSchema, env.unsignedOriginatorEnvelope).originatorSequenceId

const request = (q: { topics?: Uint8Array[]; originators?: number[]; after?: bigint }) =>
  create(SubscribeEnvelopesRequestSchema, {
    query: {
      topics: q.topics ?? [],
      originatorNodeIds: q.originators ?? [],
      ...(q.after !== undefined ? { lastSeen: { nodeIdToSequenceId: { 1: q.after } } } : {}),
    },
  })

/** A subscription read in the background: its sequence ids, its end, and when it is live. */
interface Follower {
  readonly seen: bigint[]
  readonly ready: Promise<void>
  readonly ended: Promise<ConnectError | null>
  waitFor(n: number): Promise<void>
  stop(): void
}

function follow(url: string, kind: Kind, req: ReturnType<typeof request>): Follower {
  const client = createClient(ReplicationApi, nodeTransportFor(kind, url))
  const abort = new AbortController()
  const seen: bigint[] = []
  let onReady!: () => void
  const ready = new Promise<void>((r) => (onReady = r))
  const waiters: { n: number; resolve: () => void }[] = []
  const ended = (async (): Promise<ConnectError | null> => {
    try {
      for await (const batch of client.subscribeEnvelopes(req, { signal: abort.signal })) {
        seen.push(...batch.envelopes.map(seqOf))
        onReady()
        for (const w of waiters.filter((x) => seen.length >= x.n)) w.resolve()
      }
      return null
    } catch (e) {
      onReady()
      return ConnectError.from(e)
    } finally {
      for (const w of waiters) w.resolve()
    }
  })()
  return {
    seen,
    ready,
    ended,
    waitFor: (n) => (seen.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
    stop: () => abort.abort(),
  }
}

describe('SubscribeEnvelopes', () => {
  let node: RunningNode
  const w = wallet('sub owner')
  let inboxId: string
  const stored: bigint[] = []

  beforeAll(async () => {
    node = await startNode({ db: tmp.path('one.db'), args: ['--max-subscribers', '60'] })
    const created = await newInbox(w)
    inboxId = created.inboxId
    stored.push((await node.client().publishIdentityUpdate(created.bytes)).sequenceId)
  }, 60_000)

  it('50 subscribers (topic and originator, every transport) each see every publish once, in order', async () => {
    const kinds: Kind[] = ['grpc', 'grpc-web', 'connect']
    const followers = Array.from({ length: 50 }, (_, i) =>
      follow(
        node.url,
        kinds[i % 3]!,
        i % 2 === 0 ? request({ topics: [identityTopic(inboxId)] }) : request({ originators: [1] }),
      ),
    )
    await Promise.all(followers.map((f) => f.ready))
    // Through the HTTP gateway and through gRPC: both wake the streams.
    const rpc = createClient(
      (await import('../../src/gen/identity/api/v1/identity_pb')).IdentityApi,
      nodeTransportFor('grpc', node.url),
    )
    for (let i = 0; i < 6; i++) {
      const u = await add(inboxId, w, wallet(`sub member ${i}`))
      if (i % 2 === 0) stored.push((await node.client().publishIdentityUpdate(u.bytes)).sequenceId)
      else {
        const { IdentityUpdateSchema } = await import('../../src/gen/identity/associations/association_pb')
        const r = await rpc.publishIdentityUpdate({ identityUpdate: fromBinary(IdentityUpdateSchema, u.bytes) })
        stored.push((r as unknown as { sequenceId: bigint }).sequenceId)
      }
    }
    await Promise.all(followers.map((f) => f.waitFor(stored.length)))
    for (const f of followers) {
      f.stop()
      expect(f.seen).toEqual(stored)
    }
  })

  it('first serves the envelopes after last_seen, then the live ones', async () => {
    const f = follow(node.url, 'connect', request({ topics: [identityTopic(inboxId)], after: stored[3]! }))
    await f.waitFor(stored.length - 4)
    const u = await add(inboxId, w, wallet('sub member late'))
    stored.push((await node.client().publishIdentityUpdate(u.bytes)).sequenceId)
    await f.waitFor(stored.length - 4)
    f.stop()
    expect(f.seen).toEqual(stored.slice(4))
  })

  it('GetSyncCursor: node 1 at the newest sequence id', async () => {
    const r = await createClient(MetadataApi, nodeTransportFor('connect', node.url)).getSyncCursor({})
    expect(r.latestSync?.nodeIdToSequenceId).toEqual({ 1: stored.at(-1) })
  })

  it('ReplicationApi also serves QueryEnvelopes and GetInboxIds, as QueryApi does', async () => {
    const q = { query: { topics: [identityTopic(inboxId)], originatorNodeIds: [] }, limit: 0 }
    const a = await createClient(ReplicationApi, nodeTransportFor('grpc', node.url)).queryEnvelopes(q)
    const b = await createClient(QueryApi, nodeTransportFor('grpc', node.url)).queryEnvelopes(q)
    expect(a.envelopes.map(seqOf)).toEqual(stored)
    const hex = (r: typeof a) => r.envelopes.map((e) => Buffer.from(e.unsignedOriginatorEnvelope).toString('hex'))
    expect(hex(a)).toEqual(hex(b))
    const id = { requests: [{ identifier: wallet('sub owner').identifier.text, identifierKind: 1 }] }
    const ra = await createClient(ReplicationApi, nodeTransportFor('connect', node.url)).getInboxIds(id)
    expect(ra.responses[0]?.inboxId).toBe(inboxId)
  })

  it('a subscription with neither topics nor originators is INVALID_ARGUMENT', async () => {
    const f = follow(node.url, 'grpc', request({}))
    expect((await f.ended)?.code).toBe(Code.InvalidArgument)
  })
})

describe('SubscribeEnvelopes bounds', () => {
  it('past --max-subscribers, RESOURCE_EXHAUSTED naming the limit', async () => {
    const node = await startNode({ db: tmp.path('limit.db'), args: ['--max-subscribers', '2'] })
    const a = follow(node.url, 'grpc', request({ originators: [1] }))
    const b = follow(node.url, 'connect', request({ originators: [1] }))
    await Promise.all([a.ready, b.ready])
    const c = follow(node.url, 'grpc-web', request({ originators: [1] }))
    const e = await c.ended
    expect(e?.code).toBe(Code.ResourceExhausted)
    expect(e?.rawMessage).toContain('at most 2 subscriptions')
    a.stop()
    await a.ended
    // A freed slot is served again.
    const d = follow(node.url, 'grpc', request({ originators: [1] }))
    await d.ready
    d.stop()
    b.stop()
    await node.stop()
  })

  it('a subscriber that never reads does not stall publishes (a paused HTTP/2 stream with a 16-byte window)', {
    timeout: 60_000,
  }, async () => {
    const node = await startNode({ db: tmp.path('stall.db'), args: ['--subscriber-backlog', '3'] })
    const w = wallet('stall owner')
    const created = await newInbox(w)
    await node.client().publishIdentityUpdate(created.bytes)
    const session = h2connect(node.url, { settings: { initialWindowSize: 16 } })
    const stream = session.request({
      ':method': 'POST',
      ':path': '/xmtp.xmtpv4.message_api.ReplicationApi/SubscribeEnvelopes',
      'content-type': 'application/grpc+proto',
      te: 'trailers',
    })
    const msg = toBinary(SubscribeEnvelopesRequestSchema, request({ topics: [identityTopic(created.inboxId)] }))
    const framed = Buffer.alloc(5 + msg.length)
    framed.writeUInt32BE(msg.length, 1)
    framed.set(msg, 5)
    stream.end(framed)
    await new Promise((r) => stream.once('response', r))
    stream.pause()
    // Every publish is acknowledged while the subscriber reads nothing (the node only
    // queues for it, up to its backlog: src/devnode/subscribe.test.ts has the rest).
    const acks: bigint[] = []
    for (let i = 0; i < 12; i++) {
      const u = await add(created.inboxId, w, wallet(`stall ${i}`))
      acks.push((await node.client().publishIdentityUpdate(u.bytes)).sequenceId)
    }
    expect(acks).toEqual(Array.from({ length: 12 }, (_, i) => BigInt(i + 2)))
    session.destroy()
    await node.stop()
  })

  it('a restarted node serves a subscription resumed by cursor: nothing twice, nothing skipped', async () => {
    const db = tmp.path('restart.db')
    let node = await startNode({ db })
    const w = wallet('restart owner')
    const created = await newInbox(w)
    const all = [(await node.client().publishIdentityUpdate(created.bytes)).sequenceId]
    const topic = [identityTopic(created.inboxId)]
    const first = follow(node.url, 'grpc', request({ topics: topic }))
    for (let i = 0; i < 2; i++)
      all.push(
        (await node.client().publishIdentityUpdate((await add(created.inboxId, w, wallet(`restart ${i}`))).bytes))
          .sequenceId,
      )
    await first.waitFor(3)
    const port = node.port
    await node.stop()
    const end = await first.ended
    expect(end?.code).toBe(Code.Unavailable)
    expect(end?.rawMessage).toContain(`last_seen {1: ${all.at(-1)}}`)
    node = await startNode({ db, port })
    for (let i = 2; i < 4; i++)
      all.push(
        (await node.client().publishIdentityUpdate((await add(created.inboxId, w, wallet(`restart ${i}`))).bytes))
          .sequenceId,
      )
    const resumed = follow(node.url, 'connect', request({ topics: topic, after: first.seen.at(-1)! }))
    await resumed.waitFor(2)
    all.push(
      (await node.client().publishIdentityUpdate((await add(created.inboxId, w, wallet('restart 4'))).bytes))
        .sequenceId,
    )
    await resumed.waitFor(3)
    resumed.stop()
    expect([...first.seen, ...resumed.seen]).toEqual(all)
    await node.stop()
  })
})
