import { describe, expect, it } from 'vitest'
import type { WriterTimers } from './deferred-writes'
import { IdleGate } from './idle-gate'

/** A clock the test moves; timers fire in time order. */
class Clock implements WriterTimers {
  t = 0
  private timers: { at: number; fn: () => void }[] = []
  now = (): number => this.t
  after(ms: number, fn: () => void): void {
    this.timers.push({ at: this.t + ms, fn })
  }
  advance(ms: number): void {
    const end = this.t + ms
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at)
      const next = this.timers[0]
      if (!next || next.at > end) break
      this.timers.shift()
      this.t = Math.max(this.t, next.at)
      next.fn()
    }
    this.t = end
  }
}

describe('IdleGate: the idle warm-up waits for the user', () => {
  it('is idle before any activity and active for idleMs after each', () => {
    const clock = new Clock()
    const gate = new IdleGate(1000, clock)
    expect(gate.active()).toBe(false)
    clock.t = 5000
    gate.touch()
    expect(gate.active()).toBe(true)
    clock.advance(999)
    expect(gate.active()).toBe(true)
    clock.advance(1)
    expect(gate.active()).toBe(false)
  })

  it('runs a waiting call only once the user has been idle idleMs, however long the steps go on', () => {
    const clock = new Clock()
    const gate = new IdleGate(1000, clock)
    const ran: number[] = []
    gate.touch()
    gate.whenIdle(() => ran.push(clock.t))
    // A step every 250 ms for 3 s: the call waits.
    for (let i = 0; i < 12; i++) {
      clock.advance(250)
      gate.touch()
    }
    expect(ran).toEqual([])
    clock.advance(999)
    expect(ran).toEqual([])
    clock.advance(1)
    expect(ran).toEqual([4000])
  })

  it('runs at once (in a later task) when already idle, and shares one timer between calls', () => {
    const clock = new Clock()
    const gate = new IdleGate(1000, clock)
    const ran: string[] = []
    gate.whenIdle(() => ran.push('a'))
    gate.whenIdle(() => ran.push('b'))
    expect(ran, 'not in the caller’s task').toEqual([])
    clock.advance(0)
    expect(ran).toEqual(['a', 'b'])
    // Each call after that waits anew.
    gate.whenIdle(() => ran.push('c'))
    clock.advance(0)
    expect(ran).toEqual(['a', 'b', 'c'])
  })
})
