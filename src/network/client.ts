/**
 * The node API client (../shared/contracts/cli.md, "The local node"), for the app, the
 * tests and any tool: the four POST paths of the XMTP identity API over an injected
 * `fetch`, binary protobuf by default (proto3 JSON on request). Pure TS: no node:*, no
 * DOM beyond fetch, so the browser app uses it as is.
 *
 *   const node = createNodeClient({ baseUrl: 'http://127.0.0.1:5555', fetch })
 *   const { sequenceId } = await node.publishIdentityUpdate(signed.bytes)
 *   const log = await node.getInboxLog(inboxId)          // an InboxLog for replay()
 *
 * The node's answers are hints until validated (IDENT-071): logs come back as the
 * core's InboxLog, each update's exact bytes decoded by the core (readGetIdentityUpdates-
 * Response), for replay; a handle answer is checked with checkHandleAnswer (IDENT-085).
 *
 * Errors: a refusal is a NodeError { status, code, message, rule } (the contract's JSON
 * body); a transport failure is a NodeUnreachableError naming the URL; an answer that
 * cannot be read is a NodeResponseError.
 */
import {
  create,
  fromBinary,
  fromJson,
  toBinary,
  toJson,
  type DescMessage,
  type JsonValue,
  type MessageShape,
} from '@bufbuild/protobuf'
import {
  GetIdentityUpdatesRequestSchema,
  GetInboxIdsRequestSchema,
  GetInboxIdsResponseSchema,
  PublishIdentityUpdateRequestSchema,
  PublishIdentityUpdateResponseSchema,
  QueryNewestRequestSchema,
  QueryNewestResponseSchema,
} from '../gen/identity/api/v1/identity_pb'
import { IdentityUpdateSchema } from '../gen/identity/associations/association_pb'
import { parseJson } from '../core/decode/json'
import { readGatewayJson, readGetIdentityUpdatesResponse } from '../core/decode/logs'
import { LogInputError } from '../core/errors'
import type { RuleId } from '../core/rules'
import { IdentifierKindValue, type InboxLog } from '../core/types'

export const NODE_PATHS = {
  publish: '/identity/v1/publish-identity-update',
  getIdentityUpdates: '/identity/v1/get-identity-updates',
  getInboxIds: '/identity/v1/get-inbox-ids',
  queryNewest: '/identity/v1/query-newest',
} as const

export type NodeEncoding = 'binary' | 'json'

/** A message as a body in `encoding`: its protobuf bytes, or its canonical JSON text (the client's requests, the local node's answers). */
export function encodeMessage<D extends DescMessage>(
  schema: D,
  encoding: NodeEncoding,
  msg: MessageShape<D>,
): Uint8Array | string {
  return encoding === 'binary' ? toBinary(schema, msg) : JSON.stringify(toJson(schema, msg))
}

/** The node refused the request: the contract's error body and the HTTP status. */
export class NodeError extends Error {
  override readonly name = 'NodeError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly rule: RuleId | null,
    readonly url: string,
  ) {
    super(message)
  }
  /** 503 (IDENT-061: a chain cannot judge now), 409 head_moved: worth trying again. */
  get retryable(): boolean {
    return this.status === 503 || (this.status === 409 && this.code === 'head_moved')
  }
}

/** The node could not be reached: refused, DNS, CORS, aborted before an answer. */
export class NodeUnreachableError extends Error {
  override readonly name = 'NodeUnreachableError'
  constructor(
    readonly url: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`the node at ${url} could not be reached: ${reason}`, options)
  }
}

/** The node answered 2xx with a body that is not the expected message. */
export class NodeResponseError extends Error {
  override readonly name = 'NodeResponseError'
  constructor(
    readonly url: string,
    readonly detail: string,
  ) {
    super(`the answer of ${url} cannot be read: ${detail}`)
  }
}

export type LookupKind = 'ethereum' | 'passkey' | 'handle'

export interface InboxIdRequest {
  readonly identifier: string
  /** A name, or the IdentifierKind number as sent (0 reads as Ethereum). */
  readonly kind: LookupKind | number
}

export interface InboxIdAnswer {
  /** The identifier as the node echoed it. */
  readonly identifier: string
  readonly identifierKind: number
  /** The inbox the node names; null when none. A hint: check it (IDENT-071, IDENT-085). */
  readonly inboxId: string | null
}

export interface NewestSequenceId {
  readonly inboxId: string
  readonly sequenceId: bigint
}

