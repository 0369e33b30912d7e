import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PHASE_AFTER, phaseSwitch } from './phase-switch'

describe('phaseSwitch: "Reading" turns to "Replaying"', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('switches PHASE_AFTER ms after the read when no progress comes', () => {
    const show = vi.fn()
    const s = phaseSwitch(show)
    s.read(1000)
    vi.advanceTimersByTime(PHASE_AFTER - 1)
    expect(show).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(show).toHaveBeenCalledExactlyOnceWith(1000)
  })

  it('switches at the first progress message, before the timer, and only once', () => {
    const show = vi.fn()
    const s = phaseSwitch(show)
    s.read(1000)
    vi.advanceTimersByTime(100)
    s.progress(1000)
    expect(show).toHaveBeenCalledExactlyOnceWith(1000)
    s.progress(1000)
    vi.advanceTimersByTime(PHASE_AFTER * 4)
    expect(show).toHaveBeenCalledOnce()
  })

  it('a progress message before the read (one message for both) switches too', () => {
    const show = vi.fn()
    const s = phaseSwitch(show)
    s.progress(10_000)
    s.read(10_000)
    vi.advanceTimersByTime(PHASE_AFTER * 2)
    expect(show).toHaveBeenCalledExactlyOnceWith(10_000)
  })

  it('a replay that ends within PHASE_AFTER of the read never switches', () => {
    const show = vi.fn()
    const s = phaseSwitch(show)
    s.read(256)
    vi.advanceTimersByTime(PHASE_AFTER - 1)
    s.stop()
    vi.advanceTimersByTime(PHASE_AFTER * 4)
    s.progress(256)
    expect(show).not.toHaveBeenCalled()
  })
})
