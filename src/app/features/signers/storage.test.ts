import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { bytesToHex, p256PublicKey } from '../../../crypto'
import {
  createKeyStore,
  generateEthereumKey,
  generateInstallationKey,
  importEthereumKey,
  toRecord,
} from '../../../signing/local-keys'
import { testKey } from '../../../signing/testkit'
import { DB_NAME, DB_VERSION, KEYS_STORE, openSignerDb, PASSKEYS_STORE } from './idb'
import { type Db, type IdbFactoryLike, StorageError } from '../../../storage/idb'
import { checkKeyRecord, checkPasskeyRecord, openSignerStorage, passkeyId, type PasskeyRecord } from './storage'

const fresh = (): IdbFactoryLike => new IDBFactory() as unknown as IdbFactoryLike

function passkeyRecord(label: string): PasskeyRecord {
  const publicKey = bytesToHex(p256PublicKey(testKey(`pk ${label}`)))
  return {
    id: passkeyId(publicKey),
    label,
    createdAt: 1_700_000_000_000,
    credentialId: 'Y3JlZC0x',
    publicKey,
    rpId: 'localhost',
    origin: 'http://localhost:5173',
  }
}

/** Writes a value straight into an object store, bypassing every check. */
async function rawPut(db: Db, store: string, value: unknown): Promise<void> {
  await db.put(store, value)
}

describe('openSignerStorage over IndexedDB (fake-indexeddb)', () => {
  it('keeps Ethereum and installation keys across a reopen (a reload), secrets intact and never in the record listing', async () => {
    const factory = fresh()
    const first = await openSignerStorage({ factory })
    expect(first).toMatchObject({ persistent: true, notice: null, problems: [] })
    const eth = importEthereumKey(`0x${bytesToHex(testKey('eth'))}`, { label: 'main', createdAt: 1 })
    const inst = generateInstallationKey({ label: 'laptop', createdAt: 2 })
    const ks = createKeyStore(first.keys)
    await ks.put(eth)
    await ks.put(inst)

    const again = await openSignerStorage({ factory }) // a second connection, as after a reload
    const ks2 = createKeyStore(again.keys)
    const list = await ks2.list()
    expect(list.map((k) => [k.id, k.label, k.privateKey])).toEqual([
      [eth.id, 'main', '[redacted]'],
      [inst.id, 'laptop', '[redacted]'],
    ])
    const back = await ks2.get(eth.id)
    expect(back?.identifier).toEqual(eth.identifier)
    expect(toRecord(back!).secret).toEqual(testKey('eth'))
    expect(JSON.stringify(list)).not.toContain(bytesToHex(testKey('eth')))
    expect((await ks2.get(inst.id))?.installationSigner().publicKey).toEqual(inst.installationSigner().publicKey)
  })

  it('deletes a key and a passkey record', async () => {
    const s = await openSignerStorage({ factory: fresh() })
    const k = generateEthereumKey()
    await s.keys.put(toRecord(k))
    await s.keys.delete(k.id)
    expect(await s.keys.getAll()).toEqual([])
    const p = passkeyRecord('a')
    await s.passkeys.put(p)
    expect(await s.passkeys.get(p.id)).toEqual(p)
    await s.passkeys.delete(p.id)
    expect(await s.passkeys.get(p.id)).toBeUndefined()
  })

  it('leaves out a damaged record, names it in problems without its secret, and keeps the others', async () => {
    const factory = fresh()
    const db = await openSignerDb(factory)
    const good = generateEthereumKey({ createdAt: 5 })
    await rawPut(db, KEYS_STORE, toRecord(good))
    const secretHex = bytesToHex(testKey('damaged'))
    await rawPut(db, KEYS_STORE, {
      id: 'ethereum:0xdamaged',
      kind: 'ethereum',
      identifier: '0xdamaged',
      label: '',
      createdAt: 1,
      secret: secretHex,
    })
    await rawPut(db, PASSKEYS_STORE, { ...passkeyRecord('b'), id: 'passkey:04ff' })
    db.close()
    const s = await openSignerStorage({ factory })
    expect((await s.keys.getAll()).map((r) => r.id)).toEqual([good.id])
    expect(await s.passkeys.getAll()).toEqual([])
    expect(s.problems).toEqual([
      'stored keys record "ethereum:0xdamaged": the secret is not bytes',
      expect.stringMatching(/^stored passkeys record "passkey:04ff": id does not match its public key/),
    ])
    expect(s.problems.join('\n')).not.toContain(secretHex)
  })
})

