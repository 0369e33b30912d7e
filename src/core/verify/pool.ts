/**
 * A parallel verification stage: verifies updates on a pool of workers while replay
 * applies them in log order (design.md "Memory and speed": verify in parallel, apply in
 * order). Pure: the host spawns the workers (Web Workers in src/worker, worker_threads
 * in src/cli/pool) behind the VerifyWorkerPort, and each worker runs
 * ./worker-handler.ts over the transfer format of ./transfer.ts.
 *
 * - `verify(update, index)` is the ReplayOptions.verify seam. Jobs go out in the order
 *   they are asked for, in small batches, at most `inflight` batches per worker, so the
 *   update replay waits for next is always among the first done.
 * - An update that carries an erc_6492 signature is verified by `local`: the smart
 *   wallet port (IDENT-060, IDENT-061) lives with the caller, not in the workers.
 * - With a verdict cache, an update whose every signature is a hit never leaves the
 *   caller; verdicts found by the workers are kept. After MISS_STREAK misses in a row
 *   the pool stops looking up until the next configure() (the lookups would only delay
 *   the dispatch of a log the cache has not seen).
 * - Fallback to one thread: a worker that cannot start or fails is dropped and its jobs
 *   go to the others; with no worker left, jobs are verified by `local`.
 * - `close()` terminates every worker; jobs not yet answered reject with VerifyPoolClosed.
 */
import type { UnverifiedUpdate } from '../types'
import type { VerdictCache } from './cache'
import { fromResult, toJobs, type FromVerifyWorker, type ToVerifyWorker } from './transfer'
import { rememberVerdicts, signaturesOf, verifyFromCache, type VerifiedUpdate } from './update'

/** The host side of one worker: what the pool sends it and how it stops it. */
interface VerifyWorkerPort {
  post(message: ToVerifyWorker): void
  terminate(): void
}

/** What a worker tells the pool; the host calls these from its worker's events. */
interface VerifyWorkerEvents {
  message(m: FromVerifyWorker): void
  /** The worker could not start, crashed or exited: it takes no more jobs. */
  error(reason: string): void
}

/** Starts worker `index`; may throw when workers cannot be started at all. */
export type SpawnVerifyWorker = (index: number, events: VerifyWorkerEvents) => VerifyWorkerPort

export interface VerifyPoolOptions {
  readonly spawn: SpawnVerifyWorker
  /** Number of workers (0: everything is verified by `local`). */
  readonly size: number
  /** Verification on the caller's thread: the fallback, and updates with erc_6492 signatures. */
  readonly local: (u: UnverifiedUpdate) => Promise<VerifiedUpdate>
  readonly verdicts?: VerdictCache
  /** Updates per message to a worker. Default 4. */
  readonly batchSize?: number
  /** Batches a worker may hold at once. Default 2. */
  readonly inflight?: number
  /**
   * Runs a function later, after pending events (setTimeout 0 in both hosts). Given, the
   * caller's thread helps: while no worker is ready yet (a worker thread under tsx takes
   * most of a second to start) or every worker is full, it verifies the next queued update
   * itself, one at a time, yielding between them so the workers' answers are read.
   */
  readonly defer?: (f: () => void) => void
  /** A clock in milliseconds (performance.now), to time each worker's start-up (stats.startupMs). */
  readonly now?: () => number
}

export interface VerifyPoolStats {
  /** Workers asked for, and still alive. */
  readonly size: number
  readonly live: number
  /** The backend each worker reported when ready. */
  readonly backends: readonly string[]
  /** Workers that reported ready. */
  readonly ready: number
  /** Why workers were dropped. */
  readonly failures: readonly string[]
  /** Updates verified by the workers, by `local`, and from the cache alone. */
  readonly remote: number
  readonly local: number
  readonly cached: number
  readonly batches: number
  /** Time the workers reported verifying (their clock), summed. */
  readonly workerMs: number
  /** Per ready worker, milliseconds from its spawn to its ready message (with a `now` clock). */
  readonly startupMs: readonly number[]
}

/** How far ahead of application replay should ask a pool of `size` workers (VerifyPool.ahead). */
export function poolAhead(size: number, inflight = 2, batchSize = 4): number {
  return Math.max(8, size * inflight * batchSize * 4)
}

/** The pool was closed (cancelled) before the update was verified. */
export class VerifyPoolClosed extends Error {
  override readonly name = 'VerifyPoolClosed'
  readonly code = 'pool_closed'
  constructor(reason: string) {
    super(`verification stopped: ${reason}`)
  }
}

interface Job {
  readonly seq: number
  readonly update: UnverifiedUpdate
  readonly resolve: (v: VerifiedUpdate) => void
  readonly reject: (e: unknown) => void
}

