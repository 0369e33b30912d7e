/**
 * The shared follower against in-memory sources: a log that grows, goes down, comes back
 * with other bytes, and a stream that opens, stays silent, or does not exist. Waits on
 * events, never on time; the intervals are a few milliseconds so the loops turn quickly.
 */
import { describe, expect, it } from 'vitest'
import { digestOf, type FollowEvent, FollowError, followInbox, type FollowOptions, type FollowSource } from './follow'
import type { FetchedUpdate, UpdateBatch } from './remote'

const INBOX = 'ab'.repeat(32)
const bytes = (seq: bigint, salt = 0) => new Uint8Array([0x0a, Number(seq & 0xffn), salt])

/** The shape of ./remote.ts RemoteError that the follower reads: a `kind`. */
class RemoteError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message)
  }
}

/** A node's log in memory; `down` makes every call fail as an unreachable node does. */
class FakeLog {
  readonly rows = new Map<bigint, FetchedUpdate>()
  down = false
  calls: { after: bigint }[] = []
  skipped: { sequenceId: bigint; reason: string }[] = []
  /** Called with the number of calls so far, before each answer (a test publishes from here). */
  onCall: (n: number) => void = () => undefined

  /** A log holding the updates at `seqs`. */
  static with(...seqs: bigint[]): FakeLog {
    const log = new FakeLog()
    for (const seq of seqs) log.put(seq)
    return log
  }

  put(seq: bigint, salt = 0): void {
    this.rows.set(seq, { sequenceId: seq, serverTimestampNs: 1000n + seq, bytes: bytes(seq, salt) })
  }

  batch(after: bigint): UpdateBatch {
    const updates = [...this.rows.values()].filter((u) => u.sequenceId > after)
    const skipped = this.skipped.filter((s) => s.sequenceId > after)
    let cursor = after
    for (const u of [...updates, ...skipped]) if (u.sequenceId > cursor) cursor = u.sequenceId
    return { updates, skipped, cursor }
  }

  source(): FollowSource {
    return {
      updatesAfter: async (_inbox, after) => {
        this.calls.push({ after })
        this.onCall(this.calls.length)
        if (this.down) throw new RemoteError('unreachable', 'connect ECONNREFUSED')
        return this.batch(after)
      },
    }
  }
}

const FAST = { pollMs: 2, checkMs: 30, verifyMs: 20, backoffMs: { first: 2, max: 10 } } as const

/** Following INBOX on `log` with the fast timings, and `extra` over them. */
const followOf = (log: FakeLog, extra: Partial<FollowOptions> = {}) => ({
  source: log.source(),
  inboxId: INBOX,
  ...FAST,
  ...extra,
})

/** Reads events until `until` holds for one (which is included); then stops the follower. */
async function collect(
  options: Omit<FollowOptions, 'signal'>,
  steps: ((events: FollowEvent[]) => boolean | undefined)[],
  onStep: ((i: number) => void)[] = [],
): Promise<FollowEvent[]> {
  const stop = new AbortController()
  const events: FollowEvent[] = []
  let step = 0
  for await (const e of followInbox({ ...options, signal: stop.signal })) {
    events.push(e)
    while (step < steps.length && steps[step]!(events)) {
      onStep[step]?.(step)
      step++
    }
    if (step === steps.length && !stop.signal.aborted) stop.abort()
  }
  return events
}

const updates = (events: FollowEvent[]) =>
  events.filter((e): e is Extract<FollowEvent, { type: 'update' }> => e.type === 'update').map((e) => e.sequenceId)
const forks = (events: FollowEvent[]) => events.filter((e) => e.type === 'fork')
const states = (events: FollowEvent[]) =>
  events.filter((e): e is Extract<FollowEvent, { type: 'state' }> => e.type === 'state')