describe('idbRecordStore failures', () => {
  it('turns a failing transaction (a database without the store) into StorageError failed', async () => {
    const factory = fresh()
    // Someone else's database of the same name and the current version, with no object stores.
    await new Promise<void>((resolve) => {
      const req = (
        factory as unknown as { open(n: string, v: number): { onsuccess: () => void; result: { close(): void } } }
      ).open(DB_NAME, DB_VERSION)
      req.onsuccess = () => (req.result.close(), resolve())
    })
    const s = await openSignerStorage({ factory })
    expect(s.persistent).toBe(true)
    await expect(s.keys.getAll()).rejects.toMatchObject({
      name: 'StorageError',
      code: 'failed',
      message: expect.stringMatching(/^IndexedDB reading keys failed: NotFoundError/),
    })
    await expect(s.passkeys.put(passkeyRecord('d'))).rejects.toMatchObject({ code: 'failed' })
  })
})

describe('openSignerStorage without IndexedDB', () => {
  it('falls back to memory with a notice when there is no IndexedDB (private browsing)', async () => {
    const s = await openSignerStorage({
      factory: new StorageError('unavailable', 'this browser offers no IndexedDB here'),
    })
    expect(s.persistent).toBe(false)
    expect(s.notice).toBe(
      'Keys are kept in memory only, because IndexedDB is not available (this browser offers no IndexedDB here). They will be lost when this page is reloaded or closed.',
    )
    const k = generateEthereumKey()
    await s.keys.put(toRecord(k))
    expect((await s.keys.get(k.id))?.secret).toEqual(toRecord(k).secret)
  })

  it('falls back when open throws (InvalidStateError in an old private window)', async () => {
    const factory: IdbFactoryLike = {
      open() {
        throw Object.assign(
          new Error('A mutation operation was attempted on a database that did not allow mutations.'),
          { name: 'InvalidStateError' },
        )
      },
    }
    const s = await openSignerStorage({ factory })
    expect(s.persistent).toBe(false)
    expect(s.notice).toContain('IndexedDB refused to open inbox-inspector-signers: InvalidStateError')
  })

  it('falls back when the open request fails', async () => {
    const factory: IdbFactoryLike = {
      open() {
        const req = {
          result: undefined,
          error: { name: 'UnknownError', message: 'Internal error opening backing store' },
          onsuccess: null,
          onerror: null,
          onupgradeneeded: null,
          onblocked: null,
        } as unknown as ReturnType<IdbFactoryLike['open']>
        setTimeout(() => (req.onerror as (() => void) | null)?.(), 0)
        return req
      },
    }
    const s = await openSignerStorage({ factory })
    expect(s.notice).toContain(
      'could not open inbox-inspector-signers: UnknownError: Internal error opening backing store',
    )
  })

  it('gives up on a database that never opens (blocked by another tab) after the timeout', async () => {
    const never: IdbFactoryLike = {
      open: () =>
        ({
          result: undefined,
          error: null,
          onsuccess: null,
          onerror: null,
          onupgradeneeded: null,
          onblocked: null,
        }) as unknown as ReturnType<IdbFactoryLike['open']>,
    }
    await expect(openSignerDb(never, { timeoutMs: 20 })).rejects.toMatchObject({
      name: 'StorageError',
      code: 'blocked',
    })
    const s = await openSignerStorage({ factory: never, timeoutMs: 20 })
    expect(s.notice).toContain(`${DB_NAME} did not open within 20 ms`)
  })
})

describe('checkKeyRecord', () => {
  const good = toRecord(generateEthereumKey())
  it('accepts what createKeyStore writes', () => {
    expect(checkKeyRecord(good)).toEqual(good)
  })
  it('names the wrong field', () => {
    expect(() => checkKeyRecord(null)).toThrow('stored keys record (no id): is not an object')
    expect(() => checkKeyRecord({ ...good, kind: 'p256' })).toThrow(
      'kind "p256" is neither "ethereum" nor "installation"',
    )
    expect(() => checkKeyRecord({ ...good, secret: new Uint8Array(31) })).toThrow('the secret is 31 bytes, not 32')
    expect(() => checkKeyRecord({ ...good, createdAt: 'yesterday' })).toThrow('createdAt is not a number')
    expect(() => checkKeyRecord({ ...good, label: 3 })).toThrow(StorageError)
  })
})

describe('checkPasskeyRecord', () => {
  it('accepts a record whose id is its public key, refuses others', () => {
    const p = passkeyRecord('c')
    expect(checkPasskeyRecord(p)).toEqual(p)
    expect(() => checkPasskeyRecord({ ...p, publicKey: p.publicKey.slice(2) })).toThrow(
      'publicKey is not a 65-byte SEC1 point',
    )
    expect(() => checkPasskeyRecord({ ...p, credentialId: 'a b' })).toThrow('credentialId is not base64url')
    expect(() => checkPasskeyRecord({ ...p, rpId: '' })).toThrow('rpId is not a host name')
  })
})
