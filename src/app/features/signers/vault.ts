/**
 * SignerVault: the signers kept in this browser (local Ethereum keys, installation keys,
 * passkeys created here, smart contract wallet records) as one observable store, framework-free (subscribe /
 * getSnapshot for React's useSyncExternalStore). It reads the storage once, then every
 * change writes through to it before the snapshot changes.
 *
 * Private keys stay inside LocalKey objects (src/signing/local-keys.ts): a snapshot holds
 * redacted views and AppSigners; the only way out is `exportEthereumKey` (IDENT-088),
 * which the UI calls after an explicit confirmation.
 */
import type { AppSigner } from '../../model/app-signer'
import {
  exportLocalSigningKey,
  fromRecord,
  generateEthereumKey,
  generateInstallationKey,
  importEthereumKey,
  toRecord,
  type ExportedKey,
  type LocalKey,
} from '../../../signing/local-keys'
import { createPasskey, type WebAuthnFunctions } from '../../../signing/browser/passkey'
import { SignerError, toSignerError } from '../../../signing/errors'
import { localKeyAppId, localKeyAppSigner, passkeyAppSigner } from './app-signers'
import { memorySignerStorage, passkeyId, type PasskeyRecord, type SignerStorage } from './storage'
import type { SmartWalletSigning } from '../../../chain/smart-wallet-signer'
import type { SmartWalletRecord } from './smart-wallet-record'
import { CodedError } from '../../../crypto/errors'

export type SignerVaultErrorCode =
  /** Importing a key that is already kept here. */
  | 'exists'
  /** No signer with that id is kept here. */
  | 'not_found'
  /** IDENT-089: the text or file is not a private key in an accepted form. */
  | 'bad_key'
  /** This browser cannot do it (no WebAuthn). */
  | 'unsupported'

export class SignerVaultError extends CodedError<SignerVaultErrorCode> {
  override readonly name = 'SignerVaultError'
}

/** The browser's WebAuthn, as the vault needs it. */
export interface WebAuthnEnv extends WebAuthnFunctions {
  /** browserSupportsWebAuthn() */
  readonly supported: boolean
  /** location.hostname */
  readonly rpId: string
  /** location.origin */
  readonly origin: string
}

/** A kept local key as the UI shows it: no secret. */
export interface KeptKey {
  readonly appId: string
  readonly kind: 'ethereum' | 'installation'
  readonly identifier: string
  readonly label: string
  readonly createdAt: number
}

export interface VaultSnapshot {
  /** False until the storage has been read. */
  readonly ready: boolean
  /** True when kept in IndexedDB (survives reload). */
  readonly persistent: boolean
  /** Why keys are in memory only, when they are. */
  readonly notice: string | null
  /** Damaged records left out, and a storage failure at load, if any. */
  readonly problems: readonly string[]
  readonly keys: readonly KeptKey[]
  readonly passkeys: readonly PasskeyRecord[]
  /** Smart contract wallets kept here (public data), oldest first; their AppSigners are built by the registry (they need the routes and the owners). */
  readonly smartWallets: readonly SmartWalletRecord[]
  /** What each smart wallet's last signature made (this page only), by record id. */
  readonly smartWalletSignings: Readonly<Record<string, SmartWalletSigning>>
  /** Passkeys, then local Ethereum keys, then installation keys, each oldest first. */
  readonly signers: readonly AppSigner[]
}

const byAge = <T extends { createdAt: number; id?: string; appId?: string }>(a: T, b: T) =>
  a.createdAt - b.createdAt || ((a.id ?? a.appId ?? '') < (b.id ?? b.appId ?? '') ? -1 : 1)

/** IDENT-088 / IDENT-089: what a refused import says, with the rule. */
function importRefusal(e: unknown): SignerVaultError {
  // CryptoError('bad-private-key') says what is wrong: the length found, the bad character, the range.
  const m = e instanceof Error ? e.message : String(e)
  return new SignerVaultError(
    'bad_key',
    `${m}. A private key is imported as exactly 32 bytes, or as 0x followed by 64 hex digits (IDENT-088, IDENT-089).`,
    { cause: e },
  )
}

