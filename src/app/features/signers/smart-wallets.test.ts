import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import type {
  ChainSmartWalletSigner,
  ChainSmartWalletSignerOptions,
  SmartWalletSigning,
} from '../../../chain/smart-wallet-signer'
import type { SignerError } from '../../../signing/errors'
import { signerChainId } from '../../../signing/roles'
import { importEthereumKey } from '../../../signing/local-keys'
import { bytesToHex } from '../../../crypto'
import { testKey } from '../../../signing/testkit'
import type { AppSigner } from '../../model/app-signer'
import { localKeyAppSigner } from './app-signers'
import { DB_NAME, KEYS_STORE, PASSKEYS_STORE } from './idb'
import { type IdbFactoryLike, StorageError } from '../../../storage/idb'
import { sha256, utf8 } from '../../../crypto'
import { demoWalletOwners } from '../../../devnode/demo'
import {
  addDemoSmartWallets,
  checkSmartWalletRecord,
  DEMO_OWNER_LABEL,
  describeSigning,
  parseDemoSmartWallets,
  parseSalt,
  parseSmartWalletForm,
  smartWalletAppSigner,
  smartWalletId,
  smartWalletLabel,
  SMART_WALLETS_STORE,
  type SmartWalletForm,
  type SmartWalletRecord,
} from './smart-wallets'
import { memorySignerStorage, openSignerStorage } from './storage'
import { SignerVault, SignerVaultError, type WebAuthnEnv } from './vault'

const WALLET = `0x${'ab'.repeat(20)}`
const FACTORY = `0x${'fa'.repeat(20)}`
const SALT1 = `0x${'00'.repeat(31)}01`
const ownerKey = importEthereumKey(`0x${bytesToHex(testKey('smart wallet owner'))}`, { label: 'owner', createdAt: 1 })
const owner: AppSigner = localKeyAppSigner(ownerKey)

function record(over: Partial<SmartWalletRecord> = {}): SmartWalletRecord {
  const chainId = over.chainId ?? '31337'
  const address = over.address ?? WALLET
  return {
    id: smartWalletId(chainId, address),
    chainId,
    address,
    owner: owner.id,
    label: 'main',
    deployment: null,
    createdAt: 5,
    ...over,
  }
}

const form = (over: Partial<SmartWalletForm> = {}): SmartWalletForm => ({
  chainId: '31337',
  owner: owner.id,
  mode: 'deployed',
  address: WALLET,
  factory: '',
  salt: '',
  label: '',
  ...over,
})
const ROUTES = new Map([[31337n, 'http://127.0.0.1:8545']])

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
      let err: unknown
      try {
        checkSmartWalletRecord(v)
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(StorageError)
      expect((err as StorageError).code).toBe('bad_record')
      expect((err as Error).message).toMatch(message)
    })
  }
})

describe('parseSalt', () => {
  it('reads a decimal number or 32 bytes of hex as the factory word', () => {
    expect(parseSalt('1')).toBe(SALT1)
    expect(parseSalt(` 0x${'AB'.repeat(32)} `)).toBe(`0x${'ab'.repeat(32)}`)
  })
  it('names what is wrong', () => {
    expect(parseSalt('')).toEqual({ problem: expect.stringMatching(/the salt is empty/) })
    expect(parseSalt('-1')).toEqual({
      problem: expect.stringMatching(/neither a decimal whole number nor 0x \+ 64 hex digits/),
    })
    expect(parseSalt('0x01')).toEqual({ problem: expect.stringMatching(/neither/) })
    expect(parseSalt((1n << 256n).toString())).toEqual({ problem: expect.stringMatching(/does not fit in 32 bytes/) })
  })
})

