/**
 * The signers' IndexedDB database: one database `inbox-inspector-signers` (version 2) with
 * three object stores keyed by `id`:
 *   keys      KeyRecord (src/signing/local-keys.ts): local Ethereum keys and Ed25519
 *             installation keys, secret included (never logged, never exported from here)
 *   passkeys  PasskeyRecord (./storage.ts): the public record of a passkey created here
 *   smart-wallets  SmartWalletRecord (./smart-wallet-record.ts): public data of a smart contract
 *             wallet (chain, address, owner's signer id, deployment); added in version 2
 *
 * Opened and read through src/storage/idb.ts, so the same code runs in the browser over
 * `indexedDB` and in Node tests over fake-indexeddb. Every failure is a StorageError with
 * a code; a record that does not have the shape this module wrote is refused by the
 * reader that knows its shape, never passed on.
 */
import { type Db, type IdbFactoryLike, inStore, openIdb, StorageError } from '../../../storage/idb'
import { SMART_WALLETS_STORE } from './smart-wallet-record'

export const DB_NAME = 'inbox-inspector-signers'
export const DB_VERSION = 2
export const KEYS_STORE = 'keys'
export const PASSKEYS_STORE = 'passkeys'

/** Opens (creating or upgrading on first use) the signers' database; see openIdb for its errors. */
export function openSignerDb(
  factory: IdbFactoryLike,
  options: { name?: string; timeoutMs?: number } = {},
): Promise<Db> {
  return openIdb(factory, {
    name: options.name ?? DB_NAME,
    version: DB_VERSION,
    stores: {
      [KEYS_STORE]: { keyPath: 'id' },
      [PASSKEYS_STORE]: { keyPath: 'id' },
      [SMART_WALLETS_STORE]: { keyPath: 'id' },
    },
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
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
 * StorageError('bad_record'); getAll keeps the good records and reports the others
 * through `onBadRecord` (one damaged record must not hide every key).
 */
export function idbRecordStore<R extends { readonly id: string }>(
  db: Db,
  store: string,
  check: (value: unknown) => R,
  onBadRecord: (e: StorageError) => void = () => {},
): RecordStore<R> {
  return {
    async getAll() {
      const all = await inStore(db, store, 'readonly', `reading ${store}`, (s) => s.getAll())
      const out: R[] = []
      for (const v of all) {
        try {
          out.push(check(v))
        } catch (e) {
          onBadRecord(
            e instanceof StorageError
              ? e
              : new StorageError('bad_record', `a stored ${store} record is unreadable: ${String(e)}`, { cause: e }),
          )
        }
      }
      return out
    },
    async get(id) {
      const v = await inStore(db, store, 'readonly', `reading ${store} ${id}`, (s) => s.get(id))
      return v === undefined ? undefined : check(v)
    },
    async put(record) {
      await inStore(db, store, 'readwrite', `writing ${store} ${record.id}`, (s) => s.put(record))
    },
    async delete(id) {
      await inStore(db, store, 'readwrite', `deleting ${store} ${id}`, (s) => s.delete(id))
    },
  }
}
