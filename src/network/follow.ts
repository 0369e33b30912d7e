/**
 * The shared follower: one inbox's log on a node, live, for the command line's `watch`
 * and the app's Follow (../shared/contracts/cli.md, `watch`; design.md "Live views read
 * streams with a cursor and resume after it").
 *
 *   for await (const e of followInbox({ source: createRemote({…}), inboxId, signal })) …
 *
 * yields every update the node already holds, then each new one, once each, in ascending
 * sequence id, across dropped connections and node restarts: a session catches up (the
 * whole log, which also checks what was yielded before), then follows the node's stream
 * where the source offers one (d14n: ReplicationApi.SubscribeEnvelopes) or polls. Any
 * failure ends the session and a new one starts after a backoff, resuming after the last
 * sequence id yielded. When the node later contradicts what was yielded (an update gone,
 * other bytes under a yielded sequence id, or an update below the last yielded one that
 * was never served before), a `fork` event says so once, and the follow goes on.
 *
 * Staleness: a stream that stays silent for `checkMs` is checked with a poll; a poll that
 * fails ends the session (a connection to a killed node may hang without an error), and
 * the whole log is checked again every `verifyMs`.
 *
 * Browser-safe: no node:* import, no timers beyond setTimeout; the source (and so the
 * transports) is passed in. Every answer is a claim (IDENT-071): nothing here validates
 * an update; the caller judges the updates in order.
 */
import { bytesToHex } from '../crypto/bytes'
import { sha256 } from '../crypto/hash'
import type { FetchedUpdate, UpdateBatch } from './remote'

/** What the follower reads from: a node client (./remote.ts createRemote makes one). */
export interface FollowSource {
  /** The inbox's updates after a sequence id (all of them: a source pages itself). */
  updatesAfter(inboxId: string, after: bigint, signal?: AbortSignal): Promise<UpdateBatch>
  /**
   * A live stream of batches after a sequence id, where the node offers one. The first
   * batch may be empty: it says the stream is open. A node without it throws an error
   * whose `kind` is 'unimplemented'.
   */
  subscribe?(inboxId: string, after: bigint, signal?: AbortSignal): AsyncIterable<UpdateBatch>
}

type ForkReason = 'gone' | 'different-bytes' | 'inserted'

type FollowState = 'connecting' | 'live' | 'reconnecting' | 'stopped'

export type FollowEvent =
  | {
      readonly type: 'update'
      readonly inboxId: string
      readonly sequenceId: bigint
      readonly serverTimestampNs: bigint
      /** The IdentityUpdate's bytes exactly as the node served them. */
      readonly bytes: Uint8Array
      /** SHA-256 of `bytes`, lowercase hex. */
      readonly digest: string
    }
  | {
      readonly type: 'fork'
      readonly inboxId: string
      readonly sequenceId: bigint
      /**
       * gone: a yielded update the node no longer serves; different-bytes: other bytes under a
       * yielded sequence id; inserted: an update below the last yielded sequence id that
       * was never yielded (the log was judged without it).
       */
      readonly reason: ForkReason
      /** SHA-256 hex of the bytes yielded under this sequence id (null for `inserted`). */
      readonly printedDigest: string | null
      /** SHA-256 hex of the bytes the node serves now (null for `gone`). */
      readonly servedDigest: string | null
    }
  | {
      /** A d14n envelope that does not unwrap to an identity update of the inbox: left out. */
      readonly type: 'skipped'
      readonly sequenceId: bigint | null
      readonly reason: string
    }
  | {
      readonly type: 'state'
      readonly state: FollowState
      /** live: how new updates arrive. */
      readonly mode?: 'stream' | 'poll'
      /** live after a reconnection: the last sequence id yielded before it. */
      readonly resumedAfter?: bigint
      /** reconnecting: why the session ended; live in poll mode: why there is no stream. */
      readonly detail?: string
      /** reconnecting: the wait before the next attempt. */
      readonly retryInMs?: number
    }

/** The follow could not start: the node was never reached, or refused before any answer. */
export class FollowError extends Error {
  override readonly name = 'FollowError'
}

export interface FollowOptions {
  readonly source: FollowSource
  readonly inboxId: string
  /** Yield only updates after this sequence id (default 0: the whole log). */
  readonly after?: bigint
  /** Updates already shown, sequence id → SHA-256 hex, checked for forks as if yielded. */
  readonly printed?: Iterable<readonly [bigint, string]>
  readonly signal?: AbortSignal
  /** Poll interval while idle, without a stream. Default 1000 ms. */
  readonly pollMs?: number
  /** A stream silent this long is checked with a poll. Default 5000 ms. */
  readonly checkMs?: number
  /** The whole log is checked against what was yielded this often. Default 30000 ms. */
  readonly verifyMs?: number
  /** Backoff between sessions: first wait and cap. Default 250 ms doubling to 5000 ms. */
  readonly backoffMs?: { readonly first: number; readonly max: number }
  /**
   * Before the first answer, failures are retried for this long, then the iteration
   * throws FollowError. Default 5000 ms; Infinity retries forever.
   */
  readonly giveUpMs?: number
  /**
   * Whether a failure before the first answer is worth retrying. Default: errors whose
   * `kind` is 'unreachable' (./remote.ts RemoteError), and errors without a kind.
   */
  readonly retryable?: (e: unknown) => boolean
}

