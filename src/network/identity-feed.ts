/**
 * Every identity update a d14n node holds, in order, without a list of inboxes (the audit,
 * ../shared/contracts/cli.md `audit --node --api d14n`): xmtpd stores identity updates
 * under one originator (IDENTITY_ORIGINATOR_NODE_ID), so QueryEnvelopes with
 * `originator_node_ids: [1]` and no topic, paged by the `last_seen` cursor, lists them all;
 * MetadataApi/GetSyncCursor tells how far the node has got (the progress target, when the
 * node serves it); ReplicationApi/SubscribeEnvelopes streams the new ones (where served).
 *
 * Each envelope is read as the fetch reads it (./d14n.ts, strictly): its inbox is the
 * identity topic its ClientEnvelope names (else the inbox id of the update itself), and an
 * envelope that does not unwrap is returned as skipped with its reason. A node's answer is
 * a claim (IDENT-071): nothing is validated here.
 */
import { fromBinary, type MessageShape, toBinary } from '@bufbuild/protobuf'
import { WireType } from '@bufbuild/protobuf/wire'
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect'
import {
  AuthenticatedDataSchema,
  OriginatorEnvelopeSchema,
  PayerEnvelopeSchema,
  UnsignedOriginatorEnvelopeSchema,
} from '../gen/xmtpv4/envelopes/envelopes_pb'
import { MetadataApi } from '../gen/xmtpv4/metadata_api/metadata_api_pb'
import { QueryApi, ReplicationApi } from '../gen/xmtpv4/message_api/query_api_pb'
import { IDENTITY_ORIGINATOR_NODE_ID, inboxIdOfTopic, unwrapIdentityEnvelope } from './d14n'
import { readFields } from './wire'

/** One identity update as the node served it. */
interface FeedUpdate {
  readonly sequenceId: bigint
  readonly originatorNs: bigint
  readonly inboxId: string
  /** The IdentityUpdate's bytes exactly as served (the client envelope's payload). */
  readonly update: Uint8Array
}

interface FeedSkipped {
  readonly sequenceId: bigint | null
  readonly reason: string
}

export interface FeedPage {
  readonly updates: readonly FeedUpdate[]
  readonly skipped: readonly FeedSkipped[]
  /** The originator's highest sequence id seen so far (the next page's cursor). */
  readonly cursor: bigint
}

/** xmtpd's largest page. */
const MAX_PAGE = 1000

/** The inbox an envelope is about: its identity topic, else its update's inbox_id; null when neither can be read. */
function inboxOf(envelope: Uint8Array): string | null {
  try {
    const env = fromBinary(OriginatorEnvelopeSchema, envelope)
    const unsigned = fromBinary(UnsignedOriginatorEnvelopeSchema, env.unsignedOriginatorEnvelope)
    const payer = fromBinary(PayerEnvelopeSchema, unsigned.payerEnvelopeBytes)
    let update: Uint8Array | null = null
    for (const f of readFields(payer.unsignedClientEnvelope, 'ClientEnvelope')) {
      if (f.no === 1 && f.wt === WireType.LengthDelimited) {
        const topic = fromBinary(AuthenticatedDataSchema, f.body).targetTopic
        const id = topic.length ? inboxIdOfTopic(topic) : null
        if (id) return id
      } else if (f.no === 5 && f.wt === WireType.LengthDelimited) update = f.body
    }
    if (!update) return null
    for (const f of readFields(update, 'IdentityUpdate'))
      if (f.no === 3 && f.wt === WireType.LengthDelimited)
        return new TextDecoder('utf-8', { fatal: true }).decode(f.body)
    return null
  } catch {
    return null
  }
}

