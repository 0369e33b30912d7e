/**
 * Independent fake nodes for the `fetch` tests: each speaks one transport by hand (no
 * Connect-ES on this side), answers every call from a script, and can lie in any way a
 * test needs: wrong inbox, repeated sequence ids, envelopes that do not unwrap, a
 * truncated frame, a non-protobuf body, an error status, a 404.
 *
 *   grpc       HTTP/2 cleartext (prior knowledge); length-prefixed frames; grpc-status trailer
 *   grpc-web   HTTP/1.1; a data frame then a trailer frame (flag 0x80) in the body
 *   connect    HTTP/1.1; unary: the message is the body, errors are JSON with an HTTP status
 *   gateway    HTTP/1.1 POST /identity/v1/…: the message is the body
 *
 * Listens on 127.0.0.1 on a free port; `close()` ends every connection.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttp2Server, type ServerHttp2Stream } from 'node:http2'
import type { AddressInfo, Socket } from 'node:net'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'

export type FakeTransport = 'grpc' | 'grpc-web' | 'connect' | 'gateway'

export type Answer =
  /** A message body, framed as the transport frames it. */
  | { readonly message: Uint8Array }
  /** An RPC error (gRPC status number, Connect code name). */
  | { readonly error: { readonly grpc: number; readonly connect: string; readonly message: string } }
  /** The message framed, then cut `cut` bytes short (the frame header still claims the whole). */
  | { readonly truncated: Uint8Array; readonly cut: number }
  /** Raw HTTP: status, content type and body, no framing at all. */
  | { readonly http: { readonly status: number; readonly contentType: string; readonly body: Uint8Array | string } }

export interface Call {
  /** `/package.Service/Method` or the gateway path. */
  readonly path: string
  /** The request message (unframed). */
  readonly body: Uint8Array
}

export interface FakeNode {
  readonly url: string
  readonly calls: Call[]
  close(): Promise<void>
}

function frame(flag: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length)
  out[0] = flag
  new DataView(out.buffer).setUint32(1, payload.length)
  out.set(payload, 5)
  return out
}

function unframe(body: Uint8Array): Uint8Array {
  return body.length >= 5 ? body.subarray(5) : body
}

const text = (s: string) => new TextEncoder().encode(s)

function readAll(req: IncomingMessage | import('node:http2').Http2ServerRequest): Promise<Uint8Array> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
  })
}

export async function startFakeNode(
  transport: FakeTransport,
  answer: (call: Call, index: number) => Answer,
): Promise<FakeNode> {
  const calls: Call[] = []
  const sockets = new Set<Socket>()
  const sessions = new Set<import('node:http2').ServerHttp2Session>()
  const record = (path: string, body: Uint8Array): { call: Call; index: number } => {
    const call = { path, body }
    calls.push(call)
    return { call, index: calls.length - 1 }
  }

  let server: import('node:http2').Http2Server | import('node:http').Server
  if (transport === 'grpc') {
    const h2 = createHttp2Server()
    h2.on('stream', (stream: ServerHttp2Stream, headers) => {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const { call, index } = record(String(headers[':path']), unframe(new Uint8Array(Buffer.concat(chunks))))
        const a = answer(call, index)
        if ('http' in a) {
          stream.respond({ ':status': a.http.status, 'content-type': a.http.contentType })
          stream.end(Buffer.from(a.http.body))
          return
        }
        if ('error' in a) {
          // Trailers-only.
          stream.respond(
            {
              ':status': 200,
              'content-type': 'application/grpc',
              'grpc-status': String(a.error.grpc),
              'grpc-message': encodeURIComponent(a.error.message),
            },
            { endStream: true },
          )
          return
        }
        stream.respond({ ':status': 200, 'content-type': 'application/grpc+proto' }, { waitForTrailers: true })
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }))
        if ('message' in a) stream.end(Buffer.from(frame(0, a.message)))
        else {
          const f = frame(0, a.truncated)
          stream.end(Buffer.from(f.subarray(0, f.length - a.cut)))
        }
      })
    })
    h2.on('session', (s) => {
      sessions.add(s)
      s.on('close', () => sessions.delete(s))
    })
    server = h2
  } else {
    server = createHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
      const raw = await readAll(req)
      const path = (req.url ?? '/').split('?')[0]!
      const { call, index } = record(path, transport === 'grpc-web' ? unframe(raw) : raw)
      const a = answer(call, index)
      if ('http' in a) {
        res.writeHead(a.http.status, { 'content-type': a.http.contentType })
        res.end(Buffer.from(a.http.body))
        return
      }
      if (transport === 'grpc-web') {
        if ('error' in a) {
          res.writeHead(200, {
            'content-type': 'application/grpc-web+proto',
            'grpc-status': String(a.error.grpc),
            'grpc-message': encodeURIComponent(a.error.message),
          })
          res.end()
          return
        }
        res.writeHead(200, { 'content-type': 'application/grpc-web+proto' })
        const trailer = frame(0x80, text('grpc-status: 0\r\n'))
        if ('message' in a) res.end(Buffer.concat([frame(0, a.message), trailer]))
        else {
          const f = frame(0, a.truncated)
          res.end(Buffer.from(f.subarray(0, f.length - a.cut)))
        }
        return
      }
      const type = transport === 'connect' ? 'application/proto' : 'application/x-protobuf'
      if ('error' in a) {
        const status = a.error.connect === 'unavailable' ? 503 : a.error.connect === 'unimplemented' ? 404 : 500
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ code: a.error.connect, message: a.error.message }))
        return
      }
      if ('message' in a) {
        res.writeHead(200, { 'content-type': type })
        res.end(Buffer.from(a.message))
      } else {
        // A body shorter than its declared length: the connection ends early.
        res.writeHead(200, { 'content-type': type, 'content-length': String(a.truncated.length) })
        res.end(Buffer.from(a.truncated.subarray(0, a.truncated.length - a.cut)))
        res.socket?.destroy()
      }
    })
  }
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy()
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

