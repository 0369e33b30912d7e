/**
 * The local node's HTTP API against the real process (../shared/contracts/cli.md, "The
 * local node"): every endpoint in binary protobuf and proto3 JSON, through the network
 * client and raw fetch; bad requests; CORS; the startup line and a clean SIGTERM exit.
 */
import { fromBinary, toBinary } from '@bufbuild/protobuf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GetIdentityUpdatesResponseSchema } from '../../src/gen/identity/api/v1/identity_pb'
import { IdentityUpdateSchema } from '../../src/gen/identity/associations/association_pb'
import { bytesToHex } from '../../src/crypto'
import { isDecoded } from '../../src/core/decode/entry'
import { checkHandleAnswer } from '../../src/core/handles'
import { replay } from '../../src/core/replay'
import { frameField1, NodeError, NodeUnreachableError, NODE_PATHS } from '../../src/network/client'
import { freePort, startNode, stopAll, tempDir, type RunningNode } from './harness'
import { claim, installation, newInbox, passkey, reorderFields, wallet, add, type Built } from './updates'

const tmp = tempDir()
let node: RunningNode

const W = wallet('api A')
const I = installation('api A')
const P = passkey('api A')
const W2 = wallet('api B')
let inboxA: Built
let inboxB: Built
/** Sequence ids of A's updates, in order. */
const seqA: bigint[] = []

/** After every bad request: the node still answers. */
async function stillServing(): Promise<void> {
  const newest = await node.client().queryNewest([inboxA.inboxId])
  expect(newest).toEqual([{ inboxId: inboxA.inboxId, sequenceId: seqA[seqA.length - 1] }])
}

beforeAll(async () => {
  node = await startNode({ db: tmp.path('api.db'), args: ['--max-body-bytes', '65536'] })
  const c = node.client()
  inboxA = await newInbox(W, { install: I })
  seqA.push((await c.publishIdentityUpdate(inboxA.bytes)).sequenceId)
  seqA.push((await c.publishIdentityUpdate((await claim(inboxA.inboxId, 'apia-old', I)).bytes)).sequenceId)
  seqA.push((await c.publishIdentityUpdate((await add(inboxA.inboxId, W, P)).bytes)).sequenceId)
  seqA.push((await c.publishIdentityUpdate((await claim(inboxA.inboxId, 'apia', W)).bytes)).sequenceId)
  inboxB = await newInbox(W2)
})

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

describe('the process', () => {
  it('prints exactly "listening on http://<host>:<port>" once it accepts, and nothing else on stdout', () => {
    expect(node.stdout()).toBe(`listening on http://127.0.0.1:${node.port}\n`)
  })
})

