/**
 * One client for real networks (../shared/contracts/cli.md, `fetch`): reads one inbox's
 * whole log from a node, over
 *
 *   api 'identity'  xmtp.identity.api.v1.IdentityApi (XMTP V3 nodes): GetIdentityUpdates
 *                   from sequence id 0, GetInboxIds to resolve an identifier
 *   api 'd14n'      xmtp.xmtpv4.message_api.QueryApi (xmtpd): QueryEnvelopes on the
 *                   inbox's identity topic, following the last_seen cursor, and GetInboxIds
 *
 * each over gRPC, gRPC-web or the Connect protocol (binary), through Connect-ES
 * transports that the caller makes (connect-node on the command line, connect-web in the
 * browser: see ./transports-node.ts and ./transports-web.ts), and the identity API also
 * over the HTTP gateway (POST binary protobuf to /identity/v1/…).
 *
 * Every answer is a claim (IDENT-071): nothing here validates an update. What this
 * module does check is that an answer is a well-formed answer of the API: the body is
 * read verbatim (./verbatim.ts) and parsed strictly (./wire.ts), each update keeps the
 * exact bytes the node served, an answer naming another inbox or repeating a sequence
 * id is refused, and a d14n envelope that does not unwrap to an identity update of the
 * inbox is left out with its reason (`skipped`). Every failure is a RemoteError whose
 * message names the node, the API and transport, and what was wrong.
 */
import { Code, ConnectError, type Transport } from '@connectrpc/connect'
import { checkWire } from '../core/decode/wire'
import { bytesToHex, equalBytes } from '../crypto/bytes'
import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethodUnary,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf'
import { WireType } from '@bufbuild/protobuf/wire'
import {
  GetInboxIdsResponseSchema as IdentityGetInboxIdsResponseSchema,
  IdentityApi,
} from '../gen/identity/api/v1/identity_pb'
import { QueryApi, ReplicationApi } from '../gen/xmtpv4/message_api/query_api_pb'
import { decodeOrError, entry } from '../core/decode/entry'
import { IdentifierKindValue, type InboxLog } from '../core/types'
import { IDENTITY_ORIGINATOR_NODE_ID, identityTopic, isTopicInboxId, unwrapIdentityEnvelope } from './d14n'
import { NODE_PATHS } from './client'
import { verbatimBytes, verbatimMethod, type Verbatim } from './verbatim'
import { expectWireType, fieldText, readFields, WireError } from './wire'
import {
  type Api,
  normalizeTarget,
  type RpcTransportKind,
  type Target,
  type TargetKind,
  type TransportKind,
} from './target'

export type { Api, RpcTransportKind, Target, TargetKind, TransportKind } from './target'

export interface FetchedUpdate {
  readonly sequenceId: bigint
  readonly serverTimestampNs: bigint
  /** The IdentityUpdate's bytes exactly as the node served them. */
  readonly bytes: Uint8Array
  /** d14n: the envelope's originator node. */
  readonly originatorNodeId?: number
}

export interface SkippedEnvelope {
  readonly sequenceId: bigint | null
  readonly reason: string
}

export interface FetchedLog {
  readonly inboxId: string
  readonly node: string
  readonly api: Api
  readonly transport: TransportKind
  /** In the node's order. */
  readonly updates: readonly FetchedUpdate[]
  /** d14n envelopes left out, each with why. */
  readonly skipped: readonly SkippedEnvelope[]
  /** How the inbox id was found: the identifier and what the node answered for it (a claim). */
  readonly resolvedFrom: Target | null
  /** Calls made for the log (d14n: pages). */
  readonly pages: number
}

export type RemoteErrorKind =
  | 'unreachable'
  | 'unimplemented'
  | 'status'
  | 'malformed'
  | 'other-inbox'
  | 'duplicate'
  | 'not-found'
  | 'too-many-pages'
  | 'bad-target'
  /** The caller's signal ended the call. */
  | 'cancelled'

