/**
 * The request thread's side of the judge worker (./judge.ts, ./judge-worker.ts): one
 * worker thread, started on the first large publish and kept until close(). A worker that
 * fails or exits rejects what it held with JudgeThreadFailed and is started again on the
 * next publish; admission then judges that publish on the request thread (as before).
 * The worker's smart wallet calls (erc_6492, IDENT-060) are answered here, by the port.
 */
import type { Worker } from 'node:worker_threads'
import { startTsWorker } from '../cli/pool/node-pool'
import type { SmartWalletVerifier } from '../core/verify/port'
import type { StateDelta } from '../worker/transfer'
import type { Encoding } from './codec'
import { answerSmartWallet, type FromJudgeWorker, type JudgeOutcome, type ToJudgeWorker } from './judge'

/** Request bodies of at least this many bytes are judged on the worker (an ordinary update is a few hundred). */
export const LARGE_PUBLISH_BYTES = 16 * 1024

/** The worker could not answer (it failed to start, crashed, or the node is closing). */
export class JudgeThreadFailed extends Error {
  override readonly name = 'JudgeThreadFailed'
}

type Decoded = { readonly inboxId: string } | { readonly outcome: JudgeOutcome }

interface Waiting {
  resolve(m: FromJudgeWorker): void
  reject(e: Error): void
}

/** Starts the worker; tests may start another. */
export type StartJudgeWorker = () => Pick<Worker, 'postMessage' | 'on' | 'terminate'>

const startJudgeWorker: StartJudgeWorker = () =>
  startTsWorker(new URL('./judge-worker.ts', import.meta.url), 'devnode-judge')

export class JudgeThread {
  private worker: ReturnType<StartJudgeWorker> | null = null
  private readonly waiting = new Map<number, Waiting>()
  private next = 0

  constructor(
    private readonly start: StartJudgeWorker = startJudgeWorker,
    private readonly smartWallets?: SmartWalletVerifier,
  ) {}

  private post(m: Exclude<ToJudgeWorker, { type: 'smartWalletAnswer' }>): Promise<FromJudgeWorker> {
    const w = this.ensure()
    return new Promise((resolve, reject) => {
      this.waiting.set(m.id, { resolve, reject })
      w.postMessage(m)
    })
  }

  private ensure(): ReturnType<StartJudgeWorker> {
    if (this.worker) return this.worker
    const w = this.start()
    this.worker = w
    const fail = (why: string) => {
      if (this.worker !== w) return
      this.worker = null
      const held = [...this.waiting.values()]
      this.waiting.clear()
      for (const h of held) h.reject(new JudgeThreadFailed(why))
    }
    w.on('message', (m: FromJudgeWorker) => {
      if (m.type === 'smartWallet') {
        void answerSmartWallet(this.smartWallets, m.request).then((answer) => {
          if (this.worker === w)
            w.postMessage({ type: 'smartWalletAnswer', call: m.call, answer } satisfies ToJudgeWorker)
        })
        return
      }
      const h = this.waiting.get(m.id)
      if (!h) return
      this.waiting.delete(m.id)
      if (m.type === 'failed') h.reject(new JudgeThreadFailed(m.message))
      else h.resolve(m)
    })
    w.on('error', (e: Error) => fail(`the judge worker failed: ${e.message}`))
    w.on('exit', (code: number) => fail(`the judge worker exited with status ${code}`))
    return w
  }

  /** Decodes a publish's body: its inbox id, or its refusal. */
  async decode(enc: Encoding, body: Uint8Array): Promise<{ readonly id: number } & Decoded> {
    const id = this.next++
    const m = await this.post({ type: 'decode', id, enc, body })
    if (m.type === 'decoded') return { id, inboxId: m.inboxId }
    if (m.type === 'judged') return { id, outcome: m.outcome }
    throw new JudgeThreadFailed(`unexpected answer ${m.type}`)
  }

  /** Judges a decoded publish on the head state (a delta from no state; null: a new inbox). */
  async judge(id: number, head: StateDelta | null, provisional: bigint): Promise<JudgeOutcome> {
    const m = await this.post({ type: 'judge', id, head, provisional, smartWallets: this.smartWallets !== undefined })
    if (m.type !== 'judged') throw new JudgeThreadFailed(`unexpected answer ${m.type}`)
    return m.outcome
  }

  /** Forgets a decoded publish that will not be judged. */
  drop(id: number): void {
    this.worker?.postMessage({ type: 'drop', id } satisfies ToJudgeWorker)
  }

  close(): void {
    const w = this.worker
    this.worker = null
    for (const h of this.waiting.values()) h.reject(new JudgeThreadFailed('the node is closing'))
    this.waiting.clear()
    void w?.terminate()
  }
}
