import { describe, expect, it } from 'vitest'
import { formatLine, MAX_MESSAGE_CHARS, MAX_UPDATE_BYTES, type FinishedCall, TrafficLog } from './traffic'

const call = (over: Partial<FinishedCall> = {}): FinishedCall => ({
  startedAt: Date.parse('2026-12-04T16:20:01.123Z'),
  startedPerf: performance.now(),
  transport: 'grpc',
  method: 'xmtp.identity.api.v1.IdentityApi/GetInboxIds',
  note: {},
  outcome: 'ok',
  code: 'ok',
  message: '',
  ...over,
})

describe('TrafficLog', () => {
  it('keeps the last `capacity` calls; `after` pages by id; `dropped` counts the evicted ones after it', () => {
    const log = new TrafficLog(3)
    for (let i = 0; i < 5; i++) log.record(call())
    const all = log.page(0)
    expect(all.calls.map((c) => c.id)).toEqual([3, 4, 5])
    expect([all.next, all.dropped, all.capacity]).toEqual([5, 2, 3])
    expect(log.page(3).calls.map((c) => c.id)).toEqual([4, 5])
    expect(log.page(3).dropped).toBe(0)
    expect(log.page(1).dropped).toBe(1)
    expect(log.page(5).calls).toEqual([])
  })

  it('bounds every field: the message, and an update over 64 KiB is truncated with no hex', () => {
    const log = new TrafficLog()
    const c = log.record(
      call({
        message: 'x'.repeat(5000),
        note: { update: { inboxId: 'a'.repeat(64), sequenceId: null, bytes: new Uint8Array(MAX_UPDATE_BYTES + 1) } },
      }),
    )
    expect(c.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS)
    expect(c.update).toEqual({ inbox_id: 'a'.repeat(64), sequence_id: null, update_hex: null, truncated: true })
    const small = log.record(
      call({ note: { update: { inboxId: 'b', sequenceId: 12n, bytes: new Uint8Array([10, 1]) } } }),
    )
    expect(small.update).toEqual({ inbox_id: 'b', sequence_id: '12', update_hex: '0a01', truncated: false })
  })

  it('the stderr line: ISO time, transport, method, subject, outcome with code and rule, milliseconds', () => {
    const lines: string[] = []
    const log = new TrafficLog(10, (l) => lines.push(l))
    log.record(
      call({
        transport: 'gateway',
        method: 'xmtp.identity.api.v1.IdentityApi/PublishIdentityUpdate',
        note: { subject: { kind: 'inbox', value: 'ab' }, rule: 'IDENT-040' },
        outcome: 'refused',
        code: '409',
        message: 'rule_violation: signer differs',
      }),
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^2026-12-04T16:20:01\.123Z gateway xmtp\.identity\.api\.v1\.IdentityApi\/PublishIdentityUpdate inbox=ab refused 409 IDENT-040 "rule_violation: signer differs" \d+(\.\d)?ms$/,
    )
    expect(formatLine(log.page(0).calls[0]!)).toBe(lines[0])
  })
})
