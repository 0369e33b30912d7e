/**
 * `audit --node` against the real local node (test/devnode/harness.ts) seeded with many
 * inboxes: over d14n (the node lists every inbox itself: QueryEnvelopes by the identity
 * originator) and over the identity API (`--inboxes`), the same rows, with the node URL as
 * `source`; with `--db`, a later run judges only the update that arrived since, and
 * `--against` the earlier report marks that inbox; a node that withholds an update, audited
 * against one that does not, shows the hole in its sequence ids and the inbox that differs.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { add, installation, newInbox, wallet } from '../devnode/updates'
import { freePort, type RunningNode, startNode, stopAll, tempDir } from '../devnode/harness'
import { auditRun, killAll, rowKey, startCli, verdictOf } from './support'

const tmp = tempDir('audit-node-')
let node: RunningNode
const inboxes: string[] = []
/** The global sequence id of an add in the middle of the node's log. */
let middleAdd: { inboxId: string; sequenceId: bigint }
const INBOXES = 12

beforeAll(async () => {
  node = await startNode({ db: tmp.path('node.db') })
  const client = node.client()
  for (let i = 0; i < INBOXES; i++) {
    const w = wallet(`audit node ${i}`)
    const created = await newInbox(w, { install: installation(`audit node ${i} a`) })
    await client.publishIdentityUpdate(created.bytes)
    inboxes.push(created.inboxId)
    if (i % 2 === 0) {
      const r = await client.publishIdentityUpdate(
        (await add(created.inboxId, w, installation(`audit node ${i} b`))).bytes,
      )
      if (i === 4) middleAdd = { inboxId: created.inboxId, sequenceId: r.sequenceId }
    }
  }
}, 180_000)

afterAll(async () => {
  killAll()
  await stopAll()
  tmp.remove()
})

