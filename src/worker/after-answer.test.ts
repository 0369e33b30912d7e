import { beforeAll, describe, expect, it } from 'vitest'
import { syntheticBundle } from '../../e2e/synthetic-log'
import { readLogs } from '../core/decode/logs'
import type { VerdictEntry } from '../core/verify/cache'
import { type VerifiedUpdate, verifyUpdate } from '../core/verify/update'
import type { LogRecord } from '../storage/log-store'
import { handOffAfterAnswer, WRITE_VERDICTS, type WritableVerdicts, WRITER_TIMING } from './after-answer'
import { DeferredWriter } from './deferred-writes'
import { FakeTimers } from './fake-timers.testkit'

/** The verdict cache's write side as IdbVerdictCache has it, in memory; `events` orders its writes with the record's. */
class MemoryVerdicts implements WritableVerdicts {
  puts = 0
  readonly batches: number[] = []
  private pending: VerdictEntry[] = []
  constructor(private readonly events: string[] = []) {}
  get(): unknown {
    return undefined
  }
  put(entry: VerdictEntry): void {
    if (this.puts === 0) this.events.push('first verdict put')
    this.puts++
    this.pending.push(entry)
  }
  get unwritten(): number {
    return this.pending.length
  }
  async writeSome(max: number): Promise<void> {
    this.batches.push(this.pending.splice(0, max).length)
  }
  async flush(): Promise<void> {
    if (this.pending.length > 0) this.batches.push(this.pending.splice(0).length)
  }
}

/** The user stepping: a key press every 200 ms for `ms` (the page reports each as activity). */
async function stepping(timers: FakeTimers, writer: DeferredWriter, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 200) {
    writer.touch()
    await timers.advance(200)
  }
}

/** The page stays idle until the writer is done (its job's steps run on promises, between the clock's timers). */
async function done(timers: FakeTimers, writer: DeferredWriter): Promise<void> {
  for (let i = 0; i < 10_000 && writer.pending > 0; i++) await timers.advance(16)
  expect(writer.pending, 'the writes ended').toBe(0)
}

let found: VerifiedUpdate[]
beforeAll(async () => {
  const [log] = readLogs(await syntheticBundle(400))
  const updates = log!.entries.flatMap((e) => ('error' in e.update ? [] : [e.update]))
  found = await Promise.all(updates.map((u) => verifyUpdate(u)))
}, 60_000)

describe("the replay worker's writes after an answer", () => {
  it("puts none of the pool's verdicts in the cache while the user steps, then all of them in transactions of at most WRITE_VERDICTS", async () => {
    const timers = new FakeTimers()
    const writer = new DeferredWriter({ ...WRITER_TIMING, timers })
    const cache = new MemoryVerdicts()
    let taken = 0
    handOffAfterAnswer(writer, { takeFound: () => (taken++ === 0 ? found : []) }, cache, null)
    expect(taken, 'the pool hands its verdicts over once').toBe(1)
    // A cache given them now would write 4,096 at once on its own (IdbVerdictCache).
    expect(cache.puts, 'nothing put at the answer').toBe(0)
    await stepping(timers, writer, 30_000)
    expect(cache.puts, 'nothing put while the user steps').toBe(0)
    expect(cache.batches).toEqual([])
    await timers.advance(WRITER_TIMING.idleMs + 5_000)
    await done(timers, writer)
    expect(cache.puts).toBeGreaterThan(WRITE_VERDICTS)
    expect(
      cache.batches.reduce((a, b) => a + b, 0),
      'every verdict put is written',
    ).toBe(cache.puts)
    expect(Math.max(...cache.batches)).toBeLessThanOrEqual(WRITE_VERDICTS)
  })

  it('pauses between transactions while the user steps again, and finishes once idle', async () => {
    const timers = new FakeTimers()
    const writer = new DeferredWriter({ ...WRITER_TIMING, timers })
    const cache = new MemoryVerdicts()
    handOffAfterAnswer(writer, { takeFound: () => found }, cache, null)
    await timers.advance(WRITER_TIMING.idleMs + WRITER_TIMING.sliceMs)
    const started = cache.batches.length
    expect(writer.pending, 'a few slices run, not the whole job').toBe(1)
    await stepping(timers, writer, 5_000)
    // At most the slice under way when the first press came finishes.
    expect(cache.batches.length).toBeLessThanOrEqual(started + 1)
    await timers.advance(WRITER_TIMING.idleMs + 5_000)
    await done(timers, writer)
    expect(cache.batches.reduce((a, b) => a + b, 0)).toBe(cache.puts)
  })

  it("puts the log's record first, then the verdicts; a flush (the page hidden) writes everything at once", async () => {
    const timers = new FakeTimers()
    const writer = new DeferredWriter({ ...WRITER_TIMING, timers })
    const events: string[] = []
    const cache = new MemoryVerdicts(events)
    const records: LogRecord[] = []
    const store = {
      put: async (r: LogRecord) => {
        events.push('record put')
        records.push(r)
        return true
      },
    }
    const checks = found.map((v) => v.checks)
    handOffAfterAnswer(writer, { takeFound: () => found }, cache, {
      store,
      id: 'id',
      file: 'f.json',
      updates: found.length,
      checks,
    })
    writer.touch()
    await writer.flush()
    expect(events).toEqual(['record put', 'first verdict put'])
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ id: 'id', name: 'f.json', updates: found.length })
    expect(cache.batches.reduce((a, b) => a + b, 0)).toBe(cache.puts)
  })

  it('writes the verdicts a replay on the worker thread put in the cache itself (no pool), and adds no job for nothing', async () => {
    const timers = new FakeTimers()
    const writer = new DeferredWriter({ ...WRITER_TIMING, timers })
    const cache = new MemoryVerdicts()
    for (let i = 0; i < 10; i++) cache.put({ key: `k${i}`, verdict: { verdict: 'valid' } as VerdictEntry['verdict'] })
    handOffAfterAnswer(writer, null, cache, null)
    expect(writer.pending).toBe(1)
    await timers.advance(WRITER_TIMING.idleMs + 100)
    await done(timers, writer)
    expect(cache.batches).toEqual([10])
    handOffAfterAnswer(writer, null, null, null)
    expect(writer.pending).toBe(0)
  })
})
