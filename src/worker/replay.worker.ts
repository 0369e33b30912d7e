/**
 * Replay in a Web Worker: reads the input (format detection, decoding) and replays a
 * log with the core, so the page never runs either. Posts progress while it replays,
 * and the Trace's steps in the transfer format of ./transfer.ts as the replay adds them
 * (at most STEP_CHUNK steps a message), then `done`, then the command line's report.
 *
 * Verification (the 'fast' engine, the default): logs of POOL_THRESHOLD updates or more
 * are verified on a pool of nested verification workers (./pool.ts), started when the
 * first such log is opened, when the page asks (its address names a log: 'start-pool'),
 * or POOL_IDLE_START ms after this worker's first answer, whichever comes first, and kept
 * warm, while this worker applies them in log order and verifies too; a smaller log (the
 * demo the app opens at load) is verified on this thread alone, so the first screen loads
 * no verification worker. With the verdict cache (./verdict-cache.ts, IndexedDB) a
 * reopened log skips verification. The 'plain' engine is the one-thread noble replay,
 * kept as the benchmark's baseline. Both give the same Trace.
 *
 * Cancellation: the app cancels by terminating this worker (src/app/trace/replay-client.ts),
 * which ends its verification workers with it, and starting a new one.
 */
import { LogInputError } from '../core/errors'
import { readLogs } from '../core/decode/logs'
import { RecordReaderPending } from '../core/decode/record'
import { replay } from '../core/replay'
import { toReport } from '../core/report'
import type { InboxLog } from '../core/types'
import type { ReplayOptions, VerifyStage } from '../core/replay'
import { verifyUpdate } from '../core/verify/update'
import type { LoadedContext } from '../core/verify/fast'
import type { VerifyBackend } from '../crypto/backend'
import type { VerifyPool } from '../core/verify/pool'
import type { ChainRouteWire, Engine, FromWorker, InputProblem, ToWorker, VerifyStats, WorkerMeasure } from './protocol'
import type { SmartWalletVerifier } from '../core/verify/port'
import { timedBackend, type PrimitiveTimings } from './backend-report'
import { IdbVerdictCache, prefetchLog } from './verdict-cache'
import { IdbLogStore, inputDigest, logRecordId } from '../storage/log-store'
import { decodeLogVerdicts, storedStage } from '../storage/log-verdicts'
import { browserTimers, DeferredWriter } from './deferred-writes'
import { handOffAfterAnswer, WRITER_TIMING } from './after-answer'
import { importAgain } from './import-again'
import type { VerifyJob } from '../core/verify/transfer'
import { STEP_CHUNK } from './protocol'
import { toTransferStep, type TransferStep } from './transfer'
import { loadBrowserBackend, loadNobleBackendInstalled } from './browser-loaders'
import { describeWarmUp, nextTask, WARM_ROUNDS, warmUp } from './warm-up'
import { WARM_LOG_ROUNDS } from './warm-jobs'
import { roundsAfterReplay, warmJobsOf, warmLogOf, warmReplay } from './warm-log'

/** The worker scope, typed without the WebWorker lib (the app's tsconfig has the DOM lib). */
const scope = self as unknown as {
  postMessage(message: FromWorker): void
  onmessage: ((ev: MessageEvent<ToWorker>) => void) | null
}

let logs: InboxLog[] = []

const post = (m: FromWorker): void => scope.postMessage(m)

/** The least time between two progress messages of a replay, and before the first. */
const PROGRESS_EVERY = 250

/** Steps posted together while a replay runs (a message per few steps, not one per step). */
const STEP_FLUSH = 32

/**
 * A user-timing measure on this worker's track (DevTools: `inspector worker: NAME`), also
 * posted to the host (FromWorker 'measure') for the load benchmark's breakdown.
 */
function measure(name: WorkerMeasure, start: number, end = performance.now()): void {
  performance.measure(`inspector worker: ${name}`, { start, end })
  post({ type: 'measure', id: 0, name, timeOrigin: performance.timeOrigin, start, end })
}
// From this worker's creation (its time origin) to its module evaluated: fetch, parse, imports.
measure('start', 0)

/**
 * Where a replay's time goes on this thread: the time application waited for its next
 * verified update (verifying here, or idle while the pool worked), against the rest,
 * which is bookkeeping (apply, the Trace). One-thread and pool replays are measured alike.
 */
