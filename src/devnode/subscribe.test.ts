import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Code, ConnectError } from '@connectrpc/connect'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Store, type StoredUpdate } from './store'
import { SubscriptionHub } from './subscribe'

let dir: string
let store: Store

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hub-test-'))
  store = new Store(join(dir, 'node.db'))
})

afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

const INBOX = 'a'.repeat(64)
let seq = 0n
/** Stores an update (any bytes: the hub never reads them) and returns it as the hub hears it. */
function stored(inboxId = INBOX): StoredUpdate {
  const bytes = new Uint8Array([++seq > 0n ? 1 : 0])
  const sequenceId = store.transaction(() => store.insert(inboxId, 1n, bytes, null))
  return { sequenceId, inboxId, serverTimestampNs: 1n, bytes }
}

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof ConnectError ? e : null),
  )

describe('SubscriptionHub', () => {
  it('catches up from the store, then serves live updates of the followed inboxes, each once, in order', async () => {
    const hub = new SubscriptionHub(store)
    const a = stored()
    stored('b'.repeat(64))
    const sub = hub.subscribe({ kind: 'inboxes', inboxes: new Set([INBOX]) }, 0n, new AbortController().signal)
    expect((await sub.next()).value?.map((u: StoredUpdate) => u.sequenceId)).toEqual([a.sequenceId])
    const b = stored()
    hub.publish(b)
    hub.publish(stored('c'.repeat(64)))
    expect((await sub.next()).value?.map((u: StoredUpdate) => u.sequenceId)).toEqual([b.sequenceId])
    await sub.return(undefined)
    expect(hub.size).toBe(0)
  })

  it('publish never waits on a subscriber that stopped reading; past the backlog it is ended RESOURCE_EXHAUSTED with its cursor', async () => {
    const hub = new SubscriptionHub(store, { backlog: 3 })
    const sub = hub.subscribe({ kind: 'all' }, 0n, new AbortController().signal)
    expect((await sub.next()).value).toEqual([]) // live, nothing to catch up
    for (let i = 0; i < 10; i++) hub.publish(stored()) // synchronous: nothing to wait on
    expect(hub.size).toBe(0) // it left the hub at once: its slot is free
    const e = await codeOf(sub.next())
    expect(e?.code).toBe(Code.ResourceExhausted)
    expect(e?.rawMessage).toContain('more than 3 envelopes')
    expect(e?.rawMessage).toContain('resume with last_seen {1: 0}')
  })

  it('a subscriber that stops reading at its last catch-up page falls behind like a live one', async () => {
    const hub = new SubscriptionHub(store, { backlog: 2 })
    const first = stored()
    const sub = hub.subscribe({ kind: 'all' }, 0n, new AbortController().signal)
    const page = sub.next() // registers, reads the store, yields the last page
    const later = [stored(), stored(), stored()]
    for (const u of later) hub.publish(u)
    expect((await page).value?.map((u: StoredUpdate) => u.sequenceId)).toEqual([first.sequenceId])
    const e = await codeOf(sub.next())
    expect(e?.code).toBe(Code.ResourceExhausted)
  })

  it('refuses a subscriber past the limit with RESOURCE_EXHAUSTED naming it', async () => {
    const hub = new SubscriptionHub(store, { maxSubscribers: 1 })
    const one = hub.subscribe({ kind: 'all' }, 0n, new AbortController().signal)
    await one.next()
    const e = await codeOf(hub.subscribe({ kind: 'all' }, 0n, new AbortController().signal).next())
    expect(e?.code).toBe(Code.ResourceExhausted)
    expect(e?.rawMessage).toContain('at most 1 subscriptions')
    await one.return(undefined)
  })

  it('close() ends a waiting subscriber UNAVAILABLE with its cursor; abort ends it quietly', async () => {
    const hub = new SubscriptionHub(store)
    const u = stored()
    const sub = hub.subscribe({ kind: 'all' }, 0n, new AbortController().signal)
    await sub.next()
    const waiting = codeOf(sub.next())
    hub.close()
    const e = await waiting
    expect(e?.code).toBe(Code.Unavailable)
    expect(e?.rawMessage).toContain(`last_seen {1: ${u.sequenceId}}`)
    const abort = new AbortController()
    const quiet = hub.subscribe({ kind: 'all' }, 0n, abort.signal)
    await quiet.next()
    const end = quiet.next()
    abort.abort()
    expect((await end).done).toBe(true)
  })
})