describe('publish-identity-update (IDENT-005)', () => {
  it("binary: the receipt is the sequence id, ids only grow, and the served bytes are exactly the request's inner update bytes", async () => {
    expect(seqA).toEqual([...seqA].sort((a, b) => (a < b ? -1 : 1)))
    expect(new Set(seqA).size).toBe(seqA.length)
    // A valid update whose encoding is not canonical: a node that re-encodes changes it.
    const w = wallet('api noncanonical')
    const canonical = (await newInbox(w)).bytes
    const odd = reorderFields(canonical)
    expect(bytesToHex(odd)).not.toBe(bytesToHex(canonical))
    expect(bytesToHex(toBinary(IdentityUpdateSchema, fromBinary(IdentityUpdateSchema, odd)))).toBe(
      bytesToHex(canonical),
    )
    const { sequenceId } = await node.client().publishIdentityUpdate(odd)
    expect(sequenceId).toBeGreaterThan(seqA[seqA.length - 1]!)
    const log = await node.client().getInboxLog((await newInbox(w)).inboxId)
    expect(log.entries).toHaveLength(1)
    expect(log.entries[0]!.sequenceId).toBe(sequenceId)
    const u = log.entries[0]!.update
    expect(isDecoded(u) && bytesToHex(u.bytes)).toBe(bytesToHex(odd))
  })

  it('JSON: camelCase and snake_case requests are accepted; the stored bytes are the canonical encoding; the receipt is {"sequenceId": "<n>"}', async () => {
    const built = await newInbox(wallet('api json publish'))
    const update = fromBinary(IdentityUpdateSchema, built.bytes)
    const { toJson } = await import('@bufbuild/protobuf')
    const r = await node.post(
      NODE_PATHS.publish,
      JSON.stringify({ identity_update: toJson(IdentityUpdateSchema, update, { useProtoFieldName: true }) }),
      'application/json',
    )
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json')
    const body = r.json() as unknown as { sequenceId: string }
    expect(Object.keys(body)).toEqual(['sequenceId'])
    expect(body.sequenceId).toMatch(/^[1-9][0-9]*$/)
    const log = await node.client().getInboxLog(built.inboxId)
    const u = log.entries[0]!.update
    expect(isDecoded(u) && bytesToHex(u.bytes)).toBe(bytesToHex(built.bytes))
    // the same through the JSON client, camelCase
    const other = await newInbox(wallet('api json publish 2'))
    const receipt = await node.client('json').publishIdentityUpdate(other.bytes)
    expect(receipt.sequenceId).toBe(BigInt(body.sequenceId) + 1n)
  })

  it('IDENT-001: garbage, a truncated update and an update with no actions are 400 malformed_update with rule IDENT-001, and nothing is stored', async () => {
    const before = await node.client().queryNewest([inboxA.inboxId])
    for (const inner of [
      Uint8Array.of(0xff, 0xff, 0xff),
      inboxA.bytes.subarray(0, inboxA.bytes.length - 3),
      Uint8Array.of(0x1a, 0x01, 0x61),
    ]) {
      const r = await node.post(NODE_PATHS.publish, frameField1(inner))
      expect(r.status).toBe(400)
      expect(r.headers.get('content-type')).toBe('application/json')
      expect(r.json()).toMatchObject({ code: 'malformed_update', rule: 'IDENT-001' })
      expect(r.json().message).toMatch(/cannot be decoded/)
    }
    const empty = await node.post(
      NODE_PATHS.publish,
      JSON.stringify({ identityUpdate: { inboxId: inboxA.inboxId, actions: [] } }),
      'application/json',
    )
    expect(empty.status).toBe(400)
    expect(empty.json()).toMatchObject({ code: 'malformed_update', rule: 'IDENT-001' })
    expect(await node.client().queryNewest([inboxA.inboxId])).toEqual(before)
  })

  it('a request that is not a PublishIdentityUpdateRequest is 400 malformed_request (rule null), in both encodings', async () => {
    const cases: [Uint8Array | string, string][] = [
      [Uint8Array.of(0x0a, 0x7f, 0x01), 'application/x-protobuf'], // length past the end
      [Uint8Array.of(0x08, 0x01), 'application/x-protobuf'], // field 1 as a varint
      [new Uint8Array(0), 'application/x-protobuf'], // no identity_update
      [new Uint8Array([...frameField1(inboxB.bytes), ...frameField1(inboxB.bytes)]), 'application/x-protobuf'], // field 1 twice
      ['{"identityUpdate": ', 'application/json'],
      ['{"update": {}}', 'application/json'],
      ['[1]', 'application/json'],
      ['{"identityUpdate": {}, "identity_update": {}}', 'application/json'],
      [Uint8Array.of(0x7b, 0xff, 0x7d), 'application/json'], // not UTF-8
    ]
    for (const [body, type] of cases) {
      const r = await node.post(NODE_PATHS.publish, body, type)
      expect(r.status, `${type} ${String(body)}`).toBe(400)
      expect(r.json()).toMatchObject({ code: 'malformed_request', rule: null })
    }
    await stillServing()
  })

  it('the client turns a refusal into NodeError { status, code, message, rule }', async () => {
    const err = await node
      .client()
      .publishIdentityUpdate(inboxA.bytes)
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NodeError)
    expect(err).toMatchObject({ status: 409, code: 'rule_violation', rule: 'IDENT-011' })
    expect((err as NodeError).message).toMatch(/already has association state/)
  })
})