describe('parseSmartWalletForm', () => {
  const ctx = { routes: ROUTES, owners: [owner], kept: [] as SmartWalletRecord[] }
  it('gives the route, the owner and a lowercase address for a deployed wallet', () => {
    const p = parseSmartWalletForm(form({ address: WALLET.toUpperCase().replace('0X', '0x'), label: ' a ' }), ctx)
    expect(p).toEqual({
      ok: true,
      chainId: '31337',
      route: { chainId: 31337n, url: 'http://127.0.0.1:8545' },
      owner: owner.id,
      label: 'a',
      wallet: { mode: 'deployed', address: WALLET },
    })
  })
  it('gives the factory and the salt word for a counterfactual wallet', () => {
    const p = parseSmartWalletForm(form({ mode: 'counterfactual', factory: FACTORY, salt: '1' }), ctx)
    expect(p.ok && p.wallet).toEqual({ mode: 'counterfactual', factory: FACTORY, salt: SALT1 })
  })
  it('refuses a chain with no route (IDENT-061), naming the chain', () => {
    const p = parseSmartWalletForm(form({ chainId: '8453' }), ctx)
    expect(p).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(
          /^no chain route for eip155:8453: add one under Settings › Chain routes first \(IDENT-061/,
        ),
      ],
    })
  })
  it('refuses an owner that is not available now', () => {
    const p = parseSmartWalletForm(form({ owner: `wallet:${`0x${'12'.repeat(20)}`}` }), ctx)
    expect(p.ok ? [] : p.problems).toEqual([
      `owner ${`0x${'12'.repeat(20)}`} is not available in this browser now (connect its wallet or import its key)`,
    ])
  })
  it('lists every problem at once: chain, owner, factory and salt', () => {
    const p = parseSmartWalletForm(
      form({ chainId: '', owner: '', mode: 'counterfactual', factory: '0x12', salt: 'x' }),
      ctx,
    )
    expect(p.ok ? [] : p.problems.length).toBe(4)
  })
  it('refuses a wallet already kept on that chain', () => {
    const p = parseSmartWalletForm(form(), { ...ctx, kept: [record()] })
    expect(p.ok ? [] : p.problems).toEqual([`smart wallet ${WALLET} on eip155:31337 is already kept here`])
  })
})

const SIGNING: SmartWalletSigning = {
  accountId: `eip155:31337:${WALLET}`,
  blockNumber: 7n,
  blockTimestamp: 1_764_633_600n,
  deployed: false,
  wrapped: true,
  innerSignature: '0x01',
  signature: '0x02',
}

/** A chain signer stand-in that records what it was built with. */
function fakeMake() {
  const built: ChainSmartWalletSignerOptions[] = []
  const make = (o: ChainSmartWalletSignerOptions): ChainSmartWalletSigner => {
    built.push(o)
    let last: SmartWalletSigning | null = null
    return {
      kind: 'erc_6492',
      identifier: { kind: 'ethereum', text: o.address },
      chainId: o.route.chainId,
      address: o.address as `0x${string}`,
      lastSigning: () => last,
      sign: async () => {
        last = SIGNING
        return { kind: 'erc_6492', accountId: SIGNING.accountId, blockNumber: 7n, bytes: new Uint8Array([2]) } as never
      },
    }
  }
  return { built, make }
}

async function signError(s: AppSigner): Promise<SignerError> {
  try {
    await s.signer.sign('text')
  } catch (e) {
    return e as SignerError
  }
  throw new Error('signed')
}

