/**
 * The embedded driver's worker threads: each runs ./thread.ts (the job function over
 * batches); the main thread reads, stores and prints. Threads start as the command line's
 * verification workers do (src/cli/pool/node-pool.ts: the bundled dist-cli/audit-thread.mjs
 * in the bundle, the TypeScript entry through tsx otherwise). A thread that fails or exits
 * hands its batch back to the caller (who runs it in place) and is not used again.
 */
import { setFlagsFromString } from 'node:v8'
import { Worker } from 'node:worker_threads'
import { startTsWorker } from '../cli/pool/node-pool'
import type { AuditOutcome } from './job'
import { type Batch, type FromAuditThread, packBatch, type ToAuditThread, unpackOutcomes } from './work'

declare const __INBOX_CLI_BUNDLE__: boolean | undefined
const BUNDLED = typeof __INBOX_CLI_BUNDLE__ !== 'undefined' && __INBOX_CLI_BUNDLE__

function startThread(index: number): Worker {
  const name = `audit-${index}`
  if (BUNDLED) return new Worker(new URL('./audit-thread.mjs', import.meta.url), { execArgv: [], name })
  return startTsWorker(new URL('./thread.ts', import.meta.url), name)
}

/**
 * V8 flags for the audit's process, set once before its threads start (V8 flags are
 * process-wide; a Worker's execArgv refuses them). Every thread optimizes the same replay
 * code while the native signature checks are the hot part: a smaller cumulative inlining
 * budget (230 bytes of bytecode per optimized function instead of V8's 920) keeps TurboFan's
 * background compiles short and its code small, for the same speed of the optimized code
 * (docs/audit.md "Speed and memory": where the run's CPU goes). No TurboFan inlining at all,
 * or a larger interrupt budget, made the run no cheaper. It changes how fast code runs,
 * never what it computes.
 */
const AUDIT_V8_FLAGS = ['--max-inlined-bytecode-size-cumulative=230'] as const
let flagsSet = false

function setAuditV8Flags(): void {
  if (flagsSet) return
  flagsSet = true
  for (const f of AUDIT_V8_FLAGS) setFlagsFromString(f)
}

export class ThreadFailed extends Error {
  override readonly name = 'ThreadFailed'
}

interface Slot {
  readonly worker: Worker
  busy: { resolve: (o: AuditOutcome[]) => void; reject: (e: Error) => void } | null
  dead: boolean
}

export class AuditPool {
  private readonly slots: Slot[] = []
  private readonly waiting: (() => void)[] = []
  private nextId = 0

  constructor(
    size: number,
    private readonly chains: readonly string[],
  ) {
    setAuditV8Flags()
    for (let i = 0; i < size; i++) this.slots.push(this.start(i))
  }

  private start(i: number): Slot {
    const slot: Slot = { worker: startThread(i), busy: null, dead: false }
    const fail = (why: string) => {
      if (slot.dead) return
      slot.dead = true
      slot.busy?.reject(new ThreadFailed(`audit thread ${i}: ${why}`))
      slot.busy = null
      void slot.worker.terminate()
      this.release()
    }
    slot.worker.on('message', (m: FromAuditThread) => {
      const b = slot.busy
      slot.busy = null
      if (!m.ok) b?.reject(new Error(m.error))
      else {
        try {
          b?.resolve(unpackOutcomes(m.outcomes))
        } catch (e) {
          b?.reject(e instanceof Error ? e : new Error(String(e)))
        }
      }
      this.release()
    })
    slot.worker.on('error', (e) => fail(e.message))
    slot.worker.on('exit', (code) => fail(`exited with status ${code}`))
    return slot
  }

  /** Live threads. */
  get size(): number {
    return this.slots.filter((s) => !s.dead).length
  }

  /** Wakes one caller waiting for a thread (it looks again: another may have taken the thread). */
  private release(): void {
    this.waiting.shift()?.()
  }

  private idle(): Slot | null {
    return this.slots.find((s) => !s.dead && !s.busy) ?? null
  }

  /** Runs a batch on the next free thread; rejects with ThreadFailed when no thread can. */
  async run(batch: Batch): Promise<AuditOutcome[]> {
    let slot = this.idle()
    while (!slot) {
      if (this.size === 0) throw new ThreadFailed('no audit thread is running')
      await new Promise<void>((r) => this.waiting.push(r))
      slot = this.idle()
    }
    const s = slot
    return new Promise<AuditOutcome[]>((resolve, reject) => {
      s.busy = { resolve, reject }
      const packed = packBatch(batch)
      s.worker.postMessage(
        { id: this.nextId++, batch: packed.batch, chains: this.chains } satisfies ToAuditThread,
        packed.transfer,
      )
    })
  }

  close(): void {
    for (const s of this.slots) {
      s.dead = true
      void s.worker.terminate()
    }
    for (const w of this.waiting.splice(0)) w()
  }
}
