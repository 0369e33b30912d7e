/**
 * IndexedDB for the app and its worker, over the `idb` library's promise wrapper: one
 * way to open a database (with a timeout and errors that say what went wrong) and one
 * way to run a request in its own transaction. The signers' database
 * (src/app/features/signers/idb.ts) and the replay worker's verdict cache
 * (src/worker/verdict-cache.ts) both sit on it.
 *
 * The factory is passed in (the browser's `indexedDB`, or fake-indexeddb's in tests);
 * `idb` wraps the database it opens, so every request after that is a promise. Every failure is a StorageError with a code.
 */
import { type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction, wrap } from 'idb'
import { errorText, StorageError } from './errors'

export { StorageError } from './errors'

export type Db = IDBPDatabase<unknown>

/** What opening needs of an IndexedDB factory. */
export interface IdbFactoryLike {
  open(name: string, version?: number): IDBOpenDBRequest
}

/** The global IndexedDB factory, or why there is none (reading `indexedDB` can throw). */
export function globalIndexedDb(): IdbFactoryLike | StorageError {
  try {
    const f = (globalThis as { indexedDB?: IdbFactoryLike }).indexedDB
    if (f && typeof f.open === 'function') return f
    return new StorageError(
      'unavailable',
      'this browser offers no IndexedDB here (private browsing, or storage is disabled for this site)',
    )
  } catch (e) {
    return new StorageError('unavailable', `IndexedDB is not allowed here: ${errorText(e)}`, { cause: e })
  }
}

export interface OpenIdbOptions {
  readonly name: string
  readonly version: number
  /** Object stores created when missing: name → key path (none: keys are given on put). */
  readonly stores: Readonly<Record<string, { readonly keyPath?: string }>>
  /** How long to wait for another tab holding an older version (default 5 s). */
  readonly timeoutMs?: number
}

/**
 * Opens (creating on first use) a database with its stores. Rejects with StorageError:
 * 'unavailable' when open throws or fails (e.g. InvalidStateError in a private window of
 * some browsers), 'blocked' when it does not open within `timeoutMs`. A newer version
 * opened elsewhere closes this connection; this page keeps working until it reloads.
 */
export function openIdb(factory: IdbFactoryLike, options: OpenIdbOptions): Promise<Db> {
  const { name, version, stores } = options
  const timeoutMs = options.timeoutMs ?? 5_000
  let req: IDBOpenDBRequest
  try {
    req = factory.open(name, version)
  } catch (e) {
    return Promise.reject(
      new StorageError('unavailable', `IndexedDB refused to open ${name}: ${errorText(e)}`, { cause: e }),
    )
  }
  req.onupgradeneeded = () => {
    const db = req.result
    for (const [store, { keyPath }] of Object.entries(stores)) {
      if (!db.objectStoreNames.contains(store)) db.createObjectStore(store, keyPath ? { keyPath } : undefined)
    }
  }
  // A blocked open waits: the timeout below reports it if the other tab never lets go.
  const opened = new Promise<Db>((resolve, reject) => {
    req.onsuccess = () => {
      const raw = req.result
      // A newer version elsewhere wants the database: let it, this page keeps working until reload.
      raw.onversionchange = () => raw.close()
      resolve(wrap(raw) as Db)
    }
    req.onerror = () =>
      reject(new StorageError('unavailable', `IndexedDB could not open ${name}: ${errorText(req.error)}`))
  })
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StorageError(
            'blocked',
            `IndexedDB database ${name} did not open within ${timeoutMs} ms (is another tab of this app holding an older version open?)`,
          ),
        ),
      timeoutMs,
    )
  })
  return Promise.race([opened, late]).finally(() => clearTimeout(timer))
}

/** openIdb for storage the app can do without: null when there is no IndexedDB here or the database does not open. */
export async function openIdbOrNull(
  factory: IdbFactoryLike | StorageError,
  options: OpenIdbOptions,
): Promise<Db | null> {
  if (factory instanceof StorageError) return null
  try {
    return await openIdb(factory, options)
  } catch {
    return null
  }
}

/**
 * Runs `op` on one store in its own transaction and resolves with its result once the
 * transaction commits. `what` names the work in errors: "IndexedDB <what> failed: …" when
 * the transaction cannot start or a request fails, "… was aborted: …" when the commit does.
 */
export async function inStore<T, M extends IDBTransactionMode>(
  db: Db,
  store: string,
  mode: M,
  what: string,
  op: (s: IDBPObjectStore<unknown, [string], string, M>) => Promise<T>,
): Promise<T> {
  const failed = (e: unknown) => new StorageError('failed', `IndexedDB ${what} failed: ${errorText(e)}`, { cause: e })
  let tx: IDBPTransaction<unknown, [string], M>
  try {
    tx = db.transaction(store, mode)
  } catch (e) {
    throw failed(e)
  }
  let result: T
  try {
    result = await op(tx.objectStore(store))
  } catch (e) {
    tx.done.catch(() => {}) // the failed request aborts the transaction: reported above
    throw failed(e)
  }
  try {
    await tx.done
  } catch (e) {
    throw new StorageError('failed', `IndexedDB ${what} was aborted: ${errorText(e)}`, { cause: e })
  }
  return result
}