describe('smartWalletAppSigner', () => {
  it('is an erc_6492 smart-wallet AppSigner for the wallet address, labelled with chain and address', () => {
    const s = smartWalletAppSigner(record(), { route: null, owner })
    expect(s).toMatchObject({
      id: `smart-wallet:eip155:31337:${WALLET}`,
      source: 'smart-wallet',
      identifier: { kind: 'ethereum', text: WALLET },
      interactive: false,
    })
    expect(s.signer.kind).toBe('erc_6492')
    expect(signerChainId(s.signer)).toBe(31337n) // the dry run predicts IDENT-046 from it
    expect(s.label).toBe(smartWalletLabel(record()))
    expect(s.label).toBe('smart wallet ‘main’ eip155:31337 0xababab…abab')
  })
  it('with no route, signing fails as unverifiable (IDENT-061) and names the chain', async () => {
    const e = await signError(smartWalletAppSigner(record(), { route: null, owner }))
    expect(e.code).toBe('unverifiable')
    expect(e.message).toMatch(/^IDENT-061: no chain route for eip155:31337/)
  })
  it('with the owner gone, signing fails as no_signer and says how to bring it back', async () => {
    const route = { chainId: 31337n, url: 'http://127.0.0.1:8545' }
    const local = await signError(smartWalletAppSigner(record(), { route, owner: null }))
    expect(local.code).toBe('no_signer')
    expect(local.message).toContain(`the local key ${owner.identifier.text} is no longer kept here`)
    const wallet = await signError(
      smartWalletAppSigner(record({ owner: `wallet:${owner.identifier.text}` }), { route, owner: null }),
    )
    expect(wallet.message).toContain('connect the browser wallet account')
  })
  it('signs through the chain signer with the owner and the deployment, and reports what it made', async () => {
    const { built, make } = fakeMake()
    const seen: [string, SmartWalletSigning][] = []
    const deployment = { factory: FACTORY, factoryData: '0xdeadbeef', salt: SALT1 }
    const s = smartWalletAppSigner(record({ deployment }), {
      route: { chainId: 31337n, url: 'http://x' },
      owner,
      make,
      onSigned: (id, f) => seen.push([id, f]),
    })
    const sig = await s.signer.sign('text')
    expect(sig.kind).toBe('erc_6492')
    expect(built).toHaveLength(1)
    expect(built[0]).toMatchObject({
      address: WALLET,
      owner: owner.signer,
      deployment: { factory: FACTORY, factoryData: '0xdeadbeef' },
    })
    expect(seen).toEqual([[record().id, SIGNING]])
    expect((s.signer as unknown as { lastSigning(): unknown }).lastSigning()).toBe(SIGNING)
    await s.signer.sign('again')
    expect(built).toHaveLength(1) // one chain signer per AppSigner
  })
})

describe('describeSigning', () => {
  it('says the block, its time, and deployed or wrapped', () => {
    expect(describeSigning(SIGNING)).toBe(
      'block 7 at 2025-12-02T00:00:00Z; not deployed yet: ERC-6492 wrapped with its factory deployment',
    )
    expect(describeSigning({ ...SIGNING, deployed: true, wrapped: false })).toMatch(
      /deployed: ERC-1271 signature, not wrapped$/,
    )
  })
})

describe('parseDemoSmartWallets', () => {
  const wallet = {
    name: 'deployed wallet',
    address: WALLET,
    owner: owner.identifier.text,
    ownerKey: `0x${'11'.repeat(32)}`,
    factory: FACTORY,
    salt: SALT1,
    factoryData: '0xdeadbeef',
  }
  it('reads what scripts/start.mjs passes, lowercased', () => {
    expect(
      parseDemoSmartWallets(
        JSON.stringify({
          chainId: '31337',
          wallets: [{ ...wallet, factory: FACTORY.toUpperCase().replace('0X', '0x') }],
        }),
      ),
    ).toEqual({ chainId: '31337', wallets: [wallet] })
    expect(parseDemoSmartWallets(undefined)).toBeNull()
    expect(parseDemoSmartWallets('')).toBeNull()
  })
  it('names the field that is wrong', () => {
    expect(() => parseDemoSmartWallets('{')).toThrow(/is not JSON/)
    expect(() => parseDemoSmartWallets(JSON.stringify({ chainId: 31337, wallets: [wallet] }))).toThrow(
      /chainId is not a decimal chain id/,
    )
    expect(() => parseDemoSmartWallets(JSON.stringify({ chainId: '1', wallets: [] }))).toThrow(
      /wallets is not a non-empty list/,
    )
    expect(() =>
      parseDemoSmartWallets(JSON.stringify({ chainId: '1', wallets: [{ ...wallet, ownerKey: '0x12' }] })),
    ).toThrow('VITE_DEMO_SMART_WALLETS.wallets[0].ownerKey is not 0x + 64 hex digits')
    expect(() =>
      parseDemoSmartWallets(JSON.stringify({ chainId: '1', wallets: [{ ...wallet, owner: 'me' }] })),
    ).toThrow('wallets[0].owner is not 0x + 40 hex digits')
  })
})

