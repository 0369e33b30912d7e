/**
 * Where the signers kept in this browser live: local keys (KeyRecord, with their secret),
 * passkeys (PasskeyRecord, public only) and smart contract wallets (SmartWalletRecord,
 * public only), in IndexedDB (./idb.ts) so they survive a
 * reload. When IndexedDB cannot be opened (private browsing in some browsers, storage
 * disabled, a sandboxed frame) the storage falls back to memory and says so in `notice`:
 * keys made then are lost on reload.
 *
 * Records read back are checked against the shape written here; a damaged record is left
 * out and named in `problems` (its id only: never its secret).
 */
import { copyKeyRecord, memoryRecords, type KeyRecord, type KeyRecordBackend } from '../../../signing/local-keys'
import type { StoredPasskey } from '../../../signing/browser/passkey'
import { checkSmartWalletRecord, SMART_WALLETS_STORE, type SmartWalletRecord } from './smart-wallet-record'
import { globalIndexedDb, type IdbFactoryLike, StorageError } from '../../../storage/idb'
import { idbRecordStore, KEYS_STORE, openSignerDb, PASSKEYS_STORE, type RecordStore } from './idb'

/** A passkey created in this browser: its public record and what the user called it. */
export interface PasskeyRecord extends StoredPasskey {
  /** `passkey:<SEC1 public key hex>`, the AppSigner id. */
  readonly id: string
  readonly label: string
  readonly createdAt: number
}

export interface SignerStorage {
  readonly keys: KeyRecordBackend
  readonly passkeys: RecordStore<PasskeyRecord>
  /** Smart contract wallets (public data only). */
  readonly smartWallets: RecordStore<SmartWalletRecord>
  /** True when backed by IndexedDB (survives reload). */
  readonly persistent: boolean
  /** Set when keys are kept in memory only: why, and that they are lost on reload. */
  readonly notice: string | null
  /** Damaged records left out when reading (ids and reasons, no secrets). */
  readonly problems: string[]
}

const bad = (store: string, id: unknown, what: string) =>
  new StorageError(
    'bad_record',
    `stored ${store} record ${typeof id === 'string' ? JSON.stringify(id) : '(no id)'}: ${what}`,
  )

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isHex = (s: unknown, bytes?: number): s is string =>
  typeof s === 'string' &&
  (bytes === undefined ? /^(?:[0-9a-f]{2})+$/.test(s) : s.length === bytes * 2 && /^[0-9a-f]*$/.test(s))

/** A KeyRecord as written by createKeyStore, or StorageError('bad_record') naming the field. */
export function checkKeyRecord(v: unknown): KeyRecord {
  if (!isObject(v)) throw bad(KEYS_STORE, undefined, 'is not an object')
  const { id, kind, identifier, label, createdAt, secret } = v
  if (typeof id !== 'string') throw bad(KEYS_STORE, id, 'id is not a string')
  if (kind !== 'ethereum' && kind !== 'installation')
    throw bad(KEYS_STORE, id, `kind ${JSON.stringify(kind)} is neither "ethereum" nor "installation"`)
  if (typeof identifier !== 'string') throw bad(KEYS_STORE, id, 'identifier is not a string')
  if (typeof label !== 'string') throw bad(KEYS_STORE, id, 'label is not a string')
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt))
    throw bad(KEYS_STORE, id, 'createdAt is not a number')
  if (!(secret instanceof Uint8Array)) throw bad(KEYS_STORE, id, 'the secret is not bytes')
  if (secret.length !== 32) throw bad(KEYS_STORE, id, `the secret is ${secret.length} bytes, not 32`)
  return { id, kind, identifier, label, createdAt, secret }
}

/** A PasskeyRecord, or StorageError('bad_record') naming the field. */
export function checkPasskeyRecord(v: unknown): PasskeyRecord {
  if (!isObject(v)) throw bad(PASSKEYS_STORE, undefined, 'is not an object')
  const { id, label, createdAt, credentialId, publicKey, rpId, origin } = v
  if (typeof id !== 'string') throw bad(PASSKEYS_STORE, id, 'id is not a string')
  if (typeof label !== 'string') throw bad(PASSKEYS_STORE, id, 'label is not a string')
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt))
    throw bad(PASSKEYS_STORE, id, 'createdAt is not a number')
  if (typeof credentialId !== 'string' || !/^[A-Za-z0-9_-]+$/.test(credentialId))
    throw bad(PASSKEYS_STORE, id, 'credentialId is not base64url')
  if (!isHex(publicKey, 65) || !publicKey.startsWith('04'))
    throw bad(PASSKEYS_STORE, id, 'publicKey is not a 65-byte SEC1 point in lowercase hex')
  if (id !== passkeyId(publicKey))
    throw bad(PASSKEYS_STORE, id, `id does not match its public key (expected ${passkeyId(publicKey)})`)
  if (typeof rpId !== 'string' || rpId === '') throw bad(PASSKEYS_STORE, id, 'rpId is not a host name')
  if (typeof origin !== 'string' || origin === '') throw bad(PASSKEYS_STORE, id, 'origin is not a string')
  return { id, label, createdAt, credentialId, publicKey, rpId, origin }
}

export const passkeyId = (publicKeyHex: string): string => `passkey:${publicKeyHex}`

/** Records in a Map (the fallback when IndexedDB is not there; tests). Copies in and out. */
function memoryRecordStore<R extends { readonly id: string }>(
  copy: (r: R) => R = (r) => structuredClone(r),
): RecordStore<R> {
  return memoryRecords(copy)
}

/** In-memory signer storage, with the notice that explains why. */
export function memorySignerStorage(why: string): SignerStorage {
  return {
    keys: memoryRecordStore<KeyRecord>(copyKeyRecord),
    passkeys: memoryRecordStore<PasskeyRecord>((r) => ({ ...r })),
    smartWallets: memoryRecordStore<SmartWalletRecord>((r) => ({
      ...r,
      deployment: r.deployment && { ...r.deployment },
    })),
    persistent: false,
    notice: `Keys are kept in memory only, because ${why}. They will be lost when this page is reloaded or closed.`,
    problems: [],
  }
}

/**
 * Opens the IndexedDB storage, or falls back to memory with a notice saying why.
 * `factory` defaults to the browser's `indexedDB`.
 */
export async function openSignerStorage(
  options: { factory?: IdbFactoryLike | StorageError; dbName?: string; timeoutMs?: number } = {},
): Promise<SignerStorage> {
  const factory = options.factory ?? globalIndexedDb()
  if (factory instanceof StorageError) return memorySignerStorage(reason(factory))
  let db
  try {
    db = await openSignerDb(factory, {
      ...(options.dbName ? { name: options.dbName } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    })
  } catch (e) {
    return memorySignerStorage(reason(e))
  }
  const problems: string[] = []
  const report = (e: StorageError) => {
    if (!problems.includes(e.message)) problems.push(e.message)
  }
  return {
    keys: idbRecordStore<KeyRecord>(db, KEYS_STORE, checkKeyRecord, report),
    passkeys: idbRecordStore<PasskeyRecord>(db, PASSKEYS_STORE, checkPasskeyRecord, report),
    smartWallets: idbRecordStore<SmartWalletRecord>(db, SMART_WALLETS_STORE, checkSmartWalletRecord, report),
    persistent: true,
    notice: null,
    problems,
  }
}

function reason(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e)
  return `IndexedDB is not available (${m})`
}
