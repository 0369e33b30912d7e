/**
 * Messages between the app and the replay worker (./replay.worker.ts). Everything
 * here survives structuredClone: plain objects, arrays, strings, bigints and
 * Uint8Arrays; no immutable.js collections, no class instances (see ./transfer.ts).
 */
import type { LogFormat } from '../core/types'
import type { TransferStep } from './transfer'

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

/**
 * How smart contract wallet (erc_6492) signatures are judged: 'none' leaves them
 * pending (IDENT-061: no route for the chain); 'fixture-fake' is the fixture corpus's
 * deterministic fake wallet (test/fixtures/fake-smart-wallet.ts), only for the gallery
 * examples that declare it.
 */
export type Verifier = 'none' | 'fixture-fake'

export type ToWorker =
  /** Read the input as logs (format detected); answered by `opened` or `input-error`. */
  | { readonly type: 'open'; readonly id: number; readonly input: string | Uint8Array; readonly name: string }
  /** Replay one of the logs of the last `open`; answered by progress, steps…, done. */
  | { readonly type: 'replay'; readonly id: number; readonly logIndex: number; readonly file: string; readonly verifier: Verifier }

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
      /** The command line's report (`replay --json`), as JSON text. */
      readonly report: string
      readonly replayMs: number
    }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }

/** Steps per `steps` message: small enough that no message takes long to deserialize. */
export const STEP_CHUNK = 100