// ---------------------------------------------------------------------------------------
// Hand-written encoders for the answers (independent of src/gen and src/network).

function ld(w: BinaryWriter, no: number, bytes: Uint8Array): void {
  w.tag(no, WireType.LengthDelimited).bytes(bytes)
}

export interface LogRow {
  readonly sequenceId: bigint
  readonly serverTimestampNs?: bigint
  readonly update: Uint8Array
}

/** GetIdentityUpdatesResponse { responses: [{ inbox_id, updates }] }. */
export function identityUpdatesAnswer(inboxId: string, rows: readonly LogRow[]): Uint8Array {
  const r = new BinaryWriter()
  r.tag(1, WireType.LengthDelimited).string(inboxId)
  for (const row of rows) {
    const l = new BinaryWriter()
    l.tag(1, WireType.Varint).uint64(row.sequenceId)
    if (row.serverTimestampNs) l.tag(2, WireType.Varint).uint64(row.serverTimestampNs)
    ld(l, 3, row.update)
    ld(r, 2, l.finish())
  }
  const w = new BinaryWriter()
  ld(w, 1, r.finish())
  return w.finish()
}

/** GetInboxIdsResponse { responses: [{ identifier, inbox_id?, identifier_kind }] }. */
export function inboxIdsAnswer(identifier: string, inboxId: string | null, kind: number): Uint8Array {
  const r = new BinaryWriter()
  r.tag(1, WireType.LengthDelimited).string(identifier)
  if (inboxId !== null) r.tag(2, WireType.LengthDelimited).string(inboxId)
  if (kind) r.tag(3, WireType.Varint).int32(kind)
  const w = new BinaryWriter()
  ld(w, 1, r.finish())
  return w.finish()
}

export interface EnvelopeParts {
  readonly sequenceId: bigint
  readonly originatorNodeId?: number
  readonly originatorNs?: bigint
  /** The ClientEnvelope bytes; by default aad { target_topic } + identity_update. */
  readonly clientEnvelope?: Uint8Array
  readonly update?: Uint8Array
  readonly topic?: Uint8Array
}

export function identityTopicOf(inboxId: string): Uint8Array {
  return new Uint8Array([2, ...Buffer.from(inboxId, 'hex')])
}

/** OriginatorEnvelope bytes wrapping an identity update as xmtpd does. */
export function envelope(p: EnvelopeParts): Uint8Array {
  let client = p.clientEnvelope
  if (!client) {
    const c = new BinaryWriter()
    if (p.topic) {
      const aad = new BinaryWriter()
      ld(aad, 2, p.topic)
      ld(c, 1, aad.finish())
    }
    ld(c, 5, p.update!)
    client = c.finish()
  }
  const payer = new BinaryWriter()
  ld(payer, 1, client)
  const unsigned = new BinaryWriter()
  unsigned.tag(1, WireType.Varint).uint32(p.originatorNodeId ?? 1)
  unsigned.tag(2, WireType.Varint).uint64(p.sequenceId)
  unsigned.tag(3, WireType.Varint).int64(p.originatorNs ?? 1_700_000_000_000_000_000n + p.sequenceId)
  ld(unsigned, 4, payer.finish())
  const env = new BinaryWriter()
  ld(env, 1, unsigned.finish())
  return env.finish()
}

/** QueryEnvelopesResponse { envelopes }. */
export function envelopesAnswer(envelopes: readonly Uint8Array[]): Uint8Array {
  const w = new BinaryWriter()
  for (const e of envelopes) ld(w, 1, e)
  return w.finish()
}
