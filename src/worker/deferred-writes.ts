/**
 * The replay worker's writes after an answer (a log's record, its new verdicts), done
 * when the page lets them: a large log's writes cost this thread a few hundred ms of CPU,
 * which on two cores competes with the user's first key presses on the log just shown.
 *
 * A job is an async generator whose every `yield` is a place it may stop. The writer
 * starts once the page has been idle for `idleMs` (no `touch`: the page reports a step or
 * a key press) or `maxDelayMs` after the job came, whichever is first, and then runs the
 * jobs a slice at a time: as many steps as fit in `sliceMs`, then the next task
 * (`gapMs` later while the page is active past the deadline), so a message (the page's
 * next request, its activity) is handled between slices. A touch pauses it until the page
 * is idle again or the deadline passed. `flush` runs every job to its end now (a new
 * request comes first after them, so a log opened next, or a cancel, loses no write; the
 * page being hidden or unloaded asks for it too: the browser ends an unloaded page's worker
 * a few milliseconds later, so a job puts what matters most first, see replay.worker.ts).
 */

export type WriteJob = AsyncGenerator<void, void, void>

export interface WriterTimers {
  now(): number
  /** Calls `fn` after `ms`; the writer waits on one timer at a time. */
  after(ms: number, fn: () => void): void
}

export interface DeferredWriterOptions {
  readonly idleMs: number
  readonly maxDelayMs: number
  readonly sliceMs: number
  readonly gapMs: number
  readonly timers: WriterTimers
}

export const browserTimers: WriterTimers = {
  now: () => performance.now(),
  after: (ms, fn) => {
    setTimeout(fn, ms)
  },
}

export class DeferredWriter {
  private readonly jobs: WriteJob[] = []
  private lastTouch = Number.NEGATIVE_INFINITY
  /** When the oldest job waiting came (its deadline is maxDelayMs later). */
  private since = 0
  private running: Promise<void> | null = null
  private urgent = false
  /** Ends the current sleep early (a flush). */
  private wake: (() => void) | null = null
  /** Slices run so far (for tests and the benchmark's detail). */
  slices = 0

  constructor(private readonly opts: DeferredWriterOptions) {}

  /** Jobs not yet finished. */
  get pending(): number {
    return this.jobs.length
  }

  add(job: WriteJob): void {
    if (this.jobs.length === 0) this.since = this.opts.timers.now()
    this.jobs.push(job)
    this.start()
  }

  /** The page is active (a step, a key press): the writes wait until it is idle again. */
  touch(): void {
    this.lastTouch = this.opts.timers.now()
  }

  /** Runs every job to its end now; resolves when they are done. */
  flush(): Promise<void> {
    this.urgent = true
    const running = this.start()
    this.wake?.()
    return running
  }

  private start(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = null
      this.urgent = false
    })
    return this.running
  }

  /**
   * Waits until the next slice may run: the first once the page has been idle idleMs and
   * the job has waited idleMs, each later one once the page is idle; past the deadline
   * the first goes at once and each later one after gapMs while the page is active.
   */
  private async pause(first: boolean): Promise<void> {
    const { idleMs, maxDelayMs, gapMs, timers } = this.opts
    while (!this.urgent) {
      const now = timers.now()
      const deadline = this.since + maxDelayMs
      if (now >= deadline) {
        if (!first && now < this.lastTouch + idleMs && gapMs > 0) await this.sleep(gapMs)
        return
      }
      const idleAt = Math.max(this.lastTouch + idleMs, first ? this.since + idleMs : now)
      if (idleAt <= now) return
      await this.sleep(Math.min(idleAt, deadline) - now)
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve
      this.opts.timers.after(ms, resolve)
    })
  }

  private async run(): Promise<void> {
    let first = true
    while (this.jobs.length > 0) {
      await this.pause(first)
      first = false
      const job = this.jobs[0]!
      const from = this.opts.timers.now()
      let done = false
      try {
        do {
          done = (await job.next()).done === true
        } while (!done && (this.urgent || this.opts.timers.now() - from < this.opts.sliceMs))
      } catch {
        // A write is only a head start for a reopen: a failed job is dropped.
        done = true
      }
      this.slices++
      if (done) this.jobs.shift()
      // The next task: messages (activity, a request) are handled between slices.
      if (!this.urgent && this.jobs.length > 0) await this.sleep(0)
    }
  }
}
