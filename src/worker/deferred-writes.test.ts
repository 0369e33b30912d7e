import { describe, expect, it } from 'vitest'
import { DeferredWriter, type WriteJob } from './deferred-writes'
import { FakeTimers } from './fake-timers.testkit'

/** A job of `steps` steps, each costing 1 ms of the fake clock; `log` gets the time of each. */
async function* job(timers: FakeTimers, steps: number, log: number[]): WriteJob {
  for (let i = 0; i < steps; i++) {
    timers.t += 1
    log.push(timers.t)
    yield
  }
}

const options = (timers: FakeTimers) => ({ idleMs: 1000, maxDelayMs: 8000, sliceMs: 4, gapMs: 12, timers })

/** A writer on the fake clock with one job of `n` steps added; `steps` gets the time of each. */
function writerWithJob(n: number) {
  const timers = new FakeTimers()
  const w = new DeferredWriter(options(timers))
  const steps: number[] = []
  w.add(job(timers, n, steps))
  return { timers, w, steps }
}

/** The user stepping: a key press every 200 ms for `ms`. */
async function pressEvery200ms(timers: FakeTimers, w: DeferredWriter, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 200) {
    w.touch()
    await timers.advance(200)
  }
}

describe('the writes after an answer', () => {
  it('wait until the page has been idle, then run in slices of a few ms', async () => {
    const { timers, w, steps } = writerWithJob(20)
    await timers.advance(999)
    expect(steps, 'nothing before a second of idle').toEqual([])
    await timers.advance(1)
    await timers.advance(100)
    expect(steps).toHaveLength(20)
    expect(steps[0]).toBe(1001)
    expect(w.pending).toBe(0)
    // 20 steps of 1 ms in slices of at most 4 ms: 5 slices, not one, and a sixth that finds the job's end.
    expect(w.slices).toBe(6)
  })

  it('wait while the user steps, and pause when a key press comes between slices', async () => {
    const { timers, w, steps } = writerWithJob(40)
    // A press every 200 ms for 3 s: nothing runs.
    await pressEvery200ms(timers, w, 3000)
    expect(steps).toEqual([])
    // A second after the last press it starts.
    await timers.advance(800)
    expect(steps.length).toBeGreaterThan(0)
    expect(steps[0]).toBeGreaterThanOrEqual(3800)
    // A press between slices: the rest waits for idle again.
    w.touch()
    const before = steps.length
    expect(before).toBeLessThan(40)
    await timers.advance(999)
    expect(steps.length).toBe(before)
    await timers.advance(100)
    expect(steps).toHaveLength(40)
  })

  it('start at the deadline even while the user keeps stepping, with gaps between slices', async () => {
    const { timers, w, steps } = writerWithJob(12)
    await pressEvery200ms(timers, w, 9000)
    expect(steps).toHaveLength(12)
    expect(steps[0]).toBeGreaterThanOrEqual(8000)
    // Three slices of 4 ms, each after a 12 ms gap while the page is active.
    expect(steps[11]! - steps[0]!).toBeGreaterThanOrEqual(2 * 12)
  })

  it('flush runs every job to its end now (the next request waits for them)', async () => {
    const timers = new FakeTimers()
    const w = new DeferredWriter(options(timers))
    const a: number[] = []
    const b: number[] = []
    w.add(job(timers, 10, a))
    w.add(job(timers, 10, b))
    w.touch()
    await timers.advance(100)
    expect(a).toEqual([])
    await w.flush()
    expect(a).toHaveLength(10)
    expect(b).toHaveLength(10)
    expect(w.pending).toBe(0)
    // A job added later waits again.
    const c: number[] = []
    w.add(job(timers, 3, c))
    await timers.advance(500)
    expect(c).toEqual([])
    await timers.advance(600)
    expect(c).toHaveLength(3)
  })

  it('drops a job that fails and goes on with the next', async () => {
    const timers = new FakeTimers()
    const w = new DeferredWriter(options(timers))
    async function* failing(): WriteJob {
      yield
      throw new Error('quota')
    }
    const b: number[] = []
    w.add(failing())
    w.add(job(timers, 2, b))
    await w.flush()
    expect(b).toHaveLength(2)
    expect(w.pending).toBe(0)
  })
})