export class SignerVault {
  private readonly listeners = new Set<() => void>()
  private readonly keys = new Map<string, { key: LocalKey; signer: AppSigner }>()
  private readonly passkeys = new Map<string, { record: PasskeyRecord; signer: AppSigner }>()
  private readonly smartWallets = new Map<string, SmartWalletRecord>()
  private signings: Record<string, SmartWalletSigning> = {}
  private storage: SignerStorage | null = null
  private loadError: string | null = null
  private snapshot: VaultSnapshot
  private readonly loading: Promise<void>

  constructor(
    storage: Promise<SignerStorage>,
    private readonly webauthn: WebAuthnEnv,
  ) {
    this.snapshot = {
      ready: false,
      persistent: false,
      notice: null,
      problems: [],
      keys: [],
      passkeys: [],
      smartWallets: [],
      smartWalletSignings: {},
      signers: [],
    }
    this.loading = this.load(storage)
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): VaultSnapshot => this.snapshot

  /** Resolves once the storage has been read (or failed to be). */
  whenReady(): Promise<void> {
    return this.loading
  }

  private async load(storage: Promise<SignerStorage>): Promise<void> {
    try {
      const s = await storage
      this.storage = s
      const [records, passkeys, wallets] = await Promise.all([
        s.keys.getAll(),
        s.passkeys.getAll(),
        s.smartWallets.getAll(),
      ])
      for (const w of wallets) this.smartWallets.set(w.id, w)
      for (const r of records) {
        try {
          this.addKey(fromRecord(r))
        } catch (e) {
          s.problems.push(`stored key ${r.id} is left out: ${e instanceof Error ? e.message : String(e)}`)
        }
      }
      for (const p of passkeys) {
        try {
          this.addPasskey(p)
        } catch (e) {
          s.problems.push(`stored passkey ${p.id} is left out: ${e instanceof Error ? e.message : String(e)}`)
        }
      }
    } catch (e) {
      // Stay usable: keep new keys in memory, and say that the stored ones could not be read.
      const why = e instanceof Error ? e.message : String(e)
      this.loadError = `the signers kept in this browser could not be read: ${why}`
      this.keys.clear()
      this.passkeys.clear()
      this.smartWallets.clear()
      this.storage = memorySignerStorage(`the keys kept in this browser could not be read (${why})`)
    }
    this.publish(true)
  }

  private async store(): Promise<SignerStorage> {
    await this.loading
    if (!this.storage) throw new SignerVaultError('unsupported', this.loadError ?? 'no storage')
    return this.storage
  }

  private addKey(key: LocalKey): AppSigner {
    const signer = localKeyAppSigner(key)
    this.keys.set(signer.id, { key, signer })
    return signer
  }

  private addPasskey(record: PasskeyRecord): AppSigner {
    const signer = passkeyAppSigner(record, this.webauthn)
    this.passkeys.set(record.id, { record, signer })
    return signer
  }

  private publish(ready = this.snapshot.ready): void {
    const keys = [...this.keys.values()].map((k) => k.key).sort(byAge)
    const passkeys = [...this.passkeys.values()].map((p) => p.record).sort(byAge)
    const signerOf = (k: LocalKey) => this.keys.get(localKeyAppId(k))!.signer
    this.snapshot = {
      ready,
      persistent: this.storage?.persistent ?? false,
      notice: this.storage?.notice ?? null,
      problems: [...(this.storage?.problems ?? []), ...(this.loadError ? [this.loadError] : [])],
      keys: keys.map((k) => ({
        appId: signerOf(k).id,
        kind: k.kind,
        identifier: k.identifier.text,
        label: k.label,
        createdAt: k.createdAt,
      })),
      passkeys,
      smartWallets: [...this.smartWallets.values()].sort(byAge),
      smartWalletSignings: this.signings,
      signers: [
        ...passkeys.map((p) => this.passkeys.get(p.id)!.signer),
        ...keys.filter((k) => k.kind === 'ethereum').map(signerOf),
        ...keys.filter((k) => k.kind === 'installation').map(signerOf),
      ],
    }
    for (const l of this.listeners) l()
  }

  private async keep(key: LocalKey): Promise<AppSigner> {
    const s = await this.store()
    const id = localKeyAppId(key)
    if (this.keys.has(id))
      throw new SignerVaultError(
        'exists',
        `${key.kind === 'ethereum' ? 'Ethereum account' : 'installation key'} ${key.identifier.text} is already kept in this browser`,
      )
    await s.keys.put(toRecord(key))
    const signer = this.addKey(key)
    this.publish()
    return signer
  }

