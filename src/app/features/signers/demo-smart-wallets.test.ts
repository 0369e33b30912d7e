import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../crypto'
import { sha256, utf8 } from '../../../crypto'
import { demoWalletOwners } from '../../../devnode/demo'
import { addDemoSmartWallets, DEMO_OWNER_LABEL, parseDemoSmartWallets } from './demo-smart-wallets'
import { memorySignerStorage } from './storage'
import { SignerVault } from './vault'
import { FACTORY, noWebAuthn, owner, SALT1, WALLET } from './smart-wallets.testkit'

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
