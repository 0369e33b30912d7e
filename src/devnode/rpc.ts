/**
 * The local node's RPC services (../shared/contracts/cli.md, last paragraph of "The local
 * node"), served by Connect-ES handlers over gRPC, gRPC-web and the Connect protocol on
 * the node's one port, beside the HTTP paths:
 *
 *   xmtp.identity.api.v1.IdentityApi       PublishIdentityUpdate, GetIdentityUpdates,
 *                                          GetInboxIds: the same NodeApi as the HTTP paths;
 *                                          VerifySmartContractWalletSignatures (./scw.ts)
 *   xmtp.mls.api.v1.MlsApi                 UploadKeyPackage, FetchKeyPackages (./mls.ts)
 *   xmtp.xmtpv4.message_api.QueryApi       QueryEnvelopes on identity topics (0x02 + the
 *                                          32 bytes of the inbox id) or by originator
 *                                          (node 1: every inbox's identity envelopes),
 *                                          paged by last_seen, each update wrapped as
 *                                          xmtpd wraps it, with originator_node_id 1;
 *                                          and GetInboxIds
 *   xmtp.xmtpv4.message_api.ReplicationApi SubscribeEnvelopes (./subscribe.ts), and the
 *                                          same QueryEnvelopes and GetInboxIds
 *   xmtp.xmtpv4.metadata_api.MetadataApi   GetSyncCursor: {1: the newest sequence id}
 *
 * Any other RPC path answers UNIMPLEMENTED naming the method, in the request's protocol;
 * a body that is not well-framed protobuf answers INVALID_ARGUMENT (./rpc-wire.ts).
 * Requests are read whole (bounded by the body limit) before Connect-ES sees them, so
 * these answers come before any handler runs. Only the binary codec is served on RPC
 * paths (JSON is the HTTP gateway's). Every call is recorded (./traffic.ts).
 *
 * Bodies go through `inspector.wire.v1.Verbatim` (src/network/verbatim.ts), so a stored
 * update is served byte for byte, never re-encoded, and every request is decoded by the
 * node's strict reader (./codec.ts). CORS is open to any origin.
 */
import type { ServerResponse } from 'node:http'
import type { Http2ServerResponse } from 'node:http2'
import {
  Code,
  ConnectError,
  cors,
  createConnectRouter,
  createContextKey,
  createContextValues,
  type ConnectRouter,
  type HandlerContext,
} from '@connectrpc/connect'
import { createAsyncIterable, type UniversalHandler, type UniversalServerResponse } from '@connectrpc/connect/protocol'
import {
  compressionBrotli,
  compressionGzip,
  universalRequestFromNodeRequest,
  universalResponseToNodeResponse,
} from '@connectrpc/connect-node'
import { create, toBinary, type DescMethod } from '@bufbuild/protobuf'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { bytesToHex } from '../crypto/bytes'
import { IdentityApi } from '../gen/identity/api/v1/identity_pb'
import { MlsApi } from '../gen/mls/api/v1/mls_pb'
import { QueryEnvelopesRequestSchema, SubscribeEnvelopesRequestSchema } from '../gen/xmtpv4/message_api/message_api_pb'
import { QueryApi, ReplicationApi } from '../gen/xmtpv4/message_api/query_api_pb'
import { GetSyncCursorResponseSchema, MetadataApi } from '../gen/xmtpv4/metadata_api/metadata_api_pb'
import { IDENTITY_ORIGINATOR_NODE_ID, inboxIdOfTopic, wrapIdentityUpdate } from '../network/d14n'
import { verbatimBytes, verbatimMethod, verbatimOf, type Verbatim } from '../network/verbatim'
import type { Endpoint, NodeApi } from './api'
import { decodeRequest } from './codec'
import { ApiError } from './errors'
import type { KeyPackages } from './mls'
import { codeFromHttpStatus } from '@connectrpc/connect/protocol-connect'
import { codeName, framingProblem, rpcContentType, rpcErrorResponse, type NodeRequest } from './rpc-wire'
import { type ScwDeps, verifySmartContractWalletSignatures } from './scw'
import type { Store, StoredUpdate } from './store'
import type { SubscriptionFilter, SubscriptionHub } from './subscribe'
import { subject, type CallNote, type TrafficLog } from './traffic'

