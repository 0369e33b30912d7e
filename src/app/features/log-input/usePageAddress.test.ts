import { describe, expect, it } from 'vitest'
import { AddressWriter } from './usePageAddress'

/** A writer on a clock the test moves, with its paced writes run by hand. */
function harness() {
  let now = 0
  const written: string[] = []
  const timers = new Map<number, { at: number; f: () => void }>()
  let id = 0
  const w = new AddressWriter(
    (a) => written.push(a),
    () => now,
    {
      set: (f, ms) => {
        timers.set(++id, { at: now + ms, f })
        return id as unknown as ReturnType<typeof setTimeout>
      },
      clear: (t) => void timers.delete(t as unknown as number),
    },
  )
  const advance = (ms: number) => {
    now += ms
    for (const [k, t] of [...timers]) {
      if (t.at <= now) {
        timers.delete(k)
        t.f()
      }
    }
  }
  return { w, written, advance, pending: () => timers.size }
}

describe('AddressWriter (the address bar follows the view)', () => {
  it('writes a change at once: a reload right after a step change reopens that step', () => {
    const h = harness()
    h.w.set('/#example=a&step=1.0')
    expect(h.written).toEqual(['/#example=a&step=1.0'])
    h.advance(5)
    h.w.set('/#example=a&step=2.0')
    expect(h.written).toEqual(['/#example=a&step=1.0', '/#example=a&step=2.0'])
    expect(h.pending()).toBe(0)
  })

  it('paces a burst (a held arrow key): 50 writes in 10 s, then only the last change, 250 ms after it', () => {
    const h = harness()
    for (let i = 0; i < 80; i++) {
      h.w.set(`/#step=${i}.0`)
      h.advance(20)
    }
    // The first 50 at once; of the 30 after them, each replaced the one before (20 ms < 250 ms).
    expect(h.written).toHaveLength(50)
    expect(h.pending()).toBe(1)
    h.advance(250)
    expect(h.written).toHaveLength(51)
    expect(h.written.at(-1)).toBe('/#step=79.0')
    // Once the window has passed, a change is written at once again.
    h.advance(10_000)
    h.w.set('/#step=80.0')
    expect(h.written.at(-1)).toBe('/#step=80.0')
    expect(h.pending()).toBe(0)
  })

  it('cancel drops a paced write not yet made', () => {
    const h = harness()
    for (let i = 0; i < 51; i++) h.w.set(`/#step=${i}.0`)
    expect(h.pending()).toBe(1)
    h.w.cancel()
    h.advance(1000)
    expect(h.written).toHaveLength(50)
  })
})