const noWebAuthn: WebAuthnEnv = {
  supported: false,
  rpId: 'localhost',
  origin: 'http://localhost',
  startRegistration: () => Promise.reject(new Error('no')),
  startAuthentication: () => Promise.reject(new Error('no')),
}

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

describe('addDemoSmartWallets', () => {
  // scripts/start.mjs derives the demo owner keys as src/devnode/demo.ts does: SHA-256 of "inbox-inspector demo key: <label>".
  const demoKey = (label: string) => `0x${bytesToHex(sha256(utf8(`inbox-inspector demo key: ${label}`)))}`
  const owners = demoWalletOwners()
  const demo = {
    chainId: '31337',
    wallets: [
      {
        name: 'deployed wallet',
        address: `0x${'0d'.repeat(20)}`,
        owner: owners.deployed.identifier.text,
        ownerKey: demoKey('smart wallet owner'),
        factory: FACTORY,
        salt: SALT1,
        factoryData: '0xdeadbeef',
      },
      {
        name: 'counterfactual wallet',
        address: `0x${'0c'.repeat(20)}`,
        owner: owners.counterfactual.identifier.text,
        ownerKey: demoKey('counterfactual wallet owner'),
        factory: FACTORY,
        salt: SALT1,
        factoryData: '0xbeef',
      },
    ],
  }
  it('imports the public demo owner keys under their warning label and keeps both wallets, once', async () => {
    const vault = new SignerVault(Promise.resolve(memorySignerStorage('test')), noWebAuthn)
    await vault.whenReady()
    expect(await addDemoSmartWallets(demo, vault, 9)).toBe(
      `Added demo deployed wallet ${demo.wallets[0]!.address} and demo counterfactual wallet ${demo.wallets[1]!.address}, owned by public demo keys.`,
    )
    const snap = vault.getSnapshot()
    const sorted = <T>(xs: T[]) => xs.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
    expect(sorted(snap.keys.map((k) => [k.identifier, k.label]))).toEqual(
      sorted([
        [owners.deployed.identifier.text, DEMO_OWNER_LABEL],
        [owners.counterfactual.identifier.text, DEMO_OWNER_LABEL],
      ]),
    )
    expect(sorted(snap.smartWallets.map((r) => [r.label, r.owner, r.deployment?.factoryData]))).toEqual(
      sorted([
        ['demo deployed wallet', `local-ethereum:${owners.deployed.identifier.text}`, '0xdeadbeef'],
        ['demo counterfactual wallet', `local-ethereum:${owners.counterfactual.identifier.text}`, '0xbeef'],
      ]),
    )
    expect(await addDemoSmartWallets(demo, vault)).toBe('The demo smart wallets are already kept here.')
    expect(vault.getSnapshot().keys).toHaveLength(2)
  })
  it('refuses an owner key that is not the wallet owner', async () => {
    const vault = new SignerVault(Promise.resolve(memorySignerStorage('test')), noWebAuthn)
    await vault.whenReady()
    const wrong = { ...demo, wallets: [{ ...demo.wallets[0]!, ownerKey: demoKey('someone else') }] }
    await expect(addDemoSmartWallets(wrong, vault)).rejects.toMatchObject({
      code: 'demo',
      message: expect.stringMatching(/is not of the wallet's owner|not of the wallet's owner/),
    })
    expect(vault.getSnapshot().smartWallets).toEqual([])
  })
})
