/**
 * The page's user, as the replay worker sees it: active for `idleMs` after each activity
 * the page reports (ToWorker 'activity': a step, a key press, at most every 250 ms), idle
 * after. The worker's idle warm-up (./warm-log.ts, ./warm-up.ts) is for a log opened later
 * and stops while the user is active: on two cores it would compete with the steps on the
 * log shown (the page's thread, its compositor and raster, and this one).
 */
import type { WriterTimers } from './deferred-writes'

export class IdleGate {
  private last = Number.NEGATIVE_INFINITY
  private waiting: (() => void)[] | null = null

  constructor(
    private readonly idleMs: number,
    private readonly timers: WriterTimers,
  ) {}

  /** The page reported its user active now. */
  touch(): void {
    this.last = this.timers.now()
  }

  /** True within idleMs of the last touch. */
  active(): boolean {
    return this.timers.now() - this.last < this.idleMs
  }

  /**
   * Calls `fn` once the user has been idle idleMs (at once when already idle, in a later
   * task). Calls made while waiting share the one timer; a touch meanwhile postpones them.
   */
  whenIdle(fn: () => void): void {
    if (this.waiting) {
      this.waiting.push(fn)
      return
    }
    this.waiting = [fn]
    const check = (): void => {
      if (this.active()) {
        this.timers.after(this.last + this.idleMs - this.timers.now(), check)
        return
      }
      const due = this.waiting ?? []
      this.waiting = null
      for (const f of due) f()
    }
    this.timers.after(Math.max(0, this.last + this.idleMs - this.timers.now()), check)
  }
}