class CriticalPath {
  private readonly resolvedAt: number[] = []
  private readonly appliedAt: number[] = []
  constructor(private readonly t0: number) {}
  stage(inner: VerifyStage): VerifyStage {
    return (u, i) =>
      inner(u, i).then((v) => {
        this.resolvedAt[i] = performance.now()
        return v
      })
  }
  applied(i: number, at: number): void {
    this.appliedAt[i] = at
  }
  waitMs(): number {
    let wait = 0
    for (let i = 0; i < this.appliedAt.length; i++) {
      const r = this.resolvedAt[i]
      if (r === undefined) continue
      const from = i === 0 ? this.t0 : (this.appliedAt[i - 1] ?? this.t0)
      wait += Math.max(0, r - from)
    }
    return wait
  }
}
/**
 * The verification pool, started with this worker and kept for its life, so replays find
 * its workers warm (each loads the fast backend once). The app's cancel terminates this
 * worker, and the pool with it.
 */
let pool_: VerifyPool | null = null
/**
 * The pool's module (./pool.ts, with the core's VerifyPool): a chunk of this worker's,
 * imported when the pool starts, so the demo log at load, verified on this thread, loads
 * none of it.
 */
let poolModule: typeof import('./pool') | null = null
let poolStart: Promise<VerifyPool | null> | undefined
/** Logs with fewer decoded updates are verified in the replay worker alone (see bench). */
const POOL_THRESHOLD = 32
/**
 * The pool, started on the first call; null when its module did not load (the network
 * dropped, a chunk of an older deploy gone): that log is verified on this thread, and the
 * next call loads the module again (./import-again.ts: by a URL of its own, which a browser
 * that keeps the failure in its module map fetches again).
 */
const importPool = importAgain(() => import('./pool'))
const sharedPool = (): Promise<VerifyPool | null> =>
  (poolStart ??= importPool().then(
    (m) => {
      poolModule = m
      poolTimings = m.workerTimings
      if (warmJobs) m.postWarmJobs(warmJobs)
      pool_ = m.browserVerifyPool((u) => checkedContext().then(({ ctx }) => verifyUpdate(u, ctx)), {
        onReady: () => {
          const ps = pool_?.stats()
          if (ps && ps.ready === ps.size) measure('pool ready', 0)
          postPoolState()
        },
      })
      return pool_
    },
    () => {
      poolStart = undefined
      return null
    },
  ))
/** The latest idle warm-up jobs for the verification workers, kept until the pool's module is there. */
let warmJobs: readonly VerifyJob[] | null = null
function postWarmJobs(jobs: readonly VerifyJob[]): void {
  warmJobs = jobs
  poolModule?.postWarmJobs(jobs)
}
/** The latest time per primitive each verification worker reported (none before the pool starts). */
let poolTimings: ReadonlyMap<number, PrimitiveTimings> | null = null
const workerTimings = (): Iterable<PrimitiveTimings> => poolTimings?.values() ?? []
/** This thread's warm-up, for the pool's state message. */
let warmState = 'loading the fast backend'
/** Tells the host how far the pool and this thread's warm-up have come (FromWorker 'pool'). */
function postPoolState(): void {
  const ps = pool_?.stats()
  post({
    type: 'pool',
    id: 0,
    workers: ps?.size ?? 0,
    ready: ps?.ready ?? 0,
    startupMs: ps?.startupMs ?? [],
    backends: ps?.backends ?? [],
    warmUp: warmState,
  })
}
/** Messages being handled: the idle warm-up rounds stop while any is. */
let busy = 0
/** The fast backend once it passed its known-answer round: what the idle rounds warm. */
let toWarm: VerifyBackend | null = null
/** Idle rounds done so far, and whether a run of them is under way. */
let idleRounds = 0
let idleRunning = false
/** The log the idle warm-up replays (./warm-log.ts: a few updates of the last log replayed), and its rounds so far. */
let warmLog: InboxLog | null = null
let logRounds = 0
/**
 * Warm-up while nothing is asked: rounds of known answers (./warm-up.ts), up to
 * WARM_ROUNDS in all, after the known-answer round and again after each message (the
 * demo log the app opens at load would otherwise end them, and a log opened later would
 * meet cold code); then replays of the last log replayed (./warm-log.ts), up to
 * WARM_LOG_ROUNDS in all.
 */
