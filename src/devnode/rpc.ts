/**
 * The local node's RPC services (../shared/contracts/cli.md, last paragraph of "The local
 * node"), served by connect-node's handlers over gRPC, gRPC-web and the Connect protocol
 * on the node's one port, beside the HTTP paths:
 *
 *   xmtp.identity.api.v1.IdentityApi       PublishIdentityUpdate, GetIdentityUpdates,
 *                                          GetInboxIds: the same NodeApi as the HTTP paths
 *   xmtp.xmtpv4.message_api.QueryApi       QueryEnvelopes on identity topics (0x02 + the
 *                                          32 bytes of the inbox id) or by originator
 *                                          (node 1: every inbox's identity envelopes),
 *                                          paged by last_seen, each update wrapped as
 *                                          xmtpd wraps it, with originator_node_id 1;
 *                                          and GetInboxIds
 *
 * Bodies go through `inspector.wire.v1.Verbatim` (src/network/verbatim.ts), so a stored
 * update is served byte for byte, never re-encoded. CORS is open to any origin, with
 * the headers the three protocols need (connect's `cors` lists).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2'
import { Code, ConnectError, cors, type ConnectRouter } from '@connectrpc/connect'
import { connectNodeAdapter } from '@connectrpc/connect-node'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { IdentityApi } from '../gen/identity/api/v1/identity_pb'
import { QueryApi } from '../gen/xmtpv4/message_api/query_api_pb'
import { IDENTITY_ORIGINATOR_NODE_ID, inboxIdOfTopic, wrapIdentityUpdate } from '../network/d14n'
import { verbatimBytes, verbatimMethod, verbatimOf, type Verbatim } from '../network/verbatim'
import type { Endpoint, NodeApi } from './api'
import { ApiError } from './errors'
import type { StoredUpdate, Store } from './store'

type NodeRequest = IncomingMessage | Http2ServerRequest
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

/**
 * The QueryEnvelopes answer, as xmtpd answers it: by topics (identity topics) or by
 * originators (never both), envelopes after the cursor, ascending, at most `limit`.
 * Every update here has originator node 1 (xmtpd's IdentityUpdateOriginatorID), with the
 * node's global sequence id as its originator sequence id, so an originator-only query
 * for node 1 pages through every inbox's identity envelopes, and one for any other node
 * has none. A query with neither topics nor originators answers nothing (xmtpd's V3
 * compatibility), not an error.
 */
function queryEnvelopes(
  store: Store,
  topics: readonly Uint8Array[],
  originatorNodeIds: readonly number[],
  lastSeen: Readonly<Record<number, bigint>>,
  limit: number,
): Uint8Array {
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
  const rows = limit === 0 || limit > MAX_PAGE_ROWS ? MAX_PAGE_ROWS : limit
  const after = lastSeen[IDENTITY_ORIGINATOR_NODE_ID] ?? 0n
  let updates: StoredUpdate[]
  if (originatorNodeIds.length > 0) {
    updates = originatorNodeIds.includes(IDENTITY_ORIGINATOR_NODE_ID) ? store.updatesAfterAll(after, rows) : []
  } else {
    const inboxes = [...new Set(topics.map(inboxIdOfTopic).filter((i): i is string => i !== null))]
    updates = inboxes.flatMap((inbox) => store.updatesAfter(inbox, after))
    updates.sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : a.sequenceId > b.sequenceId ? 1 : 0))
  }
  const w = new BinaryWriter()
  for (const u of updates.slice(0, rows)) {
    // Unsigned: xmtpd gives identity updates (originator 1) a BlockchainProof, the app
    // chain's transaction hash, not an originator signature (those are for envelopes a
    // node originates). This node has no chain, so it claims no proof at all.
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

/** The RPC routes over one NodeApi and its store. */
function rpcRoutes(api: NodeApi, store: Store): (router: ConnectRouter) => void {
  const viaApi = (endpoint: Endpoint) => async (req: Verbatim) => {
    try {
      const out = await api.handle(endpoint, 'binary', verbatimBytes(req))
      return verbatimOf(typeof out === 'string' ? new TextEncoder().encode(out) : out)
    } catch (e) {
      throw connectErrorOf(e)
    }
  }
  return (router) => {
    const rpc = router.rpc.bind(router) as unknown as (
      method: unknown,
      impl: (req: never) => Promise<Verbatim>,
    ) => ConnectRouter
    rpc(verbatimMethod(IdentityApi.method.publishIdentityUpdate, { input: true }), viaApi('publish'))
    rpc(verbatimMethod(IdentityApi.method.getIdentityUpdates, { input: true }), viaApi('getIdentityUpdates'))
    rpc(verbatimMethod(IdentityApi.method.getInboxIds, { input: true }), viaApi('getInboxIds'))
    // Same fields and numbers as the identity API's GetInboxIds.
    rpc(verbatimMethod(QueryApi.method.getInboxIds, { input: true }), viaApi('getInboxIds'))
    rpc(verbatimMethod(QueryApi.method.queryEnvelopes), async (req: never) => {
      const r = req as unknown as {
        query?: {
          topics: Uint8Array[]
          originatorNodeIds: number[]
          lastSeen?: { nodeIdToSequenceId: Record<number, bigint> }
        }
        limit: number
      }
      try {
        return verbatimOf(
          queryEnvelopes(
            store,
            r.query?.topics ?? [],
            r.query?.originatorNodeIds ?? [],
            r.query?.lastSeen?.nodeIdToSequenceId ?? {},
            r.limit,
          ),
        )
      } catch (e) {
        throw connectErrorOf(e)
      }
    })
  }
}

/** True for a path of an RPC this node serves or could serve (`/package.Service/Method`). */
const RPC_PATH = /^\/[A-Za-z_][\w.]*\.[A-Za-z_]\w*\/[A-Za-z_]\w*$/

/**
 * One request handler for HTTP/1.1 and HTTP/2: RPC paths go to connect-node's handlers
 * (with CORS open to any origin), everything else to `fallback` (the HTTP API).
 */
export function withRpc(api: NodeApi, store: Store, maxBodyBytes: number, fallback: NodeHandler): NodeHandler {
  const adapter = connectNodeAdapter({
    routes: rpcRoutes(api, store),
    readMaxBytes: maxBodyBytes,
    fallback: (req, res) => {
      // An RPC path this node does not serve: gRPC and Connect clients read 404 as unimplemented.
      res.statusCode = 404
      res.setHeader('Content-Type', 'application/json')
      res.end(
        JSON.stringify({
          code: 'not_found',
          message: `no RPC at ${(req.url ?? '').split('?')[0]}; this node serves xmtp.identity.api.v1.IdentityApi and xmtp.xmtpv4.message_api.QueryApi`,
          rule: null,
        }),
      )
    },
  })
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
    adapter(req as never, res as never)
  }
}