const kindOf = (e: unknown): string | undefined =>
  e !== null && typeof e === 'object' && 'kind' in e && typeof e.kind === 'string' ? e.kind : undefined

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** SHA-256 of bytes, lowercase hex: the digest fork events compare. */
export function digestOf(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes))
}

/** Resolves after `ms`, or at once when the signal aborts (never rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      clearTimeout(t)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const t = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}

/** Follows one inbox's log; see the module comment. Ends (after a `stopped` state) when the signal aborts. */
export async function* followInbox(o: FollowOptions): AsyncGenerator<FollowEvent, void, undefined> {
  const queue: FollowEvent[] = []
  let head = 0
  let wake: (() => void) | null = null
  let finished = false
  let failure: unknown = null
  const stop = new AbortController()
  const onAbort = () => stop.abort(o.signal?.reason)
  if (o.signal?.aborted) stop.abort(o.signal.reason)
  else o.signal?.addEventListener('abort', onAbort)
  const emit = (e: FollowEvent) => {
    queue.push(e)
    wake?.()
  }
  const running = follow(o, emit, stop.signal).then(
    () => {
      finished = true
      wake?.()
    },
    (e: unknown) => {
      failure = e
      finished = true
      wake?.()
    },
  )
  try {
    for (;;) {
      while (head < queue.length) {
        const e = queue[head]!
        queue[head++] = undefined as never
        if (head > 1024 && head * 2 > queue.length) {
          queue.splice(0, head)
          head = 0
        }
        yield e
      }
      if (finished) {
        if (failure !== null) throw failure
        return
      }
      await new Promise<void>((resolve) => {
        wake = resolve
      })
      wake = null
    }
  } finally {
    o.signal?.removeEventListener('abort', onAbort)
    stop.abort()
    await running
  }
}

