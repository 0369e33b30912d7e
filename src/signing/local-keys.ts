/**
 * Local keys of the browser app: Ethereum signing keys (generated or imported) and
 * installation keys (Ed25519, generated), kept in this browser only.
 *
 * Private key material never reaches a URL, a log export, a report or the console:
 * a LocalKey holds its secret outside the object (a module WeakMap, so neither
 * JSON.stringify, a spread, Node's inspect nor a browser console's object view can reach
 * it) and its toString, toJSON and Node inspect symbol return a redacted form. A key leaves
 * only through `exportLocalSigningKey`, whose result says what it is; Ethereum keys export
 * and import exactly as spec section 12 states (core/keys.ts: IDENT-088, IDENT-089).
 *
 * Storage: `KeyStore` (list, put, get, delete). `createKeyStore(backend)` keeps the
 * conversion to plain, structured-cloneable records here; the app backs it with IndexedDB,
 * tests with `memoryKeyBackend()`.
 */
import { bytesToHex, ed25519PublicKey, randomPrivateKey, randomSecretKey } from '../crypto'
import { exportLocalKey, importLocalKey } from '../core/keys'
import type { MemberId } from '../core/types'
import { ethKeySigner, installationKeySigner, type InstallationKeySigner, type Signer } from './signers'

export type LocalKeyKind = 'ethereum' | 'installation'

/** What may be shown of a key: everything but the secret. */
export interface RedactedKey {
  readonly id: string
  readonly kind: LocalKeyKind
  readonly identifier: string
  readonly label: string
  readonly createdAt: number
  readonly privateKey: '[redacted]'
}

const SECRETS = new WeakMap<LocalKey, Uint8Array>()
const INSPECT = Symbol.for('nodejs.util.inspect.custom')

/** A local key. Its secret is not a property: see the module comment. */
export class LocalKey {
  readonly id: string
  readonly identifier: MemberId

  private constructor(
    readonly kind: LocalKeyKind,
    secret: Uint8Array,
    readonly label: string,
    readonly createdAt: number,
  ) {
    const copy = new Uint8Array(secret)
    this.identifier =
      kind === 'ethereum'
        ? { kind: 'ethereum', text: importLocalKey(copy).identifier }
        : { kind: 'installation', text: bytesToHex(ed25519PublicKey(copy)) }
    this.id = `${this.identifier.kind}:${this.identifier.text}`
    SECRETS.set(this, copy)
    Object.freeze(this)
  }

  /** @internal Use the functions below. */
  static create(kind: LocalKeyKind, secret: Uint8Array, label: string, createdAt: number): LocalKey {
    if (secret.length !== 32) throw new Error(`a ${kind} key is 32 bytes, got ${secret.length}`)
    return new LocalKey(kind, secret, label, createdAt)
  }

  /** The Signer of this key: erc_191 for Ethereum, installation_key for an installation. */
  signer(): Signer {
    const sk = SECRETS.get(this)!
    return this.kind === 'ethereum' ? ethKeySigner(sk) : installationKeySigner(sk)
  }

  /** The installation signer; throws for an Ethereum key. */
  installationSigner(): InstallationKeySigner {
    if (this.kind !== 'installation') throw new Error(`${this.id} is not an installation key`)
    return installationKeySigner(SECRETS.get(this)!)
  }

  redact(): RedactedKey {
    return {
      id: this.id,
      kind: this.kind,
      identifier: this.identifier.text,
      label: this.label,
      createdAt: this.createdAt,
      privateKey: '[redacted]',
    }
  }

  toJSON(): RedactedKey {
    return this.redact()
  }

  toString(): string {
    return `LocalKey(${this.kind} ${this.identifier.text}${this.label ? ` "${this.label}"` : ''}, private key redacted)`
  }

  [INSPECT](): string {
    return this.toString()
  }

  get [Symbol.toStringTag](): string {
    return 'LocalKey'
  }
}

export interface NewKeyOptions {
  readonly label?: string
  /** Milliseconds since the epoch; default now. */
  readonly createdAt?: number
}

const now = (o: NewKeyOptions): number => o.createdAt ?? Date.now()

/** A new random Ethereum signing key (secp256k1). */
export function generateEthereumKey(options: NewKeyOptions = {}): LocalKey {
  return LocalKey.create('ethereum', randomPrivateKey(), options.label ?? '', now(options))
}

/** A new random installation key (Ed25519 seed). */
export function generateInstallationKey(options: NewKeyOptions = {}): LocalKey {
  return LocalKey.create('installation', randomSecretKey(), options.label ?? '', now(options))
}

/**
 * IDENT-089: imports a local Ethereum private scalar given as exactly 32 big-endian bytes,
 * or as 0x followed by 64 hex digits of either case; the key has the same Ethereum
 * identifier in every form. Throws CryptoError('bad-private-key') naming what is wrong.
 */
export function importEthereumKey(input: string | Uint8Array, options: NewKeyOptions = {}): LocalKey {
  return LocalKey.create('ethereum', importLocalKey(input).privateKey, options.label ?? '', now(options))
}