describe('get-identity-updates', () => {
  it('binary: updates after the given sequence id (0 = all) per requested inbox, in request order; an unknown inbox has none', async () => {
    const c = node.client()
    const [all, after, unknown] = await c.getIdentityUpdates([
      { inboxId: inboxA.inboxId },
      { inboxId: inboxA.inboxId, sequenceId: seqA[1]! },
      { inboxId: 'ab'.repeat(32) },
    ])
    expect(all!.inboxId).toBe(inboxA.inboxId)
    expect(all!.entries.map((e) => e.sequenceId)).toEqual(seqA)
    expect(after!.entries.map((e) => e.sequenceId)).toEqual(seqA.slice(2))
    expect(unknown).toMatchObject({ inboxId: 'ab'.repeat(32), entries: [] })
    expect(
      all!.entries.every(
        (e) => typeof e.serverTimestampNs === 'bigint' && e.serverTimestampNs > 1_600_000_000_000_000_000n,
      ),
    ).toBe(true)
    // The fetched log replays with the core and holds the claims.
    const trace = await replay(all!)
    expect(trace.ok).toBe(true)
    expect(trace.head!.handles).toEqual(['apia-old', 'apia'])
    const first = all!.entries[0]!.update
    expect(isDecoded(first) && bytesToHex(first.bytes)).toBe(bytesToHex(inboxA.bytes))
  })

  it('binary answer is a GetIdentityUpdatesResponse; JSON answer uses lowerCamelCase with uint64 as strings, and snake_case requests are accepted', async () => {
    const req = JSON.stringify({ requests: [{ inbox_id: inboxA.inboxId, sequence_id: String(seqA[2]) }] })
    const r = await node.post(NODE_PATHS.getIdentityUpdates, req, 'application/json')
    expect(r.status).toBe(200)
    const j = r.json() as unknown as {
      responses: {
        inboxId: string
        updates: { sequenceId: string; serverTimestampNs: string; update: { inboxId: string } }[]
      }[]
    }
    expect(j.responses).toHaveLength(1)
    expect(j.responses[0]!.inboxId).toBe(inboxA.inboxId)
    expect(j.responses[0]!.updates.map((u) => u.sequenceId)).toEqual([String(seqA[3])])
    expect(j.responses[0]!.updates[0]!.update.inboxId).toBe(inboxA.inboxId)
    expect(typeof j.responses[0]!.updates[0]!.serverTimestampNs).toBe('string')
    const logs = await node.client('json').getIdentityUpdates([{ inboxId: inboxA.inboxId }])
    expect(logs[0]!.entries.map((e) => e.sequenceId)).toEqual(seqA)
    // binary, raw
    const b = await node.post(
      NODE_PATHS.getIdentityUpdates,
      Uint8Array.of(0x0a, 0x42, 0x0a, 0x40, ...new TextEncoder().encode(inboxA.inboxId)),
    )
    expect(b.headers.get('content-type')).toBe('application/x-protobuf')
    const msg = fromBinary(GetIdentityUpdatesResponseSchema, b.bytes)
    expect(msg.responses[0]!.updates.map((u) => u.sequenceId)).toEqual(seqA)
  })

  it('a malformed request is 400 malformed_request: a wrong wire type, unknown JSON keys, a negative sequence id', async () => {
    const cases: [Uint8Array | string, string][] = [
      [Uint8Array.of(0x0a, 0x02, 0x10, 0x05, 0x08), 'application/x-protobuf'],
      [Uint8Array.of(0x0a, 0x02, 0x0d, 0x00), 'application/x-protobuf'],
      ['{"requests": [{"inboxId": "x", "bogus": 1}]}', 'application/json'],
      ['{"requests": [{"inboxId": "x", "sequenceId": "-1"}]}', 'application/json'],
    ]
    for (const [body, type] of cases) {
      const r = await node.post(NODE_PATHS.getIdentityUpdates, body, type)
      expect(r.status, String(body)).toBe(400)
      expect(r.json()).toMatchObject({ code: 'malformed_request', rule: null })
    }
    await stillServing()
  })
})