describe('audit --node', () => {
  it('lists every inbox over d14n and gives the rows the identity API gives for the same inboxes', async () => {
    const d14n = await auditRun(['audit', '--json', '--node', node.url, '--api', 'd14n', '--jobs', '2'])
    expect(d14n.code, d14n.stderr).toBe(0)
    const rows = d14n.report!.rows
    expect(rows.map((r) => r.inbox_id).sort()).toEqual([...inboxes].sort())
    for (const r of rows) expect(r).toMatchObject({ source: node.url, ok: true, first_failure: null })
    expect(d14n.report!.summary).toMatchObject({ inboxes: INBOXES, ok: INBOXES, updates: INBOXES + INBOXES / 2 })
    expect(d14n.report!.summary!.sequence_gaps).toEqual([])

    const list = tmp.path('inboxes.txt')
    writeFileSync(list, `# the seeded inboxes\n${inboxes.join('\n')}\n\n${inboxes[0]}\n`)
    for (const transport of ['gateway', 'grpc']) {
      const identity = await auditRun([
        'audit',
        '--json',
        '--node',
        node.url,
        '--inboxes',
        list,
        '--transport',
        transport,
      ])
      expect(identity.code, identity.stderr).toBe(0)
      expect(identity.report!.rows.length).toBe(INBOXES)
      const byInbox = new Map(rows.map((r) => [r.inbox_id, r]))
      for (const r of identity.report!.rows) {
        expect(r.source).toBe(node.url)
        expect(verdictOf(r)).toEqual(verdictOf(byInbox.get(r.inbox_id)!))
      }
    }
  })

  it('with --db judges only what arrived since; --against marks the inbox whose state and log changed', async () => {
    const db = tmp.path('audit.db')
    const first = await auditRun(['audit', '--json', '--node', node.url, '--db', db])
    expect(first.code, first.stderr).toBe(0)
    const report = tmp.path('first.jsonl')
    writeFileSync(report, first.stdout)
    const target = inboxes[1]!
    await node
      .client()
      .publishIdentityUpdate((await add(target, wallet('audit node 1'), installation('audit node 1 c'))).bytes)

    const later = await auditRun(['audit', '--json', '--node', node.url, '--db', db, '--against', report])
    expect(later.code, later.stderr).toBe(0)
    const rows = later.report!.rows
    expect(rows.length).toBe(INBOXES)
    for (const r of rows) {
      if (r.inbox_id === target) {
        expect(r).toMatchObject({ checked: 1, updates: 2, ok: true, members: 3, changed: ['state', 'log'] })
      } else expect(r).toMatchObject({ checked: 0, changed: [] })
    }
    expect(later.report!.summary).toMatchObject({
      checked: 1,
      changed: { new: 0, verdict: 0, state: 1, log: 1, gone: 0 },
    })
  })

  it('reports the hole a node that withholds an update leaves, against a node that does not', async () => {
    const full = await auditRun(['audit', '--json', '--node', node.url])
    expect(full.code).toBe(0)
    const fullReport = tmp.path('full.jsonl')
    writeFileSync(fullReport, full.stdout)
    // A second node from a copy of the first's store, without one update in the middle.
    await node.stop()
    const copy = tmp.path('withholding.db')
    copyFileSync(tmp.path('node.db'), copy)
    if (existsSync(tmp.path('node.db-wal'))) copyFileSync(tmp.path('node.db-wal'), `${copy}-wal`)
    const sql = new Database(copy)
    const inboxAt = (seq: bigint) =>
      (sql.prepare('SELECT inbox_id FROM updates WHERE sequence_id = ?').get(seq) as { inbox_id: string }).inbox_id
    const [afterInbox, beforeInbox] = [inboxAt(middleAdd.sequenceId - 1n), inboxAt(middleAdd.sequenceId + 1n)]
    sql.prepare('DELETE FROM updates WHERE sequence_id = ?').run(middleAdd.sequenceId)
    sql.prepare('DELETE FROM heads WHERE inbox_id = ?').run(middleAdd.inboxId)
    sql.close()
    node = await startNode({ db: tmp.path('node.db') })
    const withholding = await startNode({ db: copy })

    const r = await auditRun(['audit', '--json', '--node', withholding.url, '--against', fullReport])
    expect(r.code, r.stderr).toBe(0)
    const s = middleAdd.sequenceId
    const hole = { after: String(s - 1n), before: String(s + 1n), missing: '1' }
    // The hole names the inboxes of the updates on either side, and their rows list it.
    expect(r.report!.summary!.sequence_gaps).toEqual([
      {
        ...hole,
        after_inbox: afterInbox,
        before_inbox: beforeInbox,
        ...(afterInbox === beforeInbox ? { inbox_id: afterInbox } : {}),
      },
    ])
    const marked = r.report!.rows.filter((x) => x.sequence_gaps !== undefined)
    expect(marked.map((x) => x.inbox_id).sort()).toEqual([...new Set([afterInbox, beforeInbox])].sort())
    for (const x of marked) expect(x.sequence_gaps).toEqual([hole])
    const changed = r.report!.rows.filter((x) => (x.changed as string[]).length > 0)
    expect(changed.map((x) => x.inbox_id)).toEqual([middleAdd.inboxId])
    expect(changed[0]!.changed).toEqual(['state', 'log'])
    expect(r.report!.rows.map(rowKey).length).toBe(INBOXES)
  })
})

describe('audit --follow', () => {
  it('prints the row of an inbox again when the node takes a new update, and exits 0 on SIGTERM', async () => {
    const f = startCli(['audit', '--json', '--node', node.url, '--follow', '--jobs', '1'])
    await f.until((out) => /"summary"/.test(out))
    const before = f.stdout().length
    const target = inboxes[3]!
    await node
      .client()
      .publishIdentityUpdate((await add(target, wallet('audit node 3'), installation('audit node 3 f'))).bytes)
    await f.until((out) => out.slice(before).includes(`"inbox_id":"${target}"`), 30_000)
    const row = JSON.parse(f.stdout().slice(before).trim().split('\n').at(-1)!) as Record<string, unknown>
    expect(row).toMatchObject({ source: node.url, inbox_id: target, ok: true, checked: 1 })
    f.proc.kill('SIGTERM')
    expect(await f.exited).toBe(0)
  })
})

describe('audit --node, unreachable', () => {
  it('exits 1 with one line naming the node, over either API', async () => {
    const list = tmp.path('one.txt')
    writeFileSync(list, `${'0'.repeat(64)}\n`)
    const port = String(await freePort()) // free, and nothing is started on it
    for (const args of [
      ['--node', `http://127.0.0.1:${port}`],
      ['--node', `http://127.0.0.1:${port}`, '--inboxes', list],
    ]) {
      const r = await auditRun(['audit', '--json', ...args])
      expect(r.code, args.join(' ')).toBe(1)
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('error: '))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain(`http://127.0.0.1:${port}`)
      expect(r.stdout).toBe('')
    }
  })
})
