import type { WriterTimers } from './deferred-writes'

/** A clock the test moves: timers fire in time order as it advances. */
export class FakeTimers implements WriterTimers {
  t = 0
  private timers: { at: number; fn: () => void }[] = []
  now = (): number => this.t
  after(ms: number, fn: () => void): void {
    this.timers.push({ at: this.t + ms, fn })
  }
  /** Moves the clock by `ms`, firing each timer due (and letting its promise chain run). */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms
    for (;;) {
      await settle()
      this.timers.sort((a, b) => a.at - b.at)
      const next = this.timers[0]
      if (!next || next.at > end) break
      this.timers.shift()
      this.t = Math.max(this.t, next.at)
      next.fn()
    }
    this.t = end
    await settle()
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}