describe('followInbox', () => {
  it('yields the existing log, then each new update once, in ascending order', async () => {
    const log = FakeLog.with(1n, 3n)
    const events = await collect(
      followOf(log),
      [(e) => updates(e).length === 2, (e) => updates(e).length === 4],
      [
        () => {
          // Published out of order between two polls: yielded in sequence id order.
          log.put(9n)
          log.put(7n)
        },
      ],
    )
    expect(updates(events)).toEqual([1n, 3n, 7n, 9n])
    const first = events.find((e) => e.type === 'update')!
    expect(first).toMatchObject({ inboxId: INBOX, serverTimestampNs: 1001n, digest: digestOf(bytes(1n)) })
    expect(states(events)[0]!.state).toBe('connecting')
    expect(states(events).find((s) => s.state === 'live')).toMatchObject({ mode: 'poll' })
    expect(events.at(-1)).toEqual({ type: 'state', state: 'stopped' })
    expect(forks(events)).toEqual([])
  })

  it('polls after the last yielded sequence id', async () => {
    const log = FakeLog.with(4n)
    log.onCall = (n) => n === 4 && log.put(6n)
    await collect(followOf(log, { verifyMs: 60_000 }), [(e) => updates(e).length === 2])
    expect(log.calls.slice(0, 4).map((c) => c.after)).toEqual([0n, 4n, 4n, 4n])
  })

  it('reconnects with backoff after failures and resumes: no update twice, none skipped', async () => {
    const log = FakeLog.with(1n, 2n)
    const events = await collect(
      followOf(log),
      [
        (e) => updates(e).length === 2,
        (e) => states(e).some((s) => s.state === 'reconnecting'),
        (e) => states(e).filter((s) => s.state === 'reconnecting').length >= 3,
        (e) => updates(e).length === 4,
      ],
      [
        () => {
          log.down = true
        },
        () => undefined,
        () => {
          log.put(3n)
          log.put(5n)
          log.down = false
        },
      ],
    )
    expect(updates(events)).toEqual([1n, 2n, 3n, 5n])
    const reconnecting = states(events).filter((s) => s.state === 'reconnecting')
    expect(reconnecting[0]!.detail).toMatch(/ECONNREFUSED/)
    // Backoff: each wait at least the one before, up to the cap.
    const waits = reconnecting.map((s) => s.retryInMs!)
    expect(waits).toEqual([...waits].sort((a, b) => a - b))
    expect(Math.max(...waits)).toBeLessThanOrEqual(10)
    expect(states(events).find((s) => s.resumedAfter !== undefined)).toMatchObject({ state: 'live', resumedAfter: 2n })
    expect(forks(events)).toEqual([])
  })

  it('reports a fork once when the node serves other bytes, drops or inserts an update, and goes on', async () => {
    const log = FakeLog.with(1n, 2n, 4n)
    const events = await collect(
      followOf(log),
      [
        (e) => updates(e).length === 3,
        (e) => forks(e).length === 3,
        // Several verifications later, still three forks; a new update is yielded after them.
        (e) => updates(e).length === 4,
      ],
      [
        () => {
          log.put(2n, 7) // other bytes under 2
          log.rows.delete(4n) // 4 gone
          log.put(3n) // 3 appears below the last yielded id
        },
        () => {
          const from = log.calls.length
          log.onCall = (n) => n === from + 10 && log.put(6n)
        },
      ],
    )
    expect(updates(events)).toEqual([1n, 2n, 4n, 6n])
    expect(forks(events)).toEqual([
      {
        type: 'fork',
        inboxId: INBOX,
        sequenceId: 4n,
        reason: 'gone',
        printedDigest: digestOf(bytes(4n)),
        servedDigest: null,
      },
      {
        type: 'fork',
        inboxId: INBOX,
        sequenceId: 2n,
        reason: 'different-bytes',
        printedDigest: digestOf(bytes(2n)),
        servedDigest: digestOf(bytes(2n, 7)),
      },
      {
        type: 'fork',
        inboxId: INBOX,
        sequenceId: 3n,
        reason: 'inserted',
        printedDigest: null,
        servedDigest: digestOf(bytes(3n)),
      },
    ])
  })

  it('checks updates shown before the follow began (printed) and yields only after `after`', async () => {
    const log = FakeLog.with(1n, 2n, 3n)
    const events = await collect(
      followOf(log, {
        after: 2n,
        printed: [
          [1n, digestOf(bytes(1n))],
          [2n, digestOf(bytes(2n, 9))],
        ],
      }),
      [(e) => updates(e).length === 1 && forks(e).length === 1],
    )
    expect(updates(events)).toEqual([3n])
    expect(forks(events)[0]).toMatchObject({ sequenceId: 2n, reason: 'different-bytes' })
    expect(log.calls[0]!.after).toBe(0n)
  })

  it('reports an envelope left out once, and polls past it', async () => {
    const log = FakeLog.with(1n)
    log.skipped.push({ sequenceId: 2n, reason: 'the ClientEnvelope carries a group_message' })
    log.onCall = (n) => n === 5 && log.put(3n)
    const events = await collect(followOf(log, { verifyMs: 60_000 }), [(e) => updates(e).length === 2])
    expect(events.filter((e) => e.type === 'skipped')).toEqual([
      { type: 'skipped', sequenceId: 2n, reason: 'the ClientEnvelope carries a group_message' },
    ])
    expect(log.calls.slice(1, 5).map((c) => c.after)).toEqual([2n, 2n, 2n, 2n])
  })

  it('throws FollowError when the node is never reached', async () => {
    const log = new FakeLog()
    log.down = true
    const run = collect(followOf(log, { giveUpMs: 30 }), [() => false])
    await expect(run).rejects.toThrow(FollowError)
    await expect(run).rejects.toThrow(/ECONNREFUSED/)
    expect(log.calls.length).toBeGreaterThan(1)
  })

  it('throws FollowError at once for a refusal that retrying cannot fix', async () => {
    const source: FollowSource = {
      updatesAfter: async () => {
        throw new RemoteError('malformed', 'the answer is not a GetIdentityUpdatesResponse')
      },
    }
    const run = collect({ source, inboxId: INBOX, ...FAST, giveUpMs: 60_000 }, [() => false])
    await expect(run).rejects.toThrow(/not a GetIdentityUpdatesResponse/)
  })

  it('ends with a stopped state when the signal aborts, and when the consumer stops reading', async () => {
    const log = FakeLog.with(1n)
    const stop = new AbortController()
    const seen: FollowEvent[] = []
    for await (const e of followInbox(followOf(log, { signal: stop.signal }))) {
      seen.push(e)
      if (e.type === 'update') stop.abort()
    }
    expect(seen.at(-1)).toEqual({ type: 'state', state: 'stopped' })
    let n = 0
    for await (const e of followInbox(followOf(log))) {
      if (e.type === 'update') n++
      break
    }
    expect(n).toBe(0)
  })
})

