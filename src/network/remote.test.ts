/**
 * The network client against recorded bytes of each protocol (test/network/recorded,
 * recorded from the local node by scripts/record-network-fixtures.ts): the gateway, the
 * Connect protocol and gRPC-web are replayed through connect-web's transports with a
 * `fetch` that answers the recorded body; gRPC through a one-answer HTTP/2 server on
 * 127.0.0.1. Each must give the stored updates, byte for byte, in order.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createConnectTransport, createGrpcWebTransport } from '@connectrpc/connect-web'
import { afterAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../crypto/bytes'
import { type FakeNode, startFakeNode } from '../../test/network/fake-node'
import { identityTopic, inboxIdOfTopic, unwrapIdentityEnvelope, wrapIdentityUpdate } from './d14n'
import { bundleOf, createRemote, type RpcTransportKind } from './remote'
import { nodeTransportFor } from './transports-node'
import { readFields } from './wire'

const DIR = join(import.meta.dirname, '..', '..', 'test', 'network', 'recorded')
const index = JSON.parse(readFileSync(join(DIR, 'index.json'), 'utf8')) as {
  inboxId: string
  updates: { sequenceId: string; serverTimestampNs: string; updateHex: string }[]
  recordings: Record<string, { path: string; status: number; contentType: string }>
}
const recorded = (name: string) => new Uint8Array(readFileSync(join(DIR, `${name}.bin`)))

const expected = index.updates.map((u) => ({
  sequence_id: u.sequenceId,
  server_timestamp_ns: u.serverTimestampNs,
  update_hex: u.updateHex,
}))

/** A `fetch` that answers each call with the next of `bodies` (recorded status and content type). */
function replayFetch(name: string, bodies: Uint8Array[]): { fetch: typeof fetch; paths: string[] } {
  const meta = index.recordings[name]!
  const paths: string[] = []
  let i = 0
  const f = (async (input: string | URL | Request) => {
    paths.push(new URL(String(input instanceof Request ? input.url : input)).pathname)
    const body = bodies[Math.min(i++, bodies.length - 1)]!
    return new Response(new Uint8Array(body), { status: meta.status, headers: { 'content-type': meta.contentType } })
  }) as typeof fetch
  return { fetch: f, paths }
}

function grpcWebFrames(message: Uint8Array): Uint8Array {
  const trailer = new TextEncoder().encode('grpc-status: 0\r\n')
  const out = new Uint8Array(10 + message.length + trailer.length)
  const dv = new DataView(out.buffer)
  dv.setUint32(1, message.length)
  out.set(message, 5)
  out[5 + message.length] = 0x80
  dv.setUint32(6 + message.length, trailer.length)
  out.set(trailer, 10 + message.length)
  return out
}

const webTransport = (f: typeof fetch) => (kind: RpcTransportKind, baseUrl: string) =>
  kind === 'grpc-web'
    ? createGrpcWebTransport({ baseUrl, fetch: f, useBinaryFormat: true })
    : createConnectTransport({ baseUrl, fetch: f, useBinaryFormat: true })

const NODE = 'http://node.invalid'

