/**
 * Records real answers of the local node, byte for byte, for the network client's unit
 * tests (test/network/recorded/): `npx tsx scripts/record-network-fixtures.ts`.
 *
 * Starts a LocalNode seeded with the demo inboxes on a free 127.0.0.1 port and sends
 * hand-made requests for alice's log and her handle lookup over each protocol:
 *
 *   gateway    POST /identity/v1/get-identity-updates (binary): the body
 *   connect    POST /xmtp…/Method, application/proto: the body
 *   grpc-web   POST /xmtp…/Method, application/grpc-web+proto: the body (frames + trailer frame)
 *   grpc       HTTP/2: the DATA bytes (length-prefixed frames) and the trailers
 *
 * Each recording is `<name>.bin` plus an entry in index.json (status, content type,
 * trailers, the inbox id and what the log holds).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:http2'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { create, toBinary } from '@bufbuild/protobuf'
import { bytesToHex } from '../src/crypto/bytes'
import { demoInboxes } from '../src/devnode/demo'
import { LocalNode } from '../src/devnode/node'
import { GetIdentityUpdatesRequestSchema, GetInboxIdsRequestSchema } from '../src/gen/identity/api/v1/identity_pb'
import { QueryEnvelopesRequestSchema } from '../src/gen/xmtpv4/message_api/message_api_pb'
import { identityTopic } from '../src/network/d14n'

const OUT = join(import.meta.dirname, '..', 'test', 'network', 'recorded')

function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length)
  new DataView(out.buffer).setUint32(1, payload.length)
  out.set(payload, 5)
  return out
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'record-'))
  const node = new LocalNode({ db: join(dir, 'node.db') })
  const { demoUpdates } = await import('../src/devnode/demo')
  await node.seed(await demoUpdates())
  const { port } = await node.listen('127.0.0.1', 0)
  const base = `http://127.0.0.1:${port}`
  const alice = demoInboxes().find((d) => d.name === 'alice')!
  const stored = node.store.updatesAfter(alice.inboxId, 0n)

  const identityReq = toBinary(
    GetIdentityUpdatesRequestSchema,
    create(GetIdentityUpdatesRequestSchema, { requests: [{ inboxId: alice.inboxId, sequenceId: 0n }] }),
  )
  const queryReq = toBinary(
    QueryEnvelopesRequestSchema,
    create(QueryEnvelopesRequestSchema, { query: { topics: [identityTopic(alice.inboxId)] }, limit: 0 }),
  )
  const handleReq = toBinary(
    GetInboxIdsRequestSchema,
    create(GetInboxIdsRequestSchema, { requests: [{ identifier: 'alice', identifierKind: 3 }] }),
  )
  const ID = '/xmtp.identity.api.v1.IdentityApi'
  const Q = '/xmtp.xmtpv4.message_api.QueryApi'

  const index: Record<string, unknown> = {}
  mkdirSync(OUT, { recursive: true })
  const save = (name: string, meta: Record<string, unknown>, body: Uint8Array) => {
    writeFileSync(join(OUT, `${name}.bin`), body)
    index[name] = meta
  }

  async function h1(name: string, path: string, type: string, body: Uint8Array) {
    // A copy on its own ArrayBuffer: what the DOM's BodyInit takes (as src/network/client.ts sends).
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(body),
    })
    const bytes = new Uint8Array(await res.arrayBuffer())
    save(name, { path, status: res.status, contentType: res.headers.get('content-type') }, bytes)
  }
  await h1('identity-gateway', '/identity/v1/get-identity-updates', 'application/x-protobuf', identityReq)
  await h1('identity-connect', `${ID}/GetIdentityUpdates`, 'application/proto', identityReq)
  await h1('identity-grpc-web', `${ID}/GetIdentityUpdates`, 'application/grpc-web+proto', frame(identityReq))
  await h1('d14n-connect', `${Q}/QueryEnvelopes`, 'application/proto', queryReq)
  await h1('d14n-grpc-web', `${Q}/QueryEnvelopes`, 'application/grpc-web+proto', frame(queryReq))
  await h1('d14n-inbox-ids-connect', `${Q}/GetInboxIds`, 'application/proto', handleReq)

  const session = connect(base)
  async function h2(name: string, path: string, body: Uint8Array) {
    await new Promise<void>((resolve, reject) => {
      const s = session.request({
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/grpc+proto',
        te: 'trailers',
      })
      const chunks: Buffer[] = []
      let status = 0
      let contentType = ''
      let trailers: Record<string, unknown> = {}
      s.on('response', (h) => {
        status = Number(h[':status'])
        contentType = String(h['content-type'])
      })
      s.on('trailers', (t) => (trailers = { ...t }))
      s.on('data', (c: Buffer) => chunks.push(c))
      s.on('end', () => {
        save(name, { path, status, contentType, trailers }, new Uint8Array(Buffer.concat(chunks)))
        resolve()
      })
      s.on('error', reject)
      s.end(Buffer.from(frame(body)))
    })
  }
  await h2('identity-grpc', `${ID}/GetIdentityUpdates`, identityReq)
  await h2('d14n-grpc', `${Q}/QueryEnvelopes`, queryReq)
  session.close()

  writeFileSync(
    join(OUT, 'index.json'),
    `${JSON.stringify(
      {
        inboxId: alice.inboxId,
        handle: 'alice',
        updates: stored.map((u) => ({
          sequenceId: String(u.sequenceId),
          serverTimestampNs: String(u.serverTimestampNs),
          updateHex: bytesToHex(u.bytes),
        })),
        recordings: index,
      },
      null,
      2,
    )}\n`,
  )
  await node.close()
  rmSync(dir, { recursive: true, force: true })
  console.log(`recorded ${Object.keys(index).length} answers in ${OUT}`)
}

await main()
