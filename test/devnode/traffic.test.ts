/**
 * The node's request log against the real node process (--log-requests): every call on
 * every transport is one record at GET /inspector/v1/traffic (CORS open) and one stderr
 * line; a publish carries its update's bytes and its sequence id, or null when refused;
 * the Server-Sent Events stream sends each call with its id and resumes after
 * Last-Event-ID; the traffic endpoints are not logged themselves.
 */
import { createClient } from '@connectrpc/connect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/bytes'
import { IdentityApi } from '../../src/gen/identity/api/v1/identity_pb'
import { nodeTransportFor } from '../../src/network/transports-node'
import { type RunningNode, startNode, stopAll, tempDir } from './harness'
import { newInbox, wallet } from './updates'

const tmp = tempDir('traffic-')
let node: RunningNode

interface Call {
  id: number
  time: string
  transport: string
  method: string
  subject: { kind: string; value: string } | null
  outcome: string
  code: string
  rule: string | null
  message: string
  ms: number
  update: { inbox_id: string; sequence_id: string | null; update_hex: string | null; truncated: boolean } | null
}
interface Page {
  calls: Call[]
  next: number
  dropped: number
  capacity: number
}

const traffic = async (after = 0): Promise<{ page: Page; headers: Headers }> => {
  const res = await fetch(`${node.url}/inspector/v1/traffic?after=${after}`)
  return { page: (await res.json()) as Page, headers: res.headers }
}

beforeAll(async () => {
  node = await startNode({ db: tmp.path('node.db'), args: ['--log-requests'] })
}, 60_000)

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

describe('GET /inspector/v1/traffic', () => {
  it('records a stored publish, a refused one, an RPC read and an unimplemented call, in order', async () => {
    const created = await newInbox(wallet('traffic a'))
    await node.client().publishIdentityUpdate(created.bytes)
    await node
      .client()
      .publishIdentityUpdate(created.bytes)
      .catch(() => {})
    await createClient(IdentityApi, nodeTransportFor('grpc-web', node.url)).getInboxIds({
      requests: [{ identifier: wallet('traffic a').identifier.text, identifierKind: 1 }],
    })
    await node.post('/xmtp.mls.api.v1.MlsApi/SendGroupMessages', new Uint8Array(), 'application/proto')

    const { page, headers } = await traffic()
    expect(headers.get('access-control-allow-origin')).toBe('*')
    expect(headers.get('content-type')).toMatch(/^application\/json/)
    expect(page.capacity).toBe(1000)
    expect(page.dropped).toBe(0)
    expect(page.calls.map((c) => c.id)).toEqual([1, 2, 3, 4])
    expect(page.next).toBe(4)
    const [stored, refused, read, unimplemented] = page.calls as [Call, Call, Call, Call]
    const hex = bytesToHex(created.bytes)
    expect(stored).toMatchObject({
      transport: 'gateway',
      method: 'xmtp.identity.api.v1.IdentityApi/PublishIdentityUpdate',
      subject: { kind: 'inbox', value: created.inboxId },
      outcome: 'ok',
      code: '200',
      rule: null,
      update: { inbox_id: created.inboxId, sequence_id: '1', update_hex: hex, truncated: false },
    })
    expect(new Date(stored.time).toISOString()).toBe(stored.time)
    expect(stored.ms).toBeGreaterThanOrEqual(0)
    expect(refused).toMatchObject({ outcome: 'refused', code: '409', update: { sequence_id: null, update_hex: hex } })
    expect(refused.rule).toMatch(/^IDENT-0\d\d$/)
    expect(read).toMatchObject({
      transport: 'grpc-web',
      method: 'xmtp.identity.api.v1.IdentityApi/GetInboxIds',
      subject: { kind: 'identifier', value: wallet('traffic a').identifier.text },
      outcome: 'ok',
      code: 'ok',
      update: null,
    })
    expect(unimplemented).toMatchObject({
      transport: 'connect',
      method: 'xmtp.mls.api.v1.MlsApi/SendGroupMessages',
      outcome: 'refused',
      code: 'unimplemented',
    })
    // after= pages; the traffic endpoint itself was not recorded.
    expect((await traffic(2)).page.calls.map((c) => c.id)).toEqual([3, 4])
  })

  it('writes one stderr line per call with --log-requests', () => {
    const lines = node
      .stderr()
      .split('\n')
      .filter((l) => / (grpc|grpc-web|connect|gateway) /.test(l))
    expect(lines.length).toBeGreaterThanOrEqual(4)
    expect(
      lines.some((l) =>
        /gateway xmtp\.identity\.api\.v1\.IdentityApi\/PublishIdentityUpdate inbox=\w+ refused 409 IDENT-0\d\d/.test(l),
      ),
    ).toBe(true)
    expect(lines.every((l) => !l.includes('/inspector/v1/traffic'))).toBe(true)
  })

  it('an `after` that is not a non-negative integer is a 400 naming it', async () => {
    const res = await fetch(`${node.url}/inspector/v1/traffic?after=-1`)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toContain('after')
  })
})

describe('GET /inspector/v1/traffic/stream', () => {
  /** Reads SSE events until `n` data events arrived. */
  async function events(headers: Record<string, string>, n: number, during?: () => Promise<void>) {
    const abort = new AbortController()
    const res = await fetch(`${node.url}/inspector/v1/traffic/stream`, { headers, signal: abort.signal })
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const reader = res.body!.getReader()
    const got: { id: number; call: Call }[] = []
    let text = ''
    const pending = during?.()
    while (got.length < n) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
      let end = text.indexOf('\n\n')
      while (end >= 0) {
        const block = text.slice(0, end)
        text = text.slice(end + 2)
        const id = /^id: (\d+)$/m.exec(block)
        const data = /^data: (.*)$/m.exec(block)
        if (id && data) got.push({ id: Number(id[1]), call: JSON.parse(data[1]!) as Call })
        end = text.indexOf('\n\n')
      }
    }
    await pending
    abort.abort()
    return got
  }

  it('sends the held calls, then each new one, with its id; Last-Event-ID resumes after it', async () => {
    const before = (await traffic()).page.next
    const seen = await events({}, before + 1, async () => {
      await node.client().getInboxIds([{ identifier: wallet('traffic b').identifier.text, kind: 1 }])
    })
    expect(seen.map((e) => e.id)).toEqual(Array.from({ length: before + 1 }, (_, i) => i + 1))
    expect(seen.every((e) => e.call.id === e.id)).toBe(true)
    const resumed = await events({ 'Last-Event-ID': String(before) }, 1)
    expect(resumed.map((e) => e.id)).toEqual([before + 1])
  })
})
