/** The demo smart wallets of `npm start`: read from VITE_DEMO_SMART_WALLETS and kept with their owners' public demo keys. */
import type { AppSigner } from '../../model/app-signer'
import { ADDRESS, CHAIN_ID, HEX, isObject, SALT, type SmartWalletRecord, smartWalletId } from './smart-wallet-record'
import { SmartWalletSetupError } from './smart-wallets'

interface DemoSmartWallet {
  readonly name: string
  readonly address: string
  /** The owner's address (part of the CREATE2 address). */
  readonly owner: string
  /** The owner's private key: a PUBLIC demo key (SHA-256 of a published label); never fund it. */
  readonly ownerKey: string
  readonly factory: string
  readonly salt: string
  readonly factoryData: string
}

export interface DemoSmartWallets {
  readonly chainId: string
  readonly wallets: readonly DemoSmartWallet[]
}

/**
 * VITE_DEMO_SMART_WALLETS (scripts/start.mjs): `{ chainId, wallets: [{ name, address,
 * owner, ownerKey, factory, salt, factoryData }] }`. Returns null when absent; throws an
 * Error naming the field when malformed.
 */
export function parseDemoSmartWallets(text: string | undefined): DemoSmartWallets | null {
  if (!text) return null
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    throw new Error(`VITE_DEMO_SMART_WALLETS is not JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (!isObject(v)) throw new Error('VITE_DEMO_SMART_WALLETS is not an object')
  const { chainId, wallets } = v
  if (typeof chainId !== 'string' || !CHAIN_ID.test(chainId))
    throw new Error('VITE_DEMO_SMART_WALLETS.chainId is not a decimal chain id')
  if (!Array.isArray(wallets) || wallets.length === 0)
    throw new Error('VITE_DEMO_SMART_WALLETS.wallets is not a non-empty list')
  const lower = (x: unknown) => (typeof x === 'string' ? x.toLowerCase() : x)
  const out = wallets.map((w: unknown, i): DemoSmartWallet => {
    const at = `VITE_DEMO_SMART_WALLETS.wallets[${i}]`
    if (!isObject(w)) throw new Error(`${at} is not an object`)
    const [name, address, owner, ownerKey, factory, salt, factoryData] = [
      w.name,
      lower(w.address),
      lower(w.owner),
      lower(w.ownerKey),
      lower(w.factory),
      lower(w.salt),
      lower(w.factoryData),
    ]
    if (typeof name !== 'string' || name === '') throw new Error(`${at}.name is not a name`)
    for (const [k, x] of [
      ['address', address],
      ['owner', owner],
      ['factory', factory],
    ] as const)
      if (typeof x !== 'string' || !ADDRESS.test(x)) throw new Error(`${at}.${k} is not 0x + 40 hex digits`)
    if (typeof ownerKey !== 'string' || !SALT.test(ownerKey))
      throw new Error(`${at}.ownerKey is not 0x + 64 hex digits`)
    if (typeof salt !== 'string' || !SALT.test(salt)) throw new Error(`${at}.salt is not 0x + 64 hex digits`)
    if (typeof factoryData !== 'string' || !HEX.test(factoryData) || factoryData === '0x')
      throw new Error(`${at}.factoryData is not hex calldata`)
    return {
      name,
      address: address as string,
      owner: owner as string,
      ownerKey,
      factory: factory as string,
      salt,
      factoryData,
    }
  })
  return { chainId, wallets: out }
}

/** The label the demo owner keys are imported under. */
export const DEMO_OWNER_LABEL = 'demo owner (public key, never fund it)'

/**
 * Imports each demo owner key as a local Ethereum key labelled DEMO_OWNER_LABEL (or uses
 * the one already kept), checks it is the wallet's owner, and keeps each demo wallet not
 * kept yet, with its ERC-6492 deployment. Resolves a sentence saying what was added.
 */
/** The part of the signer vault (./vault.ts) the demo import uses. */
export interface DemoWalletVault {
  importEthereumKey(input: string, label: string): Promise<AppSigner>
  getSnapshot(): { readonly signers: readonly AppSigner[]; readonly smartWallets: readonly SmartWalletRecord[] }
  addSmartWallet(record: SmartWalletRecord): Promise<SmartWalletRecord>
}

export async function addDemoSmartWallets(
  demo: DemoSmartWallets,
  vault: DemoWalletVault,
  now = Date.now(),
): Promise<string> {
  const added: string[] = []
  for (const w of demo.wallets) {
    let owner: AppSigner
    try {
      owner = await vault.importEthereumKey(w.ownerKey, DEMO_OWNER_LABEL)
    } catch (e) {
      const kept = vault
        .getSnapshot()
        .signers.find((x) => x.source === 'local-ethereum' && x.identifier.text === w.owner)
      if (!kept) throw e
      owner = kept
    }
    if (owner.identifier.text !== w.owner) {
      throw new SmartWalletSetupError(
        'demo',
        `the demo owner key of the ${w.name} is the key of ${owner.identifier.text}, not of the wallet's owner ${w.owner}: VITE_DEMO_SMART_WALLETS is inconsistent`,
      )
    }
    const id = smartWalletId(demo.chainId, w.address)
    if (vault.getSnapshot().smartWallets.some((r) => r.id === id)) continue
    await vault.addSmartWallet({
      id,
      chainId: demo.chainId,
      address: w.address,
      owner: owner.id,
      label: `demo ${w.name}`,
      deployment: { factory: w.factory, factoryData: w.factoryData, salt: w.salt },
      createdAt: now,
    })
    added.push(`demo ${w.name} ${w.address}`)
  }
  return added.length
    ? `Added ${added.join(' and ')}, owned by public demo keys.`
    : 'The demo smart wallets are already kept here.'
}
