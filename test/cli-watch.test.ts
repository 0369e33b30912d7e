/**
 * `watch` (../shared/contracts/cli.md) end to end: the real command line (test/support/cli.ts)
 * against the real local node process (test/devnode/harness.ts), with signed updates
 * published while it watches, over both APIs: the existing log and then each new update
 * in order; a node killed with SIGKILL and restarted on the same --db and port (no update
 * twice, none skipped); a node restarted on another store that holds another log for the
 * same inbox (a fork event with both digests); SIGINT ends it with status 0. Every wait is
 * on a line of output, never on time.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { sha256 } from '../src/crypto'
import { bytesToHex } from '../src/crypto/bytes'
import { demoInboxes, demoSigners } from '../src/devnode/demo'
import { type RunningNode, startNode, stopAll, tempDir } from './devnode/harness'
import { add, installation, newInbox, wallet } from './devnode/updates'
import { nodeArgs, runCli, spawnCli, stopAllCli } from './support/cli'

const tmp = tempDir('watch-test-')

afterAll(async () => {
  await stopAllCli()
  await stopAll()
  tmp.remove()
})

interface Row {
  sequence_id: string
  status: string
  rule: string | null
  action_index: number | null
  message: string
  inbox_id: string
  server_timestamp_ns: string
  event?: string
}

const rows = (lines: string[]): Row[] => lines.filter((l) => l.trim()).map((l) => JSON.parse(l) as Row)
const updates = (lines: string[]) => rows(lines).filter((r) => r.event === undefined)
const seqs = (lines: string[]) => updates(lines).map((r) => r.sequence_id)
const digest = (b: Uint8Array) => bytesToHex(sha256(b))

async function publish(node: RunningNode, bytes: Uint8Array): Promise<bigint> {
  return (await node.client().publishIdentityUpdate(bytes)).sequenceId
}

describe.each([
  ['identity', 'gateway'],
  ['d14n', 'connect'],
] as const)('watch --api %s --transport %s against the local node', (api, transport) => {
  it('prints the existing log, then new updates in order, resumes after kill -9 and a restart, and exits 0 on SIGINT', async () => {
    const db = tmp.path(`${api}.db`)
    let node = await startNode({ db })
    const w = wallet(`watch ${api}`)
    const created = await newInbox(w)
    const inbox = created.inboxId
    const published = [await publish(node, created.bytes)]
    published.push(await publish(node, (await add(inbox, w, installation(`watch ${api} 1`))).bytes))

    const cli = spawnCli(['watch', '--json', ...nodeArgs(node.url, api, transport), '--inbox', inbox])
    await cli.waitFor((l) => updates(l).length === 2, 'the existing log')
    await cli.waitForStderr(/live/)

    // A new update while it watches.
    published.push(await publish(node, (await add(inbox, w, installation(`watch ${api} 2`))).bytes))
    await cli.waitFor((l) => updates(l).length === 3, 'the new update')

    // kill -9, then the same store on the same port: it resumes after the last printed id.
    await node.kill9()
    const port = node.port
    const lost = cli.stderr().length
    await cli.waitForStderr(/connection lost/, lost)
    node = await startNode({ db, port })
    await cli.waitForStderr(/resumed after sequence id/, lost)
    published.push(await publish(node, (await add(inbox, w, installation(`watch ${api} 3`))).bytes))
    await cli.waitFor((l) => updates(l).length === 4, 'the update after the restart')

    cli.signal('SIGINT')
    expect((await cli.exited).code).toBe(0)
    const out = updates(cli.lines)
    expect(out.map((r) => r.sequence_id)).toEqual(published.map(String))
    for (const r of out) {
      expect(r).toEqual({
        sequence_id: r.sequence_id,
        status: 'applied',
        rule: null,
        action_index: null,
        message: '',
        inbox_id: inbox,
        server_timestamp_ns: expect.stringMatching(/^[1-9][0-9]*$/),
      })
    }
    expect(rows(cli.lines).filter((r) => r.event)).toEqual([])
    expect(cli.stderr()).toMatch(/resumed after sequence id 3/)
    await node.stop()
  })

  it('prints a fork event when a restarted node serves other bytes under a printed sequence id, then goes on', async () => {
    const w = wallet(`fork ${api}`)
    const created = await newInbox(w)
    const inbox = created.inboxId
    const first = await add(inbox, w, installation(`fork ${api} a`))
    const other = await add(inbox, w, installation(`fork ${api} b`))
    const dbA = tmp.path(`fork-a-${api}.db`)
    const dbB = tmp.path(`fork-b-${api}.db`)
    // Store B holds the same creation and then another update at the same sequence id.
    const nodeB = await startNode({ db: dbB })
    await publish(nodeB, created.bytes)
    expect(await publish(nodeB, other.bytes)).toBe(2n)
    await nodeB.stop()

    const nodeA = await startNode({ db: dbA })
    await publish(nodeA, created.bytes)
    expect(await publish(nodeA, first.bytes)).toBe(2n)
    const cli = spawnCli(['watch', '--json', ...nodeArgs(nodeA.url, api, transport), '--inbox', inbox])
    await cli.waitFor((l) => updates(l).length === 2, 'the existing log')
    await nodeA.kill9()
    const nodeB2 = await startNode({ db: dbB, port: nodeA.port })
    const lines = await cli.waitFor((l) => rows(l).some((r) => r.event === 'fork'), 'the fork event')
    expect(rows(lines).find((r) => r.event === 'fork')).toEqual({
      event: 'fork',
      inbox_id: inbox,
      sequence_id: '2',
      change: 'different bytes',
      printed_digest: digest(first.bytes),
      served_digest: digest(other.bytes),
    })
    // It goes on: a new update on node B is printed after the fork, once.
    const next = await publish(nodeB2, (await add(inbox, w, installation(`fork ${api} c`))).bytes)
    await cli.waitFor((l) => seqs(l).includes(String(next)), 'the update after the fork')
    cli.signal('SIGTERM')
    expect((await cli.exited).code).toBe(0)
    expect(seqs(cli.lines)).toEqual(['1', '2', String(next)])
    expect(rows(cli.lines).filter((r) => r.event === 'fork')).toHaveLength(1)
    await nodeB2.stop()
  })
})

describe('watch over every other transport, by every kind of target', () => {
  it('prints the existing log and a new update, and exits 0 on SIGINT', async () => {
    const node = await startNode({ db: tmp.path('many.db'), args: ['--seed', 'demo'] })
    const alice = demoInboxes().find((d) => d.name === 'alice')!
    const signers = demoSigners()
    const existing = (await node.client().getInboxLog(alice.inboxId)).entries.map((e) => String(e.sequenceId))
    const watchers = [
      ['identity', 'grpc', '--handle', 'ALICE'],
      ['identity', 'grpc-web', '--passkey', signers.alicePasskey.identifier.text],
      ['identity', 'connect', '--inbox', alice.inboxId],
      ['d14n', 'grpc', '--handle', 'alice'],
      ['d14n', 'grpc-web', '--inbox', alice.inboxId],
    ].map(([api, transport, flag, value]) =>
      spawnCli(['watch', '--json', '--node', node.url, '--api', api!, '--transport', transport!, flag!, value!]),
    )
    await Promise.all(watchers.map((w) => w.waitFor((l) => updates(l).length === existing.length, 'the existing log')))
    await Promise.all(watchers.map((w) => w.waitForStderr(/live/)))
    const next = await publish(node, (await add(alice.inboxId, signers.aliceWallet, installation('watch many'))).bytes)
    await Promise.all(
      watchers.map((w) => w.waitFor((l) => updates(l).length === existing.length + 1, 'the new update')),
    )
    for (const w of watchers) w.signal('SIGINT')
    for (const w of watchers) {
      expect((await w.exited).code, w.stderr()).toBe(0)
      expect(seqs(w.lines)).toEqual([...existing, String(next)])
      expect(updates(w.lines).every((r) => r.status === 'applied' && r.inbox_id === alice.inboxId)).toBe(true)
    }
    await node.stop()
  })
})

describe('watch: readable output and exit statuses', () => {
  it('prints one escaped line per update without --json, and notices only on stderr', async () => {
    const node = await startNode({ db: tmp.path('human.db') })
    const w = wallet('watch human')
    const created = await newInbox(w)
    await publish(node, created.bytes)
    const cli = spawnCli(['watch', '--node', node.url, '--address', w.identifier.text])
    const lines = await cli.waitFor((l) => l.length === 1, 'the first line')
    await cli.waitForStderr(/live/)
    expect(lines[0]).toMatch(/^\s+1 {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}applied$/)
    cli.signal('SIGINT')
    expect((await cli.exited).code).toBe(0)
    expect(cli.stderr()).toMatch(new RegExp(`is inbox ${created.inboxId}`))
    expect(cli.lines.filter(Boolean)).toHaveLength(1)
    await node.stop()
  })

  it('exits 1 when the node is never reached, or the inbox cannot be resolved; 2 for a usage error', async () => {
    const node = await startNode({ db: tmp.path('status.db') })
    const port = node.port
    const [unknown, usage, noTarget] = await Promise.all([
      runCli(['watch', '--node', node.url, '--address', `0x${'12'.repeat(20)}`]),
      runCli(['watch', '--node', node.url, '--api', 'd14n', '--transport', 'gateway', '--inbox', 'ab'.repeat(32)]),
      runCli(['watch', '--node', node.url]),
    ])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/knows no inbox for address/)
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/gateway serves the identity API only/)
    expect(noTarget.code).toBe(2)
    await node.stop()
    const down = await runCli([
      'watch',
      '--node',
      `http://127.0.0.1:${port}`,
      '--inbox',
      'ab'.repeat(32),
      '--connect-timeout-ms',
      '300',
    ])
    expect(down.code).toBe(1)
    expect(down.stderr.trim().split('\n').at(-1)).toMatch(/^error: .*could not be reached.*gave up after 300 ms/)
    expect(down.stdout.length).toBe(0)
  })
})
