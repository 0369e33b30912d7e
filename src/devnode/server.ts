/**
 * The local node over node:http: the contract's four POST paths in binary protobuf
 * (`application/x-protobuf`) or proto3 JSON (`application/json`), answered in the same;
 * CORS for the app (any origin; OPTIONS preflight). Every refusal is the contract's
 * JSON body `{"code","message","rule"}`:
 *
 *   400 malformed_request / malformed_update (IDENT-001)   404 not_found
 *   405 method_not_allowed                                   409 a rule, head_moved, stale_block (IDENT-062)
 *   413 body_too_large                                       415 unsupported_media_type
 *   422 handle_taken / handle_reserved / handle_too_short / claim_too_soon
 *   503 chain_unreachable (IDENT-061; with Retry-After)      500 internal
 *
 * A bad request never stops the node: every handler's failure is answered and logged.
 * The RPC services (gRPC, gRPC-web, Connect) share the port: see ./rpc.ts. Every call on
 * these paths is recorded in the traffic log (./traffic.ts) as transport `gateway` with
 * its HTTP status as the code; the traffic endpoints themselves are served here and not
 * recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { CLAIM_POLICY_PATH, claimPolicyJson } from '../network/claim-policy'
import { ENDPOINT_OF_PATH, NodeApi, type ApiDeps, type Endpoint } from './api'
import type { Encoding } from './codec'
import { ApiError } from './errors'
import type { KeyPackages } from './mls'
import { type NodeHandler, withRpc } from './rpc'
import type { ScwDeps } from './scw'
import type { SubscriptionHub } from './subscribe'
import type { CallNote, TrafficLog } from './traffic'

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

export interface NodeServerOptions extends ApiDeps {
  readonly maxBodyBytes?: number
  readonly hub: SubscriptionHub
  readonly keyPackages: KeyPackages
  readonly scw: ScwDeps
  readonly traffic: TrafficLog
  /** Operator log lines (stderr in main.ts). */
  readonly log?: (line: string) => void
}

const CONTENT_TYPES: Record<string, Encoding> = {
  'application/x-protobuf': 'binary',
  'application/json': 'json',
}

const MEDIA_TYPE: Record<Encoding, string> = {
  binary: 'application/x-protobuf',
  json: 'application/json',
}

function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*' }
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string | null,
  body: Uint8Array | string,
  extra: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const buf =
    typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const headers: Record<string, string | number> = {
    ...corsHeaders(),
    ...extra,
    'Content-Length': buf.length,
    'Cache-Control': 'no-store',
  }
  if (contentType) headers['Content-Type'] = contentType
  res.writeHead(status, headers)
  res.end(buf)
}

function sendError(res: ServerResponse, e: ApiError, extra: Record<string, string> = {}): void {
  const headers = e.status === 503 ? { 'Retry-After': '5', ...extra } : extra
  send(res, e.status, 'application/json', JSON.stringify(e.body()), headers)
}

/** The media type without parameters, lowercased: `application/json; charset=utf-8` → `application/json`. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase()
}

/** Reads the body up to `max` bytes. @throws ApiError 413 past the limit (the rest is drained by the caller) */
function readBody(req: IncomingMessage, max: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN)
    const tooLarge = (): ApiError =>
      new ApiError(413, 'body_too_large', `the request body is over this node's limit of ${max} bytes`)
    if (Number.isFinite(declared) && declared > max) {
      reject(tooLarge())
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    const onData = (c: Buffer) => {
      size += c.length
      if (size > max) {
        cleanup()
        chunks.length = 0
        reject(tooLarge())
        return
      }
      chunks.push(c)
    }
    const onEnd = () => {
      cleanup()
      resolve(new Uint8Array(Buffer.concat(chunks)))
    }
    const onError = (e: Error) => {
      cleanup()
      reject(e)
    }
    const cleanup = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  })
}

/**
 * Reads and discards what is left of a refused request's body, so the client, which may
 * still be sending, reads the answer instead of a reset connection. Resolves false when
 * more than `cap` bytes remain: the caller then answers and closes the connection.
 */
function drain(req: IncomingMessage, cap: number): Promise<boolean> {
  if (req.complete || req.readableEnded) return Promise.resolve(true)
  return new Promise((resolve) => {
    let size = 0
    const done = (ok: boolean) => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onEnd)
      if (!ok) req.pause()
      resolve(ok)
    }
    const onData = (c: Buffer) => {
      size += c.length
      if (size > cap) done(false)
    }
    const onEnd = () => done(true)
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onEnd)
    req.resume()
  })
}

/** True when the request failed because its client aborted or reset the connection. */
function clientAborted(req: IncomingMessage, res: ServerResponse, e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code
  if (code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'EPIPE') return true
  if (e instanceof Error && e.message === 'aborted') return true
  return (req.destroyed && !req.complete) || (res.destroyed && !res.writableFinished)
}

