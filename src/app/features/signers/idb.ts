/**
 * The signers' IndexedDB database: one database `inbox-inspector-signers` (version 2) with
 * three object stores keyed by `id`:
 *   keys      KeyRecord (src/signing/local-keys.ts): local Ethereum keys and Ed25519
 *             installation keys, secret included (never logged, never exported from here)
 *   passkeys  PasskeyRecord (./passkey-store.ts): the public record of a passkey created here
 *   smart-wallets  SmartWalletRecord (./smart-wallets.ts): public data of a smart contract
 *             wallet (chain, address, owner's signer id, deployment); added in version 2
 *
 * Written against structural types (below), not the DOM library, so the same code runs
 * in the browser over `indexedDB` and in Node tests over fake-indexeddb. Every failure is
 * a SignerStorageError with a code; a record that does not have the shape this module
 * wrote is refused by the reader that knows its shape, never passed on.
 */

// ---- structural IndexedDB types (the subset used here) ----------------------------------

interface IdbErrorLike {
  readonly name: string
  readonly message: string
}

interface IdbRequestLike<T> {
  readonly result: T
  readonly error: IdbErrorLike | null
  onsuccess: ((ev: never) => unknown) | null
  onerror: ((ev: never) => unknown) | null
}

interface IdbOpenRequestLike extends IdbRequestLike<IdbDatabaseLike> {
  onupgradeneeded: ((ev: never) => unknown) | null
  onblocked: ((ev: never) => unknown) | null
}

interface IdbObjectStoreLike {
  getAll(): IdbRequestLike<unknown[]>
  get(key: string): IdbRequestLike<unknown>
  put(value: unknown): IdbRequestLike<unknown>
  delete(key: string): IdbRequestLike<unknown>
}

interface IdbTransactionLike {
  readonly error: IdbErrorLike | null
  objectStore(name: string): IdbObjectStoreLike
  oncomplete: ((ev: never) => unknown) | null
  onerror: ((ev: never) => unknown) | null
  onabort: ((ev: never) => unknown) | null
}

export interface IdbDatabaseLike {
  readonly objectStoreNames: { contains(name: string): boolean }
  createObjectStore(name: string, options?: { keyPath?: string }): unknown
  transaction(storeNames: string, mode?: 'readonly' | 'readwrite'): IdbTransactionLike
  close(): void
  onversionchange: ((ev: never) => unknown) | null
}

export interface IdbFactoryLike {
  open(name: string, version?: number): IdbOpenRequestLike
}

// ---- errors ------------------------------------------------------------------------------

export type SignerStorageErrorCode =
  /** No IndexedDB here (private mode in some browsers, a sandboxed frame, a blocked origin). */
  | 'unavailable'
  /** The database could not be opened in time (another tab holds an older version open). */
  | 'blocked'
  /** A read or write failed (quota, a closed database, a browser error). */
  | 'failed'
  /** A stored record does not have the shape this app writes. */
  | 'bad_record'