type NodeResponse = ServerResponse | Http2ServerResponse
export type NodeHandler = (req: NodeRequest, res: NodeResponse) => void

/** xmtpd's page cap (maxRequestedRows): a limit of 0 or above it gives this many. */
const MAX_PAGE_ROWS = 1000

/** The node's refusals as RPC status codes. */
function connectErrorOf(e: unknown): ConnectError {
  if (e instanceof ConnectError) return e
  if (e instanceof ApiError) {
    const code =
      e.status === 400 || e.status === 415
        ? Code.InvalidArgument
        : e.status === 404
          ? Code.NotFound
          : e.status === 409
            ? e.code === 'head_moved'
              ? Code.Aborted
              : Code.FailedPrecondition
            : e.status === 413
              ? Code.ResourceExhausted
              : e.status === 422
                ? Code.FailedPrecondition
                : e.status === 503
                  ? Code.Unavailable
                  : Code.Internal
    return new ConnectError(`${e.code}${e.rule ? ` ${e.rule}` : ''}: ${e.message}`, code)
  }
  return new ConnectError(`the node failed to answer: ${e instanceof Error ? e.message : String(e)}`, Code.Internal)
}

/** xmtpd's bounds on a query (maxQueriesPerRequest, maxTopicLength, maxVectorClockLength). */
const MAX_QUERIES = 10_000
const MAX_TOPIC_BYTES = 128
const MAX_CURSOR_ENTRIES = 100

interface EnvelopesQuery {
  readonly topics: readonly Uint8Array[]
  readonly originatorNodeIds: readonly number[]
  readonly lastSeen: Readonly<Record<number, bigint>>
}

/** xmtpd's checks of an EnvelopesQuery. @throws ConnectError INVALID_ARGUMENT */
function checkQuery(q: EnvelopesQuery): void {
  const { topics, originatorNodeIds, lastSeen } = q
  if (topics.length > 0 && originatorNodeIds.length > 0) {
    throw new ConnectError('invalid query: cannot filter by both topic and originator', Code.InvalidArgument)
  }
  if (topics.length + originatorNodeIds.length > MAX_QUERIES) {
    throw new ConnectError(
      `invalid query: too many subscriptions: ${topics.length + originatorNodeIds.length} (at most ${MAX_QUERIES})`,
      Code.InvalidArgument,
    )
  }
  for (const t of topics) {
    if (t.length === 0 || t.length > MAX_TOPIC_BYTES)
      throw new ConnectError('invalid query: invalid topic', Code.InvalidArgument)
  }
  if (Object.keys(lastSeen).length > MAX_CURSOR_ENTRIES) {
    throw new ConnectError(
      `invalid query: vector clock length exceeds maximum of ${MAX_CURSOR_ENTRIES}`,
      Code.InvalidArgument,
    )
  }
}

/** What a query follows: node 1's envelopes, some inboxes' identity topics, or nothing. */
function filterOf(q: EnvelopesQuery): SubscriptionFilter {
  if (q.originatorNodeIds.length > 0)
    return q.originatorNodeIds.includes(IDENTITY_ORIGINATOR_NODE_ID) ? { kind: 'all' } : { kind: 'none' }
  const inboxes = new Set(q.topics.map(inboxIdOfTopic).filter((i): i is string => i !== null))
  return inboxes.size > 0 ? { kind: 'inboxes', inboxes } : { kind: 'none' }
}

/**
 * Envelopes as a repeated field 1 (QueryEnvelopesResponse, SubscribeEnvelopesResponse).
 * Unsigned: xmtpd gives identity updates (originator 1) a BlockchainProof, the app
 * chain's transaction hash, not an originator signature (those are for envelopes a node
 * originates). This node has no chain, so it claims no proof at all.
 */
function envelopesMessage(updates: readonly StoredUpdate[]): Uint8Array {
  const w = new BinaryWriter()
  for (const u of updates) {
    w.tag(1, WireType.LengthDelimited).bytes(
      wrapIdentityUpdate({
        originatorNodeId: IDENTITY_ORIGINATOR_NODE_ID,
        sequenceId: u.sequenceId,
        originatorNs: u.serverTimestampNs,
        inboxId: u.inboxId,
        update: u.bytes,
      }),
    )
  }
  return w.finish()
}

