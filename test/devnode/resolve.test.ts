/**
 * Section 9 resolution against the real node process: an identifier resolves to the
 * inbox of its live association with the highest sequence id; revoking that association
 * exposes the older inbox again; the answers survive a restart (heads rebuilt from the
 * stored log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NodeClient } from '../../src/network/client'
import { startNode, stopAll, tempDir, type RunningNode } from './harness'
import { add, newInbox, passkey, revoke, wallet, type Built } from './updates'

const tmp = tempDir()
let node: RunningNode
let c: NodeClient

const S = wallet('res shared')
const T = wallet('res other')
const P = passkey('res shared')
let X: Built // S, nonce 0
let Y: Built // S, nonce 1
let Z: Built // T's inbox, S added later

const resolveS = async (client = c) =>
  (await client.getInboxIds([{ identifier: S.identifier.text, kind: 'ethereum' }]))[0]!.inboxId
const resolveP = async (client = c) =>
  (await client.getInboxIds([{ identifier: P.identifier.text, kind: 'passkey' }]))[0]!.inboxId

beforeAll(async () => {
  node = await startNode({ db: tmp.path('res.db') })
  c = node.client()
  X = await newInbox(S)
  Y = await newInbox(S, { nonce: 1n })
  Z = await newInbox(T)
})

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

describe('section 9: the live association with the highest sequence id (API-270)', () => {
  it('one wallet in two inboxes resolves to the newer association; revoking it exposes the older one; a re-add is a new association', async () => {
    await c.publishIdentityUpdate(X.bytes)
    expect(await resolveS()).toBe(X.inboxId)
    await c.publishIdentityUpdate(Z.bytes)
    await c.publishIdentityUpdate((await add(Z.inboxId, T, S)).bytes) // S joins Z after X
    expect(await resolveS()).toBe(Z.inboxId)
    await c.publishIdentityUpdate(Y.bytes) // S creates Y, newer still
    expect(await resolveS()).toBe(Y.inboxId)

    await c.publishIdentityUpdate((await revoke(Y.inboxId, S, S)).bytes) // Y's recovery revokes S
    expect(await resolveS()).toBe(Z.inboxId)
    await c.publishIdentityUpdate((await revoke(Z.inboxId, S, T)).bytes)
    expect(await resolveS()).toBe(X.inboxId)
    await c.publishIdentityUpdate((await add(Z.inboxId, T, S)).bytes) // re-added: the newest association again
    expect(await resolveS()).toBe(Z.inboxId)
  })

  it('a passkey live in two inboxes resolves the same way; an installation key is no lookup kind', async () => {
    await c.publishIdentityUpdate((await add(Z.inboxId, T, P)).bytes)
    expect(await resolveP()).toBe(Z.inboxId)
    await c.publishIdentityUpdate((await add(X.inboxId, S, P)).bytes)
    expect(await resolveP()).toBe(X.inboxId)
    await c.publishIdentityUpdate((await revoke(X.inboxId, P, S)).bytes)
    expect(await resolveP()).toBe(Z.inboxId)
  })

  it('after a restart the heads are rebuilt from the stored log and resolution gives the same answers', async () => {
    const before = [await resolveS(), await resolveP()]
    expect(await node.stop()).toBe(0)
    node = await startNode({ db: tmp.path('res.db') })
    c = node.client()
    expect([await resolveS(), await resolveP()]).toEqual(before)
    // and in JSON
    expect(await resolveS(node.client('json'))).toBe(before[0])
  })
})