describe('recorded answers of the local node', () => {
  it('the gateway, Connect and gRPC-web bodies hold the same GetIdentityUpdatesResponse', () => {
    const connect = recorded('identity-connect')
    expect(bytesToHex(recorded('identity-gateway'))).toBe(bytesToHex(connect))
    const web = recorded('identity-grpc-web')
    expect(web[0]).toBe(0)
    expect(bytesToHex(web.subarray(5, 5 + connect.length))).toBe(bytesToHex(connect))
    expect(web[5 + connect.length]).toBe(0x80) // the trailer frame
    const grpc = recorded('identity-grpc')
    expect(bytesToHex(grpc.subarray(5))).toBe(bytesToHex(connect))
  })

  it('identity API over the gateway, Connect and gRPC-web: the stored updates, byte for byte', async () => {
    for (const [name, transport] of [
      ['identity-gateway', 'gateway'],
      ['identity-connect', 'connect'],
      ['identity-grpc-web', 'grpc-web'],
    ] as const) {
      const r = replayFetch(name, [recorded(name)])
      const remote = createRemote({
        node: NODE,
        api: 'identity',
        transport,
        transportFor: webTransport(r.fetch),
        fetch: r.fetch,
      })
      const log = await remote.fetchLog({ kind: 'inbox', value: index.inboxId })
      expect(bundleOf(log).updates).toEqual(expected)
      expect(r.paths).toEqual([index.recordings[name]!.path])
    }
  })

  it('d14n over Connect and gRPC-web: the envelopes unwrap to the stored updates; an empty page ends the fetch', async () => {
    for (const [name, transport, empty] of [
      ['d14n-connect', 'connect', new Uint8Array()],
      ['d14n-grpc-web', 'grpc-web', grpcWebFrames(new Uint8Array())],
    ] as const) {
      const r = replayFetch(name, [recorded(name), empty])
      const remote = createRemote({ node: NODE, api: 'd14n', transport, transportFor: webTransport(r.fetch) })
      const log = await remote.fetchLog({ kind: 'inbox', value: index.inboxId })
      expect(bundleOf(log).updates).toEqual(expected)
      expect(log.skipped).toEqual([])
      expect(log.pages).toBe(2)
      expect(log.updates.every((u) => u.originatorNodeId === 1)).toBe(true)
    }
  })

  it('d14n GetInboxIds over Connect: the recorded handle answer resolves alice', async () => {
    const r = replayFetch('d14n-inbox-ids-connect', [recorded('d14n-inbox-ids-connect')])
    const remote = createRemote({ node: NODE, api: 'd14n', transport: 'connect', transportFor: webTransport(r.fetch) })
    expect(await remote.resolve({ kind: 'handle', value: 'alice' })).toBe(index.inboxId)
  })

  const servers: FakeNode[] = []
  afterAll(async () => Promise.all(servers.map((s) => s.close())))

  it('gRPC (HTTP/2 cleartext): the recorded frames replayed by a 127.0.0.1 server', async () => {
    for (const [name, api] of [
      ['identity-grpc', 'identity'],
      ['d14n-grpc', 'd14n'],
    ] as const) {
      const message = recorded(name).subarray(5)
      const s = await startFakeNode('grpc', (_c, i) => ({ message: i === 0 ? message : new Uint8Array() }))
      servers.push(s)
      const remote = createRemote({ node: s.url, api, transport: 'grpc', transportFor: nodeTransportFor })
      const log = await remote.fetchLog({ kind: 'inbox', value: index.inboxId })
      expect(bundleOf(log).updates).toEqual(expected)
      expect(s.calls[0]!.path).toBe(index.recordings[name]!.path)
    }
  })
})

describe('d14n envelopes', () => {
  const inbox = index.inboxId
  const update = new Uint8Array(Buffer.from(index.updates[0]!.updateHex, 'hex'))

  it('the identity topic is 0x02 and the 32 bytes of the inbox id', () => {
    const t = identityTopic(inbox)
    expect(t.length).toBe(33)
    expect(bytesToHex(t)).toBe(`02${inbox}`)
    expect(inboxIdOfTopic(t)).toBe(inbox)
    expect(inboxIdOfTopic(new Uint8Array([0, ...t.subarray(1)]))).toBeNull()
    expect(() => identityTopic('not-hex')).toThrow(/64 lowercase hex/)
  })

  it('wrap then unwrap gives the exact update bytes, sequence id and timestamp', () => {
    const env = wrapIdentityUpdate({ originatorNodeId: 1, sequenceId: 7n, originatorNs: 99n, inboxId: inbox, update })
    expect(unwrapIdentityEnvelope(env, inbox)).toEqual({
      ok: true,
      originatorNodeId: 1,
      sequenceId: 7n,
      originatorNs: 99n,
      update,
    })
  })

  it('the recorded envelopes unwrap to the stored updates', () => {
    const fields = readFields(recorded('d14n-connect'), 'QueryEnvelopesResponse')
    const got = fields.map((f) => {
      const u = unwrapIdentityEnvelope((f as { body: Uint8Array }).body, inbox)
      if (!u.ok) throw new Error(u.reason)
      return bytesToHex(u.update)
    })
    expect(got).toEqual(index.updates.map((u) => u.updateHex))
  })

  it('an envelope for another inbox, or that is not protobuf, says why', () => {
    const other = 'ab'.repeat(32)
    const env = wrapIdentityUpdate({ originatorNodeId: 1, sequenceId: 7n, originatorNs: 99n, inboxId: other, update })
    const a = unwrapIdentityEnvelope(env, other)
    expect(a.ok).toBe(false)
    expect(!a.ok && a.reason).toMatch(new RegExp(`identity_update is for inbox ${inbox}, not ${other}`))
    const b = unwrapIdentityEnvelope(env, inbox)
    expect(!b.ok && b.reason).toMatch(/target topic is inbox a/)
    const c = unwrapIdentityEnvelope(new Uint8Array([0x0a, 0x05, 1]), inbox)
    expect(!c.ok && c.reason).toMatch(/not a OriginatorEnvelope.*truncated|not a OriginatorEnvelope/)
  })
})