/** Why a fetch failed; the message names the node, the API and transport, and what. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError'
  constructor(
    readonly kind: RemoteErrorKind,
    readonly node: string,
    readonly api: Api,
    readonly transport: TransportKind,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    // One readable line: OpenSSL and HTTP libraries put newlines in their messages.
    super(`${node} (${api} API over ${transport}): ${detail.replace(/\s+/g, ' ').trim()}`, options)
  }
}

export interface RemoteOptions {
  /** The node's base URL, e.g. `http://127.0.0.1:5555` (a trailing slash is ignored). */
  readonly node: string
  readonly api: Api
  readonly transport: TransportKind
  /** Makes a Connect-ES transport of a kind for the base URL. */
  readonly transportFor: (kind: RpcTransportKind, baseUrl: string) => Transport
  /** For the gateway transport. */
  readonly fetch?: typeof fetch
  /** d14n: the `limit` of each QueryEnvelopes page (0: the node's choice). */
  readonly pageSize?: number
  /** d14n: at most this many pages (default 1000): a node that never stops paging is refused. */
  readonly maxPages?: number
  readonly timeoutMs?: number
  readonly signal?: AbortSignal
}

const DEFAULT_MAX_PAGES = 1000

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** The identifier kind numbers GetInboxIds takes. */
const KIND_OF: Record<Exclude<TargetKind, 'inbox'>, number> = {
  address: IdentifierKindValue.ETHEREUM,
  passkey: IdentifierKindValue.PASSKEY,
  handle: IdentifierKindValue.HANDLE,
}

