/**
 * Live subscriptions to the node's identity envelopes (xmtpd's ReplicationApi
 * SubscribeEnvelopes): first every stored update after the request's cursor, read from
 * the store in pages, then each update as admission stores it (`publish`, called after
 * the transaction commits, whatever API or transport the publish came through).
 *
 * Bounds, so that no subscriber can stall a publish or grow the node's memory:
 *   - at most `maxSubscribers` at once; one more is refused RESOURCE_EXHAUSTED naming
 *     the limit;
 *   - `publish` only appends to each matching subscriber's queue (never waits on a
 *     socket); a queue over `backlog` updates means the subscriber stopped reading: its
 *     queue is dropped, it leaves the hub, and its stream ends RESOURCE_EXHAUSTED with the
 *     cursor to resume from (its next read sees it; one that never reads again is cut off
 *     after `stalledMs`);
 *   - the node's shutdown ends every stream UNAVAILABLE with its cursor.
 * While a subscriber still catches up from the store, a full queue is only a reason to
 * read the store again: the store holds everything the queue would have.
 */
import { Code, ConnectError } from '@connectrpc/connect'
import type { Store, StoredUpdate } from './store'

export const DEFAULT_MAX_SUBSCRIBERS = 1000
export const DEFAULT_SUBSCRIBER_BACKLOG = 10_000
/** Updates per streamed batch (xmtpd's page size). */
const BATCH = 1000
const DEFAULT_STALLED_MS = 30_000

/** What a subscription follows: every identity update (originator 1), some inboxes, or nothing. */
export type SubscriptionFilter =
  | { readonly kind: 'all' }
  | { readonly kind: 'inboxes'; readonly inboxes: ReadonlySet<string> }
  | { readonly kind: 'none' }

export interface HubOptions {
  readonly maxSubscribers?: number
  readonly backlog?: number
  readonly stalledMs?: number
}

interface Subscriber {
  readonly filter: SubscriptionFilter
  queue: StoredUpdate[]
  catchingUp: boolean
  /** Set when the live queue overflowed (the cursor to resume from is the generator's). */
  overflowed: boolean
  /** Set when the hub closed. */
  closed: boolean
  wake: (() => void) | null
  /** Cuts the call off (the response is destroyed): a stalled subscriber that never reads again. */
  cutOff: (() => void) | null
  stallTimer: NodeJS.Timeout | null
}

const matches = (f: SubscriptionFilter, inboxId: string): boolean =>
  f.kind === 'all' || (f.kind === 'inboxes' && f.inboxes.has(inboxId))

const cursorText = (after: bigint): string => `last_seen {1: ${after}}`

export class SubscriptionHub {
  readonly maxSubscribers: number
  readonly backlog: number
  private readonly stalledMs: number
  private readonly subscribers = new Set<Subscriber>()

  constructor(
    private readonly store: Store,
    options: HubOptions = {},
  ) {
    this.maxSubscribers = options.maxSubscribers ?? DEFAULT_MAX_SUBSCRIBERS
    this.backlog = options.backlog ?? DEFAULT_SUBSCRIBER_BACKLOG
    this.stalledMs = options.stalledMs ?? DEFAULT_STALLED_MS
  }

  get size(): number {
    return this.subscribers.size
  }

  /** A stored update: queued for every subscriber that follows its inbox. Never waits. */
  publish(u: StoredUpdate): void {
    for (const s of this.subscribers) {
      if (!matches(s.filter, u.inboxId)) continue
      s.queue.push(u)
      if (s.queue.length > this.backlog) {
        s.queue = []
        if (s.catchingUp) continue // the store has it: the catch-up reads it again
        s.overflowed = true
        this.subscribers.delete(s)
        if (s.cutOff) {
          const cut = s.cutOff
          s.stallTimer = setTimeout(cut, this.stalledMs)
          s.stallTimer.unref()
        }
      }
      s.wake?.()
    }
  }

  /**
   * The batches of one subscription: the stored updates after `after`, then live ones,
   * ascending, each once. Ends when `signal` aborts; throws ConnectError RESOURCE_EXHAUSTED
   * (limit reached, fell behind) or UNAVAILABLE (the node is closing).
   */
  async *subscribe(
    filter: SubscriptionFilter,
    after: bigint,
    signal: AbortSignal,
    cutOff: (() => void) | null = null,
  ): AsyncGenerator<StoredUpdate[]> {
    if (this.subscribers.size >= this.maxSubscribers) {
      throw new ConnectError(
        `this node serves at most ${this.maxSubscribers} subscriptions at once (--max-subscribers); retry later`,
        Code.ResourceExhausted,
      )
    }
    const s: Subscriber = {
      filter,
      queue: [],
      catchingUp: true,
      overflowed: false,
      closed: false,
      wake: null,
      cutOff,
      stallTimer: null,
    }
    this.subscribers.add(s)
    let cursor = after
    try {
      // Catch up from the store until a page comes back short: then the queue (filled
      // since registration) holds whatever was stored after the last page.
      let sent = false
      for (;;) {
        const page = this.storedAfter(filter, cursor)
        if (page.length > 0) {
          cursor = page.at(-1)!.sequenceId
          sent = true
          yield page
        }
        if (page.length < BATCH) break
        if (signal.aborted) return
      }
      s.catchingUp = false
      // An empty first batch tells the client the stream is open when there was nothing to catch up.
      if (!sent) yield []
      for (;;) {
        if (signal.aborted) return
        if (s.closed)
          throw new ConnectError(`the node is shutting down; resume with ${cursorText(cursor)}`, Code.Unavailable)
        if (s.overflowed) {
          throw new ConnectError(
            `the subscriber fell behind: more than ${this.backlog} envelopes waited to be sent (--subscriber-backlog); resume with ${cursorText(cursor)}`,
            Code.ResourceExhausted,
          )
        }
        const ready = s.queue.filter((u) => u.sequenceId > cursor).slice(0, BATCH)
        s.queue = s.queue.filter((u) => u.sequenceId > cursor).slice(ready.length)
        if (ready.length > 0) {
          cursor = ready.at(-1)!.sequenceId
          yield ready
          continue
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            s.wake = null
            signal.removeEventListener('abort', done)
            resolve()
          }
          s.wake = done
          signal.addEventListener('abort', done)
        })
      }
    } finally {
      this.subscribers.delete(s)
      if (s.stallTimer) clearTimeout(s.stallTimer)
    }
  }

  /** One page of stored updates after the cursor that the filter follows, ascending. */
  private storedAfter(filter: SubscriptionFilter, after: bigint): StoredUpdate[] {
    if (filter.kind === 'none') return []
    if (filter.kind === 'all') return this.store.updatesAfterAll(after, BATCH)
    const rows = [...filter.inboxes].flatMap((i) => this.store.updatesAfter(i, after))
    rows.sort((a, b) => (a.sequenceId < b.sequenceId ? -1 : a.sequenceId > b.sequenceId ? 1 : 0))
    return rows.slice(0, BATCH)
  }

  /** Ends every subscription (UNAVAILABLE with its cursor): the node is closing. */
  close(): void {
    for (const s of this.subscribers) {
      s.closed = true
      s.wake?.()
    }
    this.subscribers.clear()
  }
}
