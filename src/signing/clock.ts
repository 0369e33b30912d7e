/**
 * Time for the slow, interactive parts of signing (signer timeouts, visibility polling),
 * behind a port so tests run without waiting. The pure core has no timer types, so the
 * host's setTimeout is reached structurally through globalThis.
 */

interface Timer {
  readonly done: Promise<void>
  cancel(): void
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** A timer that resolves `done` after `ms` milliseconds unless cancelled. */
  timer(ms: number): Timer
}

interface HostTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(id: unknown): void
}

/** The host's clock: Date.now and setTimeout (looked up at call time, so test fake timers apply). */
export const systemClock: Clock = {
  now: () => Date.now(),
  timer(ms) {
    const host = globalThis as unknown as HostTimers
    let id: unknown
    let resolve!: () => void
    const done = new Promise<void>((r) => (resolve = r))
    id = host.setTimeout(resolve, Math.max(0, ms))
    return { done, cancel: () => host.clearTimeout(id) }
  },
}

export function sleep(clock: Clock, ms: number): Promise<void> {
  return clock.timer(ms).done
}

/** A clock whose time moves only when something sleeps on it: every timer fires at once, in order. */
export interface VirtualClock extends Clock {
  /** Total milliseconds slept so far. */
  readonly elapsed: number
}

/**
 * A virtual clock for tests and demos: `timer(ms)` advances the time by `ms` and resolves
 * after one host macrotask (so work that settles in microtasks, such as a local key
 * signing, wins a race against it), and a polling loop with a 30 s budget runs in
 * milliseconds, deterministically. Cancelled timers do not advance time.
 */
export function virtualClock(start = 1_700_000_000_000): VirtualClock {
  let now = start
  return {
    now: () => now,
    get elapsed() {
      return now - start
    },
    timer(ms) {
      let cancelled = false
      const host = globalThis as unknown as HostTimers
      const done = new Promise<void>((resolve) => {
        host.setTimeout(() => {
          if (!cancelled) now += Math.max(0, ms)
          resolve()
        }, 0)
      })
      return { done, cancel: () => void (cancelled = true) }
    },
  }
}

/**
 * Races `work` against a timer of `ms` (no timer when ms is undefined or not finite).
 * Resolves with the work's value, or rejects with `onTimeout()`; the timer is cleared either way.
 */
export async function withTimeout<T>(
  clock: Clock,
  ms: number | undefined,
  work: Promise<T>,
  onTimeout: () => Error,
): Promise<T> {
  if (ms === undefined || !Number.isFinite(ms)) return work
  const t = clock.timer(ms)
  try {
    return await Promise.race([
      work,
      t.done.then((): never => {
        throw onTimeout()
      }),
    ])
  } finally {
    t.cancel()
  }
}