export function createRemote(o: RemoteOptions) {
  const node = o.node
  const baseUrl = o.node.replace(/\/+$/, '')
  const fail = (kind: RemoteErrorKind, detail: string, cause?: unknown): RemoteError =>
    new RemoteError(kind, node, o.api, o.transport, detail, cause === undefined ? undefined : { cause })
  if (o.api === 'd14n' && o.transport === 'gateway') {
    throw fail('bad-target', 'the d14n API has no HTTP gateway; use grpc, grpc-web or connect')
  }
  let transport: Transport | null = null

  /** One unary call; the answer's body verbatim. */
  async function call(
    method: DescMethodUnary,
    input: object,
    gatewayPath: string | null,
    signal: AbortSignal | undefined = o.signal,
  ): Promise<Uint8Array> {
    const what = `${method.parent.typeName}/${method.name}`
    if (o.transport === 'gateway')
      return gatewayCall(gatewayPath!, method.input, input as MessageInitShape<DescMessage>, signal)
    transport ??= o.transportFor(o.transport as RpcTransportKind, baseUrl)
    try {
      const res = await transport.unary(
        verbatimMethod(method),
        signal,
        o.timeoutMs,
        undefined,
        input as MessageInitShape<DescMessage>,
        undefined,
      )
      return verbatimBytes(res.message as unknown as Verbatim)
    } catch (e) {
      throw connectFailure(e, what, method.output.name, signal)
    }
  }

  function connectFailure(e: unknown, what: string, answerName: string, signal = o.signal): RemoteError {
    if (signal?.aborted) return fail('cancelled', 'the fetch was cancelled', e)
    const err = ConnectError.from(e)
    const cause = err.cause instanceof Error ? err.cause : null
    const code = cause && 'code' in cause ? String((cause as { code: unknown }).code) : ''
    const causeText = cause ? cause.message : ''
    if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT)$/.test(code)) {
      return fail('unreachable', `the node could not be reached: ${causeText || code}`, e)
    }
    if (/^(ECONNRESET|EPIPE|ERR_STREAM_PREMATURE_CLOSE)$/.test(code) || /^aborted$/i.test(causeText)) {
      return fail('malformed', `the connection was cut off before a whole answer (${causeText || code})`, e)
    }
    if (/^protocol error/.test(err.rawMessage)) {
      const truncated = /incomplete|premature|missing trailer|end of stream/i.test(err.rawMessage)
      return fail(
        'malformed',
        `the answer is not well-formed ${o.transport}${truncated ? ': a truncated frame' : ''} (${err.rawMessage})`,
        e,
      )
    }
    if (/SSL|TLS|CERT|EPROTO/i.test(code) || /ssl|tls|certificate/i.test(causeText)) {
      return fail(
        'unreachable',
        `the TLS connection was refused (the node does not speak TLS there, or its certificate is not trusted): ${causeText || code}`,
        e,
      )
    }
    if (/^HPE_|ERR_HTTP2/.test(code)) {
      return fail(
        'malformed',
        `the answer is not ${o.transport} over ${o.transport === 'grpc' ? 'HTTP/2 (the node may not speak HTTP/2 there)' : 'HTTP'}: ${causeText || code}`,
        e,
      )
    }
    if (/^parse binary/.test(err.rawMessage)) {
      return fail(
        'malformed',
        `the answer to ${what} is not a ${answerName}: it is not protobuf (${err.rawMessage})`,
        e,
      )
    }
    if (err.code === Code.Unimplemented) {
      return fail('unimplemented', `the node does not serve ${what} (unimplemented: ${err.rawMessage})`, e)
    }
    if (cause instanceof TypeError && /fetch/i.test(cause.message)) {
      return fail(
        'unreachable',
        `the node could not be reached (network error, TLS, or the node does not allow this origin under CORS): ${cause.message}`,
        e,
      )
    }
    if (/Failed to fetch|NetworkError|Load failed/i.test(err.rawMessage)) {
      return fail(
        'unreachable',
        `the node could not be reached (network error, TLS, or the node does not allow this origin under CORS): ${err.rawMessage}`,
        e,
      )
    }
    return fail(
      'status',
      `${what} failed with status ${Code[err.code] ?? err.code} (${err.code}): ${err.rawMessage}`,
      e,
    )
  }

  async function gatewayCall<I extends DescMessage>(
    path: string,
    schema: I,
    input: MessageInitShape<I>,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const doFetch = o.fetch ?? globalThis.fetch
    const url = baseUrl + path
    let res: Response
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-protobuf', Accept: 'application/x-protobuf' },
        body: new Uint8Array(toBinary(schema, create(schema, input))),
        ...(signal ? { signal } : {}),
      })
    } catch (e) {
      if (signal?.aborted) throw fail('cancelled', 'the fetch was cancelled', e)
      const c = (e as { cause?: { code?: string; message?: string } }).cause
      const why = c?.message ?? messageOf(e)
      if (c?.code && /SSL|TLS|CERT|EPROTO/.test(c.code))
        throw fail('unreachable', `the TLS connection was refused: ${why}`, e)
      throw fail(
        'unreachable',
        `the node could not be reached at POST ${path}: ${why}${c ? '' : ' (network error, TLS, or CORS)'}`,
        e,
      )
    }
    let body: Uint8Array
    try {
      body = new Uint8Array(await res.arrayBuffer())
    } catch (e) {
      if (signal?.aborted) throw fail('cancelled', 'the fetch was cancelled', e)
      throw fail('malformed', `the answer to POST ${path} was cut off: ${messageOf(e)}`, e)
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (res.status === 404 || res.status === 405 || res.status === 501) {
      throw fail('unimplemented', `the node does not serve POST ${path} (HTTP ${res.status})`)
    }
    if (!res.ok) {
      const text = new TextDecoder().decode(body.subarray(0, 300)).replace(/\s+/g, ' ').trim()
      throw fail('status', `POST ${path} answered HTTP ${res.status}${text ? `: ${text}` : ''}`)
    }
    if (/^(text\/|application\/(json|xml|xhtml))/.test(type)) {
      throw fail('malformed', `POST ${path} answered ${type}, not binary protobuf`)
    }
    return body
  }

  /** A strictly checked message of a known schema (no exact bytes needed). */
  function strictAnswer<D extends DescMessage>(schema: D, body: Uint8Array, what: string): MessageShape<D> {
    const problem = checkWire(schema, body)
    if (problem) throw fail('malformed', `the answer to ${what} is not a ${schema.name}: ${problem.message}`)
    try {
      return fromBinary(schema, body)
    } catch (e) {
      throw fail('malformed', `the answer to ${what} is not a ${schema.name}: ${messageOf(e)}`)
    }
  }

  /** GetInboxIds for one identifier: the inbox the node names (a claim), or RemoteError not-found. */
  async function resolve(target: Target): Promise<string> {
    const kind = KIND_OF[target.kind as Exclude<TargetKind, 'inbox'>]
    const input = { requests: [{ identifier: target.value, identifierKind: kind }] }
    const method = o.api === 'identity' ? IdentityApi.method.getInboxIds : QueryApi.method.getInboxIds
    const body = await call(method as DescMethodUnary, input, NODE_PATHS.getInboxIds)
    // Both APIs' GetInboxIdsResponse have the same fields and numbers.
    const res = strictAnswer(IdentityGetInboxIdsResponseSchema, body, `${method.parent.typeName}/GetInboxIds`)
    const answer = res.responses.find((r) => r.identifier.toLowerCase() === target.value.toLowerCase())
    if (!answer) {
      throw fail(
        'malformed',
        res.responses.length === 0
          ? `GetInboxIds answered nothing for ${target.kind} ${target.value}`
          : `GetInboxIds answered for ${res.responses.map((r) => JSON.stringify(r.identifier)).join(', ')}, not for ${target.kind} ${target.value}`,
      )
    }
    if (answer.inboxId === undefined || answer.inboxId === '') {
      throw fail('not-found', `the node knows no inbox for ${target.kind} ${target.value}`)
    }
    return answer.inboxId
  }

  async function identityLog(
    inboxId: string,
    after = 0n,
    signal?: AbortSignal,
  ): Promise<{ updates: FetchedUpdate[]; pages: number }> {
    const method = IdentityApi.method.getIdentityUpdates
    const body = await call(
      method,
      { requests: [{ inboxId, sequenceId: after }] },
      NODE_PATHS.getIdentityUpdates,
      signal ?? o.signal,
    )
    const updates = readIdentityUpdates(body, inboxId)
    const early = updates.find((u) => u.sequenceId <= after)
    if (early) {
      throw fail(
        'malformed',
        `asked for the updates after sequence id ${after}, the answer holds sequence id ${early.sequenceId}`,
      )
    }
    return { updates, pages: 1 }
  }

  /** Strict read of a GetIdentityUpdatesResponse for one inbox, keeping each update's bytes. */
  function readIdentityUpdates(body: Uint8Array, inboxId: string): FetchedUpdate[] {
    const what = 'GetIdentityUpdatesResponse'
    const out: FetchedUpdate[] = []
    const seen = new Map<bigint, number>()
    try {
      let responses = 0
      for (const f of readFields(body, what)) {
        if (f.no !== 1) continue
        expectWireType(f, WireType.LengthDelimited, what, 'responses')
        if (f.wt !== WireType.LengthDelimited) continue
        responses++
        const base = f.body.byteOffset - body.byteOffset
        const rWhat = `responses[${responses - 1}]`
        let named = ''
        const logs: FetchedUpdate[] = []
        for (const g of readFields(f.body, rWhat, base)) {
          if (g.no === 1) {
            expectWireType(g, WireType.LengthDelimited, rWhat, 'inbox_id')
            if (g.wt === WireType.LengthDelimited) named = fieldText(g, rWhat, 'inbox_id')
          } else if (g.no === 2) {
            expectWireType(g, WireType.LengthDelimited, rWhat, 'updates')
            if (g.wt !== WireType.LengthDelimited) continue
            const lWhat = `${rWhat}.updates[${logs.length}]`
            let sequenceId = 0n
            let ts = 0n
            const updates: Uint8Array[] = []
            for (const h of readFields(g.body, lWhat, g.body.byteOffset - body.byteOffset)) {
              if (h.no === 1) {
                expectWireType(h, WireType.Varint, lWhat, 'sequence_id')
                if (h.wt === WireType.Varint) sequenceId = h.value
              } else if (h.no === 2) {
                expectWireType(h, WireType.Varint, lWhat, 'server_timestamp_ns')
                if (h.wt === WireType.Varint) ts = h.value
              } else if (h.no === 3) {
                expectWireType(h, WireType.LengthDelimited, lWhat, 'update')
                if (h.wt === WireType.LengthDelimited) updates.push(h.body)
              }
            }
            if (updates.length !== 1) {
              throw fail(
                'malformed',
                `${what} ${lWhat} (sequence id ${sequenceId}) carries ${updates.length === 0 ? 'no update' : `field 3 (update) ${updates.length} times`}; expected one IdentityUpdate`,
              )
            }
            logs.push({ sequenceId, serverTimestampNs: ts, bytes: updates[0]! })
          }
        }
        if (named !== '' && named !== inboxId) {
          throw fail('other-inbox', `the answer names inbox ${named}, not the inbox asked for, ${inboxId}`)
        }
        for (const u of logs) {
          const prev = seen.get(u.sequenceId)
          if (prev !== undefined) {
            throw fail(
              'duplicate',
              `the answer holds sequence id ${u.sequenceId} twice (updates ${prev} and ${out.length}); a log has one update per sequence id`,
            )
          }
          seen.set(u.sequenceId, out.length)
          out.push(u)
        }
      }
    } catch (e) {
      if (e instanceof WireError) throw fail('malformed', `the answer is not a ${what}: ${e.message}`, e)
      throw e
    }
    return out
  }

  async function d14nLog(
    inboxId: string,
    after = 0n,
    signal?: AbortSignal,
  ): Promise<{ updates: FetchedUpdate[]; skipped: SkippedEnvelope[]; pages: number; cursor: bigint }> {
    const topic = identityTopic(inboxId)
    const method = QueryApi.method.queryEnvelopes
    const cursor = new Map<number, bigint>()
    if (after > 0n) cursor.set(IDENTITY_ORIGINATOR_NODE_ID, after)
    const bySeq = new Map<bigint, FetchedUpdate>()
    const seenEnvelopes = new Set<string>()
    const updates: FetchedUpdate[] = []
    const skipped: SkippedEnvelope[] = []
    const maxPages = o.maxPages ?? DEFAULT_MAX_PAGES
    let pages = 0
    for (;;) {
      if (pages >= maxPages) {
        throw fail(
          'too-many-pages',
          `QueryEnvelopes was still returning new envelopes after ${maxPages} pages; stopped (a node that never finishes paging is not an answer)`,
        )
      }
      pages++
      const body = await call(
        method,
        {
          query: { topics: [topic], lastSeen: { nodeIdToSequenceId: Object.fromEntries(cursor) } },
          limit: o.pageSize ?? 0,
        },
        null,
        signal ?? o.signal,
      )
      const envelopes = readEnvelopes(body)
      let added = 0
      const inPage = new Set<bigint>()
      for (const [i, env] of envelopes.entries()) {
        const key = bytesToHex(env)
        const u = unwrapIdentityEnvelope(env, inboxId)
        if (u.ok) {
          if (inPage.has(u.sequenceId)) {
            throw fail('duplicate', `QueryEnvelopes page ${pages} holds sequence id ${u.sequenceId} twice`)
          }
          inPage.add(u.sequenceId)
          const prev = bySeq.get(u.sequenceId)
          if (prev) {
            if (!equalBytes(prev.bytes, u.update)) {
              throw fail(
                'duplicate',
                `QueryEnvelopes page ${pages} serves sequence id ${u.sequenceId} again with different update bytes`,
              )
            }
          } else {
            const fetched: FetchedUpdate = {
              sequenceId: u.sequenceId,
              serverTimestampNs: u.originatorNs,
              bytes: u.update,
              originatorNodeId: u.originatorNodeId,
            }
            bySeq.set(u.sequenceId, fetched)
            updates.push(fetched)
            added++
          }
          const c = cursor.get(u.originatorNodeId)
          if (c === undefined || u.sequenceId > c) cursor.set(u.originatorNodeId, u.sequenceId)
        } else {
          if (!seenEnvelopes.has(key)) {
            skipped.push({ sequenceId: u.sequenceId, reason: `envelope ${i} of page ${pages}: ${u.reason}` })
            added++
          }
          if (u.sequenceId !== null && u.originatorNodeId !== null) {
            const c = cursor.get(u.originatorNodeId)
            if (c === undefined || u.sequenceId > c) cursor.set(u.originatorNodeId, u.sequenceId)
          }
        }
        seenEnvelopes.add(key)
      }
      if (envelopes.length === 0 || added === 0) break
    }
    return { updates, skipped, pages, cursor: cursor.get(IDENTITY_ORIGINATOR_NODE_ID) ?? after }
  }

  /** The envelopes of a QueryEnvelopesResponse, each as its exact bytes. */
  function readEnvelopes(body: Uint8Array, what = 'QueryEnvelopesResponse'): Uint8Array[] {
    try {
      const out: Uint8Array[] = []
      for (const f of readFields(body, what)) {
        if (f.no !== 1) continue
        expectWireType(f, WireType.LengthDelimited, what, 'envelopes')
        if (f.wt === WireType.LengthDelimited) out.push(f.body)
      }
      return out
    } catch (e) {
      if (e instanceof WireError) throw fail('malformed', `the answer is not a ${what}: ${e.message}`, e)
      throw e
    }
  }

  /**
   * The inbox id of a target: as given for `inbox`, else the node's GetInboxIds answer (a
   * claim); for d14n it must be 64 hex digits (lowercased), the identity topic's form.
   */
  async function inboxIdOf(target: Target): Promise<{ inboxId: string; target: Target }> {
    const norm = normalizeTarget(target)
    if ('error' in norm) throw fail('bad-target', norm.error)
    const t: Target = { kind: target.kind, value: norm.value }
    let inboxId = t.kind === 'inbox' ? t.value : await resolve(t)
    if (o.api === 'd14n') {
      if (/^[0-9a-fA-F]{64}$/.test(inboxId)) inboxId = inboxId.toLowerCase()
      if (!isTopicInboxId(inboxId)) {
        throw fail(
          t.kind === 'inbox' ? 'bad-target' : 'malformed',
          `inbox id ${JSON.stringify(inboxId)} is not 64 hex digits, so it has no identity topic`,
        )
      }
    }
    return { inboxId, target: t }
  }

  /**
   * The updates of an inbox after a sequence id, in the node's order, each with its exact
   * bytes (the follower's poll, ./follow.ts). For d14n, `cursor` is the highest originator
   * sequence id read, envelopes left out included, so the next poll starts past them.
   */
  async function updatesAfter(inboxId: string, after: bigint, signal?: AbortSignal): Promise<UpdateBatch> {
    if (o.api === 'identity') {
      const got = await identityLog(inboxId, after, signal)
      let cursor = after
      for (const u of got.updates) if (u.sequenceId > cursor) cursor = u.sequenceId
      return { updates: got.updates, skipped: [], cursor }
    }
    const got = await d14nLog(inboxId, after, signal)
    return { updates: got.updates, skipped: got.skipped, cursor: got.cursor }
  }

  /**
   * d14n only: ReplicationApi.SubscribeEnvelopes on the inbox's identity topic after a
   * sequence id; each message of the stream is one batch. A node without the stream ends
   * the iteration with RemoteError `unimplemented` (gRPC 12, Connect `unimplemented`, or an
   * HTTP 404 for the path); every other failure is a RemoteError too.
   */
  async function* subscribe(inboxId: string, after: bigint, signal?: AbortSignal): AsyncGenerator<UpdateBatch> {
    if (o.api !== 'd14n') throw fail('unimplemented', 'the identity API has no envelope stream')
    const method = ReplicationApi.method.subscribeEnvelopes
    const what = `${method.parent.typeName}/${method.name}`
    transport ??= o.transportFor(o.transport as RpcTransportKind, baseUrl)
    const lastSeen = after > 0n ? { nodeIdToSequenceId: { [IDENTITY_ORIGINATOR_NODE_ID]: after } } : {}
    let cursor = after
    try {
      const res = await transport.stream(
        verbatimMethod(method),
        signal,
        undefined,
        undefined,
        (async function* () {
          yield { query: { topics: [identityTopic(inboxId)], lastSeen } }
        })(),
      )
      for await (const message of res.message) {
        const body = verbatimBytes(message as unknown as Verbatim)
        const updates: FetchedUpdate[] = []
        const skipped: SkippedEnvelope[] = []
        for (const [i, env] of readEnvelopes(body, 'SubscribeEnvelopesResponse').entries()) {
          const u = unwrapIdentityEnvelope(env, inboxId)
          if (u.ok) {
            updates.push({
              sequenceId: u.sequenceId,
              serverTimestampNs: u.originatorNs,
              bytes: u.update,
              originatorNodeId: u.originatorNodeId,
            })
          } else skipped.push({ sequenceId: u.sequenceId, reason: `streamed envelope ${i}: ${u.reason}` })
          if (u.sequenceId !== null && u.sequenceId > cursor) cursor = u.sequenceId
        }
        yield { updates, skipped, cursor }
      }
    } catch (e) {
      if (e instanceof RemoteError) throw e
      throw connectFailure(e, what, 'SubscribeEnvelopesResponse', signal)
    }
  }

  /** Reads the whole log of the target's inbox. */
  async function fetchLog(target: Target): Promise<FetchedLog> {
    const { inboxId, target: t } = await inboxIdOf(target)
    const got = o.api === 'identity' ? { ...(await identityLog(inboxId)), skipped: [] } : await d14nLog(inboxId)
    return {
      inboxId,
      node,
      api: o.api,
      transport: o.transport,
      updates: got.updates,
      skipped: got.skipped,
      resolvedFrom: t.kind === 'inbox' ? null : t,
      pages: got.pages,
    }
  }

  return {
    node,
    api: o.api,
    transport: o.transport,
    fetchLog,
    resolve,
    inboxIdOf,
    updatesAfter,
    ...(o.api === 'd14n' ? { subscribe } : {}),
  }
}

