/**
 * What the replay worker writes after a replay's answer (the log's record, the verdicts
 * its verification pool found) and when: handed to a DeferredWriter (./deferred-writes.ts)
 * as one job of small steps, so nothing is encoded, hashed or put until the page has been
 * idle a second, and then a slice of a few ms at a time.
 */
import type { VerdictCache } from '../core/verify/cache'
import type { VerifiedUpdate } from '../core/verify/update'
import { rememberVerdicts } from '../core/verify/update'
import type { SignatureCheck } from '../core/trace'
import type { LogRecord } from '../storage/log-store'
import { LogVerdictsEncoder } from '../storage/log-verdicts'
import type { DeferredWriter, DeferredWriterOptions, WriteJob } from './deferred-writes'

/** Updates whose verdicts are kept, or whose checks are encoded, in one step of a write job. */
const WRITE_UPDATES = 64
/** Verdicts written to IndexedDB in one transaction of a write job. */
export const WRITE_VERDICTS = 512

/**
 * The writer's timing: it starts once the page has been idle a second (the page reports
 * its steps: ToWorker 'activity') or a minute after the answer, in slices of about 4 ms; a
 * request flushes it first, and so does the page being hidden or unloaded. The minute: a
 * user stepping through a log just opened pauses for a second long before it, and until
 * then every slice would compete with the presses on two cores (with 8 s, the slices ran
 * during 4–10 of 40 presses once stepping outlasted it).
 */
export const WRITER_TIMING: Omit<DeferredWriterOptions, 'timers'> = {
  idleMs: 1000,
  maxDelayMs: 60_000,
  sliceMs: 4,
  gapMs: 12,
}

/** The verdict cache as the writes use it (./verdict-cache.ts IdbVerdictCache). */
export interface WritableVerdicts extends VerdictCache {
  readonly unwritten: number
  writeSome(max: number): Promise<void>
  flush(): Promise<void>
}

export interface LogRecordWrite {
  readonly store: { put(record: LogRecord): Promise<unknown> }
  readonly id: string
  readonly file: string
  readonly updates: number
  readonly checks: readonly (readonly SignatureCheck[] | null)[]
}

/**
 * The writes after a replay's answer, as a job of small steps: the log's record encoded
 * WRITE_UPDATES updates a step and put, then the verdicts found (their keys made and kept
 * in the verdict cache), written WRITE_VERDICTS a transaction. The record first: a reopen
 * answers every update from it alone, and a page unloaded while the writes wait (the flush
 * it asks at pagehide) leaves the worker a few milliseconds, in which the record's put (one
 * request, committed with it) gets to IndexedDB and the verdicts' keys and writes do not.
 */
async function* writeAfterAnswer(
  cache: WritableVerdicts | null,
  found: readonly VerifiedUpdate[],
  record: LogRecordWrite | null,
): WriteJob {
  if (record) {
    const encoder = new LogVerdictsEncoder()
    for (let i = 0; i < record.checks.length; i += WRITE_UPDATES) {
      encoder.add(record.checks.slice(i, i + WRITE_UPDATES))
      yield
    }
    const verdicts = encoder.finish()
    yield
    await record.store.put({ id: record.id, updates: record.updates, name: record.file, savedAt: Date.now(), verdicts })
  }
  if (cache) {
    for (let i = 0; i < found.length; i += WRITE_UPDATES) {
      for (const v of found.slice(i, i + WRITE_UPDATES)) rememberVerdicts(v, cache)
      yield
      while (cache.unwritten >= WRITE_VERDICTS) {
        await cache.writeSome(WRITE_VERDICTS)
        yield
      }
    }
    while (cache.unwritten > 0) {
      await cache.writeSome(WRITE_VERDICTS)
      yield
    }
    await cache.flush()
  }
}

/**
 * Hands what a replay found to the writer: the pool's verdicts (configured with keepLater,
 * so it kept none itself), the verdicts the replay put in the cache itself and not yet
 * written (a log verified on the worker's own thread), and the log's record. Nothing is
 * put in the cache here: a cache given its verdicts now would start writing them at once
 * (IdbVerdictCache writes a batch of 4,096 on its own), through the user's first key presses.
 */
export function handOffAfterAnswer(
  writer: Pick<DeferredWriter, 'add'>,
  pool: { takeFound(): VerifiedUpdate[] } | null,
  cache: WritableVerdicts | null,
  record: LogRecordWrite | null,
): void {
  const found = pool?.takeFound() ?? []
  if (record || cache) writer.add(writeAfterAnswer(cache, found, record))
}
