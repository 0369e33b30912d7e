import { describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import {
  bundleOfEntries,
  followAddressOf,
  followReducer,
  forkText,
  INITIAL_VIEW,
  placement,
  unseenText,
} from './follow-model'

const INBOX = 'ab'.repeat(32)

describe('followAddressOf', () => {
  it('reads the node, API and transport of a fetch address, following the resolved inbox', () => {
    expect(
      followAddressOf('?node=http%3A%2F%2F127.0.0.1%3A5555&api=identity&transport=connect&handle=alice', INBOX),
    ).toEqual({
      url: 'http://127.0.0.1:5555',
      api: 'identity',
      transport: 'connect',
      inboxId: INBOX,
    })
    expect(followAddressOf('?node=http://x&api=d14n&inbox=1', INBOX)).toMatchObject({ transport: 'connect' })
  })

  it('has none for a log not read from a node, or a transport a browser cannot speak', () => {
    expect(followAddressOf(undefined, INBOX)).toBeNull()
    expect(followAddressOf('?url=http://x', INBOX)).toBeNull()
    expect(followAddressOf('?node=http://x&inbox=1', null)).toBeNull()
    expect(followAddressOf('?node=http://x&api=identity&transport=grpc&inbox=1', INBOX)).toBeNull()
    expect(followAddressOf('?node=http://x&api=soap&inbox=1', INBOX)).toBeNull()
  })
})

describe('followReducer', () => {
  it('tracks the connection state across a restart: reconnecting then live', () => {
    let v = followReducer(INITIAL_VIEW, {
      type: 'event',
      event: { type: 'state', state: 'live', mode: 'poll', detail: 'no stream' },
    })
    expect(v).toMatchObject({ connection: 'live', mode: 'poll' })
    v = followReducer(v, {
      type: 'event',
      event: { type: 'state', state: 'reconnecting', detail: 'fetch failed', retryInMs: 250 },
    })
    expect(v).toMatchObject({ connection: 'reconnecting', mode: null, detail: 'fetch failed' })
    v = followReducer(v, { type: 'event', event: { type: 'state', state: 'live', mode: 'poll', resumedAfter: 3n } })
    expect(v.connection).toBe('live')
    expect(followReducer(v, { type: 'failed', message: 'never reached' })).toMatchObject({
      connection: 'stopped',
      detail: 'never reached',
    })
  })

  it('counts updates shown below the user, and clears them at the head', () => {
    const update = (n: bigint) =>
      ({
        type: 'update',
        inboxId: INBOX,
        sequenceId: n,
        serverTimestampNs: 0n,
        bytes: new Uint8Array([1]),
        digest: 'd',
      }) as const
    let v = followReducer(INITIAL_VIEW, { type: 'event', event: update(4n) })
    v = followReducer(v, { type: 'shown', count: 1, atHead: false })
    v = followReducer(v, { type: 'event', event: update(5n) })
    v = followReducer(v, { type: 'event', event: update(6n) })
    v = followReducer(v, { type: 'shown', count: 2, atHead: false })
    expect(v.unseen).toBe(3)
    expect(v.landed).toEqual([4n, 5n, 6n])
    expect(unseenText(v.unseen)).toBe('3 new updates')
    expect(followReducer(v, { type: 'seen' }).unseen).toBe(0)
    expect(followReducer(v, { type: 'shown', count: 1, atHead: true }).unseen).toBe(0)
  })

  it('keeps forks and withheld updates with both versions', () => {
    const v = followReducer(INITIAL_VIEW, {
      type: 'event',
      event: { type: 'fork', inboxId: INBOX, sequenceId: 2n, reason: 'gone', printedDigest: 'aa', servedDigest: null },
    })
    expect(v.forks).toEqual([{ sequenceId: 2n, reason: 'gone', shownDigest: 'aa', servedDigest: null }])
    expect(forkText(v.forks[0]!)).toContain('withheld')
  })
})

describe('placement', () => {
  it('moves to the new head from the head, and stays elsewhere', () => {
    expect(placement(true, { sequenceId: 3n, action: 0 }, 5n)).toEqual({
      step: { sequenceId: 5n, action: 0 },
      follows: true,
    })
    expect(placement(false, { sequenceId: 2n, action: 1 }, 5n)).toEqual({
      step: { sequenceId: 2n, action: 1 },
      follows: false,
    })
    expect(placement(false, null, 5n).follows).toBe(true)
  })
})

describe('bundleOfEntries', () => {
  it('writes the updates ascending with their exact bytes', () => {
    const b = bundleOfEntries(
      INBOX,
      new Map([
        [10n, new Uint8Array([0x0a, 0x01])],
        [2n, new Uint8Array([0xff])],
      ]),
    )
    const doc = JSON.parse(b) as { inbox_id: string; updates: { sequence_id: string; update_hex: string }[] }
    expect(doc.inbox_id).toBe(INBOX)
    expect(doc.updates).toEqual([
      { sequence_id: '2', update_hex: 'ff' },
      { sequence_id: '10', update_hex: '0a01' },
    ])
    expect(readLogs(b)[0]!.entries.map((e) => e.sequenceId)).toEqual([2n, 10n])
  })
})