/**
 * The QueryEnvelopes answer, as xmtpd answers it: by topics (identity topics) or by
 * originators (never both), envelopes after the cursor, ascending, at most `limit`.
 * Every update here has originator node 1 (xmtpd's IdentityUpdateOriginatorID), with the
 * node's global sequence id as its originator sequence id, so an originator-only query
 * for node 1 pages through every inbox's identity envelopes, and one for any other node
 * has none. A query with neither topics nor originators answers nothing (xmtpd's V3
 * compatibility), not an error.
 */
function queryEnvelopes(store: Store, q: EnvelopesQuery, limit: number): Uint8Array {
  checkQuery(q)
  const rows = limit === 0 || limit > MAX_PAGE_ROWS ? MAX_PAGE_ROWS : limit
  const after = q.lastSeen[IDENTITY_ORIGINATOR_NODE_ID] ?? 0n
  const filter = filterOf(q)
  let updates: StoredUpdate[]
  if (filter.kind === 'all') updates = store.updatesAfterAll(after, rows)
  else if (filter.kind === 'none') updates = []
  else {
    updates = [...filter.inboxes].flatMap((inbox) => store.updatesAfter(inbox, after))
    updates.sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : a.sequenceId > b.sequenceId ? 1 : 0))
  }
  return envelopesMessage(updates.slice(0, rows))
}

function queryOf(m: {
  query?: {
    topics: Uint8Array[]
    originatorNodeIds: number[]
    lastSeen?: { nodeIdToSequenceId: Record<number, bigint> }
  }
}): EnvelopesQuery {
  return {
    topics: m.query?.topics ?? [],
    originatorNodeIds: m.query?.originatorNodeIds ?? [],
    lastSeen: m.query?.lastSeen?.nodeIdToSequenceId ?? {},
  }
}

/** The subject a query names in the traffic log: its first topic, or null (an originator query). */
function querySubject(q: EnvelopesQuery): CallNote['subject'] {
  const t = q.topics[0]
  if (!t) return null
  const inbox = inboxIdOfTopic(t)
  return inbox ? subject('inbox', inbox) : subject('topic', bytesToHex(t))
}

/** What the node hands its calls: the call's note, how to cut its response off, and its error. */
interface CallContext {
  readonly note: CallNote
  readonly cutOff: () => void
  error: ConnectError | null
}

const CALL = createContextKey<CallContext>(
  { note: {}, cutOff: () => {}, error: null },
  { description: 'the node call' },
)

export interface RpcDeps {
  readonly api: NodeApi
  readonly store: Store
  readonly hub: SubscriptionHub
  readonly keyPackages: KeyPackages
  readonly scw: ScwDeps
  readonly traffic: TrafficLog
  readonly maxBodyBytes: number
}