interface Slot {
  readonly index: number
  port: VerifyWorkerPort | null
  ready: boolean
  readonly batches: Map<number, Job[]>
  readonly spawnedAt: number
}

/** Cache misses in a row after which a replay stops looking up (see verify). */
export const MISS_STREAK = 64

const needsChain = (u: UnverifiedUpdate): boolean =>
  u.actions.some((a) => signaturesOf(a).some(([, s]) => s.kind === 'erc_6492'))

export class VerifyPool {
  private readonly slots: Slot[] = []
  private readonly queue: Job[] = []
  private readonly batchSize: number
  private readonly inflight: number
  private nextBatch = 1
  private flushing = false
  private helping = false
  private closedWith: string | null = null
  private readonly failures: string[] = []
  private readonly backends: string[] = []
  private readonly startups: number[] = []
  private counts = { remote: 0, local: 0, cached: 0, batches: 0, workerMs: 0 }
  private missStreak = 0
  /** Updates verified since configure({ keepLater: true }), their verdicts not yet kept. */
  private found: VerifiedUpdate[] | null = null

  private options: VerifyPoolOptions

  constructor(options: VerifyPoolOptions) {
    this.options = options
    this.batchSize = Math.max(1, options.batchSize ?? 4)
    this.inflight = Math.max(1, options.inflight ?? 2)
    for (let i = 0; i < options.size; i++) {
      const slot: Slot = { index: i, port: null, ready: false, batches: new Map(), spawnedAt: options.now?.() ?? 0 }
      this.slots.push(slot)
      try {
        slot.port = options.spawn(i, {
          message: (m) => this.receive(slot, m),
          error: (reason) => this.drop(slot, reason),
        })
      } catch (e) {
        this.failures.push(`worker ${i} could not start: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
  }

  /**
   * Sets the caller-side verification and the cache for the next replay, and starts its
   * counts afresh: a long-lived pool keeps its workers warm across replays. With
   * `lookups: false` the cache only keeps the verdicts found (no lookup delays dispatch).
   * With `keepLater`, the pool keeps none of the verdicts found: the caller takes them
   * (`takeFound`, after the replay's answer) and keeps them in its own time, so making their
   * keys (a hash of each signature text, the hex of each signature) and storing them is off
   * the replay's path and off the user's first key presses.
   */
  configure(
    next: Pick<VerifyPoolOptions, 'local' | 'verdicts'> & { readonly lookups?: boolean; readonly keepLater?: boolean },
  ): void {
    const { verdicts: _old, ...rest } = this.options
    this.options = { ...rest, local: next.local, ...(next.verdicts ? { verdicts: next.verdicts } : {}) }
    this.counts = { remote: 0, local: 0, cached: 0, batches: 0, workerMs: 0 }
    // lookups: false (the caller knows the cache has not seen the log): keep verdicts only.
    this.missStreak = next.lookups === false ? MISS_STREAK : 0
    this.failures.length = 0
    this.found = next.keepLater ? [] : null
  }

  /**
   * The updates verified since configure({ keepLater: true }), for the caller to keep
   * (rememberVerdicts) in its own time; the pool keeps none of them itself.
   */
  takeFound(): VerifiedUpdate[] {
    const found = this.found ?? []
    this.found = null
    return found
  }

  /** The verdicts of `v` go to the cache now, or to the caller with takeFound. */
  private keep(v: VerifiedUpdate): void {
    if (!this.options.verdicts) return
    if (this.found) this.found.push(v)
    else rememberVerdicts(v, this.options.verdicts)
  }

  /** How far ahead of application replay should ask (ReplayOptions.verifyAhead). */
  get ahead(): number {
    return poolAhead(this.slots.length, this.inflight, this.batchSize)
  }

  stats(): VerifyPoolStats {
    return {
      size: this.slots.length,
      live: this.slots.filter((s) => s.port).length,
      ready: this.slots.filter((s) => s.port && s.ready).length,
      backends: [...this.backends],
      failures: [...this.failures],
      startupMs: [...this.startups],
      ...this.counts,
    }
  }

  /** The ReplayOptions.verify seam: the verified update, whichever thread verified it. */
  readonly verify = async (update: UnverifiedUpdate, index: number): Promise<VerifiedUpdate> => {
    if (this.closedWith !== null) throw new VerifyPoolClosed(this.closedWith)
    const cache = this.options.verdicts
    // A run of misses (a log seen for the first time, or the new tail of a grown one):
    // stop looking up, so lookups no longer delay the dispatch; verdicts are still kept.
    if (cache && this.missStreak < MISS_STREAK) {
      const hit = await verifyFromCache(update, cache)
      if (hit) {
        this.missStreak = 0
        this.counts.cached++
        return hit
      }
      this.missStreak++
    }
    if (needsChain(update) || !this.slots.some((s) => s.port)) return this.runLocal(update)
    return new Promise<VerifiedUpdate>((resolve, reject) => {
      this.queue.push({ seq: index, update, resolve, reject })
      this.schedule()
    })
  }

  /** Terminates every worker; unanswered jobs reject with VerifyPoolClosed. Idempotent. */
  close(reason = 'the pool was closed'): void {
    if (this.closedWith !== null) return
    this.closedWith = reason
    const err = new VerifyPoolClosed(reason)
    for (const slot of this.slots) {
      slot.port?.terminate()
      slot.port = null
      for (const jobs of slot.batches.values()) for (const j of jobs) j.reject(err)
      slot.batches.clear()
    }
    for (const j of this.queue.splice(0)) j.reject(err)
  }

  private async runLocal(update: UnverifiedUpdate): Promise<VerifiedUpdate> {
    const v = await this.options.local(update)
    this.counts.local++
    this.keep(v)
    return v
  }

  private schedule(): void {
    if (this.flushing) return
    this.flushing = true
    // After the current synchronous run: replay asks for a window of updates at once.
    void Promise.resolve().then(() => {
      this.flushing = false
      this.flush()
    })
  }

  private flush(): void {
    if (this.closedWith !== null) return
    const live = this.slots.filter((s) => s.port)
    if (live.length === 0) {
      // Fallback to one thread: everything left is verified here, in order.
      for (const j of this.queue.splice(0)) this.runLocal(j.update).then(j.resolve, j.reject)
      return
    }
    // With a helping thread, jobs wait for a ready worker (the helper works meanwhile);
    // without one, a starting worker takes them and they wait in its message queue.
    const ready = this.options.defer ? live.filter((s) => s.ready) : live
    let sent = true
    while (this.queue.length > 0 && sent) {
      sent = false
      // The least busy worker first.
      ready.sort((a, b) => a.batches.size - b.batches.size)
      for (const slot of ready) {
        if (this.queue.length === 0) break
        if (!slot.port || slot.batches.size >= this.inflight) continue
        const jobs = this.queue.splice(0, this.batchSize)
        const batch = this.nextBatch++
        slot.batches.set(batch, jobs)
        this.counts.batches++
        try {
          slot.port.post({ type: 'verify', batch, jobs: toJobs(jobs) })
        } catch (e) {
          this.drop(slot, `worker ${slot.index} could not take a batch: ${e instanceof Error ? e.message : String(e)}`)
          return
        }
        sent = true
      }
    }
    if (this.queue.length > 0) this.help()
  }

  /** The caller's thread verifies the next queued update (see VerifyPoolOptions.defer). */
  private help(): void {
    const defer = this.options.defer
    if (!defer || this.helping) return
    this.helping = true
    defer(() => {
      const j = this.closedWith === null ? this.queue.shift() : undefined
      if (!j) {
        this.helping = false
        return
      }
      this.runLocal(j.update)
        .then(j.resolve, j.reject)
        .finally(() => {
          this.helping = false
          this.flush()
        })
    })
  }

  private receive(slot: Slot, m: FromVerifyWorker): void {
    if (m.type === 'ready') {
      slot.ready = true
      this.backends.push(m.backend)
      if (this.options.now) this.startups.push(this.options.now() - slot.spawnedAt)
      this.flush()
      return
    }
    const jobs = slot.batches.get(m.batch)
    if (!jobs) return
    slot.batches.delete(m.batch)
    if (m.type === 'failed') {
      // The worker could not verify the batch: verify it here, the verdicts are the same.
      this.failures.push(`worker ${slot.index} failed a batch: ${m.message}`)
      for (const j of jobs) this.runLocal(j.update).then(j.resolve, j.reject)
    } else {
      this.counts.workerMs += m.cpuMs
      const bySeq = new Map(m.results.map((r) => [r.seq, r]))
      for (const j of jobs) {
        const r = bySeq.get(j.seq)
        if (!r) {
          this.runLocal(j.update).then(j.resolve, j.reject)
          continue
        }
        const v = fromResult(j.update, r)
        this.counts.remote++
        this.keep(v)
        j.resolve(v)
      }
    }
    this.flush()
  }

  private drop(slot: Slot, reason: string): void {
    if (!slot.port) return
    this.failures.push(reason)
    try {
      slot.port.terminate()
    } catch {
      // already gone
    }
    slot.port = null
    // Its unanswered jobs go back to the front of the queue, in order.
    const back = [...slot.batches.values()].flat().sort((a, b) => a.seq - b.seq)
    slot.batches.clear()
    this.queue.unshift(...back)
    this.schedule()
  }
}
