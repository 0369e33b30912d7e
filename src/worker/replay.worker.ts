/**
 * Replay in a Web Worker: reads the input (format detection, decoding) and replays a
 * log with the core, so the page never runs either. Posts progress while it replays,
 * then the Trace in the transfer format of ./transfer.ts, in chunks of STEP_CHUNK
 * steps, then `done` with the command line's report.
 *
 * Cancellation: core replay runs its updates back to back in microtasks, so this
 * worker never sees a message while it replays; the app cancels by terminating the
 * worker (src/app/trace/replay-client.ts) and starting a new one.
 */
import { LogInputError } from '../core/errors'
import { readLogs } from '../core/decode/logs'
import { replay } from '../core/replay'
import { toReport } from '../core/report'
import type { InboxLog } from '../core/types'
import type { FromWorker, InputProblem, ToWorker } from './protocol'
import { STEP_CHUNK } from './protocol'
import { toTransferStep } from './transfer'
import { FakeSmartWalletVerifier } from '../../test/fixtures/fake-smart-wallet'

/** The worker scope, typed without the WebWorker lib (the app's tsconfig has the DOM lib). */
const scope = self as unknown as {
  postMessage(message: FromWorker): void
  onmessage: ((ev: MessageEvent<ToWorker>) => void) | null
}

let logs: InboxLog[] = []

const post = (m: FromWorker): void => scope.postMessage(m)

function problemOf(e: unknown): InputProblem {
  if (e instanceof LogInputError) {
    return { format: e.format, where: e.where, detail: e.detail, message: e.message, attempts: e.attempts.map((a) => ({ ...a })) }
  }
  const message = e instanceof Error ? e.message : String(e)
  return { format: 'auto', where: '', detail: message, message, attempts: [] }
}

async function handle(m: ToWorker): Promise<void> {
  if (m.type === 'open') {
    try {
      logs = readLogs(m.input, m.name)
    } catch (e) {
      logs = []
      post({ type: 'input-error', id: m.id, problem: problemOf(e) })
      return
    }
    if (logs.length === 0) {
      post({ type: 'input-error', id: m.id, problem: { format: 'auto', where: '', detail: `${m.name} holds no inbox log`, message: `${m.name} holds no inbox log`, attempts: [] } })
      return
    }
    post({
      type: 'opened',
      id: m.id,
      logs: logs.map((l, index) => ({ index, inboxId: l.inboxId ?? null, format: l.format, entries: l.entries.length })),
    })
    return
  }
  const log = logs[m.logIndex]
  if (!log) {
    post({ type: 'failed', id: m.id, message: `no log ${m.logIndex} in the input` })
    return
  }
  const t0 = performance.now()
  let last = 0
  let trace
  try {
    trace = await replay(log, {
      verifyAfterStop: true,
      ...(m.verifier === 'fixture-fake' ? { smartWallets: new FakeSmartWalletVerifier() } : {}),
      onProgress(done, total) {
        const now = performance.now()
        if (now - last > 100 || done === total) {
          last = now
          post({ type: 'progress', id: m.id, done, total })
        }
      },
    })
  } catch (e) {
    if (e instanceof LogInputError) post({ type: 'input-error', id: m.id, problem: problemOf(e) })
    else post({ type: 'failed', id: m.id, message: `replay failed: ${e instanceof Error ? e.message : String(e)}` })
    return
  }
  const replayMs = performance.now() - t0
  for (let from = 0; from < trace.steps.length; from += STEP_CHUNK) {
    post({ type: 'steps', id: m.id, from, steps: trace.steps.slice(from, from + STEP_CHUNK).map(toTransferStep) })
  }
  post({
    type: 'done',
    id: m.id,
    inboxId: trace.inboxId,
    ok: trace.ok,
    stepCount: trace.steps.length,
    report: JSON.stringify(toReport(trace, m.file), null, 2) + '\n',
    replayMs,
  })
}

scope.onmessage = (ev: MessageEvent<ToWorker>) => {
  handle(ev.data).catch((e: unknown) => {
    post({ type: 'failed', id: ev.data.id, message: `worker error: ${e instanceof Error ? e.message : String(e)}` })
  })
}
