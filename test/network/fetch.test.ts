/**
 * `fetch` (../shared/contracts/cli.md) end to end: every (API, transport) pair against
 * the real local node process (seeded with the demo inboxes) on a free 127.0.0.1 port,
 * and every bad answer against independent fake nodes (./fake-node.ts). The command runs
 * in-process through the CLI's `run` (the same code `npm run cli` runs); one test runs
 * the real process for the exit status and the streams.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fromBinary } from '@bufbuild/protobuf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/main'
import { bytesToHex } from '../../src/crypto/bytes'
import { demoInboxes } from '../../src/devnode/demo'
import { QueryEnvelopesRequestSchema } from '../../src/gen/xmtpv4/message_api/message_api_pb'
import { freePort, ROOT, type RunningNode, startNode, stopAll, tempDir } from '../devnode/harness'
import { nodeArgs } from '../support/cli'
import {
  type Answer,
  type Call,
  envelope,
  envelopesAnswer,
  type FakeNode,
  type FakeTransport,
  identityTopicOf,
  identityUpdatesAnswer,
  inboxIdsAnswer,
  startFakeNode,
} from './fake-node'

interface Result {
  status: number
  stdout: string
  stderr: string
  bundle(): {
    inbox_id: string
    node: string
    api: string
    transport: string
    updates: { sequence_id: string; server_timestamp_ns: string; update_hex: string }[]
  }
}

async function fetchCli(...argv: string[]): Promise<Result> {
  let stdout = ''
  let stderr = ''
  const status = await run(['fetch', ...argv], {
    out: (s) => (stdout += typeof s === 'string' ? s : Buffer.from(s).toString()),
    err: (s) => (stderr += s),
  })
  return { status, stdout, stderr, bundle: () => JSON.parse(stdout) }
}

const PAIRS = [
  ['identity', 'gateway'],
  ['identity', 'grpc'],
  ['identity', 'grpc-web'],
  ['identity', 'connect'],
  ['d14n', 'grpc'],
  ['d14n', 'grpc-web'],
  ['d14n', 'connect'],
] as const

const tmp = tempDir('fetch-test-')
let node: RunningNode
const demo = demoInboxes()
const alice = demo.find((d) => d.name === 'alice')!
const carol = demo.find((d) => d.name === 'carol')!
/** What the node stores for alice, read over the HTTP API: the reference bytes. */
let aliceRows: { sequenceId: bigint; hex: string }[]

beforeAll(async () => {
  node = await startNode({ db: tmp.path('node.db'), args: ['--seed', 'demo'] })
  const log = await node.client().getInboxLog(alice.inboxId)
  aliceRows = log.entries.map((e) => ({
    sequenceId: e.sequenceId,
    hex: bytesToHex('bytes' in e.update && e.update.bytes ? e.update.bytes : new Uint8Array()),
  }))
  expect(aliceRows.length).toBeGreaterThan(1)
}, 60_000)

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