/** The node's one request handler: the RPC services (./rpc.ts) and the HTTP paths. */
export function createNodeHandler(options: NodeServerOptions): NodeHandler {
  const api = new NodeApi(options)
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const log = options.log ?? (() => {})

  /** The RPC name of a gateway path, for the traffic log. */
  const methodOf = (path: string, method: string | undefined): string => {
    const endpoint = ENDPOINT_OF_PATH.get(path)
    return endpoint ? GATEWAY_METHODS[endpoint] : `${method ?? 'GET'} ${path}`
  }

  async function handle(req: IncomingMessage, res: ServerResponse, note: CallNote): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!
    // The claim policy this node applies when it admits a claim (section 10), for an app
    // to warn before any signer is asked; a simple GET, so no CORS preflight.
    if (path === CLAIM_POLICY_PATH) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new ApiError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}; use GET`)
      send(res, 200, 'application/json', claimPolicyJson(options.admission.policy))
      return
    }
    const endpoint = ENDPOINT_OF_PATH.get(path)
    if (endpoint === undefined) {
      throw new ApiError(
        404,
        'not_found',
        `no endpoint at ${path}; this node serves POST ${[...ENDPOINT_OF_PATH.keys()].join(', ')}`,
      )
    }
    if (req.method === 'OPTIONS') {
      // CORS preflight: the app's POST with a non-simple Content-Type.
      const requested = req.headers['access-control-request-headers']
      const extra: Record<string, string> = {
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers': typeof requested === 'string' && requested ? requested : 'Content-Type',
        'Access-Control-Max-Age': '600',
      }
      if (req.headers['access-control-request-private-network'] === 'true')
        extra['Access-Control-Allow-Private-Network'] = 'true'
      send(res, 204, null, '', extra)
      return
    }
    if (req.method !== 'POST') {
      throw new ApiError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}; use POST`)
    }
    const type = mediaType(req.headers['content-type'])
    const enc = CONTENT_TYPES[type]
    if (!enc) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Content-Type ${JSON.stringify(type || '(none)')} is not served; use application/x-protobuf or application/json`,
      )
    }
    const body = await readBody(req, max)
    const out = await api.handle(endpoint, enc, body, note)
    send(res, 200, MEDIA_TYPE[enc], out)
  }

  // A refused body is drained up to this many bytes before the answer.
  const drainCap = Math.max(16 * 1024 * 1024, 4 * max)

  const http = (req: IncomingMessage, res: ServerResponse): void => {
    if (options.traffic.serve(req, res)) return
    const startedAt = Date.now()
    const startedPerf = performance.now()
    const note: CallNote = {}
    let refusal: ApiError | null = null
    res.on('close', () => {
      const status = res.statusCode
      const failed = refusal ?? (status >= 400 ? new ApiError(500, 'internal', `HTTP ${status}`) : null)
      options.traffic.record({
        startedAt,
        startedPerf,
        transport: 'gateway',
        method: methodOf((req.url ?? '/').split('?')[0]!, req.method),
        note: refusal?.rule ? { ...note, rule: refusal.rule } : note,
        outcome: !res.writableFinished
          ? 'error'
          : failed === null
            ? 'ok'
            : status >= 500 && status !== 503
              ? 'error'
              : 'refused',
        code: res.writableFinished ? String(status) : 'aborted',
        message: failed ? `${failed.code}: ${failed.message}` : '',
      })
    })
    handle(req, res, note).catch(async (e: unknown) => {
      // A client that went away mid-request (issue #14): nobody to answer, nothing failed here.
      if (clientAborted(req, res, e)) return
      const error =
        e instanceof ApiError
          ? e
          : (log(
              `internal error on ${req.method} ${req.url}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
            ),
            new ApiError(500, 'internal', `the node failed to answer: ${e instanceof Error ? e.message : String(e)}`))
      refusal = error
      const extra: Record<string, string> =
        error.status === 405
          ? { Allow: req.url?.split('?')[0] === CLAIM_POLICY_PATH ? 'GET, HEAD' : 'POST, OPTIONS' }
          : {}
      const drained = await drain(req, drainCap)
      if (!drained) {
        extra.Connection = 'close'
        res.on('finish', () => req.socket.destroy())
      }
      sendError(res, error, extra)
    })
  }
  return withRpc(
    {
      api,
      store: options.store,
      hub: options.hub,
      keyPackages: options.keyPackages,
      scw: options.scw,
      traffic: options.traffic,
      maxBodyBytes: max,
    },
    http as NodeHandler,
  )
}

/** The RPC each gateway path stands for (the traffic log names calls by method). */
const GATEWAY_METHODS: Record<Endpoint, string> = {
  publish: 'xmtp.identity.api.v1.IdentityApi/PublishIdentityUpdate',
  getIdentityUpdates: 'xmtp.identity.api.v1.IdentityApi/GetIdentityUpdates',
  getInboxIds: 'xmtp.identity.api.v1.IdentityApi/GetInboxIds',
  queryNewest: 'xmtp.identity.api.v1.IdentityApi/QueryNewest',
}
