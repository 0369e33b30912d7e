/**
 * Messages between the app and the replay worker (./replay.worker.ts). Everything
 * here survives structuredClone: plain objects, arrays, strings, bigints and
 * Uint8Arrays; no persistent collections, no class instances (see ./transfer.ts).
 */
import type { PrimitiveTimings } from './backend-report'
import type { WasmModule, WasmName } from '../crypto/wasm-module'
import type { LogFormat } from '../core/types'
import type { TransferStep } from './transfer'
import type { VerifyJob } from '../core/verify/transfer'

export interface LogSummary {
  readonly index: number
  readonly inboxId: string | null
  readonly format: LogFormat
  readonly entries: number
}

export interface InputAttempt {
  readonly format: string
  readonly where: string
  readonly detail: string
}

/** A LogInputError as data: what is wrong with the input, and why each format failed. */
export interface InputProblem {
  readonly format: string
  readonly where: string
  readonly detail: string
  readonly message: string
  readonly attempts: readonly InputAttempt[]
}

/** A chain route as the worker takes it: an eip155 chain id (decimal text) and its RPC URL. */
export interface ChainRouteWire {
  readonly chainId: string
  readonly url: string
}

/**
 * How smart contract wallet (erc_6492) signatures are judged: 'none' leaves them
 * pending (IDENT-061: no route for the chain); 'fixture-fake' is the fixture corpus's
 * deterministic fake wallet (test/fixtures/fake-smart-wallet.ts), only for the gallery
 * examples that declare it; `chain` judges them on the chains of the app's chain routes
 * (src/chain/verifier.ts ChainVerifier; a chain with no route stays pending).
 */
export type Verifier = 'none' | 'fixture-fake' | { readonly kind: 'chain'; readonly routes: readonly ChainRouteWire[] }

/**
 * How a replay verifies: 'fast' (the default) on the verification pool with the fast
 * crypto backend and the verdict cache; 'plain' on the replay worker's one thread with
 * noble and no cache (the benchmark's baseline; the Trace is the same).
 */
export type Engine = 'fast' | 'plain'

/** How a replay's verification went, for the benchmark and the status line. */
export interface VerifyStats {
  readonly engine: Engine
  /** Verification workers started and alive at the end (0: one thread). */
  readonly workers: number
  readonly live: number
  /** Workers that had loaded their backend when the replay ended. */
  readonly ready: number
  readonly backends: readonly string[]
  readonly failures: readonly string[]
  /** Updates verified by workers, on the replay worker's thread, and from the cache alone. */
  readonly remote: number
  readonly local: number
  readonly cached: number
  /** Time the workers reported verifying, summed. */
  readonly workerMs: number
  /** Per ready worker, milliseconds from its start to its backend loaded (its first replay's wait). */
  readonly startupMs?: readonly number[]
  /** Whether the verdict cache was open. */
  readonly cache: boolean
  /**
   * Time application waited for verified updates (verifying on this thread, or waiting
   * for the pool); the rest of replayMs is bookkeeping outside signature verification.
   */
  readonly waitMs: number
  /**
   * Calls and time per crypto primitive during this replay: in the verification workers
   * (summed) and on the replay worker's own thread (its help and fallback); fast engine only.
   */
  readonly timings?: { readonly workers: PrimitiveTimings; readonly local: PrimitiveTimings }
}

export type ToWorker =
  /** Read the input as logs (format detected); answered by `opened` or `input-error`. */
  | {
      readonly type: 'open'
      readonly id: number
      readonly input: string | Uint8Array
      readonly name: string
      /**
       * Replay one of its logs right after the `opened` answer, answered under the replay's
       * own id (one message for both: no round trip between them). Its logIndex is
       * clamped to the logs read, as the app clamps it.
       */
      readonly replay?: Omit<ReplayRequest, 'type'>
    }
  /** Replay one of the logs of the last `open`; answered by progress, steps…, done. */
  | ReplayRequest
  /**
   * The user is stepping (a key press, a step): the writes after an answer wait until
   * the page is idle (./deferred-writes.ts). No answer; id 0.
   */
  | { readonly type: 'activity'; readonly id: 0 }
  /**
   * Start the verification pool now: the page address names a log (`?url=`, `#log=`),
   * which comes with the page's load rather than 1 s after its first answer. No answer; id 0.
   */
  | { readonly type: 'start-pool'; readonly id: 0 }
  /**
   * The page is being hidden or unloaded (pagehide, visibilitychange to hidden): the
   * writes after an answer run now, not once the page is idle (./deferred-writes.ts).
   * No answer; id 0.
   */
  | { readonly type: 'flush-writes'; readonly id: 0 }

