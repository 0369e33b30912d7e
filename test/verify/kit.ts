/**
 * Shared by the verification-stage tests: the fixture corpus as logs, a Trace in a
 * deeply comparable form, and verification "workers" that run in this thread behind a
 * real structured clone and a real event-loop hop, so the pool, the transfer format
 * and the worker handler are exercised exactly as across a worker boundary.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readLogs } from '../../src/core/decode/logs'
import { stateReport } from '../../src/core/report'
import type { Trace } from '../../src/core/trace'
import type { AssociationState, InboxLog } from '../../src/core/types'
import type { SpawnVerifyWorker } from '../../src/core/verify/pool'
import type { FromVerifyWorker, ToVerifyWorker } from '../../src/core/verify/transfer'
import type { UpdateVerifyOptions } from '../../src/core/verify/update'
import { verifyWorkerHandler } from '../../src/core/verify/worker-handler'
import { FakeSmartWalletVerifier } from '../fixtures/fake-smart-wallet'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface FixtureLog {
  readonly name: string
  readonly file: string
  readonly log: InboxLog
  readonly ctx: UpdateVerifyOptions
}

/** Every file of every fixture of test/fixtures/index.json, read as logs. */
export function fixtureLogs(): FixtureLog[] {
  const index = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/index.json'), 'utf8')) as {
    fixtures: { name: string; verifier: 'none' | 'fake'; files: Record<string, string> }[]
  }
  const out: FixtureLog[] = []
  for (const f of index.fixtures) {
    for (const file of Object.values(f.files)) {
      for (const log of readLogs(new Uint8Array(readFileSync(join(ROOT, 'test/fixtures', file))), file)) {
        out.push({
          name: f.name,
          file,
          log,
          ctx: f.verifier === 'fake' ? { smartWallets: new FakeSmartWalletVerifier() } : {},
        })
      }
    }
  }
  return out
}

const st = (s: AssociationState | null) => (s ? stateReport(s) : null)

/** A Trace with every persistent state replaced by its report form: deep-equal exactly when the Traces are. */
export function comparableTrace(t: Trace): unknown {
  return {
    inboxId: t.inboxId,
    ok: t.ok,
    head: st(t.head),
    steps: t.steps.map((s) => ({
      ...s,
      stateBefore: st(s.stateBefore),
      stateAfter: st(s.stateAfter),
      actions: s.actions.map((a) => ({ ...a, before: st(a.before), after: st(a.after) })),
    })),
  }
}

export interface FakeWorkerControl {
  /** Messages each worker received. */
  readonly received: ToVerifyWorker[][]
  /** Makes worker i fail (its error event) on its next batch. */
  crashNext(i: number): void
}

/**
 * Verification workers in this thread: every message is structured-cloned both ways and
 * delivered on a later macrotask, as postMessage does.
 */
export function inProcessWorkers(ctx: UpdateVerifyOptions = {}): {
  spawn: SpawnVerifyWorker
  control: FakeWorkerControl
} {
  const received: ToVerifyWorker[][] = []
  const crash = new Set<number>()
  const spawn: SpawnVerifyWorker = (index, events) => {
    received[index] = []
    let alive = true
    const handle = verifyWorkerHandler(
      {
        post: (m: FromVerifyWorker) => {
          const copy = structuredClone(m)
          setTimeout(() => alive && events.message(copy), 0)
        },
        now: () => performance.now(),
      },
      Promise.resolve({ ctx, backend: 'in-process' }),
    )
    return {
      post: (m) => {
        const copy = structuredClone(m)
        received[index]!.push(copy)
        setTimeout(() => {
          if (!alive) return
          if (crash.delete(index)) {
            alive = false
            events.error(`worker ${index} crashed (test)`)
            return
          }
          void handle(copy)
        }, 0)
      },
      terminate: () => {
        alive = false
      },
    }
  }
  return { spawn, control: { received, crashNext: (i) => crash.add(i) } }
}