async function idleWarmUp(): Promise<void> {
  if (!toWarm || busy > 0 || idleRunning) return
  const fast = toWarm
  idleRunning = true
  const now = (): number => performance.now()
  const stop = (): boolean => busy > 0
  if (idleRounds < WARM_ROUNDS - 1) {
    const idle = await warmUp(fast, {
      rounds: WARM_ROUNDS - 1 - idleRounds,
      stop,
      pause: nextTask,
      now,
    })
    idleRounds += idle.rounds
    warmState = `${warmState.replace(/; idle: [^;]*/, '')}; idle: ${describeWarmUp({ ...idle, rounds: idleRounds })}`
  }
  if (warmLog && logRounds < WARM_LOG_ROUNDS && busy === 0) {
    const from = now()
    const rounds = await warmReplay(
      warmLog,
      { crypto: fast },
      {
        rounds: WARM_LOG_ROUNDS - logRounds,
        stop,
        pause: nextTask,
      },
    )
    logRounds += rounds
    warmState = `${warmState.replace(/; log: [^;]*/, '')}; log: ${logRounds} replay(s) of ${warmLog.entries.length} updates, the last ${rounds} in ${Math.round(now() - from)} ms`
  }
  idleRunning = false
  postPoolState()
}
/**
 * This thread's fast context once it has passed its known-answer round (./warm-up.ts);
 * noble's if it failed it. More rounds follow while idle (idleWarmUp).
 */
const loadedContext: Promise<LoadedContext> = loadBrowserBackend().then((crypto) => {
  measure('backend', 0)
  return { ctx: { crypto }, backend: crypto.name }
})
const checked: Promise<LoadedContext> = loadedContext.then(async (loaded) => {
  const fast = loaded.ctx.crypto
  if (!fast) return loaded
  const now = (): number => performance.now()
  const warmFrom = now()
  const test = await warmUp(fast, { rounds: 1, pause: nextTask, now })
  measure('warm-up', warmFrom)
  warmState = `known answers: ${describeWarmUp(test)}`
  postPoolState()
  if (test.mismatch)
    return {
      ctx: { crypto: await loadNobleBackendInstalled() },
      backend: `noble: the fast backend ${describeWarmUp(test)}`,
    }
  toWarm = fast
  void nextTask().then(idleWarmUp)
  return loaded
})
const checkedContext = (): Promise<LoadedContext> => checked
/**
 * The pool starts this long after this worker's first answer (the demo log at load), while
 * the page is idle, so that a log opened later finds its workers loaded and warm; a log of
 * POOL_THRESHOLD updates or more opened before that starts it at its open. Each worker is
 * sent this thread's compiled WebAssembly modules (./pool.ts).
 */
const POOL_IDLE_START = 1000
let poolTimer: ReturnType<typeof setTimeout> | undefined
function startPoolLater(): void {
  if (poolStart || poolTimer !== undefined) return
  poolTimer = setTimeout(() => void sharedPool(), POOL_IDLE_START)
}
let cacheOpen: Promise<IdbVerdictCache | null> | undefined
const verdictCache = (): Promise<IdbVerdictCache | null> => (cacheOpen ??= IdbVerdictCache.open())
/** The log store (src/storage/log-store.ts): one record of verdicts per log, read first on a reopen. */
let logStoreOpen: Promise<IdbLogStore | null> | undefined
const logStore = (): Promise<IdbLogStore | null> => (logStoreOpen ??= IdbLogStore.open())
/** The open input's SHA-256 (the log store's key), started when it is opened; null when it cannot be had. */
let inputHash: Promise<string | null> = Promise.resolve(null)

/** The sum of the verification workers' timings now. */
function sumTimings(all: Iterable<PrimitiveTimings>): PrimitiveTimings {
  const out: PrimitiveTimings = {}
  for (const t of all) {
    for (const [k, v] of Object.entries(t)) {
      const o = (out[k] ??= { calls: 0, ms: 0 })
      o.calls += v.calls
      o.ms += v.ms
    }
  }
  return out
}
/** `after` minus `before`, per primitive, ms rounded to 0.1. */
function timingsSince(before: PrimitiveTimings, after: PrimitiveTimings): PrimitiveTimings {
  const out: PrimitiveTimings = {}
  for (const [k, v] of Object.entries(after)) {
    const calls = v.calls - (before[k]?.calls ?? 0)
    if (calls > 0) out[k] = { calls, ms: Math.round((v.ms - (before[k]?.ms ?? 0)) * 10) / 10 }
  }
  return out
}

