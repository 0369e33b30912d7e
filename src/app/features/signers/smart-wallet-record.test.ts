import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { testKey } from '../../../signing/testkit'
import { DB_NAME, KEYS_STORE, PASSKEYS_STORE } from './idb'
import { type IdbFactoryLike, StorageError } from '../../../storage/idb'
import { checkSmartWalletRecord, SMART_WALLETS_STORE, smartWalletId } from './smart-wallet-record'
import { memorySignerStorage, openSignerStorage } from './storage'
import { SignerVault, SignerVaultError } from './vault'
import { thrownBy } from '../../../../test/support/thrown'
import { FACTORY, noWebAuthn, owner, record, SALT1, WALLET, SIGNING } from './smart-wallets.testkit'

describe('checkSmartWalletRecord', () => {
  it('accepts the records this module writes, deployed and counterfactual', () => {
    expect(checkSmartWalletRecord(record())).toEqual(record())
    const cf = record({ deployment: { factory: FACTORY, factoryData: '0xdeadbeef', salt: SALT1 } })
    expect(checkSmartWalletRecord(cf)).toEqual(cf)
  })
  const invalid: [string, unknown, RegExp][] = [
    ['not an object', 'x', /is not an object/],
    [
      'an uppercase address',
      { ...record(), address: WALLET.toUpperCase().replace('0X', '0x') },
      /address is not a lowercase 0x address/,
    ],
    ['a chain id with a leading zero', { ...record(), chainId: '031337' }, /chainId is not a decimal chain id/],
    [
      'a chain id above 2^53 - 1',
      { ...record(), chainId: '9007199254740993' },
      /chainId is not a decimal chain id up to 2\^53 - 1/,
    ],
    [
      'an id that names another chain',
      { ...record(), id: smartWalletId('1', WALLET) },
      /id does not match its chain and address/,
    ],
    [
      'an owner that is a passkey',
      { ...record(), owner: 'passkey:04ab' },
      /owner is not a local-ethereum: or wallet: signer id/,
    ],
    ['a private key field smuggled in as the owner', { ...record(), owner: `0x${'11'.repeat(32)}` }, /owner is not/],
    [
      'a deployment with a short salt',
      { ...record(), deployment: { factory: FACTORY, factoryData: '0x01', salt: '0x01' } },
      /deployment.salt is not 32 bytes/,
    ],
    [
      'a deployment with empty calldata',
      { ...record(), deployment: { factory: FACTORY, factoryData: '0x', salt: SALT1 } },
      /deployment.factoryData is not lowercase hex calldata/,
    ],
    ['no createdAt', { ...record(), createdAt: 'yesterday' }, /createdAt is not a number/],
  ]
  for (const [what, v, message] of invalid) {
    it(`refuses ${what}`, () => {
      const err = thrownBy(() => checkSmartWalletRecord(v), StorageError)
      expect(err.code).toBe('bad_record')
      expect(err.message).toMatch(message)
    })
  }
})

describe('smart wallet records in the storage and the vault', () => {
  it('persist in IndexedDB across a reopen (a reload), public data only', async () => {
    const factory = new IDBFactory() as unknown as IdbFactoryLike
    const first = await openSignerStorage({ factory })
    const r = record({ deployment: { factory: FACTORY, factoryData: '0xdeadbeef', salt: SALT1 } })
    await first.smartWallets.put(r)
    const again = await openSignerStorage({ factory })
    expect(await again.smartWallets.getAll()).toEqual([r])
    expect(Object.keys(r).sort()).toEqual(['address', 'chainId', 'createdAt', 'deployment', 'id', 'label', 'owner'])
  })
  it('a version 1 database (keys and passkeys only) is upgraded and keeps its keys', async () => {
    const factory = new IDBFactory()
    await new Promise<void>((resolve, reject) => {
      const req = factory.open(DB_NAME, 1)
      req.onupgradeneeded = () => {
        req.result.createObjectStore(KEYS_STORE, { keyPath: 'id' })
        req.result.createObjectStore(PASSKEYS_STORE, { keyPath: 'id' })
      }
      req.onsuccess = () => {
        const tx = req.result.transaction(KEYS_STORE, 'readwrite')
        tx.objectStore(KEYS_STORE).put({
          id: 'k1',
          kind: 'ethereum',
          identifier: owner.identifier.text,
          label: '',
          createdAt: 1,
          secret: testKey('smart wallet owner'),
        })
        tx.oncomplete = () => (req.result.close(), resolve())
        tx.onerror = () => reject(tx.error)
      }
      req.onerror = () => reject(req.error)
    })
    const s = await openSignerStorage({ factory: factory as unknown as IdbFactoryLike })
    expect((await s.keys.getAll()).map((k) => k.id)).toEqual(['k1'])
    expect(await s.smartWallets.getAll()).toEqual([])
    await s.smartWallets.put(record())
    expect((await s.smartWallets.getAll()).length).toBe(1)
    expect(SMART_WALLETS_STORE).toBe('smart-wallets')
  })
  it('a damaged record is left out and named, the others kept', async () => {
    const factory = new IDBFactory() as unknown as IdbFactoryLike
    const s = await openSignerStorage({ factory })
    await s.smartWallets.put(record())
    await s.smartWallets.put({ ...record({ chainId: '1' }), owner: 'nobody' })
    const again = await openSignerStorage({ factory })
    expect(await again.smartWallets.getAll()).toEqual([record()])
    expect(again.problems.join('\n')).toMatch(/owner is not a local-ethereum: or wallet: signer id/)
  })
  it('the vault keeps, lists, refuses a second copy of, and removes a record; signings are noted', async () => {
    const vault = new SignerVault(Promise.resolve(memorySignerStorage('test')), noWebAuthn)
    await vault.whenReady()
    await vault.addSmartWallet(record())
    expect(vault.getSnapshot().smartWallets).toEqual([record()])
    await expect(vault.addSmartWallet(record())).rejects.toMatchObject({ code: 'exists' })
    vault.noteSmartWalletSigning(record().id, SIGNING)
    expect(vault.getSnapshot().smartWalletSignings[record().id]).toBe(SIGNING)
    await vault.removeSmartWallet(record().id)
    expect(vault.getSnapshot().smartWallets).toEqual([])
    expect(vault.getSnapshot().smartWalletSignings).toEqual({})
    await expect(vault.removeSmartWallet(record().id)).rejects.toBeInstanceOf(SignerVaultError)
  })
})
