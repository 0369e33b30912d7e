/**
 * The node's flags (parsing only) and seeding: `--seed demo` (the generated demo
 * inboxes) and `--seed <log file>`, through admission, into an empty store only.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { currentHandles } from '../../src/core/handles'
import { DEFAULT_POLICY } from '../../src/devnode/admission'
import { NodeApi } from '../../src/devnode/api'
import { UsageError } from '../../src/cli/io'
import { parseNodeArgs } from '../../src/devnode/args'
import { demoInboxes, demoSigners, demoUpdates } from '../../src/devnode/demo'
import { LocalNode, seedUpdates } from '../../src/devnode/node'
import { ROOT, startNode, stopAll, tempDir } from './harness'

const tmp = tempDir('devnode-seed-')
const nodes: LocalNode[] = []
afterAll(async () => {
  for (const n of nodes) await n.close(0).catch(() => {})
  await stopAll()
  tmp.remove()
})

describe('flags', () => {
  it('--port and --db are required; policy flags parse; a bad value is a usage error', () => {
    const c = parseNodeArgs(['--port', '0', '--db', 'x.db'])
    expect(c).toMatchObject({ host: '127.0.0.1', port: 0, db: 'x.db', seed: null, maxBodyBytes: 1024 * 1024 })
    expect(c.policy).toEqual(DEFAULT_POLICY)
    const p = parseNodeArgs([
      '--port',
      '5555',
      '--db',
      'x.db',
      '--min-handle-length',
      '5',
      '--reserved',
      'a, b,,c',
      '--claim-interval-s',
      '1.5',
      '--max-body-bytes',
      '100',
      '--chain',
      'eip155:1=http://127.0.0.1:8545',
      '--seed',
      'demo',
    ])
    expect(p.policy).toEqual({ minHandleLength: 5, reserved: ['a', 'b', 'c'], claimIntervalNs: 1_500_000_000n })
    expect(p.routes.get(1n)).toBe('http://127.0.0.1:8545')
    expect(p.seed).toBe('demo')
    for (const bad of [
      [],
      ['--db', 'x'],
      ['--port', '1'],
      ['--port', 'x', '--db', 'd'],
      ['--port', '70000', '--db', 'd'],
      ['--port', '1', '--db', 'd', '--claim-interval-s', '-1'],
      ['--port', '1', '--db', 'd', '--chain', 'eip155:01=http://x'],
      ['--port', '1', '--db', 'd', '--bogus'],
    ]) {
      expect(() => parseNodeArgs(bad), bad.join(' ')).toThrow(UsageError)
    }
  })
})

describe('seeding', () => {
  it('--seed demo: every demo update is admitted under the default policy; handles and the two-inbox wallet resolve as the demo says; a second seed is skipped', async () => {
    const node = new LocalNode({ db: tmp.path('demo.db') })
    nodes.push(node)
    const r = await node.seed(await demoUpdates())
    expect(r).toEqual({ stored: 12, refused: [], skipped: false })
    const api = new NodeApi({ store: node.store, heads: node.heads, admission: node.admission })
    for (const inbox of demoInboxes()) {
      for (const h of inbox.handles) expect(api.resolveHandle(h.toUpperCase()), h).toBe(inbox.inboxId)
      const head = await node.heads.get(inbox.inboxId)
      expect(head.kind).toBe('ok')
      expect(currentHandles(head.state).current).toBe(inbox.handles[inbox.handles.length - 1])
    }
    const alice = demoSigners().aliceWallet.identifier
    const work = demoInboxes().find((i) => i.name === 'alice-work')!
    const res = await api.resolve(alice)
    expect(res.inboxId).toBe(work.inboxId)
    expect(res.live).toHaveLength(2)
    expect(await node.seed(await demoUpdates())).toEqual({ stored: 0, refused: [], skipped: true })
  })

  it('--seed <file>: a fixture log is stored in sequence id order and replays to its declared state', async () => {
    const node = new LocalNode({
      db: tmp.path('fixture.db'),
      policy: { minHandleLength: 0, reserved: [], claimIntervalNs: 0n },
    })
    nodes.push(node)
    const file = join(ROOT, 'test/fixtures/valid-full-life.json')
    const updates = await seedUpdates(file, (p) => new Uint8Array(readFileSync(p)))
    const r = await node.seed(updates)
    expect(r.refused).toEqual([])
    expect(r.stored).toBe(updates.length)
    const expected = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/valid-full-life.expected.json'), 'utf8')) as {
      inbox_id: string
      state: { handles: string[] }
    }
    const head = await node.heads.get(expected.inbox_id)
    expect(head.state!.handles).toEqual(expected.state.handles)
  })

  it('the process: --seed demo logs what it stored on stderr and serves the demo; SIGTERM and SIGINT close the store and exit 0; a restart seeds nothing and serves what was stored', async () => {
    const db = tmp.path('proc-demo.db')
    const first = await startNode({ db, args: ['--seed', 'demo'] })
    expect(first.stderr()).toContain('--seed demo: stored 12 update(s)')
    const [bob] = await first.client().getInboxIds([{ identifier: 'Bob', kind: 'handle' }])
    const bobId = demoInboxes().find((i) => i.name === 'bob')!.inboxId
    expect(bob!.inboxId).toBe(bobId)
    const newest = await first.client().queryNewest([bobId])
    expect(await first.stop()).toBe(0) // SIGTERM
    const again = await startNode({ db, args: ['--seed', 'demo'] })
    expect(again.stderr()).toContain('the store is not empty; nothing seeded')
    expect(await again.client().queryNewest([bobId])).toEqual(newest)
    again.proc.kill('SIGINT')
    expect((await again.exited).code).toBe(0)
  })
})