/** A stream source: batches pushed by the test; `subscribe` records each start. */
class FakeStream {
  readonly log = new FakeLog()
  readonly subscriptions: bigint[] = []
  private listeners = new Set<(b: UpdateBatch | Error) => void>()
  unimplemented = false
  /** Sends nothing at all (not even the empty first batch) until a batch is pushed. */
  silent = false

  push(b: UpdateBatch | Error): void {
    for (const l of this.listeners) l(b)
  }

  source(): FollowSource {
    const base = this.log.source()
    return {
      updatesAfter: base.updatesAfter,
      subscribe: (_inbox, after, signal) => this.subscribe(after, signal),
    }
  }

  private async *subscribe(after: bigint, signal?: AbortSignal): AsyncGenerator<UpdateBatch> {
    this.subscriptions.push(after)
    if (this.unimplemented) throw new RemoteError('unimplemented', 'HTTP 404')
    if (this.log.down) throw new RemoteError('unreachable', 'connect ECONNREFUSED')
    const pending: (UpdateBatch | Error)[] = []
    let wake: (() => void) | null = null
    const listener = (b: UpdateBatch | Error) => {
      pending.push(b)
      wake?.()
    }
    this.listeners.add(listener)
    const onAbort = () => listener(new RemoteError('cancelled', 'cancelled'))
    signal?.addEventListener('abort', onAbort)
    try {
      if (!this.silent) yield { updates: [], skipped: [], cursor: after }
      for (;;) {
        while (pending.length) {
          const b = pending.shift()!
          if (b instanceof Error) throw b
          yield b
        }
        await new Promise<void>((r) => {
          wake = r
        })
      }
    } finally {
      this.listeners.delete(listener)
      signal?.removeEventListener('abort', onAbort)
    }
  }
}