interface ReplayRequest {
  readonly type: 'replay'
  readonly id: number
  readonly logIndex: number
  readonly file: string
  readonly verifier: Verifier
  /** Default 'fast'. */
  readonly engine?: Engine
  /** Use the verdict cache (fast engine only). Default true. */
  readonly cache?: boolean
  /** Empty the verdict cache first (the benchmark's cold run). */
  readonly clearCache?: boolean
  /**
   * Read the verdict cache's in-memory front (verdicts this worker read or wrote
   * before). Default true; false reads IndexedDB only (the benchmark's reload case).
   */
  readonly cacheMemory?: boolean
}

export type FromWorker =
  | { readonly type: 'opened'; readonly id: number; readonly logs: readonly LogSummary[] }
  | { readonly type: 'input-error'; readonly id: number; readonly problem: InputProblem }
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number }
  | { readonly type: 'steps'; readonly id: number; readonly from: number; readonly steps: readonly TransferStep[] }
  | {
      readonly type: 'done'
      readonly id: number
      readonly inboxId: string | null
      readonly ok: boolean
      readonly stepCount: number
      readonly replayMs: number
      /** After replayMs: posting the steps not posted while the replay ran (the app waits for it too). */
      readonly stepsMs: number
      readonly verify: VerifyStats
    }
  /**
   * Right after `done`, with its id: the command line's report (`replay --json`) as JSON
   * text. Made after the answer, so the page does not wait for it to show the log.
   */
  | { readonly type: 'report'; readonly id: number; readonly report: string }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }
  /**
   * Unasked (id 0): the verification pool's state, sent when a verification worker
   * reports ready and when this thread's warm-up ends (./warm-up.ts).
   */
  | {
      readonly type: 'pool'
      readonly id: 0
      readonly workers: number
      readonly ready: number
      /** Per ready worker, milliseconds from its start to its ready message, as this thread read it. */
      readonly startupMs: readonly number[]
      readonly backends: readonly string[]
      /** This thread's warm-up so far: its known-answer round, then the idle rounds. */
      readonly warmUp: string
    }
  /**
   * Unasked (id 0): one of this worker's user-timing measures (named `inspector worker: …`
   * in DevTools), its times on this worker's clock: add `timeOrigin` for epoch
   * milliseconds. The benchmark (e2e/open-bench.spec.ts) puts them on the page's timeline.
   */
  | {
      readonly type: 'measure'
      readonly id: 0
      readonly name: WorkerMeasure
      readonly timeOrigin: number
      readonly start: number
      readonly end: number
    }

/** The replay worker's measures: its module evaluated, the fast backend loaded (WebAssembly compiled), its known-answer round, its pool ready, a log decoded, a replay, its steps posted. */
export type WorkerMeasure = 'start' | 'backend' | 'warm-up' | 'pool ready' | 'decode' | 'replay' | 'steps'

/** Steps per `steps` message: small enough that no message takes long to deserialize. */
export const STEP_CHUNK = 100

/**
 * The replay worker's first message to each of its verification workers (./pool.ts,
 * ./verify.worker.ts): the WebAssembly modules it compiled once (WebAssembly.Module objects
 * survive postMessage between workers of one page), so that no verification worker fetches
 * or compiles them. A module the replay worker could not compile is absent: the
 * verification worker then compiles its own (and falls back to noble as the replay worker did).
 */
export interface WasmModulesMessage {
  readonly type: 'wasm'
  readonly modules: Partial<Record<WasmName, WasmModule>>
}

/**
 * From the replay worker to each verification worker, after a replay (./warm-log.ts): the
 * updates of the log it replayed, as jobs to verify and drop while the worker is idle, so
 * that a log opened later meets optimized code. Never answered.
 */
export interface WarmJobsMessage {
  readonly type: 'warm'
  readonly jobs: readonly VerifyJob[]
}
