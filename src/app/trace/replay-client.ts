/**
 * The app's side of the replay worker: one request at a time per kind, answered by
 * promises. Cancelling terminates the worker, and with it the verification workers it
 * started (a cancel message would wait behind the replay's own work), and the next
 * request starts a fresh one.
 */
import type { FromWorker, InputProblem, LogSummary, ToWorker, Verifier, VerifyStats } from '../../worker/protocol'
import type { TransferStep } from '../../worker/transfer'

export class ReplayCancelled extends Error {
  override readonly name = 'ReplayCancelled'
  constructor() {
    super('replay cancelled')
  }
}

export type OpenResult = { readonly logs: readonly LogSummary[] } | { readonly problem: InputProblem }

export interface ReplayDone {
  readonly inboxId: string | null
  readonly ok: boolean
  readonly stepCount: number
  /** The command line's report (`replay --json`): the worker sends it right after the answer. */
  readonly report: Promise<string>
  readonly replayMs: number
  /** How verification went (pool, cache, fallback). */
  readonly verify: VerifyStats
  readonly steps: TransferStep[]
}

/**
 * The user-timing measure of the latest replay (DevTools' Performance panel shows it; the
 * benchmark reads the app's first replay after load from it: e2e/verify-bench.spec.ts).
 * It ends when the answer came and lasts the replay worker's own replayMs; its detail
 * names the log, its updates, how verification went, and stepsMs: the worker's time after
 * the replay to send the steps, which the answer waited for as well.
 */
export const REPLAY_MEASURE = 'inspector: replay'

function measureReplay(m: Extract<FromWorker, { type: 'done' }>, file: string): void {
  const perf = globalThis.performance
  if (typeof perf?.measure !== 'function') return
  const v = m.verify
  perf.clearMeasures(REPLAY_MEASURE)
  perf.measure(REPLAY_MEASURE, {
    end: perf.now(),
    duration: m.replayMs,
    detail: {
      file,
      updates: m.stepCount,
      replayMs: m.replayMs,
      stepsMs: m.stepsMs,
      engine: v.engine,
      workers: v.workers,
      ready: v.ready,
      remote: v.remote,
      local: v.local,
      cached: v.cached,
      waitMs: v.waitMs,
      workerMs: v.workerMs,
      backends: [...new Set(v.backends)],
    },
  })
}

function openResult(m: FromWorker): OpenResult {
  if (m.type === 'opened') return { logs: m.logs }
  if (m.type === 'input-error') return { problem: m.problem }
  throw new Error(m.type === 'failed' ? m.message : `unexpected answer ${m.type}`)
}

/** The least time between two activity messages (the worker waits a second of idle). */
const ACTIVITY_EVERY = 250

type Request = ToWorker extends infer T ? (T extends { id: number } ? Omit<T, 'id'> : never) : never

interface Pending {
  readonly resolve: (m: FromWorker) => void
  readonly reject: (e: Error) => void
  readonly onProgress?: (done: number, total: number) => void
  readonly steps?: TransferStep[]
  /** A replay's report, which comes after its answer. */
  readonly report?: ReportWaiter
}

interface ReportWaiter {
  readonly resolve: (r: string) => void
  readonly reject: (e: Error) => void
}

export class ReplayClient {
  private worker: Worker | null = null
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  /** The reports still to come after their replay's answer, by request id. */
  private readonly reports = new Map<number, ReportWaiter>()