/** Reads a page's envelopes (each re-encoded only at its outer layer: the signed bytes inside are kept). */
function readPage(envelopes: readonly MessageShape<typeof OriginatorEnvelopeSchema>[], after: bigint): FeedPage {
  const updates: FeedUpdate[] = []
  const skipped: FeedSkipped[] = []
  let cursor = after
  for (const env of envelopes) {
    const bytes = toBinary(OriginatorEnvelopeSchema, env)
    const inbox = inboxOf(bytes)
    const u = unwrapIdentityEnvelope(bytes, inbox ?? '')
    if (u.ok) {
      updates.push({ sequenceId: u.sequenceId, originatorNs: u.originatorNs, inboxId: inbox!, update: u.update })
      if (u.sequenceId > cursor) cursor = u.sequenceId
    } else {
      skipped.push({ sequenceId: u.sequenceId, reason: u.reason })
      if (u.sequenceId !== null && u.originatorNodeId === IDENTITY_ORIGINATOR_NODE_ID && u.sequenceId > cursor)
        cursor = u.sequenceId
    }
  }
  return { updates, skipped, cursor }
}

export interface FeedOptions {
  readonly transport: Transport
  readonly pageSize?: number
  readonly timeoutMs?: number
  readonly signal?: AbortSignal
}

const ORIGINATORS = [IDENTITY_ORIGINATOR_NODE_ID]

/**
 * The pages after `after` (0: from the start) until the node has nothing newer. A node that
 * answers a page without moving the cursor ends the listing (it would repeat forever).
 */
export async function* identityPages(o: FeedOptions, after = 0n): AsyncGenerator<FeedPage> {
  const client = createClient(QueryApi, o.transport)
  let cursor = after
  for (;;) {
    const res = await client.queryEnvelopes(
      {
        query: {
          originatorNodeIds: ORIGINATORS,
          lastSeen: { nodeIdToSequenceId: { [IDENTITY_ORIGINATOR_NODE_ID]: cursor } },
        },
        limit: o.pageSize ?? MAX_PAGE,
      },
      { ...(o.signal ? { signal: o.signal } : {}), ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}) },
    )
    if (res.envelopes.length === 0) return
    const page = readPage(res.envelopes, cursor)
    yield page
    if (page.cursor <= cursor) return
    cursor = page.cursor
  }
}

/**
 * The node's newest identity sequence id (GetSyncCursor), or null when the node does not
 * serve the call (UNIMPLEMENTED, or an HTTP 404 from a proxy) or names no identity cursor.
 */
export async function syncTarget(o: FeedOptions): Promise<bigint | null> {
  try {
    const res = await createClient(MetadataApi, o.transport).getSyncCursor(
      {},
      { ...(o.signal ? { signal: o.signal } : {}), timeoutMs: o.timeoutMs ?? 10_000 },
    )
    return res.latestSync?.nodeIdToSequenceId[IDENTITY_ORIGINATOR_NODE_ID] ?? null
  } catch (e) {
    const err = ConnectError.from(e)
    if (err.code === Code.Unimplemented || /\b404\b/.test(err.rawMessage)) return null
    throw e
  }
}

/** True when the error says the node does not serve the call (fall back to polling). */
export function isUnimplemented(e: unknown): boolean {
  const err = ConnectError.from(e)
  return err.code === Code.Unimplemented || /\b404\b/.test(err.rawMessage)
}

/** New identity updates as the node streams them (SubscribeEnvelopes by originator, after the cursor). */
export async function* subscribeIdentity(o: FeedOptions, after: bigint): AsyncGenerator<FeedPage> {
  const stream = createClient(ReplicationApi, o.transport).subscribeEnvelopes(
    {
      query: {
        originatorNodeIds: ORIGINATORS,
        lastSeen: { nodeIdToSequenceId: { [IDENTITY_ORIGINATOR_NODE_ID]: after } },
      },
    },
    o.signal ? { signal: o.signal } : {},
  )
  let cursor = after
  for await (const res of stream) {
    const page = readPage(res.envelopes, cursor)
    cursor = page.cursor
    yield page
  }
}