/** Chain verdicts (valid, invalid; never unreachable) kept across replays of this worker: a retry asks only what is still open. */
let chainVerdicts: import('../chain/cache').ChainVerdictCache | undefined

/**
 * The ChainVerifier of the app's chain routes (viem loads only when a route is set). A new
 * one per replay, so a Retry re-checks each route's chain id against its node.
 */
async function chainVerifier(routes: readonly ChainRouteWire[]): Promise<SmartWalletVerifier> {
  const [{ ChainVerifier }, { ChainVerdictCache }] = await Promise.all([
    import('../chain/verifier'),
    import('../chain/cache'),
  ])
  chainVerdicts ??= new ChainVerdictCache()
  return new ChainVerifier(new Map(routes.map((r) => [BigInt(r.chainId), r.url])), {
    cache: chainVerdicts,
    timeoutMs: 5000,
  })
}

/**
 * The fixture corpus's fake smart wallet (test/fixtures/fake-smart-wallet.ts), for the
 * gallery examples that declare it: its own chunk, with the Keccak-256 of @noble/hashes it
 * signs with, so a log that does not ask for it (the demo's) loads neither.
 */
async function fakeVerifier(): Promise<SmartWalletVerifier> {
  const { FakeSmartWalletVerifier } = await import('../../test/fixtures/fake-smart-wallet')
  return new FakeSmartWalletVerifier()
}

/**
 * readLogs, with the decoder's protobuf half (src/core/decode/record.ts) loaded when the
 * input needs it: this worker's build leaves it out, so a log of the common form (every
 * update read by the one-pass reader) loads no protobuf runtime; any other is read again
 * once it is loaded.
 */
async function readInput(input: string | Uint8Array, name: string): Promise<InboxLog[]> {
  try {
    return readLogs(input, name)
  } catch (e) {
    if (!(e instanceof RecordReaderPending)) throw e
  }
  await import('../core/decode/update')
  return readLogs(input, name)
}

function problemOf(e: unknown): InputProblem {
  if (e instanceof LogInputError) {
    return {
      format: e.format,
      where: e.where,
      detail: e.detail,
      message: e.message,
      attempts: e.attempts.map((a) => ({ ...a })),
    }
  }
  const message = e instanceof Error ? e.message : String(e)
  return { format: 'auto', where: '', detail: message, message, attempts: [] }
}