describe('fetch against the local node, every (API, transport) pair', () => {
  for (const [api, transport] of PAIRS) {
    it(`${api} over ${transport}: by inbox, address, passkey and handle; the exact stored bytes in order`, async () => {
      const expected = aliceRows.map((r) => ({ sequence_id: String(r.sequenceId), update_hex: r.hex }))
      const byInbox = await fetchCli(...nodeArgs(node.url, api, transport), '--inbox', alice.inboxId)
      expect(byInbox.stderr).toBe('')
      expect(byInbox.status).toBe(0)
      const b = byInbox.bundle()
      expect(b).toMatchObject({ inbox_id: alice.inboxId, node: node.url, api, transport })
      expect(b.updates.map(({ sequence_id, update_hex }) => ({ sequence_id, update_hex }))).toEqual(expected)
      expect(b.updates.every((u) => /^[1-9][0-9]*$/.test(u.server_timestamp_ns))).toBe(true)

      const byAddress = await fetchCli(...nodeArgs(node.url, api, transport), '--address', alice.creator)
      // alice's wallet is live in two inboxes; resolution names the newer association (alice-work).
      expect(byAddress.status, byAddress.stderr).toBe(0)
      expect(byAddress.bundle().inbox_id).toBe(demo.find((d) => d.name === 'alice-work')!.inboxId)

      const byPasskey = await fetchCli(...nodeArgs(node.url, api, transport), '--passkey', carol.creator)
      expect(byPasskey.status, byPasskey.stderr).toBe(0)
      expect(byPasskey.bundle().inbox_id).toBe(carol.inboxId)

      const byHandle = await fetchCli('--node', node.url, '--api', api, '--transport', transport, '--handle', 'ALICE')
      expect(byHandle.status, byHandle.stderr).toBe(0)
      expect(byHandle.bundle()).toEqual(b)
    }, 60_000)
  }

  it('d14n follows the last_seen cursor page by page (--page-size 1) to the same log', async () => {
    const r = await fetchCli('--node', node.url, '--api', 'd14n', '--inbox', alice.inboxId, '--page-size', '1')
    expect(r.status, r.stderr).toBe(0)
    expect(r.bundle().updates.map((u) => u.update_hex)).toEqual(aliceRows.map((x) => x.hex))
  })

  it('an inbox the node does not know gives an empty log (exit 0), over both APIs', async () => {
    for (const api of ['identity', 'd14n']) {
      const r = await fetchCli('--node', node.url, '--api', api, '--inbox', 'ab'.repeat(32))
      expect(r.status, r.stderr).toBe(0)
      expect(r.bundle().updates).toEqual([])
    }
  })

  it('--out writes the bundle to a file; the bundle replays as the fixture format 1', async () => {
    const out = tmp.path('alice.json')
    const r = await fetchCli(...nodeArgs(node.url, 'd14n', 'grpc'), '--inbox', alice.inboxId, '--out', out)
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toBe('')
    let report = ''
    const s = await run(['replay', '--json', out], { out: (x) => (report += String(x)), err: () => {} })
    expect(s).toBe(0)
    const parsed = JSON.parse(report)
    expect(parsed.ok).toBe(true)
    expect(parsed.state.handles).toEqual(['ally', 'alice'])
  })

  it('the process: npm run cli -- fetch prints one JSON line and exits 0; a usage error exits 2', () => {
    const ok = spawnSync(
      'npx',
      ['tsx', 'src/cli/main.ts', 'fetch', '--node', node.url, '--api', 'd14n', '--inbox', alice.inboxId],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    )
    expect(ok.status, ok.stderr).toBe(0)
    expect(ok.stdout.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(ok.stdout).updates).toHaveLength(aliceRows.length)
    const bad = spawnSync(
      'npx',
      ['tsx', 'src/cli/main.ts', 'fetch', ...nodeArgs(node.url, 'd14n', 'gateway'), '--inbox', alice.inboxId],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    )
    expect(bad.status).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
  }, 60_000)
})

describe('usage errors (exit 2)', () => {
  const cases: [string, string[], RegExp][] = [
    ['no --node', ['--inbox', 'ab'], /--node/],
    [
      'gateway with d14n',
      ['--node', 'http://127.0.0.1:1', '--api', 'd14n', '--transport', 'gateway', '--inbox', 'ab'],
      /gateway/,
    ],
    ['two targets', ['--node', 'http://127.0.0.1:1', '--inbox', 'ab', '--handle', 'x'], /one of/],
    ['no target', ['--node', 'http://127.0.0.1:1'], /one of/],
    [
      'unknown transport',
      ['--node', 'http://127.0.0.1:1', '--transport', 'carrier-pigeon', '--inbox', 'ab'],
      /--transport/,
    ],
    ['unknown api', ['--node', 'http://127.0.0.1:1', '--api', 'v2', '--inbox', 'ab'], /--api/],
    ['not a URL', ['--node', 'localhost', '--inbox', 'ab'], /URL/],
    ['a bad address', ['--node', 'http://127.0.0.1:1', '--address', '0x12'], /Ethereum address/],
    ['an unknown flag', ['--node', 'http://127.0.0.1:1', '--inbox', 'ab', '--verbose'], /verbose/],
  ]
  for (const [name, argv, re] of cases) {
    it(name, async () => {
      const r = await fetchCli(...argv)
      expect(r.status).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(re)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    })
  }
})

// ---------------------------------------------------------------------------------------
// Hostile and broken nodes.

/** The fixture's inbox (valid-full-life.json): the fake nodes serve its updates. */
const INBOX = '9de91141418f940e1fe889afcf8aa21605debdc9df44603ca60ac167a60c6187'
const OTHER = 'cd'.repeat(32)
let updates: Uint8Array[]
const fakes: FakeNode[] = []

beforeAll(() => {
  const bundle = JSON.parse(readFileSync(`${ROOT}/test/fixtures/valid-full-life.json`, 'utf8')) as {
    updates: { update_hex: string }[]
  }
  updates = bundle.updates.map((u) => new Uint8Array(Buffer.from(u.update_hex, 'hex')))
})
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()))
})

