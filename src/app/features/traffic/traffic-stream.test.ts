import { describe, expect, it } from 'vitest'
import { connectTraffic, type StreamStatus } from './traffic-stream'
import { TrafficStore, type TrafficCall } from './traffic-model'

const call = (id: number) => ({
  id,
  time: '2026-12-04T16:20:01.123Z',
  transport: 'gateway',
  method: 'xmtp.identity.api.v1.IdentityApi/GetIdentityUpdates',
  subject: null,
  outcome: 'ok',
  code: '200',
  rule: null,
  message: '',
  ms: 1,
  update: null,
})

/** A fake EventSource the test drives. */
class FakeES {
  static all: FakeES[] = []
  onopen: (() => void) | null = null
  onmessage: ((e: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  closed = false
  constructor(readonly url: string) {
    FakeES.all.push(this)
  }
  close() {
    this.closed = true
  }
}

function harness(pages: (after: number) => Response | Error) {
  FakeES.all = []
  const store = new TrafficStore()
  const statuses: [StreamStatus, string | null][] = []
  const problems: string[] = []
  const timers: (() => void)[] = []
  let restarts = 0
  const stop = connectTraffic(
    'http://127.0.0.1:9',
    () => store.last,
    {
      onCalls: (c: readonly TrafficCall[]) => void store.add(c),
      onStatus: (s, d) => statuses.push([s, d]),
      onRestart: () => {
        restarts++
        store.restart()
      },
      onProblem: (m) => problems.push(m),
    },
    {
      EventSource: FakeES as unknown as typeof EventSource,
      fetch: async (input) => {
        const after = Number(new URL(String(input)).searchParams.get('after'))
        const r = pages(after)
        if (r instanceof Error) throw r
        return r
      },
      setTimeout: (f) => timers.push(f),
      clearTimeout: () => {},
    },
  )
  return { store, statuses, problems, timers, stop, restarts: () => restarts }
}

const page = (calls: number[], next: number) =>
  new Response(JSON.stringify({ calls: calls.map(call), next, dropped: 0, capacity: 1000 }))
const flush = () => new Promise((r) => setTimeout(r, 0))

describe('connectTraffic', () => {
  it('a node that never answered is said to be unreachable, not left connecting', async () => {
    const h = harness(() => new TypeError('Failed to fetch'))
    await flush()
    expect(FakeES.all).toHaveLength(0)
    expect(h.statuses).toEqual([
      ['connecting', null],
      ['connecting', 'no answer from the node (Failed to fetch): is it running? Trying again in 0.5 s.'],
    ])
    h.timers.shift()!()
    await flush()
    expect(h.statuses.at(-1)).toEqual([
      'connecting',
      'no answer from the node (Failed to fetch): is it running? Trying again in 1 s.',
    ])
    h.stop()
  })

  it('reads what is there, then follows the stream after it', async () => {
    const h = harness(() => page([1, 2], 2))
    await flush()
    expect(h.store.calls().map((c) => c.id)).toEqual([2, 1])
    const es = FakeES.all[0]!
    expect(es.url).toBe('http://127.0.0.1:9/inspector/v1/traffic/stream?after=2')
    es.onopen!()
    es.onmessage!({ data: JSON.stringify(call(3)) })
    es.onmessage!({ data: JSON.stringify({ ...call(9), id: 'x' }) })
    expect(h.store.calls().map((c) => c.id)).toEqual([3, 2, 1])
    expect(h.problems[0]).toContain('event.id')
    expect(h.statuses.at(-1)).toEqual(['live', null])
    h.stop()
    expect(es.closed).toBe(true)
  })

  it('reconnects after a drop, and starts over when the node restarted', async () => {
    let up = true
    let restarted = false
    const h = harness((after) =>
      !up ? new TypeError('fetch failed') : restarted ? page(after === 0 ? [1] : [], 1) : page([1, 2, 3], 3),
    )
    await flush()
    FakeES.all[0]!.onopen!()
    up = false
    FakeES.all[0]!.onerror!()
    expect(FakeES.all[0]!.closed).toBe(true)
    expect(h.statuses.at(-1)).toEqual(['reconnecting', null])
    h.timers.shift()!()
    await flush()
    // The check after the drop found the node down: said, with what the fetch said and when the next try is.
    expect(h.statuses.at(-1)).toEqual([
      'reconnecting',
      'no answer from the node (fetch failed): is it running? Trying again in 1 s.',
    ])
    up = true
    restarted = true
    h.timers.shift()!()
    await flush()
    expect(h.restarts()).toBe(1)
    // The restarted node's calls are asked from its start.
    h.timers.length = 0
    const es = FakeES.all.at(-1)!
    expect(es.url).toMatch(/after=0$/)
    es.onopen!()
    expect(h.statuses.at(-1)).toEqual(['live', null])
    h.stop()
  })

  it('stops with a clear message on a node without a traffic log or a malformed answer', async () => {
    const h = harness(() => new Response('no', { status: 404 }))
    await flush()
    expect(h.statuses.at(-1)![0]).toBe('stopped')
    expect(h.statuses.at(-1)![1]).toContain('serves no traffic log (HTTP 404')
    expect(FakeES.all).toHaveLength(0)
    const m = harness(() => new Response(JSON.stringify({ calls: [{ id: 1 }], next: 1, dropped: 0, capacity: 1 })))
    await flush()
    expect(m.statuses.at(-1)![1]).toContain('not a traffic page: answer.calls[0].')
  })
})