async function handle(m: Exclude<ToWorker, { type: 'activity' | 'start-pool' | 'flush-writes' }>): Promise<void> {
  // The last answer's writes end first, so a log opened next (or a cancel) loses none.
  await writer.flush()
  if (m.type === 'open') {
    const decodeFrom = performance.now()
    try {
      logs = await readInput(m.input, m.name)
      measure('decode', decodeFrom)
    } catch (e) {
      logs = []
      post({ type: 'input-error', id: m.id, problem: problemOf(e) })
      return
    }
    if (logs.length === 0) {
      post({
        type: 'input-error',
        id: m.id,
        problem: {
          format: 'auto',
          where: '',
          detail: `${m.name} holds no inbox log`,
          message: `${m.name} holds no inbox log`,
          attempts: [],
        },
      })
      return
    }
    post({
      type: 'opened',
      id: m.id,
      logs: logs.map((l, index) => ({
        index,
        inboxId: l.inboxId ?? null,
        format: l.format,
        entries: l.entries.length,
      })),
    })
    inputHash = inputDigest(m.input).catch(() => null)
    // A log the pool will verify: its workers start now, beside the hand-off and this
    // thread's first updates, rather than at the replay request.
    if (logs.some((l) => l.entries.length >= POOL_THRESHOLD)) void sharedPool()
    // The replay asked with the open: no round trip to the page between them.
    if (m.replay)
      await handle({ ...m.replay, type: 'replay', logIndex: Math.min(Math.max(m.replay.logIndex, 0), logs.length - 1) })
    return
  }
  const log = logs[m.logIndex]
  if (!log) {
    post({ type: 'failed', id: m.id, message: `no log ${m.logIndex} in the input` })
    return
  }
  const engine: Engine = m.engine ?? 'fast'
  // The benchmark's cold run empties the cache before its clock starts.
  if (engine === 'fast' && m.cache !== false && m.clearCache) {
    await (await verdictCache())?.clear()
    await (await logStore())?.clear()
  }
  const t0 = performance.now()
  const timing = new CriticalPath(t0)
  let last = t0
  let trace
  let pool: VerifyPool | null = null
  let cache: IdbVerdictCache | null = null
  let workersBefore: PrimitiveTimings | null = null
  const localTimings: PrimitiveTimings = {}
  // The log's record in the log store: its verdicts in one read (a reopened log).
  const store = engine === 'fast' && m.cache !== false ? await logStore() : null
  const recordId = store ? await inputHash.then((h) => h && logRecordId(h, m.logIndex)) : null
  const record = recordId ? await store!.get(recordId) : null
  const stored = record ? decodeLogVerdicts(record.verdicts, log.entries.length) : null
  // Each step is converted to the transfer format and posted as the replay adds it
  // (STEP_FLUSH at a time), in the time this thread waits for the pool's verdicts, so the
  // page has nearly all of them when the replay ends.
  const outbox: TransferStep[] = []
  let posted = 0
  const flushSteps = (): void => {
    for (let i = 0; i < outbox.length; i += STEP_CHUNK) {
      const steps = outbox.slice(i, i + STEP_CHUNK)
      post({ type: 'steps', id: m.id, from: posted, steps })
      posted += steps.length
    }
    outbox.length = 0
  }
  const fromRecord = { count: 0 }
  const recorded = (inner: VerifyStage): VerifyStage => (stored ? storedStage(stored, inner, fromRecord) : inner)
  try {
    const smartWallets =
      m.verifier === 'fixture-fake'
        ? { smartWallets: await fakeVerifier() }
        : typeof m.verifier === 'object' && m.verifier.kind === 'chain' && m.verifier.routes.length > 0
          ? { smartWallets: await chainVerifier(m.verifier.routes) }
          : {}
    let stage: Partial<ReplayOptions> = {}
    if (engine === 'fast') {
      const { ctx: loaded } = await checkedContext()
      workersBefore = sumTimings(workerTimings())
      const ctx = loaded.crypto
        ? { ...loaded, crypto: timedBackend(loaded.crypto, localTimings, () => performance.now()) }
        : loaded
      cache = m.cache === false ? null : await verdictCache()
      if (cache) cache.memory = m.cacheMemory !== false
      const local = { ...ctx, ...smartWallets }
      const updates = log.entries.flatMap((e) => ('error' in e.update ? [] : [e.update]))
      const decoded = updates.length
      // The log's verdicts in one read, ahead of the lookups (a reopened log); a log the
      // cache has not seen (its first update misses: one read) is verified with no lookup.
      const seen = stored ? true : cache ? (await prefetchLog(cache, updates, 1)).seen : false
      pool = decoded >= POOL_THRESHOLD ? await sharedPool() : null
      if (pool) {
        // The verdicts found are kept after the answer (takeFound below), off the replay's path.
        pool.configure({
          local: (u) => verifyUpdate(u, local),
          ...(cache ? { verdicts: cache, lookups: seen, keepLater: true } : {}),
        })
        stage = { verify: timing.stage(recorded(pool.verify)), verifyAhead: pool.ahead }
      } else {
        const opts = { ...local, ...(cache ? { verdicts: cache } : {}) }
        stage = { ...opts, verify: timing.stage(recorded((u) => verifyUpdate(u, opts))) }
      }
    } else {
      const opts = { ...smartWallets }
      stage = { verify: timing.stage((u) => verifyUpdate(u, opts)) }
    }
    trace = await replay(log, {
      verifyAfterStop: true,
      ...smartWallets,
      ...stage,
      onStep: (step) => {
        outbox.push(toTransferStep(step))
        if (outbox.length >= STEP_FLUSH) flushSteps()
      },
      onProgress(done, total) {
        const now = performance.now()
        timing.applied(done - 1, now)
        // Every PROGRESS_EVERY ms from the start, and not for the last update (the answer
        // follows at once): each message is a frame of the page's, and a headless
        // software-composited frame cost the display compositor 7–11 ms of CPU, taken
        // from the cores the replay verifies on. A replay shorter than that posts none.
        if (now - last >= PROGRESS_EVERY && done < total) {
          last = now
          post({ type: 'progress', id: m.id, done, total })
        }
      },
    })
  } catch (e) {
    cache?.dropPrefetched()
    if (e instanceof LogInputError) post({ type: 'input-error', id: m.id, problem: problemOf(e) })
    else post({ type: 'failed', id: m.id, message: `replay failed: ${e instanceof Error ? e.message : String(e)}` })
    // The verdicts found before the failure are kept, written as an answer's are.
    handOffAfterAnswer(writer, pool, cache, null)
    return
  }
  const replayMs = performance.now() - t0
  measure('replay', t0, t0 + replayMs)
  cache?.dropPrefetched()
  const ps = pool?.stats()
  const verify: VerifyStats = {
    engine,
    workers: ps?.size ?? 0,
    live: ps?.live ?? 0,
    ready: ps?.ready ?? 0,
    backends: ps?.backends ?? [],
    failures: ps?.failures ?? [],
    remote: ps?.remote ?? 0,
    local: ps?.local ?? 0,
    cached: (ps?.cached ?? 0) + fromRecord.count,
    workerMs: ps?.workerMs ?? 0,
    startupMs: ps?.startupMs ?? [],
    cache: cache !== null,
    waitMs: timing.waitMs(),
    ...(workersBefore
      ? {
          timings: {
            workers: timingsSince(workersBefore, sumTimings(workerTimings())),
            local: timingsSince({}, localTimings),
          },
        }
      : {}),
  }
  const stepsFrom = performance.now()
  flushSteps()
  post({
    type: 'done',
    id: m.id,
    inboxId: trace.inboxId,
    ok: trace.ok,
    stepCount: trace.steps.length,
    replayMs,
    stepsMs: performance.now() - stepsFrom,
    verify,
  })
  measure('steps', stepsFrom)
  startPoolLater()
  post({ type: 'report', id: m.id, report: `${JSON.stringify(toReport(trace, m.file), null, 2)}\n` })
  // A replay warms what the warm-up rounds would: its updates count as rounds of
  // WARM_LOG_UPDATES (a log of 768 updates or more leaves none to run). While this worker is
  // still warming up, the next idle rounds replay this log, and the verification workers
  // verify its updates (./warm-log.ts).
  logRounds = roundsAfterReplay(logRounds, log.entries.length, WARM_LOG_ROUNDS)
  if (logRounds < WARM_LOG_ROUNDS) {
    warmLog = warmLogOf(log)
    postWarmJobs(warmJobsOf(warmLog))
  }
  // The verdicts found and the log's record (when it had none, or an unreadable one) are
  // written once the page is idle, in slices (./deferred-writes.ts).
  const checks = store && recordId && !stored ? trace.steps.map((s) => (s.update ? s.signatures : null)) : null
  handOffAfterAnswer(
    writer,
    pool,
    cache,
    checks && store && recordId ? { store, id: recordId, file: m.file, updates: log.entries.length, checks } : null,
  )
}

/** The writes after each answer (./after-answer.ts WRITER_TIMING): once the page is idle, in slices. */
const writer = new DeferredWriter({ ...WRITER_TIMING, timers: browserTimers })

scope.onmessage = (ev: MessageEvent<ToWorker>) => {
  if (ev.data.type === 'activity') {
    writer.touch()
    return
  }
  if (ev.data.type === 'start-pool') {
    void sharedPool()
    return
  }
  if (ev.data.type === 'flush-writes') {
    // The page is being hidden or unloaded: the writes run now, without pauses (a failed one is dropped).
    void writer.flush()
    return
  }
  busy++
  handle(ev.data)
    .catch((e: unknown) => {
      post({ type: 'failed', id: ev.data.id, message: `worker error: ${e instanceof Error ? e.message : String(e)}` })
    })
    .finally(() => {
      busy--
      // The next task: a request right behind this one (the replay after its open) comes first.
      if (busy === 0) void nextTask().then(idleWarmUp)
    })
}
