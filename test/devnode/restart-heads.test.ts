/**
 * Issue #14, "also seen": the node's first publish after a restart waited while it
 * replayed stored logs. Head states are saved beside the log (src/devnode/heads.ts) and
 * used only when they match it; without a usable saved head, only the inbox the publish
 * goes to is replayed. The cost is counted (stored updates replayed, Heads.replayed),
 * never timed.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { LocalNode } from '../../src/devnode/node'
import { apiOf, nodeScratch, publishTo } from './in-process'
import { add, installation, newInbox, wallet } from './updates'

const scratch = nodeScratch('devnode-restart-heads-')

function open(db: string) {
  const node = scratch.keep(new LocalNode({ db }))
  return { node, publish: publishTo(apiOf(node)) }
}

const INBOXES = 4
let stores = 0

/** A store with INBOXES inboxes of two updates each (written by a node that is then closed). */
async function storeOfFour(label: string) {
  const db = scratch.path(`r${++stores}.db`)
  const { node, publish } = open(db)
  const inboxes: { inboxId: string; w: ReturnType<typeof wallet> }[] = []
  for (let i = 0; i < INBOXES; i++) {
    const w = wallet(`${label} ${i}`)
    const created = await newInbox(w, { install: installation(`${label} ${i} a`) })
    expect(await publish(created.bytes)).toBeInstanceOf(Uint8Array)
    expect(await publish((await add(created.inboxId, w, installation(`${label} ${i} b`))).bytes)).toBeInstanceOf(
      Uint8Array,
    )
    inboxes.push({ inboxId: created.inboxId, w })
  }
  await node.close(0)
  return { db, inboxes }
}

/** The head of the inbox as a full replay builds it (no saved heads), for comparison. */
async function replayedHead(db: string, inboxId: string) {
  const sql = new Database(db)
  sql.prepare('DELETE FROM heads').run()
  sql.close()
  const { node } = open(db)
  const head = await node.heads.get(inboxId)
  expect(node.heads.replayed).toBe(3)
  await node.close(0)
  const s = head.state!
  return {
    members: [...s.members.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    seen: [...s.seen].sort(),
    recovery: s.recovery,
    sequenceId: s.sequenceId,
  }
}

describe('issue #14, also seen: the first publish after a restart', () => {
  it('also seen: first publish after restart replays no stored update when the saved heads match the log', async () => {
    const { db, inboxes } = await storeOfFour('saved')
    const { node, publish } = open(db)
    const [first] = inboxes
    const r = await publish((await add(first!.inboxId, first!.w, installation('saved 0 c'))).bytes)
    expect(r).toBeInstanceOf(Uint8Array)
    // Before: every update of the inbox's log was decoded, verified and applied again.
    expect(node.heads.replayed).toBe(0)
    const head = await node.heads.get(first!.inboxId)
    expect(head.state!.members.size).toBe(4)
    await node.close(0)
    // The head the node used and saved is the one a full replay builds.
    const saved = await (async () => {
      const again = open(db)
      const h = (await again.node.heads.get(first!.inboxId)).state!
      expect(again.node.heads.replayed).toBe(0)
      await again.node.close(0)
      return {
        members: [...h.members.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
        seen: [...h.seen].sort(),
        recovery: h.recovery,
        sequenceId: h.sequenceId,
      }
    })()
    expect(saved).toEqual(await replayedHead(db, first!.inboxId))
  })

  it('also seen: first publish after restart: a saved head that does not match the log is not used; that inbox alone is replayed', async () => {
    const { db, inboxes } = await storeOfFour('tampered')
    const [first, second, third] = inboxes
    const sql = new Database(db)
    // A digest that is not the log's, a head as of an older id, a state that cannot be read.
    sql.prepare('UPDATE heads SET log_digest = zeroblob(32) WHERE inbox_id = ?').run(first!.inboxId)
    sql.prepare('UPDATE heads SET sequence_id = sequence_id - 1 WHERE inbox_id = ?').run(second!.inboxId)
    sql.prepare('UPDATE heads SET state = zeroblob(8) WHERE inbox_id = ?').run(third!.inboxId)
    sql.close()
    const { node, publish } = open(db)
    let replayed = 0
    for (const [i, inbox] of [first!, second!, third!].entries()) {
      const r = await publish((await add(inbox.inboxId, inbox.w, installation(`tampered ${i} c`))).bytes)
      expect(r).toBeInstanceOf(Uint8Array)
      replayed += 2
      expect(node.heads.replayed).toBe(replayed)
    }
    // The fourth inbox's saved head still matches: nothing replayed for it.
    const fourth = inboxes[3]!
    expect(await publish((await add(fourth.inboxId, fourth.w, installation('tampered 3 c'))).bytes)).toBeInstanceOf(
      Uint8Array,
    )
    expect(node.heads.replayed).toBe(replayed)
  })

  it('also seen: first publish after restart with no saved heads replays only that inbox’s log, not every inbox’s', async () => {
    const { db, inboxes } = await storeOfFour('lazy')
    const sql = new Database(db)
    sql.prepare('DELETE FROM heads').run()
    sql.close()
    const { node, publish } = open(db)
    const [first] = inboxes
    expect(await publish((await add(first!.inboxId, first!.w, installation('lazy 0 c'))).bytes)).toBeInstanceOf(
      Uint8Array,
    )
    expect(node.heads.replayed).toBe(2)
    // Saved by that publish: a restart now replays nothing for it.
    await node.close(0)
    const again = open(db)
    await again.node.heads.get(first!.inboxId)
    expect(again.node.heads.replayed).toBe(0)
  })
})