export interface IdentityUpdatesRequest {
  readonly inboxId: string
  /** Updates after this sequence id; default 0n (all). */
  readonly sequenceId?: bigint
}

export interface CallOptions {
  readonly signal?: AbortSignal
}

export interface NodeClientOptions {
  /** e.g. `http://127.0.0.1:5555`; a trailing slash is ignored. */
  readonly baseUrl: string
  readonly fetch: typeof fetch
  /** Default 'binary'. */
  readonly encoding?: NodeEncoding
}

export interface NodeClient {
  readonly baseUrl: string
  readonly encoding: NodeEncoding
  /** Publishes exact IdentityUpdate bytes (never re-encoded); the receipt is the stored sequence id. */
  publishIdentityUpdate(bytes: Uint8Array, options?: CallOptions): Promise<{ sequenceId: bigint }>
  /** One InboxLog per request, in request order, each with the node's exact update bytes. */
  getIdentityUpdates(requests: readonly IdentityUpdatesRequest[], options?: CallOptions): Promise<InboxLog[]>
  /** The whole log of one inbox (empty entries for an inbox the node does not know). */
  getInboxLog(inboxId: string, options?: CallOptions): Promise<InboxLog>
  getInboxIds(requests: readonly InboxIdRequest[], options?: CallOptions): Promise<InboxIdAnswer[]>
  /** Each inbox's newest sequence id; an inbox with no log is absent (IDENT-072 visibility). */
  queryNewest(inboxIds: readonly string[], options?: CallOptions): Promise<NewestSequenceId[]>
}

const KIND_NUMBER: Record<LookupKind, number> = {
  ethereum: IdentifierKindValue.ETHEREUM,
  passkey: IdentifierKindValue.PASSKEY,
  handle: IdentifierKindValue.HANDLE,
}

