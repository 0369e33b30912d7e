/**
 * The RPC statuses the local node answers before any handler runs, on every transport:
 * a call it does not serve is UNIMPLEMENTED naming the method (gRPC status 12, Connect
 * code `unimplemented`), never an HTTP 404 with a JSON body; a body that is not
 * well-framed protobuf is INVALID_ARGUMENT (status 3). Through Connect-ES's own clients
 * (what the app, the CLI and real clients read) and as raw bytes on the wire. The
 * contract's HTTP gateway paths keep their JSON errors. Against the real node process.
 */
import { connect as h2connect } from 'node:http2'
import { create } from '@bufbuild/protobuf'
import { Code, ConnectError, createClient } from '@connectrpc/connect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GetInboxIdsRequestSchema, IdentityApi } from '../../src/gen/identity/api/v1/identity_pb'
import { nodeTransportFor } from '../../src/network/transports-node'
import { type RunningNode, startNode, stopAll, tempDir } from './harness'

const tmp = tempDir('rpc-status-')
let node: RunningNode

beforeAll(async () => {
  node = await startNode({ db: tmp.path('node.db') })
}, 60_000)

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

/** A method the node does not serve: MlsApi/SendGroupMessages (any request shape: it is never read). */
const notServed = {
  ...IdentityApi.method.getInboxIds,
  name: 'SendGroupMessages',
  parent: { ...IdentityApi, typeName: 'xmtp.mls.api.v1.MlsApi' },
} as typeof IdentityApi.method.getInboxIds

/** One raw gRPC call over cleartext HTTP/2: status, headers, trailers, body. */
function rawGrpc(
  url: string,
  path: string,
  body: Uint8Array,
): Promise<{ status: number; headers: Record<string, unknown>; trailers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const session = h2connect(url)
    session.on('error', reject)
    const req = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc+proto',
      te: 'trailers',
    })
    let headers: Record<string, unknown> = {}
    let trailers: Record<string, unknown> = {}
    const chunks: Buffer[] = []
    req.on('response', (h) => (headers = h))
    req.on('trailers', (t) => (trailers = t))
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      session.close()
      resolve({ status: Number(headers[':status']), headers, trailers, body: Buffer.concat(chunks) })
    })
    req.on('error', reject)
    req.end(Buffer.from(body))
  })
}

/** A gRPC / gRPC-web / Connect-streaming frame around a message. */
function frame(msg: Uint8Array, flags = 0): Uint8Array {
  const out = new Uint8Array(5 + msg.length)
  out[0] = flags
  new DataView(out.buffer).setUint32(1, msg.length)
  out.set(msg, 5)
  return out
}

/** Field 1 length-delimited, declaring 10 bytes with 1 present: not well-framed protobuf. */
const TRUNCATED = new Uint8Array([0x0a, 0x0a, 0x01])

describe.each(['grpc', 'grpc-web', 'connect'] as const)('over %s', (kind) => {
  it('a method the node does not serve is UNIMPLEMENTED, naming it', async () => {
    const transport = nodeTransportFor(kind, node.url)
    const e = await transport
      .unary(notServed, undefined, undefined, undefined, create(GetInboxIdsRequestSchema), undefined)
      .then(
        () => null,
        (x: unknown) => x,
      )
    expect(e).toBeInstanceOf(ConnectError)
    expect((e as ConnectError).code).toBe(Code.Unimplemented)
    expect((e as ConnectError).rawMessage).toContain('xmtp.mls.api.v1.MlsApi/SendGroupMessages')
  })

  it('a served method still answers (GetInboxIds)', async () => {
    const client = createClient(IdentityApi, nodeTransportFor(kind, node.url))
    const r = await client.getInboxIds({ requests: [{ identifier: `0x${'ab'.repeat(20)}`, identifierKind: 1 }] })
    expect(r.responses).toHaveLength(1)
  })
})

describe('raw bytes on the wire', () => {
  it('gRPC: HTTP 200 with grpc-status 12 in the trailers for an unknown method; never a JSON 404', async () => {
    const r = await rawGrpc(node.url, '/xmtp.mls.api.v1.MlsApi/QueryGroupMessages', frame(new Uint8Array()))
    expect(r.status).toBe(200)
    expect(String(r.trailers['grpc-status'] ?? r.headers['grpc-status'])).toBe('12')
    expect(decodeURIComponent(String(r.trailers['grpc-message'] ?? r.headers['grpc-message']))).toContain(
      'xmtp.mls.api.v1.MlsApi/QueryGroupMessages',
    )
    expect(String(r.headers['content-type'])).toMatch(/^application\/grpc/)
  })

  it('gRPC: an undecodable body is grpc-status 3 (INVALID_ARGUMENT), also a truncated frame', async () => {
    for (const body of [frame(TRUNCATED), new Uint8Array([0, 0, 0, 0, 9, 1])]) {
      const r = await rawGrpc(node.url, '/xmtp.identity.api.v1.IdentityApi/GetInboxIds', body)
      expect(r.status).toBe(200)
      expect(String(r.trailers['grpc-status'] ?? r.headers['grpc-status'])).toBe('3')
    }
  })

  it('gRPC-web: the status is in the trailer frame (12 unknown, 3 undecodable)', async () => {
    for (const [path, body, status] of [
      ['/xmtp.mls.api.v1.MlsApi/SendWelcomeMessages', frame(new Uint8Array()), '12'],
      ['/xmtp.identity.api.v1.IdentityApi/GetInboxIds', frame(TRUNCATED), '3'],
    ] as const) {
      const res = await fetch(node.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1' },
        body: new Uint8Array(body),
      })
      expect(res.status).toBe(200)
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect(bytes[0]).toBe(0x80)
      expect(new TextDecoder().decode(bytes.subarray(5))).toMatch(new RegExp(`grpc-status: ?${status}`))
    }
  })

  it('Connect unary: code unimplemented (HTTP 501) and invalid_argument (HTTP 400), as JSON error bodies', async () => {
    const unknown = await node.post('/xmtp.mls.api.v1.MlsApi/SendGroupMessages', new Uint8Array(), 'application/proto')
    expect(unknown.status).toBe(501)
    expect(unknown.json().code).toBe('unimplemented')
    expect(unknown.json().message).toContain('xmtp.mls.api.v1.MlsApi/SendGroupMessages')
    const bad = await node.post('/xmtp.identity.api.v1.IdentityApi/GetInboxIds', TRUNCATED, 'application/proto')
    expect(bad.status).toBe(400)
    expect(bad.json().code).toBe('invalid_argument')
  })

  it('Connect streaming: an end-stream frame with code unimplemented', async () => {
    const r = await node.post(
      '/xmtp.mls.api.v1.MlsApi/SubscribeGroupMessages',
      frame(new Uint8Array()),
      'application/connect+proto',
    )
    expect(r.status).toBe(200)
    expect(r.bytes[0]).toBe(0x02)
    expect(JSON.parse(new TextDecoder().decode(r.bytes.subarray(5))).error.code).toBe('unimplemented')
  })

  it('the HTTP gateway paths keep the contract JSON errors (404 not_found off the table)', async () => {
    const r = await node.post('/identity/v1/no-such-path', new Uint8Array())
    expect(r.status).toBe(404)
    expect(r.json().code).toBe('not_found')
  })
})