describe('get-inbox-ids (section 9, API-299)', () => {
  it('Ethereum (as derived or checksummed case), passkey and handle identifiers resolve; unknown ones have no inbox id', async () => {
    const answers = await node.client().getInboxIds([
      { identifier: W.identifier.text, kind: 'ethereum' },
      { identifier: W.identifier.text.toUpperCase().replace('0X', '0x'), kind: 0 },
      { identifier: P.identifier.text, kind: 'passkey' },
      { identifier: 'apia', kind: 'handle' },
      { identifier: `0x${'00'.repeat(20)}`, kind: 'ethereum' },
      { identifier: I.identifier.text, kind: 99 },
    ])
    expect(answers.map((a) => a.inboxId)).toEqual([
      inboxA.inboxId,
      inboxA.inboxId,
      inboxA.inboxId,
      inboxA.inboxId,
      null,
      null,
    ])
    expect(answers.map((a) => a.identifierKind)).toEqual([1, 0, 2, 3, 1, 99])
    expect(answers[1]!.identifier).toBe(W.identifier.text.toUpperCase().replace('0X', '0x'))
  })

  it('IDENT-085: a handle lookup lowercases ASCII letters only and answers the inbox whose log claimed it, an old handle included; the answer checks against the fetched log', async () => {
    const answers = await node.client().getInboxIds([
      { identifier: 'APIA', kind: 'handle' },
      { identifier: 'ApiA-OLD', kind: 'handle' },
      { identifier: 'apıa', kind: 'handle' }, // dotless ı is not ASCII: not lowercased to "i", no match
      { identifier: 'nobody-here', kind: 'handle' },
    ])
    expect(answers.map((a) => a.inboxId)).toEqual([inboxA.inboxId, inboxA.inboxId, null, null])
    const trace = await replay(await node.client().getInboxLog(answers[0]!.inboxId!))
    expect(checkHandleAnswer(trace.head, 'APIA').accepted).toBe(true)
    expect(checkHandleAnswer(trace.head, 'ApiA-OLD').accepted).toBe(true)
  })

  it('JSON: enum names or numbers and both key spellings in; lowerCamelCase, enum names, and no inboxId for a miss out', async () => {
    const r = await node.post(
      NODE_PATHS.getInboxIds,
      JSON.stringify({
        requests: [
          { identifier: 'apia', identifier_kind: 'IDENTIFIER_KIND_HANDLE' },
          { identifier: 'zzz', identifierKind: 3 },
        ],
      }),
      'application/json',
    )
    expect(r.status).toBe(200)
    expect(r.json()).toEqual({
      responses: [
        { identifier: 'apia', inboxId: inboxA.inboxId, identifierKind: 'IDENTIFIER_KIND_HANDLE' },
        { identifier: 'zzz', identifierKind: 'IDENTIFIER_KIND_HANDLE' },
      ],
    })
    const viaJson = await node.client('json').getInboxIds([{ identifier: W.identifier.text, kind: 'ethereum' }])
    expect(viaJson[0]!.inboxId).toBe(inboxA.inboxId)
  })
})

