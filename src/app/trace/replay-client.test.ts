import { afterEach, describe, expect, it, vi } from 'vitest'
import { REPLAY_MEASURE, ReplayCancelled, ReplayClient } from './replay-client'
import { addressNamesLog } from './useInspector'

/** A stand-in for the browser's Worker: records what the client does with it. */
class FakeWorker {
  static made: FakeWorker[] = []
  terminated = false
  posted: unknown[] = []
  onmessage: ((ev: MessageEvent) => void) | null = null
  onerror: ((ev: ErrorEvent) => void) | null = null
  onmessageerror: (() => void) | null = null
  constructor() {
    FakeWorker.made.push(this)
  }
  postMessage(m: unknown): void {
    this.posted.push(m)
  }
  terminate(): void {
    this.terminated = true
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
  FakeWorker.made = []
})

describe('ReplayClient warm worker (issue #13)', () => {
  it('warm() starts the replay worker before any request, and an idle cancel keeps it', () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    c.warm()
    expect(FakeWorker.made).toHaveLength(1)
    c.cancel() // the app cancels before every open: nothing is running, so the warm worker stays
    expect(FakeWorker.made[0]!.terminated).toBe(false)
    void c.open(new Uint8Array(1), 'a.bin').catch(() => undefined)
    expect(FakeWorker.made).toHaveLength(1)
    expect(FakeWorker.made[0]!.posted).toHaveLength(1)
  })
  it('cancel with a request running terminates the worker and rejects the request; dispose always does', async () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    const pending = c.open(new Uint8Array(1), 'a.bin')
    c.cancel()
    await expect(pending).rejects.toBeInstanceOf(ReplayCancelled)
    expect(FakeWorker.made[0]!.terminated).toBe(true)
    c.warm()
    expect(FakeWorker.made).toHaveLength(2)
    c.dispose()
    expect(FakeWorker.made[1]!.terminated).toBe(true)
  })
  it("the pool's unasked state messages (id 0) neither answer a request nor disturb it", async () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    const pending = c.open(new Uint8Array(1), 'a.bin')
    const w = FakeWorker.made[0]!
    const { id } = w.posted[0] as { id: number }
    const state = { type: 'pool', id: 0, workers: 1, ready: 1, startupMs: [40], backends: ['fast'], warmUp: '' }
    w.onmessage!({ data: state } as MessageEvent)
    w.onmessage!({ data: { type: 'opened', id, logs: [] } } as MessageEvent)
    await expect(pending).resolves.toEqual({ logs: [] })
    expect(w.terminated).toBe(false)
  })
  it("a replay leaves one user-timing measure: the worker's replay time, the log and how it was verified", async () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    const run = async (replayMs: number, remote: number) => {
      const pending = c.replay(0, 'big.json', 'none', () => {})
      const w = FakeWorker.made[0]!
      const { id } = w.posted.at(-1) as { id: number }
      const verify = {
        engine: 'fast',
        workers: 1,
        live: 1,
        ready: 1,
        backends: ['fast', 'fast'],
        failures: [],
        remote,
        local: 256 - remote,
        cached: 0,
        workerMs: 50,
        startupMs: [70],
        cache: true,
        waitMs: 40,
      }
      const done = {
        type: 'done',
        id,
        inboxId: null,
        ok: true,
        stepCount: 256,
        replayMs,
        stepsMs: 7,
        verify,
      }
      w.onmessage!({ data: done } as MessageEvent)
      await pending
    }
    await run(84.5, 150)
    await run(61.25, 170)
    const entries = performance.getEntriesByName(REPLAY_MEASURE, 'measure') as PerformanceMeasure[]
    expect(entries).toHaveLength(1)
    expect(entries[0]!.duration).toBeCloseTo(61.25, 3)
    expect(entries[0]!.detail).toEqual({
      file: 'big.json',
      updates: 256,
      replayMs: 61.25,
      stepsMs: 7,
      engine: 'fast',
      workers: 1,
      ready: 1,
      remote: 170,
      local: 86,
      cached: 0,
      waitMs: 40,
      workerMs: 50,
      backends: ['fast'],
    })
  })
  it('the report comes after the answer: its promise settles then, and rejects when the worker goes first', async () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    const answer = (id: number, steps: unknown[]) => {
      const w = FakeWorker.made.at(-1)!
      w.onmessage!({ data: { type: 'steps', id, from: 0, steps } } as MessageEvent)
      const verify = { engine: 'fast', workers: 0, live: 0, ready: 0, backends: [], failures: [], remote: 0 }
      const done = { type: 'done', id, inboxId: null, ok: true, stepCount: steps.length, replayMs: 1, stepsMs: 0 }
      w.onmessage!({ data: { ...done, verify } } as MessageEvent)
    }
    const first = c.replay(0, 'a.json', 'none', () => {})
    const id1 = (FakeWorker.made[0]!.posted.at(-1) as { id: number }).id
    answer(id1, [{ sequenceId: 1n }])
    const r1 = await first
    if ('problem' in r1) throw new Error('a problem')
    expect(r1.steps).toEqual([{ sequenceId: 1n }])
    let settled = false
    void r1.report.then(() => {
      settled = true
    })
    await Promise.resolve()
    expect(settled).toBe(false)
    FakeWorker.made[0]!.onmessage!({ data: { type: 'report', id: id1, report: '{"ok":true}\n' } } as MessageEvent)
    await expect(r1.report).resolves.toBe('{"ok":true}\n')

    // The answer came, then the next request is cancelled before the report: it rejects.
    const second = c.replay(0, 'b.json', 'none', () => {})
    const id2 = (FakeWorker.made[0]!.posted.at(-1) as { id: number }).id
    answer(id2, [])
    const r2 = await second
    if ('problem' in r2) throw new Error('a problem')
    void c.open(new Uint8Array(1), 'c.bin').catch(() => undefined)
    c.cancel()
    await expect(r2.report).rejects.toBeInstanceOf(ReplayCancelled)
    // A failed replay's report rejects too.
    const third = c.replay(0, 'd.json', 'none', () => {})
    const w = FakeWorker.made.at(-1)!
    const id3 = (w.posted.at(-1) as { id: number }).id
    w.onmessage!({ data: { type: 'failed', id: id3, message: 'boom' } } as MessageEvent)
    await expect(third).rejects.toThrow('boom')
  })
})