export class SignerStorageError extends Error {
  override readonly name = 'SignerStorageError'
  constructor(
    readonly code: SignerStorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

const idbErrorText = (e: IdbErrorLike | null | undefined): string => (e ? `${e.name}: ${e.message}` : 'unknown error')

// ---- the database ------------------------------------------------------------------------

export const DB_NAME = 'inbox-inspector-signers'
export const DB_VERSION = 2
export const KEYS_STORE = 'keys'
export const PASSKEYS_STORE = 'passkeys'
export const SMART_WALLETS_STORE = 'smart-wallets'

/** The browser's IndexedDB factory, or why there is none (reading `indexedDB` can throw). */
export function browserIndexedDb(): IdbFactoryLike | SignerStorageError {
  try {
    const f = (globalThis as { indexedDB?: IdbFactoryLike }).indexedDB
    if (f && typeof f.open === 'function') return f
    return new SignerStorageError(
      'unavailable',
      'this browser offers no IndexedDB here (private browsing, or storage is disabled for this site)',
    )
  } catch (e) {
    return new SignerStorageError(
      'unavailable',
      `IndexedDB is not allowed here: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    )
  }
}

/**
 * Opens (creating on first use) the signers' database. Rejects with SignerStorageError:
 * 'unavailable' when open throws or fails (e.g. InvalidStateError in a private window of
 * some browsers), 'blocked' when it does not open within `timeoutMs`.
 */
export function openSignerDb(
  factory: IdbFactoryLike,
  options: { name?: string; timeoutMs?: number } = {},
): Promise<IdbDatabaseLike> {
  const name = options.name ?? DB_NAME
  const timeoutMs = options.timeoutMs ?? 5_000
  return new Promise((resolve, reject) => {
    let settled = false
    const done = (f: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      f()
    }
    const timer = setTimeout(
      () =>
        done(() =>
          reject(
            new SignerStorageError(
              'blocked',
              `IndexedDB database ${name} did not open within ${timeoutMs} ms (is another tab of this app holding an older version open?)`,
            ),
          ),
        ),
      timeoutMs,
    )
    let req: IdbOpenRequestLike
    try {
      req = factory.open(name, DB_VERSION)
    } catch (e) {
      done(() =>
        reject(
          new SignerStorageError(
            'unavailable',
            `IndexedDB refused to open ${name}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`,
            { cause: e },
          ),
        ),
      )
      return
    }
    req.onupgradeneeded = () => {
      const db = req.result
      if (!db.objectStoreNames.contains(KEYS_STORE)) db.createObjectStore(KEYS_STORE, { keyPath: 'id' })
      if (!db.objectStoreNames.contains(PASSKEYS_STORE)) db.createObjectStore(PASSKEYS_STORE, { keyPath: 'id' })
      if (!db.objectStoreNames.contains(SMART_WALLETS_STORE))
        db.createObjectStore(SMART_WALLETS_STORE, { keyPath: 'id' })
    }
    req.onsuccess = () => {
      const db = req.result
      // A newer version elsewhere wants the database: let it, this tab keeps working until reload.
      db.onversionchange = () => db.close()
      done(() => resolve(db))
    }
    req.onerror = () =>
      done(() =>
        reject(new SignerStorageError('unavailable', `IndexedDB could not open ${name}: ${idbErrorText(req.error)}`)),
      )
    req.onblocked = () => {
      /* wait: the timeout above reports it if the other tab never lets go */
    }
  })
}

/** Runs one request in its own transaction; resolves with its result once the transaction commits. */
function run<T>(
  db: IdbDatabaseLike,
  store: string,
  mode: 'readonly' | 'readwrite',
  what: string,
  op: (s: IdbObjectStoreLike) => IdbRequestLike<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let tx: IdbTransactionLike
    let req: IdbRequestLike<T>
    try {
      tx = db.transaction(store, mode)
      req = op(tx.objectStore(store))
    } catch (e) {
      reject(
        new SignerStorageError(
          'failed',
          `IndexedDB ${what} failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`,
          { cause: e },
        ),
      )
      return
    }
    tx.oncomplete = () => resolve(req.result)
    tx.onerror = () =>
      reject(new SignerStorageError('failed', `IndexedDB ${what} failed: ${idbErrorText(req.error ?? tx.error)}`))
    tx.onabort = () =>
      reject(new SignerStorageError('failed', `IndexedDB ${what} was aborted: ${idbErrorText(tx.error ?? req.error)}`))
  })
}

/** A plain record store over one object store of the database; `check` refuses foreign shapes. */
export interface RecordStore<R extends { readonly id: string }> {
  getAll(): Promise<readonly R[]>
  get(id: string): Promise<R | undefined>
  put(record: R): Promise<void>
  delete(id: string): Promise<void>
}

/**
 * Records of one object store. `check` turns what was read into a record or throws
 * SignerStorageError('bad_record'); getAll keeps the good records and reports the others
 * through `onBadRecord` (one damaged record must not hide every key).
 */
export function idbRecordStore<R extends { readonly id: string }>(
  db: IdbDatabaseLike,
  store: string,
  check: (value: unknown) => R,
  onBadRecord: (e: SignerStorageError) => void = () => {},
): RecordStore<R> {
  return {
    async getAll() {
      const all = await run(db, store, 'readonly', `reading ${store}`, (s) => s.getAll())
      const out: R[] = []
      for (const v of all) {
        try {
          out.push(check(v))
        } catch (e) {
          onBadRecord(
            e instanceof SignerStorageError
              ? e
              : new SignerStorageError('bad_record', `a stored ${store} record is unreadable: ${String(e)}`, {
                  cause: e,
                }),
          )
        }
      }
      return out
    },
    async get(id) {
      const v = await run(db, store, 'readonly', `reading ${store} ${id}`, (s) => s.get(id))
      return v === undefined ? undefined : check(v)
    },
    async put(record) {
      await run(db, store, 'readwrite', `writing ${store} ${record.id}`, (s) => s.put(record))
    },
    async delete(id) {
      await run(db, store, 'readwrite', `deleting ${store} ${id}`, (s) => s.delete(id))
    },
  }
}