describe('query-newest', () => {
  it('the newest sequence id per inbox without envelopes; inboxes with no log are left out; both encodings', async () => {
    const c = node.client()
    const ids = [inboxB.inboxId, inboxA.inboxId, 'cd'.repeat(32)]
    expect(await c.queryNewest(ids)).toEqual([{ inboxId: inboxA.inboxId, sequenceId: seqA[3] }])
    const r = await node.post(
      NODE_PATHS.queryNewest,
      JSON.stringify({ inbox_ids: ids }),
      'application/json; charset=utf-8',
    )
    expect(r.status).toBe(200)
    expect(r.json()).toEqual({ results: [{ inboxId: inboxA.inboxId, sequenceId: String(seqA[3]) }] })
    // a receipt is visible at once
    const { sequenceId } = await c.publishIdentityUpdate(inboxB.bytes)
    const seen = await c.queryNewest([inboxB.inboxId])
    expect(seen[0]!.sequenceId >= sequenceId).toBe(true)
  })
})

describe('bad requests: clear errors, and the node keeps serving', () => {
  it('an unknown path is 404 and a method other than POST is 405 with Allow', async () => {
    const nf = await fetch(`${node.url}/identity/v1/nope`, { method: 'POST', body: 'x' })
    expect(nf.status).toBe(404)
    expect(await nf.json()).toMatchObject({ code: 'not_found', rule: null })
    expect((await fetch(`${node.url}/`)).status).toBe(404)
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await fetch(`${node.url}${NODE_PATHS.queryNewest}`, { method })
      expect(r.status).toBe(405)
      expect(r.headers.get('allow')).toBe('POST, OPTIONS')
      expect(await r.json()).toMatchObject({ code: 'method_not_allowed', rule: null })
    }
    await stillServing()
  })

  it('another content type is 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/octet-stream', 'application/grpc', '']) {
      const r = await node.post(NODE_PATHS.publish, frameField1(inboxB.bytes), type)
      expect(r.status, type).toBe(415)
      expect(r.json()).toMatchObject({ code: 'unsupported_media_type', rule: null })
    }
    await stillServing()
  })

  it('a body over the limit is 413 body_too_large, declared or streamed', async () => {
    const big = new Uint8Array(65537)
    const r = await node.post(NODE_PATHS.publish, big)
    expect(r.status).toBe(413)
    expect(r.json()).toMatchObject({ code: 'body_too_large', rule: null })
    // chunked, with no Content-Length
    const stream = new ReadableStream<Uint8Array>({
      start(ctl) {
        for (let i = 0; i < 5; i++) ctl.enqueue(new Uint8Array(20000))
        ctl.close()
      },
    })
    const s = await fetch(node.url + NODE_PATHS.getIdentityUpdates, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(s.status).toBe(413)
    expect(await s.json()).toMatchObject({ code: 'body_too_large' })
    // exactly at the limit is read (and refused for what it is)
    const atLimit = await node.post(NODE_PATHS.queryNewest, new Uint8Array(65536))
    expect(atLimit.status).toBe(400)
    await stillServing()
  })

  it('an unreachable node is a NodeUnreachableError naming the URL', async () => {
    const port = await freePort()
    const c = (await import('../../src/network/client')).createNodeClient({
      baseUrl: `http://127.0.0.1:${port}/`,
      fetch,
    })
    const err = await c.queryNewest(['x']).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NodeUnreachableError)
    expect((err as NodeUnreachableError).url).toBe(`http://127.0.0.1:${port}${NODE_PATHS.queryNewest}`)
    expect((err as Error).message).toContain(`http://127.0.0.1:${port}`)
  })
})

describe('CORS for the app', () => {
  it('OPTIONS preflight is 204 with the allowed method and headers; every answer, errors included, allows any origin', async () => {
    const pre = await fetch(node.url + NODE_PATHS.getInboxIds, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST')
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type')
    const ok = await node.post(NODE_PATHS.queryNewest, '{}', 'application/json', {
      headers: { origin: 'http://localhost:5173' },
    })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe('*')
    const bad = await node.post(NODE_PATHS.queryNewest, 'x', 'text/plain')
    expect(bad.headers.get('access-control-allow-origin')).toBe('*')
  })
})