  newEthereumKey(label = ''): Promise<AppSigner> {
    return this.keep(generateEthereumKey({ label: label.trim() }))
  }

  newInstallationKey(label = ''): Promise<AppSigner> {
    return this.keep(generateInstallationKey({ label: label.trim() }))
  }

  /** IDENT-089: a private key as exactly 32 bytes or `0x` + 64 hex digits (either case). */
  importEthereumKey(input: string | Uint8Array, label = ''): Promise<AppSigner> {
    let key: LocalKey
    try {
      key = importEthereumKey(input, { label: label.trim() })
    } catch (e) {
      return Promise.reject(importRefusal(e))
    }
    return this.keep(key)
  }

  /** IDENT-088: the private key of a kept Ethereum key. Call only after the user confirmed. */
  exportEthereumKey(appId: string, format: 'hex'): ExportedKey<'hex'>
  exportEthereumKey(appId: string, format: 'bytes'): ExportedKey<'bytes'>
  exportEthereumKey(appId: string, format: 'hex' | 'bytes'): ExportedKey {
    const k = this.keys.get(appId)
    if (k?.key.kind !== 'ethereum')
      throw new SignerVaultError('not_found', `no local Ethereum key ${appId} is kept here`)
    return format === 'hex' ? exportLocalSigningKey(k.key, 'hex') : exportLocalSigningKey(k.key, 'bytes')
  }

  /** Deletes a local key (Ethereum or installation) from this browser. */
  async deleteKey(appId: string): Promise<void> {
    const s = await this.store()
    const k = this.keys.get(appId)
    if (!k) throw new SignerVaultError('not_found', `no local key ${appId} is kept here`)
    await s.keys.delete(k.key.id)
    this.keys.delete(appId)
    this.publish()
  }

  /** Creates a passkey through the browser's WebAuthn prompt and keeps its public record. */
  async newPasskey(label = ''): Promise<AppSigner> {
    const s = await this.store()
    const w = this.webauthn
    if (!w.supported)
      throw new SignerVaultError('unsupported', 'this browser does not support WebAuthn, so it cannot create a passkey')
    const name = label.trim()
    let created
    try {
      created = await createPasskey(w, {
        rpId: w.rpId,
        origin: w.origin,
        userName: name ? `Inbox Inspector: ${name}` : 'Inbox Inspector passkey',
      })
    } catch (e) {
      throw e instanceof SignerError ? e : toSignerError(e)
    }
    const stored = created.stored()
    const record: PasskeyRecord = { id: passkeyId(stored.publicKey), label: name, createdAt: Date.now(), ...stored }
    await s.passkeys.put(record)
    const signer = this.addPasskey(record)
    this.publish()
    return signer
  }

  /** Forgets a passkey here; the credential stays on the authenticator. */
  async forgetPasskey(id: string): Promise<void> {
    const s = await this.store()
    if (!this.passkeys.has(id)) throw new SignerVaultError('not_found', `no passkey ${id} is kept here`)
    await s.passkeys.delete(id)
    this.passkeys.delete(id)
    this.publish()
  }

  /** Keeps a smart contract wallet record (public data only). */
  async addSmartWallet(record: SmartWalletRecord): Promise<SmartWalletRecord> {
    const s = await this.store()
    if (this.smartWallets.has(record.id))
      throw new SignerVaultError(
        'exists',
        `smart wallet ${record.address} on eip155:${record.chainId} is already kept here`,
      )
    await s.smartWallets.put(record)
    this.smartWallets.set(record.id, record)
    this.publish()
    return record
  }

  /** Forgets a smart contract wallet record (the wallet and its owner key are untouched). */
  async removeSmartWallet(id: string): Promise<void> {
    const s = await this.store()
    if (!this.smartWallets.has(id)) throw new SignerVaultError('not_found', `no smart wallet ${id} is kept here`)
    await s.smartWallets.delete(id)
    this.smartWallets.delete(id)
    const rest = { ...this.signings }
    delete rest[id]
    this.signings = rest
    this.publish()
  }

  /** Records what a smart wallet's signature was made of (shown in the panel). */
  noteSmartWalletSigning = (id: string, signing: SmartWalletSigning): void => {
    this.signings = { ...this.signings, [id]: signing }
    this.publish()
  }
}
