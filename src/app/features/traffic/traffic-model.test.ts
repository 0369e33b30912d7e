import { describe, expect, it } from 'vitest'
import {
  filterCalls,
  parseCall,
  parseEventData,
  parsePage,
  shortMethod,
  targetOf,
  TrafficShapeError,
  TrafficStore,
} from './traffic-model'
import { thrownBy } from '../../../../test/support/thrown'
import { INBOX, wireCall } from './traffic.testkit'

describe('parseCall', () => {
  it('reads a call of the node traffic log', () => {
    const c = parseCall(wireCall(17))
    expect(c).toMatchObject({
      id: 17,
      transport: 'connect',
      outcome: 'ok',
      update: { sequenceId: 17n, updateHex: '0a01' },
    })
  })

  it('refuses a call that does not fit, naming the path', () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ id: 0 }, 'call.id'],
      [{ transport: 'carrier-pigeon' }, 'call.transport'],
      [{ outcome: 'maybe' }, 'call.outcome'],
      [{ rule: 'IDENT-40' }, 'call.rule'],
      [{ ms: -1 }, 'call.ms'],
      [{ time: 'yesterday' }, 'call.time'],
      [{ message: 'x'.repeat(5000) }, 'call.message'],
      [{ subject: { kind: 'planet', value: 'x' } }, 'call.subject.kind'],
      [
        { update: { inbox_id: INBOX, sequence_id: null, update_hex: 'abc', truncated: false } },
        'call.update.update_hex',
      ],
      [
        { update: { inbox_id: INBOX, sequence_id: '1e3', update_hex: null, truncated: false } },
        'call.update.sequence_id',
      ],
      [{ update: { inbox_id: INBOX, sequence_id: null, update_hex: null } }, 'call.update.truncated'],
    ]
    for (const [extra, path] of bad) {
      expect(thrownBy(() => parseCall(wireCall(1, extra)), TrafficShapeError, path).path).toBe(path)
    }
  })

  it('reads a page and an event, and says what is wrong with a malformed one', () => {
    expect(parsePage({ calls: [wireCall(1), wireCall(2)], next: 2, dropped: 0, capacity: 1000 }).calls).toHaveLength(2)
    expect(() => parsePage({ calls: {}, next: 2, dropped: 0, capacity: 1 })).toThrow('answer.calls: expected a list')
    expect(() => parsePage([])).toThrow('answer: expected an object, found an array')
    expect(() => parseEventData('{"id":')).toThrow(/^event: not JSON/)
    expect(parseEventData(JSON.stringify(wireCall(3))).id).toBe(3)
  })
})

describe('shortMethod', () => {
  it('splits the method from its service', () => {
    expect(shortMethod('xmtp.identity.api.v1.IdentityApi/PublishIdentityUpdate')).toEqual({
      name: 'PublishIdentityUpdate',
      service: 'IdentityApi',
    })
    expect(shortMethod('odd')).toEqual({ name: 'odd', service: '' })
  })
})

describe('targetOf', () => {
  it('opens a stored update, a refused one, an inbox, or nothing', () => {
    expect(targetOf(parseCall(wireCall(4)))).toEqual({ kind: 'stored', inboxId: INBOX, sequenceId: 4n })
    const refused = wireCall(5, {
      outcome: 'refused',
      rule: 'IDENT-040',
      update: { inbox_id: INBOX, sequence_id: null, update_hex: 'AB', truncated: false },
    })
    expect(targetOf(parseCall(refused))).toEqual({ kind: 'refused', inboxId: INBOX, updateHex: 'ab' })
    const big = wireCall(6, {
      outcome: 'refused',
      update: { inbox_id: INBOX, sequence_id: null, update_hex: null, truncated: true },
    })
    expect(targetOf(parseCall(big))).toMatchObject({ kind: 'none', why: expect.stringContaining('64 KiB') })
    expect(targetOf(parseCall(wireCall(7, { update: null })))).toEqual({ kind: 'inbox', inboxId: INBOX })
    expect(targetOf(parseCall(wireCall(8, { update: null, subject: null })))).toEqual({ kind: 'none', why: null })
  })
})

describe('filterCalls', () => {
  it('filters by part of the method and by outcome', () => {
    const calls = [
      parseCall(wireCall(1)),
      parseCall(wireCall(2, { method: 'xmtp.identity.api.v1.IdentityApi/GetIdentityUpdates', update: null })),
      parseCall(wireCall(3, { outcome: 'refused', rule: 'IDENT-040' })),
    ]
    expect(filterCalls(calls, { method: 'publish', outcome: null }).map((c) => c.id)).toEqual([1, 3])
    expect(filterCalls(calls, { method: '', outcome: 'refused' }).map((c) => c.id)).toEqual([3])
  })
})

describe('TrafficStore', () => {
  it('keeps each call once, newest first, bounded, and across a node restart', () => {
    const s = new TrafficStore(3)
    expect(s.add([parseCall(wireCall(2)), parseCall(wireCall(1))])).toBe(true)
    expect(s.add([parseCall(wireCall(2))])).toBe(false)
    s.add([parseCall(wireCall(3)), parseCall(wireCall(4)), parseCall(wireCall(4))])
    expect(s.calls().map((c) => c.id)).toEqual([4, 3, 2])
    s.restart()
    s.add([parseCall(wireCall(1))])
    expect(s.calls().map((c) => c.key)).toEqual(['1:1', '0:4', '0:3'])
    expect(s.last).toBe(1)
  })
})
