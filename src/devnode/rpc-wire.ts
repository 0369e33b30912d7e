/**
 * The three RPC protocols at the byte level, for what the node answers before (or
 * instead of) connect-node's handlers: which protocol a request speaks (from its
 * Content-Type), an error answer in that protocol, and a check that a request body's
 * frames hold well-framed protobuf.
 *
 *   gRPC       HTTP 200, the status in the trailers (grpc-status, grpc-message)
 *   gRPC-web   HTTP 200, the status in a trailer frame (flag 0x80) of the body
 *   Connect    unary: the code's HTTP status and a JSON error body {"code","message"};
 *              streaming: HTTP 200 and an end-stream frame (flag 0x02) holding the error
 *
 * Written with Connect-ES's own protocol helpers, so the answers are exactly what its
 * handlers send for the same error.
 */
import type { IncomingMessage } from 'node:http'
import type { Http2ServerRequest } from 'node:http2'
import { Code, type ConnectError } from '@connectrpc/connect'
import { createAsyncIterable, encodeEnvelope, type UniversalServerResponse } from '@connectrpc/connect/protocol'
import {
  codeToHttpStatus,
  contentTypeRegExp as connectContentType,
  createEndStreamSerialization,
  endStreamFlag,
  errorToJsonBytes,
} from '@connectrpc/connect/protocol-connect'
import { contentTypeRegExp as grpcContentType, setTrailerStatus } from '@connectrpc/connect/protocol-grpc'
import {
  contentTypeRegExp as grpcWebContentType,
  trailerFlag,
  trailerSerialize,
} from '@connectrpc/connect/protocol-grpc-web'
import { fromBinary } from '@bufbuild/protobuf'
import { VerbatimSchema } from '../gen/inspector/wire/v1/verbatim_pb'
import type { Transport } from './traffic'

type RpcProtocol = Exclude<Transport, 'gateway'>

export interface RpcContentType {
  readonly protocol: RpcProtocol
  /** Connect's streaming form (application/connect+…). */
  readonly stream: boolean
  readonly json: boolean
  /** gRPC-web's base64 text form. */
  readonly text: boolean
}

/** The protocol of a request, or null when its Content-Type is none of the three. */
export function rpcContentType(header: string | undefined): RpcContentType | null {
  const type = (header ?? '').trim()
  let m = grpcContentType.exec(type)
  if (m) return { protocol: 'grpc', stream: true, json: m[1] !== undefined, text: false }
  m = grpcWebContentType.exec(type)
  if (m) return { protocol: 'grpc-web', stream: true, json: m[2] !== undefined, text: m[1] !== undefined }
  m = connectContentType.exec(type)
  if (m) return { protocol: 'connect', stream: m[1] !== undefined, json: m[2] !== undefined, text: false }
  return null
}

/** The Connect code's name as the Connect protocol writes it: `invalid_argument`. */
export function codeName(code: Code): string {
  return Code[code]!.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c.toLowerCase() : `_${c.toLowerCase()}`))
}

/** An error answer in the request's protocol (Connect unary when the Content-Type names none). */
export function rpcErrorResponse(type: RpcContentType | null, error: ConnectError): UniversalServerResponse {
  const protocol = type?.protocol ?? 'connect'
  if (protocol === 'grpc' || protocol === 'grpc-web') {
    // The status travels in trailers: HTTP trailers for gRPC, a trailer frame in the body for gRPC-web.
    const trailer = new Headers()
    setTrailerStatus(trailer, error)
    const header = new Headers({ 'content-type': `application/${protocol}+proto` })
    return protocol === 'grpc'
      ? { status: 200, header, body: createAsyncIterable([]), trailer }
      : { status: 200, header, body: createAsyncIterable([encodeEnvelope(trailerFlag, trailerSerialize(trailer))]) }
  }
  if (type?.stream) {
    const end = createEndStreamSerialization({}).serialize({ metadata: new Headers(), error })
    return {
      status: 200,
      header: new Headers({ 'content-type': type.json ? 'application/connect+json' : 'application/connect+proto' }),
      body: createAsyncIterable([encodeEnvelope(endStreamFlag, end)]),
    }
  }
  return {
    status: codeToHttpStatus(error.code),
    header: new Headers({ 'content-type': 'application/json' }),
    body: createAsyncIterable([errorToJsonBytes(error, {})]),
  }
}

/**
 * Why a binary request body is not well-framed protobuf in its protocol's frames, or null.
 * Compressed frames are left to Connect-ES (it decompresses and reads them).
 */
export function framingProblem(type: RpcContentType, body: Uint8Array): string | null {
  const payloads: Uint8Array[] = []
  if (type.protocol === 'connect' && !type.stream) payloads.push(body)
  else {
    let at = 0
    while (at < body.length) {
      if (body.length - at < 5)
        return `a truncated frame header at byte ${at} (5 bytes needed, ${body.length - at} left)`
      const flags = body[at]!
      const len = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0)
      if (body.length - at - 5 < len)
        return `the frame at byte ${at} declares ${len} bytes but ${body.length - at - 5} follow`
      if ((flags & 0x01) === 0) payloads.push(body.subarray(at + 5, at + 5 + len))
      at += 5 + len
    }
  }
  for (const p of payloads) {
    try {
      fromBinary(VerbatimSchema, p)
    } catch (e) {
      return `the message is not well-framed protobuf: ${e instanceof Error ? e.message : String(e)}`
    }
  }
  return null
}

export type NodeRequest = IncomingMessage | Http2ServerRequest