/** The RPC routes. */
function rpcRoutes(deps: RpcDeps): (router: ConnectRouter) => void {
  const { api, store, hub, keyPackages } = deps
  type Impl = (body: Uint8Array, note: CallNote) => Promise<Uint8Array | string> | Uint8Array
  const unary = (impl: Impl) => async (req: Verbatim, ctx: HandlerContext) => {
    const call = ctx.values.get(CALL)
    try {
      const out = await impl(verbatimBytes(req), call.note)
      return verbatimOf(typeof out === 'string' ? new TextEncoder().encode(out) : out)
    } catch (e) {
      if (e instanceof ApiError && e.rule) call.note.rule = e.rule
      call.error = connectErrorOf(e)
      throw call.error
    }
  }
  const viaApi =
    (endpoint: Endpoint): Impl =>
    (body, note) =>
      api.handle(endpoint, 'binary', body, note)
  const query: Impl = (body, note) => {
    const m = decodeRequest(QueryEnvelopesRequestSchema, 'binary', body)
    const q = queryOf(m)
    note.subject = querySubject(q)
    return queryEnvelopes(store, q, m.limit)
  }
  async function* subscribe(req: Verbatim, ctx: HandlerContext): AsyncGenerator<Verbatim> {
    const call = ctx.values.get(CALL)
    try {
      const m = decodeRequest(SubscribeEnvelopesRequestSchema, 'binary', verbatimBytes(req))
      const q = queryOf(m)
      call.note.subject = querySubject(q)
      checkQuery(q)
      if (q.topics.length === 0 && q.originatorNodeIds.length === 0)
        throw new ConnectError(
          'invalid query: a subscription needs topics or originator_node_ids',
          Code.InvalidArgument,
        )
      const after = q.lastSeen[IDENTITY_ORIGINATOR_NODE_ID] ?? 0n
      for await (const batch of hub.subscribe(filterOf(q), after, ctx.signal, call.cutOff)) {
        yield verbatimOf(envelopesMessage(batch))
      }
      if (ctx.signal.aborted) call.error = new ConnectError('the client closed the stream', Code.Canceled)
    } catch (e) {
      call.error = connectErrorOf(e)
      throw call.error
    }
  }
  const syncCursor: Impl = () =>
    toBinary(
      GetSyncCursorResponseSchema,
      create(GetSyncCursorResponseSchema, {
        latestSync: { nodeIdToSequenceId: { [IDENTITY_ORIGINATOR_NODE_ID]: store.newestSequenceIdAll() ?? 0n } },
      }),
    )

  return (router) => {
    const rpc = router.rpc.bind(router) as unknown as (
      method: DescMethod,
      impl: (req: never, ctx: HandlerContext) => Promise<Verbatim> | AsyncIterable<Verbatim>,
    ) => ConnectRouter
    const verbatim = <M extends DescMethod>(m: M) => verbatimMethod(m, { input: true })
    rpc(verbatim(IdentityApi.method.publishIdentityUpdate), unary(viaApi('publish')))
    rpc(verbatim(IdentityApi.method.getIdentityUpdates), unary(viaApi('getIdentityUpdates')))
    rpc(verbatim(IdentityApi.method.getInboxIds), unary(viaApi('getInboxIds')))
    rpc(
      verbatim(IdentityApi.method.verifySmartContractWalletSignatures),
      unary((body, note) => verifySmartContractWalletSignatures(deps.scw, body, note)),
    )
    rpc(
      verbatim(MlsApi.method.uploadKeyPackage),
      unary((body, note) => keyPackages.upload(body, note)),
    )
    rpc(
      verbatim(MlsApi.method.fetchKeyPackages),
      unary((body, note) => keyPackages.fetch(body, note)),
    )
    // Same fields and numbers as the identity API's GetInboxIds.
    rpc(verbatim(QueryApi.method.getInboxIds), unary(viaApi('getInboxIds')))
    rpc(verbatim(QueryApi.method.queryEnvelopes), unary(query))
    rpc(verbatim(ReplicationApi.method.getInboxIds), unary(viaApi('getInboxIds')))
    rpc(verbatim(ReplicationApi.method.queryEnvelopes), unary(query))
    rpc(verbatim(ReplicationApi.method.subscribeEnvelopes), subscribe)
    rpc(verbatim(MetadataApi.method.getSyncCursor), unary(syncCursor))
  }
}

/** True for a path of an RPC this node serves or could serve (`/package.Service/Method`). */
const RPC_PATH = /^\/[A-Za-z_][\w.]*\.[A-Za-z_]\w*\/[A-Za-z_]\w*$/

/** Reads the whole body, or null past `max` bytes (the rest is left unread). */
async function readAll(req: NodeRequest, max: number): Promise<Uint8Array | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length
    if (size > max) return null
    chunks.push(c)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/** The traffic outcome of a finished call's Connect code. */
function outcomeOf(code: Code | null): 'ok' | 'refused' | 'error' {
  if (code === null) return 'ok'
  return code === Code.Internal || code === Code.Unknown || code === Code.DataLoss || code === Code.Canceled
    ? 'error'
    : 'refused'
}

/**
 * One request handler for HTTP/1.1 and HTTP/2: RPC paths go to the Connect-ES handlers
 * (with CORS open to any origin), everything else to `fallback` (the HTTP API).
 */
