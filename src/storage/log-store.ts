/**
 * The log store: one IndexedDB record per replayed log, under the SHA-256 of its input
 * and its place in the input (`<hex>#<log index>`), holding the log's verdicts as one
 * compact value (./log-verdicts.ts). Reopening a log reads that one record, where the
 * verdict store (src/worker/verdict-cache.ts, one value per signature) would read and
 * decode every signature's verdict.
 *
 * Migration: the verdict store stays as it was. A log with no record here (saved before
 * this store existed) is replayed from the verdict store, and its record is written
 * after that replay, so it opens from here the next time.
 *
 * Like the verdict store this is only a head start: every failure reads as "no record",
 * and a record read back is checked before use, never trusted.
 */
import { type Db, globalIndexedDb, type IdbFactoryLike, inStore, openIdbOrNull, type StorageError } from './idb'

const LOG_DB = 'inbox-inspector-logs'
const STORE = 'logs'
const VERSION = 1

export interface LogRecord {
  /** `<SHA-256 of the input, hex>#<log index>` */
  readonly id: string
  /** The log's updates (entries): a record for another length is not used. */
  readonly updates: number
  /** The input's file name when saved, for a person looking at the store. */
  readonly name: string
  readonly savedAt: number
  /** encodeLogVerdicts' value. */
  readonly verdicts: string
}

/** The store's key of log `logIndex` of an input whose SHA-256 is `digestHex`. */
export const logRecordId = (digestHex: string, logIndex: number): string => `${digestHex}#${logIndex}`

/** SHA-256 of an input (a string is hashed as its UTF-8 bytes), hex; the platform's digest. */
export async function inputDigest(input: string | Uint8Array): Promise<string> {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))
  let hex = ''
  for (const b of d) hex += b.toString(16).padStart(2, '0')
  return hex
}

const isRecord = (x: unknown, id: string): x is LogRecord => {
  const r = x as Partial<LogRecord> | null
  return (
    !!r &&
    typeof r === 'object' &&
    r.id === id &&
    typeof r.updates === 'number' &&
    typeof r.verdicts === 'string' &&
    typeof r.name === 'string'
  )
}

export class IdbLogStore {
  private constructor(private readonly db: Db) {}

  /** Opens (or creates) the store; null when IndexedDB cannot be used here. */
  static async open(
    name = LOG_DB,
    factory: IdbFactoryLike | StorageError = globalIndexedDb(),
  ): Promise<IdbLogStore | null> {
    const db = await openIdbOrNull(factory, { name, version: VERSION, stores: { [STORE]: { keyPath: 'id' } } })
    return db && new IdbLogStore(db)
  }

  /** The record under `id`, or null (none, unreadable, or not the shape this store writes). */
  async get(id: string): Promise<LogRecord | null> {
    try {
      const v = await inStore(this.db, STORE, 'readonly', 'reading a log record', (s) => s.get(id))
      return isRecord(v, id) ? v : null
    } catch {
      return null
    }
  }

  /**
   * Writes (or replaces) a record; false when the write failed (quota, a closed database).
   * The transaction is committed with its one request, not after its answer: a worker ended
   * soon after (its page unloaded) still has a large record written.
   */
  async put(record: LogRecord): Promise<boolean> {
    try {
      await inStore(this.db, STORE, 'readwrite', 'writing a log record', (s) => {
        const put = s.put(record)
        s.transaction.commit()
        return put
      })
      return true
    } catch {
      return false
    }
  }

  /** Removes every record (the benchmark's cold run). */
  async clear(): Promise<void> {
    await inStore(this.db, STORE, 'readwrite', 'clearing the log records', (s) => s.clear())
  }

  close(): void {
    this.db.close()
  }
}