/** An explicit export of a private key: says what it is, in its own words. */
export interface ExportedKey<F extends 'hex' | 'bytes' = 'hex' | 'bytes'> {
  readonly what: 'ethereum-private-key'
  readonly format: F
  /** IDENT-088: `0x` + 64 lowercase hex digits, or exactly 32 big-endian bytes. */
  readonly value: F extends 'hex' ? string : Uint8Array
  readonly identifier: string
  readonly warning: string
}

/**
 * IDENT-088: the private scalar of a local Ethereum key, as 0x + 64 lowercase hex digits
 * or as exactly 32 big-endian bytes, with a warning saying what it is. Installation keys
 * are not exported: they stay in this browser.
 */
export function exportLocalSigningKey(key: LocalKey, format: 'hex'): ExportedKey<'hex'>
export function exportLocalSigningKey(key: LocalKey, format: 'bytes'): ExportedKey<'bytes'>
export function exportLocalSigningKey(key: LocalKey, format: 'hex' | 'bytes'): ExportedKey {
  if (key.kind !== 'ethereum')
    throw new Error(`${key.id}: installation keys are not exported; they stay in this browser`)
  const local = importLocalKey(SECRETS.get(key)!)
  const warning = `This is the private key of Ethereum account ${key.identifier.text}. Anyone who has it controls that account and can approve changes to every inbox it is a member or recovery identifier of. Keep it secret.`
  return format === 'hex'
    ? {
        what: 'ethereum-private-key',
        format,
        value: exportLocalKey(local, 'hex'),
        identifier: key.identifier.text,
        warning,
      }
    : {
        what: 'ethereum-private-key',
        format,
        value: exportLocalKey(local, 'bytes'),
        identifier: key.identifier.text,
        warning,
      }
}

// ---- storage ----------------------------------------------------------------------------

/** A key as stored: a plain, structured-cloneable object (for IndexedDB). Holds the secret: never log it. */
export interface KeyRecord {
  readonly id: string
  readonly kind: LocalKeyKind
  readonly identifier: string
  readonly label: string
  readonly createdAt: number
  readonly secret: Uint8Array
}

/** Where records live: IndexedDB in the app, a Map in tests. */
export interface KeyRecordBackend {
  getAll(): Promise<readonly KeyRecord[]>
  get(id: string): Promise<KeyRecord | undefined>
  put(record: KeyRecord): Promise<void>
  delete(id: string): Promise<void>
}

export interface KeyStore {
  /** Every key, redacted, oldest first. */
  list(): Promise<RedactedKey[]>
  put(key: LocalKey): Promise<void>
  get(id: string): Promise<LocalKey | undefined>
  delete(id: string): Promise<void>
}

/** @internal for KeyRecordBackend implementations only. */
export function toRecord(key: LocalKey): KeyRecord {
  return {
    id: key.id,
    kind: key.kind,
    identifier: key.identifier.text,
    label: key.label,
    createdAt: key.createdAt,
    secret: new Uint8Array(SECRETS.get(key)!),
  }
}

/** @internal Rebuilds a key from its record and checks the record's identifier against the secret. */
export function fromRecord(r: KeyRecord): LocalKey {
  const key = LocalKey.create(r.kind, r.secret, r.label, r.createdAt)
  if (key.id !== r.id || key.identifier.text !== r.identifier) {
    throw new Error(`key record ${r.id} does not match its secret (which is ${key.id})`)
  }
  return key
}

export function createKeyStore(backend: KeyRecordBackend): KeyStore {
  return {
    async list() {
      const all = await backend.getAll()
      return all
        .map(fromRecord)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
        .map((k) => k.redact())
    },
    put: (key) => backend.put(toRecord(key)),
    async get(id) {
      const r = await backend.get(id)
      return r ? fromRecord(r) : undefined
    },
    delete: (id) => backend.delete(id),
  }
}

/** A key record's copy that shares no bytes with the original. */
export const copyKeyRecord = (r: KeyRecord): KeyRecord => ({ ...r, secret: new Uint8Array(r.secret) })

/** Records of any kind in a Map, copied in and out with `copy` (a session-only store; tests). */
export function memoryRecords<R extends { readonly id: string }>(
  copy: (r: R) => R,
): {
  getAll(): Promise<readonly R[]>
  get(id: string): Promise<R | undefined>
  put(record: R): Promise<void>
  delete(id: string): Promise<void>
} {
  const map = new Map<string, R>()
  return {
    getAll: async () => [...map.values()].map(copy),
    get: async (id) => {
      const r = map.get(id)
      return r ? copy(r) : undefined
    },
    put: async (r) => void map.set(r.id, copy(r)),
    delete: async (id) => void map.delete(id),
  }
}

/** Key records in memory (tests; a session-only store). */
export function memoryKeyBackend(): KeyRecordBackend {
  return memoryRecords(copyKeyRecord)
}

/** A KeyStore in memory. */
export function memoryKeyStore(): KeyStore {
  return createKeyStore(memoryKeyBackend())
}