export function withRpc(deps: RpcDeps, fallback: NodeHandler): NodeHandler {
  const router = createConnectRouter({
    readMaxBytes: deps.maxBodyBytes,
    acceptCompression: [compressionGzip, compressionBrotli],
  })
  rpcRoutes(deps)(router)
  const handlers = new Map<string, UniversalHandler>()
  for (const h of router.handlers) handlers.set(h.requestPath, h)

  async function serve(
    req: NodeRequest,
    res: NodeResponse,
    path: string,
    note: CallNote,
  ): Promise<ConnectError | null> {
    const type = rpcContentType(req.headers['content-type'])
    const method = path.slice(1)
    const handler = handlers.get(path)
    let answer: UniversalServerResponse
    let refusal: ConnectError | null = null
    const refuse = (e: ConnectError) => {
      refusal = e
      answer = rpcErrorResponse(type, e)
    }
    if (!handler) {
      refuse(
        new ConnectError(
          `${method} is not implemented by this node; it serves ${[...handlers.keys()].map((p) => p.slice(1)).join(', ')}`,
          Code.Unimplemented,
        ),
      )
      // The body is not read: the connection is closed after the answer if it is still sending.
    } else if (req.method !== 'POST' || type === null || type.text) {
      // Connect-ES answers these itself (405, 415: the protocols' own refusals).
      const uReq = universalRequestFromNodeRequest(req as never, res as never, undefined, undefined)
      answer = await handler(uReq)
      if (answer.status >= 400) refusal = new ConnectError(`HTTP ${answer.status}`, codeFromHttpStatus(answer.status))
    } else if (type.json) {
      refuse(
        new ConnectError(
          `${method}: this node reads RPC bodies as binary protobuf only (application/proto, application/grpc+proto, application/grpc-web+proto); JSON is served on the /identity/v1/ paths`,
          Code.InvalidArgument,
        ),
      )
    } else {
      const body = await readAll(req, deps.maxBodyBytes + 1024)
      const problem = body === null ? null : framingProblem(type, body)
      if (body === null) {
        refuse(
          new ConnectError(
            `${method}: the request body is over this node's limit of ${deps.maxBodyBytes} bytes`,
            Code.ResourceExhausted,
          ),
        )
      } else if (problem !== null) {
        refuse(new ConnectError(`${method}: the request body cannot be decoded: ${problem}`, Code.InvalidArgument))
      } else {
        let destroyed = false
        const cutOff = () => {
          if (destroyed) return
          destroyed = true
          res.destroy()
        }
        const call: CallContext = { note, cutOff, error: null }
        const values = createContextValues().set(CALL, call)
        const uReq = {
          ...universalRequestFromNodeRequest(req as never, res as never, undefined, values),
          body: createAsyncIterable([body]),
        }
        answer = await handler(uReq)
        await universalResponseToNodeResponse(answer, res as never)
        return call.error
      }
    }
    await universalResponseToNodeResponse(answer!, res as never)
    return refusal
  }

  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!
    if (!RPC_PATH.test(path)) {
      fallback(req, res)
      return
    }
    res.setHeader('Access-Control-Allow-Origin', '*')
    res.setHeader('Access-Control-Expose-Headers', [...cors.exposedHeaders, 'Grpc-Status-Details-Bin'].join(', '))
    if (req.method === 'OPTIONS') {
      const requested = req.headers['access-control-request-headers']
      res.statusCode = 204
      res.setHeader('Access-Control-Allow-Methods', cors.allowedMethods.join(', '))
      res.setHeader(
        'Access-Control-Allow-Headers',
        typeof requested === 'string' && requested ? requested : cors.allowedHeaders.join(', '),
      )
      res.setHeader('Access-Control-Max-Age', '7200')
      if (req.headers['access-control-request-private-network'] === 'true') {
        res.setHeader('Access-Control-Allow-Private-Network', 'true')
      }
      res.end()
      return
    }
    const startedAt = Date.now()
    const startedPerf = performance.now()
    const transport = rpcContentType(req.headers['content-type'])?.protocol ?? 'connect'
    const note: CallNote = {}
    serve(req, res, path, note).then(
      (e) => {
        deps.traffic.record({
          startedAt,
          startedPerf,
          transport,
          method: path.slice(1),
          note,
          outcome: outcomeOf(e ? e.code : null),
          code: e ? codeName(e.code) : 'ok',
          message: e ? e.rawMessage : '',
        })
      },
      (reason: unknown) => {
        const e = ConnectError.from(reason)
        deps.traffic.record({
          startedAt,
          startedPerf,
          transport,
          method: path.slice(1),
          note,
          outcome: 'error',
          code: codeName(e.code),
          message: e.rawMessage,
        })
        if (!res.headersSent) {
          res.statusCode = 500
          res.end()
        } else res.destroy()
      },
    )
  }
}