  private ensure(): Worker {
    if (this.worker) return this.worker
    const w = new Worker(new URL('../../worker/replay.worker.ts', import.meta.url), { type: 'module', name: 'replay' })
    w.onmessage = (ev: MessageEvent<FromWorker>) => this.receive(ev.data)
    w.onerror = (ev) => {
      ev.preventDefault()
      this.failAll(new Error(`the replay worker stopped: ${ev.message || 'it could not be started'}`))
    }
    w.onmessageerror = () => this.failAll(new Error('the replay worker sent a message that could not be read'))
    this.worker = w
    return w
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) {
      p.report?.reject(e)
      p.reject(e)
    }
    this.pending.clear()
    for (const r of this.reports.values()) r.reject(e)
    this.reports.clear()
    this.worker?.terminate()
    this.worker = null
  }

  private receive(m: FromWorker): void {
    if (m.type === 'report') {
      this.reports.get(m.id)?.resolve(m.report)
      this.reports.delete(m.id)
      return
    }
    // Unasked messages (the pool's state, id 0: ids start at 1) belong to no request.
    const p = this.pending.get(m.id)
    if (!p) return
    if (m.type === 'progress') p.onProgress?.(m.done, m.total)
    else if (m.type === 'steps') {
      for (let i = 0; i < m.steps.length; i++) p.steps![m.from + i] = m.steps[i]!
    } else {
      this.pending.delete(m.id)
      if (p.report) {
        if (m.type === 'done') this.reports.set(m.id, p.report)
        else p.report.reject(new Error('the replay gave no report'))
      }
      p.resolve(m)
    }
  }

  private request(msg: Request, extra: Omit<Pending, 'resolve' | 'reject'> = {}): Promise<FromWorker> {
    const id = this.nextId++
    const w = this.ensure()
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...extra })
      w.postMessage({ ...msg, id } as ToWorker)
    })
  }

  async open(input: string | Uint8Array, name: string): Promise<OpenResult> {
    return openResult(await this.request({ type: 'open', input, name }))
  }

  async replay(
    logIndex: number,
    file: string,
    verifier: Verifier,
    onProgress: (done: number, total: number) => void,
  ): Promise<ReplayDone | { problem: InputProblem }> {
    const r = this.replayWaiter(file, onProgress)
    return r.answer(await this.request({ type: 'replay', logIndex, file, verifier }, r.extra))
  }

  /**
   * `open` and then `replay` of log `logIndex` (clamped to the logs read, as the worker
   * clamps it), asked in one message: the worker replays right after its `opened`
   * answer, with no round trip to the page between them. `replayed` rejects with
   * ReplayCancelled when the open gave no logs.
   */
  openAndReplay(
    input: string | Uint8Array,
    name: string,
    replay: {
      readonly logIndex: number
      readonly file: string
      readonly verifier: Verifier
      readonly onProgress: (done: number, total: number) => void
    },
  ): { opened: Promise<OpenResult>; replayed: Promise<ReplayDone | { problem: InputProblem }> } {
    const w = this.ensure()
    const openId = this.nextId++
    const replayId = this.nextId++
    const r = this.replayWaiter(replay.file, replay.onProgress)
    const replayed = new Promise<FromWorker>((resolve, reject) => {
      this.pending.set(replayId, { resolve, reject, ...r.extra })
    }).then(r.answer)
    // Not awaited when the open gives no logs.
    replayed.catch(() => {})
    const opened = new Promise<FromWorker>((resolve, reject) => {
      this.pending.set(openId, { resolve, reject })
    }).then((m) => {
      if (m.type !== 'opened') {
        // No replay follows an open that read no logs.
        const p = this.pending.get(replayId)
        this.pending.delete(replayId)
        p?.report?.reject(new ReplayCancelled())
        p?.reject(new ReplayCancelled())
      }
      return openResult(m)
    })
    w.postMessage({
      type: 'open',
      id: openId,
      input,
      name,
      replay: { id: replayId, logIndex: replay.logIndex, file: replay.file, verifier: replay.verifier },
    } satisfies ToWorker)
    return { opened, replayed }
  }

  /** A replay's steps and report as they come, and its answer read. */
  private replayWaiter(
    file: string,
    onProgress: (done: number, total: number) => void,
  ): {
    extra: Omit<Pending, 'resolve' | 'reject'>
    answer: (m: FromWorker) => ReplayDone | { problem: InputProblem }
  } {
    const steps: TransferStep[] = []
    let settle!: ReportWaiter
    const report = new Promise<string>((resolve, reject) => {
      settle = { resolve, reject }
    })
    // A report that never comes (the replay failed, or was cancelled) rejects unobserved.
    report.catch(() => {})
    return {
      extra: { onProgress, steps, report: settle },
      answer: (m) => {
        if (m.type === 'done') {
          measureReplay(m, file)
          return {
            inboxId: m.inboxId,
            ok: m.ok,
            stepCount: m.stepCount,
            report,
            replayMs: m.replayMs,
            verify: m.verify,
            steps,
          }
        }
        if (m.type === 'input-error') return { problem: m.problem }
        throw new Error(m.type === 'failed' ? m.message : `unexpected answer ${m.type}`)
      },
    }
  }

  private lastActivity = Number.NEGATIVE_INFINITY

  /**
   * Tells the worker the user is stepping (a key press, a click), at most every
   * ACTIVITY_EVERY ms: its writes after an answer wait until the page is idle
   * (src/worker/deferred-writes.ts). Starts no worker.
   */
  activity(now = globalThis.performance?.now() ?? Date.now()): void {
    if (!this.worker || now - this.lastActivity < ACTIVITY_EVERY) return
    this.lastActivity = now
    this.worker.postMessage({ type: 'activity', id: 0 } satisfies ToWorker)
  }

  /**
   * Tells the worker the page is being hidden or unloaded: its writes after an answer
   * (src/worker/deferred-writes.ts) run now instead of once the page is idle. Starts no worker.
   */
  flushWrites(): void {
    this.worker?.postMessage({ type: 'flush-writes', id: 0 } satisfies ToWorker)
  }

  /**
   * Starts the replay worker now (the app calls this when it loads), so its verification
   * pool and crypto backends are loaded before the first log is opened. `pool`: start
   * the verification pool now too (the page address names a log, which comes with the
   * load), not 1 s after the worker's first answer.
   */
  warm(options: { readonly pool?: boolean } = {}): void {
    const w = this.ensure()
    if (options.pool) w.postMessage({ type: 'start-pool', id: 0 } satisfies ToWorker)
  }

  /**
   * Stops what is running: its requests reject with ReplayCancelled and the worker (with its
   * verification pool) is terminated. With nothing running, the warm worker is kept.
   */
  cancel(): void {
    if (this.pending.size === 0) return
    this.dispose()
  }

  dispose(): void {
    this.failAll(new ReplayCancelled())
  }
}