async function follow(o: FollowOptions, emit: (e: FollowEvent) => void, signal: AbortSignal): Promise<void> {
  const { source, inboxId } = o
  const pollMs = o.pollMs ?? 1000
  const checkMs = o.checkMs ?? 5000
  const verifyMs = o.verifyMs ?? 30_000
  const backoff = o.backoffMs ?? { first: 250, max: 5000 }
  const giveUpMs = o.giveUpMs ?? 5000
  const retryable = o.retryable ?? ((e: unknown) => kindOf(e) === undefined || kindOf(e) === 'unreachable')
  const after0 = o.after ?? 0n

  /** Sequence id → digest of every update yielded (or given as printed). */
  const printed = new Map<bigint, string>()
  let last = after0
  for (const [seq, digest] of o.printed ?? []) {
    printed.set(seq, digest)
    if (seq > last) last = seq
  }
  let verifyFrom = after0
  for (const seq of printed.keys()) if (seq - 1n < verifyFrom) verifyFrom = seq - 1n
  /** Where the next poll starts: past the last yielded update and past envelopes left out. */
  let cursor = last
  const forks = new Set<string>()
  const warned = new Set<string>()

  const fork = (sequenceId: bigint, reason: ForkReason, printedDigest: string | null, servedDigest: string | null) => {
    const key = `${sequenceId}:${reason}:${servedDigest}`
    if (forks.has(key)) return
    forks.add(key)
    emit({ type: 'fork', inboxId, sequenceId, reason, printedDigest, servedDigest })
  }

  /** Takes a batch in: forks for what contradicts the yielded log, then the new updates in order. */
  const accept = (batch: UpdateBatch, whole: boolean) => {
    for (const s of batch.skipped) {
      const key = `${s.sequenceId}:${s.reason}`
      if (warned.has(key)) continue
      warned.add(key)
      emit({ type: 'skipped', sequenceId: s.sequenceId, reason: s.reason })
    }
    const updates = [...batch.updates].sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : 1))
    const digests = new Map<FetchedUpdate, string>()
    const digest = (u: FetchedUpdate) => {
      let d = digests.get(u)
      if (d === undefined) digests.set(u, (d = digestOf(u.bytes)))
      return d
    }
    if (whole) {
      // The whole log from verifyFrom: every yielded update must still be there, unchanged.
      const served = new Map<bigint, FetchedUpdate>()
      for (const u of updates) served.set(u.sequenceId, u)
      for (const seq of [...printed.keys()].sort((a, b) => (a < b ? -1 : 1))) {
        const u = served.get(seq)
        if (!u) fork(seq, 'gone', printed.get(seq)!, null)
      }
    }
    for (const u of updates) {
      if (u.sequenceId <= last) {
        const before = printed.get(u.sequenceId)
        if (before !== undefined) {
          if (before !== digest(u)) fork(u.sequenceId, 'different-bytes', before, digest(u))
        } else if (u.sequenceId > after0) fork(u.sequenceId, 'inserted', null, digest(u))
        continue
      }
      const d = digest(u)
      printed.set(u.sequenceId, d)
      last = u.sequenceId
      emit({
        type: 'update',
        inboxId,
        sequenceId: u.sequenceId,
        serverTimestampNs: u.serverTimestampNs,
        bytes: u.bytes,
        digest: d,
      })
    }
    if (batch.cursor > cursor) cursor = batch.cursor
    if (last > cursor) cursor = last
  }

  let lastVerified = 0
  /** The whole log: checks what was yielded and yields what is new. */
  const verify = async (s: AbortSignal) => {
    const batch = await source.updatesAfter(inboxId, verifyFrom, s)
    accept(batch, true)
    lastVerified = Date.now()
  }
  const poll = async (s: AbortSignal) => {
    if (Date.now() - lastVerified >= verifyMs) return verify(s)
    accept(await source.updatesAfter(inboxId, cursor, s), false)
  }

  const pollLoop = async (s: AbortSignal) => {
    for (;;) {
      await sleep(pollMs, s)
      if (s.aborted) return
      await poll(s)
    }
  }

  /** Follows the stream; resolves never (a stream that ends is an error), rejects on any failure. */
  const streamLoop = async (session: AbortController, resumedAfter: bigint | undefined) => {
    const s = session.signal
    let lastMessage = Date.now()
    let open = false
    let watchdogFailure: unknown = null
    const watchdog = (async () => {
      while (!s.aborted) {
        await sleep(Math.max(10, checkMs - (Date.now() - lastMessage)), s)
        if (s.aborted) return
        if (Date.now() - lastMessage < checkMs) continue
        try {
          await poll(s)
          lastMessage = Date.now()
        } catch (e) {
          watchdogFailure = e
          session.abort(e)
          return
        }
      }
    })()
    try {
      for await (const batch of source.subscribe!(inboxId, cursor, s)) {
        lastMessage = Date.now()
        accept(batch, false)
        if (!open) {
          open = true
          emit({
            type: 'state',
            state: 'live',
            mode: 'stream',
            ...(resumedAfter !== undefined ? { resumedAfter } : {}),
          })
          // What arrived between the catch-up and the stream's start, if the node's stream
          // does not replay from the cursor.
          await poll(s)
        }
      }
      if (watchdogFailure !== null) throw watchdogFailure
      throw new Error('the node ended the stream')
    } catch (e) {
      throw watchdogFailure ?? e
    } finally {
      session.abort()
      await watchdog
    }
  }

  const started = Date.now()
  let contacted = false
  let delay = backoff.first
  let resumed: bigint | undefined
  emit({ type: 'state', state: 'connecting' })
  while (!signal.aborted) {
    const session = new AbortController()
    const end = () => session.abort(signal.reason)
    signal.addEventListener('abort', end)
    try {
      await verify(session.signal)
      contacted = true
      delay = backoff.first
      let noStream: string | null = source.subscribe ? null : 'the API has no stream'
      if (source.subscribe) {
        try {
          await streamLoop(session, resumed)
        } catch (e) {
          if (signal.aborted) break
          if (kindOf(e) !== 'unimplemented') throw e
          noStream = `the node offers no stream (${messageOf(e)})`
        }
      }
      if (noStream !== null && !signal.aborted) {
        const poller = new AbortController()
        const endPoller = () => poller.abort()
        signal.addEventListener('abort', endPoller)
        emit({
          type: 'state',
          state: 'live',
          mode: 'poll',
          detail: noStream,
          ...(resumed !== undefined ? { resumedAfter: resumed } : {}),
        })
        try {
          await pollLoop(poller.signal)
        } finally {
          signal.removeEventListener('abort', endPoller)
        }
      }
    } catch (e) {
      if (signal.aborted) break
      if (!contacted && (!retryable(e) || Date.now() - started + delay > giveUpMs)) {
        throw new FollowError(messageOf(e), { cause: e })
      }
      emit({ type: 'state', state: 'reconnecting', detail: messageOf(e), retryInMs: delay })
      await sleep(delay, signal)
      delay = Math.min(delay * 2, backoff.max)
      resumed = last
    } finally {
      signal.removeEventListener('abort', end)
      session.abort()
    }
  }
  emit({ type: 'state', state: 'stopped' })
}