describe('followInbox with a stream', () => {
  const STREAM = { ...FAST, checkMs: 60_000, verifyMs: 60_000 }

  it('catches up, then takes new updates from the stream, started after the catch-up', async () => {
    const s = new FakeStream()
    s.log.put(1n)
    s.log.put(2n)
    const events = await collect(
      { source: s.source(), inboxId: INBOX, ...STREAM },
      [(e) => states(e).some((x) => x.state === 'live'), (e) => updates(e).length === 4],
      [
        () => {
          const rows = [5n, 8n].map((seq) => ({ sequenceId: seq, serverTimestampNs: 9n, bytes: bytes(seq) }))
          s.push({ updates: rows.reverse(), skipped: [], cursor: 8n })
        },
      ],
    )
    expect(updates(events)).toEqual([1n, 2n, 5n, 8n])
    expect(s.subscriptions).toEqual([2n])
    expect(states(events).find((x) => x.state === 'live')).toMatchObject({ mode: 'stream' })
  })

  it('falls back to polling when the node has no stream (unimplemented)', async () => {
    const s = new FakeStream()
    s.unimplemented = true
    s.log.put(1n)
    const events = await collect(
      { source: s.source(), inboxId: INBOX, ...STREAM },
      [(e) => states(e).some((x) => x.state === 'live'), (e) => updates(e).length === 2],
      [() => s.log.put(2n)],
    )
    expect(updates(events)).toEqual([1n, 2n])
    expect(states(events).find((x) => x.state === 'live')).toMatchObject({ mode: 'poll' })
    expect(states(events).find((x) => x.state === 'live')!.detail).toMatch(/HTTP 404/)
    expect(states(events).some((x) => x.state === 'reconnecting')).toBe(false)
  })

  it('reconnects when the stream fails and resumes the stream after the last update', async () => {
    const s = new FakeStream()
    s.log.put(1n)
    const events = await collect(
      { source: s.source(), inboxId: INBOX, ...STREAM },
      [
        (e) => states(e).some((x) => x.state === 'live'),
        (e) => updates(e).length === 2,
        (e) => states(e).filter((x) => x.state === 'live').length === 2,
        (e) => updates(e).length === 3,
      ],
      [
        () => {
          s.log.put(3n)
          s.push({ updates: [s.log.rows.get(3n)!], skipped: [], cursor: 3n })
        },
        () => {
          s.log.put(4n) // published while the stream is down
          s.push(new RemoteError('malformed', 'the connection was cut off'))
        },
      ],
    )
    expect(updates(events)).toEqual([1n, 3n, 4n])
    expect(s.subscriptions).toEqual([1n, 4n])
    expect(states(events).filter((x) => x.state === 'live')[1]).toMatchObject({ mode: 'stream', resumedAfter: 3n })
  })

  it('checks a silent stream with a poll, and starts over when the poll fails', async () => {
    const s = new FakeStream()
    s.log.put(1n)
    const events = await collect(
      { source: s.source(), inboxId: INBOX, ...STREAM, checkMs: 20 },
      [
        (e) => states(e).some((x) => x.state === 'live'),
        // Published but never streamed: the check poll finds it.
        (e) => updates(e).length === 2,
        (e) => states(e).some((x) => x.state === 'reconnecting'),
        (e) => states(e).filter((x) => x.state === 'live').length === 2,
      ],
      [
        () => s.log.put(2n),
        () => {
          s.log.down = true
        },
        () => {
          s.log.down = false
        },
      ],
    )
    expect(updates(events)).toEqual([1n, 2n])
    expect(s.subscriptions.length).toBeGreaterThanOrEqual(2)
  })

  it('takes a silent stream as open after a moment, and polls once for what came before it', async () => {
    const s = new FakeStream()
    s.silent = true
    s.log.put(1n)
    // Published after the catch-up, before the stream: only the early check finds it.
    s.log.onCall = (n) => n === 1 && setTimeout(() => s.log.put(2n), 0)
    const events = await collect({ source: s.source(), inboxId: INBOX, ...STREAM }, [
      (e) => updates(e).length === 2 && states(e).some((x) => x.state === 'live'),
    ])
    expect(updates(events)).toEqual([1n, 2n])
    expect(states(events).find((x) => x.state === 'live')).toMatchObject({ mode: 'stream' })
    expect(s.subscriptions).toEqual([1n])
  })
})
