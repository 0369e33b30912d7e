/**
 * The local node's QueryEnvelopes by originator, as xmtpd answers it (pkg/api/message
 * service.go): an originator-only query for node 1 (xmtpd's IdentityUpdateOriginatorID)
 * pages through every inbox's identity envelopes by the cursor, ascending; another
 * originator has none; topics and originators together, too many, or a cursor over 100
 * entries are invalid arguments; an empty query answers nothing. Over Connect and gRPC
 * against the real node process (seeded with the demo inboxes) on a free 127.0.0.1 port.
 */
import { create, fromBinary, type MessageShape, toBinary } from '@bufbuild/protobuf'
import { Code, ConnectError, createClient } from '@connectrpc/connect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/bytes'
import { demoInboxes } from '../../src/devnode/demo'
import {
  OriginatorEnvelopeSchema,
  PayerEnvelopeSchema,
  UnsignedOriginatorEnvelopeSchema,
} from '../../src/gen/xmtpv4/envelopes/envelopes_pb'
import { QueryEnvelopesRequestSchema } from '../../src/gen/xmtpv4/message_api/message_api_pb'
import { QueryApi } from '../../src/gen/xmtpv4/message_api/query_api_pb'
import { identityTopic, unwrapIdentityEnvelope } from '../../src/network/d14n'
import { nodeTransportFor } from '../../src/network/transports-node'
import { type RunningNode, startNode, stopAll, tempDir } from './harness'

const tmp = tempDir('originator-query-')
let node: RunningNode
/** Every stored update, over the HTTP API, per inbox: the reference. */
let stored: { inboxId: string; sequenceId: bigint; hex: string }[]

beforeAll(async () => {
  node = await startNode({ db: tmp.path('node.db'), args: ['--seed', 'demo'] })
  stored = []
  for (const d of demoInboxes()) {
    const log = await node.client().getInboxLog(d.inboxId)
    for (const e of log.entries)
      stored.push({
        inboxId: d.inboxId,
        sequenceId: e.sequenceId,
        hex: bytesToHex('bytes' in e.update && e.update.bytes ? e.update.bytes : new Uint8Array()),
      })
  }
  stored.sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : 1))
  expect(stored.length).toBeGreaterThan(4)
}, 60_000)

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

const client = (kind: 'connect' | 'grpc') => createClient(QueryApi, nodeTransportFor(kind, node.url))

interface Row {
  readonly originator: number
  readonly sequenceId: bigint
  readonly inboxId: string
  readonly hex: string
  readonly proof: string | undefined
}

/** The envelopes of one answer, unwrapped (the inbox from the reference by sequence id). */
function rows(envelopes: readonly MessageShape<typeof OriginatorEnvelopeSchema>[]): Row[] {
  return envelopes.map((env) => {
    const unsigned = fromBinary(UnsignedOriginatorEnvelopeSchema, env.unsignedOriginatorEnvelope)
    const payer = fromBinary(PayerEnvelopeSchema, unsigned.payerEnvelopeBytes)
    expect(payer.targetOriginator).toBe(1)
    const inboxId = stored.find((s) => s.sequenceId === unsigned.originatorSequenceId)?.inboxId ?? ''
    const u = unwrapIdentityEnvelope(toBinary(OriginatorEnvelopeSchema, env), inboxId)
    return {
      originator: unsigned.originatorNodeId,
      sequenceId: unsigned.originatorSequenceId,
      inboxId,
      hex: u.ok ? bytesToHex(u.update) : `not unwrapped: ${u.reason}`,
      proof: env.proof.case,
    }
  })
}

const query = (
  q: { topics?: Uint8Array[]; originatorNodeIds?: number[]; lastSeen?: Record<number, bigint> },
  limit = 0,
) =>
  create(QueryEnvelopesRequestSchema, {
    query: {
      topics: q.topics ?? [],
      originatorNodeIds: q.originatorNodeIds ?? [],
      ...(q.lastSeen ? { lastSeen: { nodeIdToSequenceId: q.lastSeen } } : {}),
    },
    limit,
  })

describe.each(['connect', 'grpc'] as const)('QueryEnvelopes by originator over %s', (kind) => {
  it('node 1 answers every inbox identity envelope, ascending, byte for byte, unsigned (no proof claimed)', async () => {
    const r = rows((await client(kind).queryEnvelopes(query({ originatorNodeIds: [1] }))).envelopes)
    expect(r.map((x) => x.sequenceId)).toEqual(stored.map((s) => s.sequenceId))
    expect(r.map((x) => x.hex)).toEqual(stored.map((s) => s.hex))
    expect(new Set(r.map((x) => x.originator))).toEqual(new Set([1]))
    expect(new Set(r.map((x) => x.proof))).toEqual(new Set([undefined]))
    expect(new Set(r.map((x) => x.inboxId)).size).toBe(demoInboxes().length)
  })

  it('pages by limit and the last_seen cursor to the end, without gaps or repeats', async () => {
    const seen: bigint[] = []
    let after = 0n
    for (let page = 0; page < 100; page++) {
      const r = rows(
        (await client(kind).queryEnvelopes(query({ originatorNodeIds: [1], lastSeen: { 1: after } }, 2))).envelopes,
      )
      if (r.length === 0) break
      expect(r.length).toBeLessThanOrEqual(2)
      seen.push(...r.map((x) => x.sequenceId))
      after = r.at(-1)!.sequenceId
    }
    expect(seen).toEqual(stored.map((s) => s.sequenceId))
  })

  it('another originator has no identity envelopes; with node 1 among others, node 1 answers', async () => {
    expect((await client(kind).queryEnvelopes(query({ originatorNodeIds: [100] }))).envelopes).toEqual([])
    const r = rows((await client(kind).queryEnvelopes(query({ originatorNodeIds: [100, 1] }))).envelopes)
    expect(r.length).toBe(stored.length)
  })

  it('an empty query answers nothing, as xmtpd does for V3 compatibility', async () => {
    expect((await client(kind).queryEnvelopes(query({}))).envelopes).toEqual([])
  })

  it('topics with originators, too many filters, or a cursor of over 100 nodes are invalid arguments', async () => {
    const topic = identityTopic(stored[0]!.inboxId)
    const refused = async (q: ReturnType<typeof query>, message: RegExp) => {
      const e = await client(kind)
        .queryEnvelopes(q)
        .then(
          () => null,
          (x: unknown) => x,
        )
      expect(e).toBeInstanceOf(ConnectError)
      expect((e as ConnectError).code).toBe(Code.InvalidArgument)
      expect((e as ConnectError).rawMessage).toMatch(message)
    }
    await refused(query({ topics: [topic], originatorNodeIds: [1] }), /both topic and originator/)
    await refused(
      query({ originatorNodeIds: Array.from({ length: 10_001 }, (_, i) => i) }),
      /too many subscriptions: 10001/,
    )
    await refused(
      query({ originatorNodeIds: [1], lastSeen: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [i, 0n])) }),
      /vector clock length exceeds maximum of 100/,
    )
  })
})