async function fake(t: FakeTransport, answer: (call: Call, i: number) => Answer): Promise<FakeNode> {
  const f = await startFakeNode(t, answer)
  fakes.push(f)
  return f
}

/** A one-line error on stderr naming the node, the API and the transport; exit 1; nothing on stdout. */
function expectFailure(r: Result, f: { url: string }, api: string, transport: string, what: RegExp): void {
  expect(r.status, r.stderr).toBe(1)
  expect(r.stdout).toBe('')
  const lines = r.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain(f.url)
  expect(lines[0]).toContain(`${api} API over ${transport}`)
  expect(lines[0]).toMatch(what)
}

/** The fake's rows for INBOX: the fixture updates under sequence ids 1..n. */
const rows = () => updates.map((u, i) => ({ sequenceId: BigInt(i + 1), serverTimestampNs: 5n + BigInt(i), update: u }))

const identityTransports: FakeTransport[] = ['gateway', 'grpc', 'grpc-web', 'connect']
const rpcTransports: FakeTransport[] = ['grpc', 'grpc-web', 'connect']

describe('fetch against independent fake nodes', () => {
  it('a fake node that tells the truth gives the exact bytes it served, over every pair', async () => {
    for (const t of identityTransports) {
      const f = await fake(t, () => ({ message: identityUpdatesAnswer(INBOX, rows()) }))
      const r = await fetchCli('--node', f.url, '--transport', t, '--inbox', INBOX)
      expect(r.status, r.stderr).toBe(0)
      expect(r.bundle().updates.map((u) => u.update_hex)).toEqual(updates.map(bytesToHex))
      expect(r.bundle().updates[1]!.server_timestamp_ns).toBe('6')
      expect(f.calls[0]!.path).toBe(
        t === 'gateway' ? '/identity/v1/get-identity-updates' : '/xmtp.identity.api.v1.IdentityApi/GetIdentityUpdates',
      )
    }
    for (const t of rpcTransports) {
      const f = await fake(t, (c) => {
        const req = fromBinary(QueryEnvelopesRequestSchema, c.body)
        const after = req.query?.lastSeen?.nodeIdToSequenceId[1] ?? 0n
        // Two envelopes per page, xmtpd's order, after the cursor.
        const page = rows()
          .filter((x) => x.sequenceId > after)
          .slice(0, 2)
          .map((x) => envelope({ sequenceId: x.sequenceId, update: x.update, topic: identityTopicOf(INBOX) }))
        return { message: envelopesAnswer(page) }
      })
      const r = await fetchCli('--node', f.url, '--api', 'd14n', '--transport', t, '--inbox', INBOX)
      expect(r.status, r.stderr).toBe(0)
      expect(r.bundle().updates.map((u) => u.update_hex)).toEqual(updates.map(bytesToHex))
      expect(f.calls[0]!.path).toBe('/xmtp.xmtpv4.message_api.QueryApi/QueryEnvelopes')
      const topic = fromBinary(QueryEnvelopesRequestSchema, f.calls[0]!.body).query!.topics[0]!
      expect(bytesToHex(topic)).toBe(`02${INBOX}`)
      // Pages of two until an empty one.
      expect(f.calls).toHaveLength(Math.ceil(updates.length / 2) + 1)
    }
  }, 60_000)

  it('unreachable node: exit 1 naming the node and transport, over every pair', async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    for (const [api, t] of PAIRS) {
      const r = await fetchCli('--node', url, '--api', api, '--transport', t, '--inbox', INBOX)
      expectFailure(r, { url }, api, t, /could not be reached/)
    }
  })

  it('TLS refused: an https:// URL to a node that speaks cleartext, on one line', async () => {
    for (const t of ['gateway', 'connect', 'grpc-web', 'grpc'] as const) {
      const f = await fake(t === 'gateway' ? 'gateway' : t, () => ({ message: identityUpdatesAnswer(INBOX, rows()) }))
      const url = f.url.replace('http:', 'https:')
      const r = await fetchCli('--node', url, '--transport', t, '--inbox', INBOX)
      expectFailure(r, { url }, 'identity', t, /TLS connection was refused/)
    }
  })

  it('gRPC to a node that speaks only HTTP/1.1: exit 1 saying so', async () => {
    const f = await fake('gateway', () => ({ message: identityUpdatesAnswer(INBOX, rows()) }))
    const r = await fetchCli('--node', f.url, '--transport', 'grpc', '--inbox', INBOX)
    expectFailure(r, f, 'identity', 'grpc', /HTTP\/2/)
  })

  it('404 / unimplemented: the node does not serve the service', async () => {
    for (const t of identityTransports) {
      const f = await fake(t, () =>
        t === 'grpc'
          ? { error: { grpc: 12, connect: 'unimplemented', message: 'unknown service' } }
          : { http: { status: 404, contentType: 'text/plain', body: '404 page not found' } },
      )
      const r = await fetchCli('--node', f.url, '--transport', t, '--inbox', INBOX)
      expectFailure(r, f, 'identity', t, /does not serve/)
    }
  })

  it('gRPC and Connect error statuses are reported with their code and message', async () => {
    for (const t of rpcTransports) {
      const f = await fake(t, () => ({ error: { grpc: 14, connect: 'unavailable', message: 'database is down' } }))
      const r = await fetchCli('--node', f.url, '--api', 'd14n', '--transport', t, '--inbox', INBOX)
      expectFailure(r, f, 'd14n', t, /Unavailable.*database is down/)
    }
    const g = await fake('gateway', () => ({
      http: { status: 500, contentType: 'application/json', body: '{"code":13,"message":"boom"}' },
    }))
    expectFailure(await fetchCli('--node', g.url, '--inbox', INBOX), g, 'identity', 'gateway', /HTTP 500.*boom/)
  })

  it('a truncated frame is an error, never a shorter log', async () => {
    for (const t of identityTransports) {
      const f = await fake(t, () => ({ truncated: identityUpdatesAnswer(INBOX, rows()), cut: 7 }))
      const r = await fetchCli('--node', f.url, '--transport', t, '--inbox', INBOX)
      expect(r.status, `${t}: ${r.stderr}`).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(f.url)
      expect(r.stderr).toContain(`over ${t}`)
      expect(r.stderr).toMatch(/cut off|truncated frame/)
    }
  })

  it('an answer that is not protobuf (HTML, JSON, random bytes) is refused', async () => {
    const bodies: Answer[] = [
      { http: { status: 200, contentType: 'text/html', body: '<html><body>Welcome</body></html>' } },
      { http: { status: 200, contentType: 'application/json', body: '{"responses":[]}' } },
    ]
    for (const t of identityTransports) {
      for (const a of bodies) {
        const f = await fake(t, () => a)
        const r = await fetchCli('--node', f.url, '--transport', t, '--inbox', INBOX)
        expect(r.status, `${t}: ${r.stderr}`).toBe(1)
        expect(r.stderr).toContain(`identity API over ${t}`)
      }
      // The right content type around bytes that are not the message.
      const f = await fake(t, () => ({ message: new TextEncoder().encode('<html>not protobuf</html>') }))
      const r = await fetchCli('--node', f.url, '--transport', t, '--inbox', INBOX)
      expectFailure(r, f, 'identity', t, /not a GetIdentityUpdatesResponse/)
    }
  })

  it('an answer naming another inbox is refused (identity API)', async () => {
    for (const t of identityTransports) {
      const f = await fake(t, () => ({ message: identityUpdatesAnswer(OTHER, rows()) }))
      const r = await fetchCli('--node', f.url, '--transport', t, '--inbox', INBOX)
      expectFailure(r, f, 'identity', t, new RegExp(`names inbox ${OTHER}`))
    }
  })

  it('duplicate sequence ids are refused (identity answer; d14n page; d14n repeat with other bytes)', async () => {
    const dup = [...rows(), { sequenceId: 2n, update: updates[0]! }]
    for (const t of identityTransports) {
      const f = await fake(t, () => ({ message: identityUpdatesAnswer(INBOX, dup) }))
      expectFailure(
        await fetchCli('--node', f.url, '--transport', t, '--inbox', INBOX),
        f,
        'identity',
        t,
        /sequence id 2 twice/,
      )
    }
    for (const t of rpcTransports) {
      const f = await fake(t, () => ({
        message: envelopesAnswer([
          envelope({ sequenceId: 1n, update: updates[0]! }),
          envelope({ sequenceId: 1n, update: updates[1]! }),
        ]),
      }))
      expectFailure(
        await fetchCli('--node', f.url, '--api', 'd14n', '--transport', t, '--inbox', INBOX),
        f,
        'd14n',
        t,
        /sequence id 1 twice/,
      )
    }
    // Page 2 serves sequence id 1 again with different bytes.
    const f = await fake('connect', (_c, i) => ({
      message: envelopesAnswer([
        envelope({ sequenceId: i === 0 ? 1n : 1n, update: updates[i === 0 ? 0 : 1]! }),
        envelope({ sequenceId: BigInt(i + 2), update: updates[2]! }),
      ]),
    }))
    expectFailure(
      await fetchCli('--node', f.url, '--api', 'd14n', '--inbox', INBOX),
      f,
      'd14n',
      'connect',
      /again with different update bytes/,
    )
  })

  it('d14n: an envelope that does not unwrap is reported on stderr and left out; the fetch goes on', async () => {
    const group = new Uint8Array([0x12, 0x02, 0x0a, 0x00]) // ClientEnvelope { group_message = 2 }
    for (const t of rpcTransports) {
      const f = await fake(t, (c) => {
        const after = fromBinary(QueryEnvelopesRequestSchema, c.body).query?.lastSeen?.nodeIdToSequenceId[1] ?? 0n
        if (after > 0n) return { message: envelopesAnswer([]) }
        return {
          message: envelopesAnswer([
            envelope({ sequenceId: 1n, update: updates[0]! }),
            new Uint8Array([0x0a, 0x03, 0xff, 0xff, 0xff]), // unsigned envelope is not protobuf
            envelope({ sequenceId: 3n, clientEnvelope: group }),
            envelope({ sequenceId: 4n, update: updates[1]!, topic: identityTopicOf(OTHER) }),
            envelope({ sequenceId: 5n, update: updates[2]! }),
          ]),
        }
      })
      const r = await fetchCli('--node', f.url, '--api', 'd14n', '--transport', t, '--inbox', INBOX)
      expect(r.status, r.stderr).toBe(0)
      expect(r.bundle().updates.map((u) => u.sequence_id)).toEqual(['1', '5'])
      const warnings = r.stderr.trim().split('\n')
      expect(warnings).toHaveLength(3)
      expect(warnings[0]).toMatch(/not a UnsignedOriginatorEnvelope/)
      expect(warnings[1]).toMatch(/sequence id 3.*group_message, not an identity_update/)
      expect(warnings[2]).toMatch(new RegExp(`sequence id 4.*inbox ${OTHER}`))
      for (const w of warnings) expect(w).toContain(`${f.url} (d14n API over ${t})`)
    }
  })

  it('d14n: a node that ignores the cursor (the same page forever) ends after the page that adds nothing', async () => {
    const f = await fake('grpc', () => ({
      message: envelopesAnswer([envelope({ sequenceId: 1n, update: updates[0]! })]),
    }))
    const r = await fetchCli('--node', f.url, '--api', 'd14n', '--transport', 'grpc', '--inbox', INBOX)
    expect(r.status, r.stderr).toBe(0)
    expect(r.bundle().updates).toHaveLength(1)
    expect(f.calls).toHaveLength(2)
  })

  it('d14n: a node that pages forever is stopped at --max-pages with exit 1', async () => {
    const f = await fake('connect', (_c, i) => ({
      message: envelopesAnswer([envelope({ sequenceId: BigInt(i + 1), update: updates[0]! })]),
    }))
    const r = await fetchCli('--node', f.url, '--api', 'd14n', '--inbox', INBOX, '--max-pages', '5')
    expectFailure(r, f, 'd14n', 'connect', /after 5 pages/)
    expect(f.calls).toHaveLength(5)
  })

  it('--handle: an answer whose log does not hold the handle is refused (IDENT-085), naming the inbox', async () => {
    for (const t of ['gateway', 'grpc-web'] as const) {
      const f = await fake(t, (c) =>
        c.path.endsWith('get-inbox-ids') || c.path.endsWith('/GetInboxIds')
          ? { message: inboxIdsAnswer('mallory', INBOX, 3) }
          : { message: identityUpdatesAnswer(INBOX, rows()) },
      )
      const r = await fetchCli('--node', f.url, '--transport', t, '--handle', 'mallory')
      expectFailure(r, f, 'identity', t, new RegExp(`inbox ${INBOX}.*IDENT-085`))
    }
  })

  it('--address the node knows no inbox for: exit 1 saying so', async () => {
    const f = await fake('connect', () => ({ message: inboxIdsAnswer(`0x${'11'.repeat(20)}`, null, 1) }))
    const r = await fetchCli('--node', f.url, '--api', 'd14n', '--address', `0x${'11'.repeat(20)}`)
    expectFailure(r, f, 'd14n', 'connect', /knows no inbox/)
    expect(f.calls[0]!.path).toBe('/xmtp.xmtpv4.message_api.QueryApi/GetInboxIds')
  })
})