const MEDIA: Record<NodeEncoding, string> = { binary: 'application/x-protobuf', json: 'application/json' }

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true })
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export function createNodeClient(options: NodeClientOptions): NodeClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const encoding = options.encoding ?? 'binary'
  const doFetch = options.fetch

  /** POSTs a body; returns the 2xx body bytes or throws NodeError / NodeUnreachableError. */
  async function post(
    path: string,
    body: Uint8Array | string,
    call: CallOptions = {},
  ): Promise<{ url: string; bytes: Uint8Array }> {
    const url = baseUrl + path
    let res: Response
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: { 'Content-Type': MEDIA[encoding] },
        body: typeof body === 'string' ? body : new Uint8Array(body),
        ...(call.signal ? { signal: call.signal } : {}),
      })
    } catch (e) {
      if (call.signal?.aborted) throw e
      throw new NodeUnreachableError(url, messageOf(e), { cause: e })
    }
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(await res.arrayBuffer())
    } catch (e) {
      if (call.signal?.aborted) throw e
      throw new NodeUnreachableError(url, `the answer was cut off: ${messageOf(e)}`, { cause: e })
    }
    if (!res.ok) throw errorOf(url, res.status, bytes)
    return { url, bytes }
  }

  function errorOf(url: string, status: number, bytes: Uint8Array): NodeError {
    let text = ''
    try {
      text = fatalUtf8.decode(bytes)
    } catch {
      /* not text */
    }
    try {
      const j: unknown = JSON.parse(text)
      if (isObject(j) && typeof j.code === 'string' && typeof j.message === 'string') {
        return new NodeError(status, j.code, j.message, typeof j.rule === 'string' ? (j.rule as RuleId) : null, url)
      }
    } catch {
      /* not the contract's body */
    }
    const excerpt = text.trim().slice(0, 200)
    return new NodeError(
      status,
      `http_${status}`,
      `HTTP ${status} from ${url}${excerpt ? `: ${excerpt}` : ''}`,
      null,
      url,
    )
  }

  const request = <D extends DescMessage>(schema: D, msg: MessageShape<D>) => encodeMessage(schema, encoding, msg)

  function answer<D extends DescMessage>(schema: D, url: string, bytes: Uint8Array): MessageShape<D> {
    try {
      if (encoding === 'binary') return fromBinary(schema, bytes)
      return fromJson(schema, JSON.parse(fatalUtf8.decode(bytes)) as JsonValue, { ignoreUnknownFields: true })
    } catch (e) {
      throw new NodeResponseError(url, `not a ${schema.name}: ${messageOf(e)}`)
    }
  }

  async function publishIdentityUpdate(bytes: Uint8Array, call?: CallOptions): Promise<{ sequenceId: bigint }> {
    let body: Uint8Array | string
    if (encoding === 'binary') {
      // PublishIdentityUpdateRequest { identity_update = 1 } written by hand around the
      // exact bytes: tag 0x0a, varint length, the update as given.
      body = frameField1(bytes)
    } else {
      let update
      try {
        update = fromBinary(IdentityUpdateSchema, bytes)
      } catch (e) {
        throw new NodeResponseError(
          baseUrl + NODE_PATHS.publish,
          `the update to publish is not an IdentityUpdate: ${messageOf(e)}`,
        )
      }
      body = request(
        PublishIdentityUpdateRequestSchema,
        create(PublishIdentityUpdateRequestSchema, { identityUpdate: update }),
      )
    }
    const { url, bytes: out } = await post(NODE_PATHS.publish, body, call)
    return { sequenceId: answer(PublishIdentityUpdateResponseSchema, url, out).sequenceId }
  }

  async function getIdentityUpdates(
    requests: readonly IdentityUpdatesRequest[],
    call?: CallOptions,
  ): Promise<InboxLog[]> {
    const msg = create(GetIdentityUpdatesRequestSchema, {
      requests: requests.map((r) => ({ inboxId: r.inboxId, sequenceId: r.sequenceId ?? 0n })),
    })
    const { url, bytes } = await post(
      NODE_PATHS.getIdentityUpdates,
      request(GetIdentityUpdatesRequestSchema, msg),
      call,
    )
    let logs: InboxLog[]
    try {
      logs =
        encoding === 'binary'
          ? readGetIdentityUpdatesResponse(bytes)
          : readGatewayJson(parseJson(fatalUtf8.decode(bytes)))
    } catch (e) {
      // LogInputError (not a response), JsonSyntaxError, invalid UTF-8.
      throw new NodeResponseError(url, e instanceof LogInputError ? e.message : messageOf(e))
    }
    // Proto3 omits an empty inbox id and an inbox with no updates still has a Response;
    // name each log by the inbox it was asked for, in order.
    return requests.map((r, i) => {
      const log = logs[i]
      if (!log) throw new NodeResponseError(url, `${logs.length} response(s) for ${requests.length} request(s)`)
      if (log.inboxId !== undefined && log.inboxId !== r.inboxId) {
        throw new NodeResponseError(url, `response ${i} names inbox ${log.inboxId}, asked for ${r.inboxId}`)
      }
      return log.inboxId === undefined ? { ...log, inboxId: r.inboxId } : log
    })
  }

  async function getInboxLog(inboxId: string, call?: CallOptions): Promise<InboxLog> {
    const [log] = await getIdentityUpdates([{ inboxId }], call)
    return log!
  }

  async function getInboxIds(requests: readonly InboxIdRequest[], call?: CallOptions): Promise<InboxIdAnswer[]> {
    const msg = create(GetInboxIdsRequestSchema, {
      requests: requests.map((r) => ({
        identifier: r.identifier,
        identifierKind: typeof r.kind === 'number' ? r.kind : KIND_NUMBER[r.kind],
      })),
    })
    const { url, bytes } = await post(NODE_PATHS.getInboxIds, request(GetInboxIdsRequestSchema, msg), call)
    const res = answer(GetInboxIdsResponseSchema, url, bytes)
    return res.responses.map((r) => ({
      identifier: r.identifier,
      identifierKind: r.identifierKind as number,
      inboxId: r.inboxId ?? null,
    }))
  }

  async function queryNewest(inboxIds: readonly string[], call?: CallOptions): Promise<NewestSequenceId[]> {
    const msg = create(QueryNewestRequestSchema, { inboxIds: [...inboxIds] })
    const { url, bytes } = await post(NODE_PATHS.queryNewest, request(QueryNewestRequestSchema, msg), call)
    return answer(QueryNewestResponseSchema, url, bytes).results.map((r) => ({
      inboxId: r.inboxId,
      sequenceId: r.sequenceId,
    }))
  }

  return { baseUrl, encoding, publishIdentityUpdate, getIdentityUpdates, getInboxLog, getInboxIds, queryNewest }
}

/** Field 1, length-delimited, around `bytes` exactly: a PublishIdentityUpdateRequest. */
export function frameField1(bytes: Uint8Array): Uint8Array {
  const len: number[] = []
  let n = bytes.length
  while (n > 0x7f) {
    len.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  len.push(n)
  const out = new Uint8Array(1 + len.length + bytes.length)
  out[0] = 0x0a
  out.set(len, 1)
  out.set(bytes, 1 + len.length)
  return out
}