describe('ReplayClient open and replay in one message', () => {
  const verify = { onProgress: () => {}, file: 'a.json', verifier: 'none' as const }
  it('posts one open carrying the replay, answered first by opened, then by the replay under its own id', async () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    const { opened, replayed } = c.openAndReplay(new Uint8Array(1), 'a.json', { ...verify, logIndex: 0 })
    const w = FakeWorker.made[0]!
    expect(w.posted).toHaveLength(1)
    const m = w.posted[0] as { type: string; id: number; replay: { id: number; logIndex: number } }
    expect(m.type).toBe('open')
    expect(m.replay.id).not.toBe(m.id)
    w.onmessage!({ data: { type: 'opened', id: m.id, logs: [{ index: 0, entries: 1 }] } } as MessageEvent)
    expect(await opened).toEqual({ logs: [{ index: 0, entries: 1 }] })
    const step = { sequenceId: '1' }
    w.onmessage!({ data: { type: 'steps', id: m.replay.id, from: 0, steps: [step] } } as MessageEvent)
    const verifyStats = { engine: 'fast', backends: [] }
    w.onmessage!({
      data: { type: 'done', id: m.replay.id, inboxId: 'x', ok: true, stepCount: 1, replayMs: 1, verify: verifyStats },
    } as MessageEvent)
    const r = await replayed
    expect('steps' in r && r.steps).toEqual([step])
    // Nothing else was posted: no second request after the open's answer.
    expect(w.posted).toHaveLength(1)
  })
  it('an open that reads no log ends its replay, which the worker never starts', async () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    const { opened, replayed } = c.openAndReplay(new Uint8Array(1), 'a.json', { ...verify, logIndex: 0 })
    const w = FakeWorker.made[0]!
    const m = w.posted[0] as { id: number }
    const problem = { format: 'auto', where: '', detail: 'x', message: 'x', attempts: [] }
    w.onmessage!({ data: { type: 'input-error', id: m.id, problem } } as MessageEvent)
    expect(await opened).toEqual({ problem })
    await expect(replayed).rejects.toBeInstanceOf(ReplayCancelled)
    // No request is left waiting: an idle cancel keeps the worker.
    c.cancel()
    expect(w.terminated).toBe(false)
  })
  it('activity reaches a running worker at most every 250 ms and starts none', () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    c.activity(0)
    expect(FakeWorker.made).toHaveLength(0)
    c.warm()
    const w = FakeWorker.made[0]!
    c.activity(1000)
    c.activity(1100)
    c.activity(1250)
    expect(w.posted).toEqual([
      { type: 'activity', id: 0 },
      { type: 'activity', id: 0 },
    ])
  })
})

describe('the verification pool started with the replay worker', () => {
  it('warm({ pool: true }) asks the new worker to start its pool; warm() does not', () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    c.warm()
    expect(FakeWorker.made[0]!.posted).toEqual([])
    const d = new ReplayClient()
    d.warm({ pool: true })
    expect(FakeWorker.made[1]!.posted).toEqual([{ type: 'start-pool', id: 0 }])
  })
  it('starts it for an address naming a log (?url=, #log=), not for the page alone or an example', () => {
    expect(addressNamesLog({ search: '?url=http%3A%2F%2F127.0.0.1%2Fa.json', hash: '' })).toBe(true)
    expect(addressNamesLog({ search: '', hash: '#log=abc&step=3.0' })).toBe(true)
    expect(addressNamesLog({ search: '', hash: '#step=3.0&log=abc' })).toBe(true)
    expect(addressNamesLog({ search: '', hash: '' })).toBe(false)
    expect(addressNamesLog({ search: '', hash: '#example=x&step=1.0' })).toBe(false)
    expect(addressNamesLog({ search: '?urls=1', hash: '#catalog=1' })).toBe(false)
  })
})

describe('ReplayClient.flushWrites', () => {
  it('asks the worker to run its writes now (the page is hidden or unloaded); starts no worker of its own', () => {
    vi.stubGlobal('Worker', FakeWorker)
    const c = new ReplayClient()
    c.flushWrites()
    expect(FakeWorker.made).toHaveLength(0)
    c.warm()
    c.flushWrites()
    expect(FakeWorker.made[0]!.posted).toEqual([{ type: 'flush-writes', id: 0 }])
  })
})
