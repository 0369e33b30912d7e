/**
 * A smart contract wallet as kept in IndexedDB: public data only (chain id, address, the
 * owner's AppSigner id, the ERC-6492 deployment), never a key; checkSmartWalletRecord reads
 * one back, or throws StorageError('bad_record') naming the field.
 */
import { StorageError } from '../../../storage/errors'

/** The object store of the signers' database (./idb.ts) holding these records. */
export const SMART_WALLETS_STORE = 'smart-wallets'

/** The largest chain id a viem client can address (its chain ids are JavaScript numbers). */
const MAX_CHAIN_ID = BigInt(Number.MAX_SAFE_INTEGER)
export const ADDRESS = /^0x[0-9a-f]{40}$/
export const CHAIN_ID = /^(0|[1-9][0-9]*)$/
export const HEX = /^0x(?:[0-9a-f]{2})*$/
export const SALT = /^0x[0-9a-f]{64}$/
/** Owner AppSigner ids: a local Ethereum key or a connected wallet account. */
export const OWNER_ID = /^(local-ethereum|wallet):0x[0-9a-f]{40}$/

/** How a counterfactual wallet is deployed: the validator calls `factory` with `factoryData` (ERC-6492). */
interface SmartWalletDeployment {
  readonly factory: string
  readonly factoryData: string
  /** The CREATE2 salt the address was computed with (display only). */
  readonly salt: string
}

export interface SmartWalletRecord {
  /** `smart-wallet:eip155:<chain id>:<address>`, the AppSigner id. */
  readonly id: string
  /** Decimal eip155 chain id. */
  readonly chainId: string
  /** Lowercase 0x address of the wallet contract. */
  readonly address: string
  /** The owner's AppSigner id: `local-ethereum:<address>` or `wallet:<address>`. */
  readonly owner: string
  readonly label: string
  /** Set for a wallet signed for before (or without) deployment. */
  readonly deployment: SmartWalletDeployment | null
  readonly createdAt: number
}

export const smartWalletId = (chainId: string, address: string): string =>
  `smart-wallet:eip155:${chainId}:${address.toLowerCase()}`

/** The owner's address from its AppSigner id. */
export const ownerAddress = (ownerId: string): string => ownerId.slice(ownerId.indexOf(':') + 1)

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const bad = (id: unknown, what: string) =>
  new StorageError(
    'bad_record',
    `stored ${SMART_WALLETS_STORE} record ${typeof id === 'string' ? JSON.stringify(id) : '(no id)'}: ${what}`,
  )

/** A SmartWalletRecord as written here, or StorageError('bad_record') naming the field. */
export function checkSmartWalletRecord(v: unknown): SmartWalletRecord {
  if (!isObject(v)) throw bad(undefined, 'is not an object')
  const { id, chainId, address, owner, label, deployment, createdAt } = v
  if (typeof id !== 'string') throw bad(id, 'id is not a string')
  if (typeof chainId !== 'string' || !CHAIN_ID.test(chainId) || BigInt(chainId) > MAX_CHAIN_ID)
    throw bad(id, 'chainId is not a decimal chain id up to 2^53 - 1')
  if (typeof address !== 'string' || !ADDRESS.test(address)) throw bad(id, 'address is not a lowercase 0x address')
  if (id !== smartWalletId(chainId, address))
    throw bad(id, `id does not match its chain and address (expected ${smartWalletId(chainId, address)})`)
  if (typeof owner !== 'string' || !OWNER_ID.test(owner))
    throw bad(id, 'owner is not a local-ethereum: or wallet: signer id')
  if (typeof label !== 'string') throw bad(id, 'label is not a string')
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) throw bad(id, 'createdAt is not a number')
  if (deployment !== null) {
    if (!isObject(deployment)) throw bad(id, 'deployment is neither null nor an object')
    const { factory, factoryData, salt } = deployment
    if (typeof factory !== 'string' || !ADDRESS.test(factory))
      throw bad(id, 'deployment.factory is not a lowercase 0x address')
    if (typeof factoryData !== 'string' || !HEX.test(factoryData) || factoryData === '0x')
      throw bad(id, 'deployment.factoryData is not lowercase hex calldata')
    if (typeof salt !== 'string' || !SALT.test(salt)) throw bad(id, 'deployment.salt is not 32 bytes of lowercase hex')
    return { id, chainId, address, owner, label, deployment: { factory, factoryData, salt }, createdAt }
  }
  return { id, chainId, address, owner, label, deployment: null, createdAt }
}