/** Updates read in one call (a poll, or one message of a stream). */
export interface UpdateBatch {
  readonly updates: readonly FetchedUpdate[]
  /** d14n envelopes left out, each with why. */
  readonly skipped: readonly SkippedEnvelope[]
  /** The highest sequence id read, envelopes left out included (at least the one asked after). */
  readonly cursor: bigint
}

/** The contract's bundle (input format 1) of a fetched log. */
export function bundleOf(log: FetchedLog): {
  inbox_id: string
  node: string
  api: Api
  transport: TransportKind
  updates: { sequence_id: string; server_timestamp_ns: string; update_hex: string }[]
} {
  return {
    inbox_id: log.inboxId,
    node: log.node,
    api: log.api,
    transport: log.transport,
    updates: log.updates.map((u) => ({
      sequence_id: u.sequenceId.toString(),
      server_timestamp_ns: u.serverTimestampNs.toString(),
      update_hex: bytesToHex(u.bytes),
    })),
  }
}

/** The fetched log as the core's InboxLog, for replay: each update decoded from its exact bytes. */
export function inboxLogOf(log: FetchedLog): InboxLog {
  return {
    inboxId: log.inboxId,
    // The core knows file formats only; a fetched log is the binary answer's reading.
    format: 'get-identity-updates-binary',
    entries: log.updates.map((u) => entry(u.sequenceId, decodeOrError(u.bytes), u.serverTimestampNs)),
  }
}
