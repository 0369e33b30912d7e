/** Shared fixtures of the smart wallet tests: a wallet, a factory, a salt, an owner key and a record. */
import type { SmartWalletSigning } from '../../../chain/smart-wallet-signer'
import { bytesToHex } from '../../../crypto'
import { importEthereumKey } from '../../../signing/local-keys'
import { testKey } from '../../../signing/testkit'
import type { AppSigner } from '../../model/app-signer'
import { localKeyAppSigner } from './app-signers'
import { type SmartWalletRecord, smartWalletId } from './smart-wallet-record'
import type { WebAuthnEnv } from './vault'

export const WALLET = `0x${'ab'.repeat(20)}`
export const FACTORY = `0x${'fa'.repeat(20)}`
export const SALT1 = `0x${'00'.repeat(31)}01`
const ownerKey = importEthereumKey(`0x${bytesToHex(testKey('smart wallet owner'))}`, { label: 'owner', createdAt: 1 })
export const owner: AppSigner = localKeyAppSigner(ownerKey)

export function record(over: Partial<SmartWalletRecord> = {}): SmartWalletRecord {
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

/** A browser without WebAuthn, for a vault that keeps only keys and wallets. */
export const noWebAuthn: WebAuthnEnv = {
  supported: false,
  rpId: 'localhost',
  origin: 'http://localhost',
  startRegistration: () => Promise.reject(new Error('no')),
  startAuthentication: () => Promise.reject(new Error('no')),
}

/** What a chain signer reports it made: a counterfactual signature at block 7. */
export const SIGNING: SmartWalletSigning = {
  accountId: `eip155:31337:${WALLET}`,
  blockNumber: 7n,
  blockTimestamp: 1_764_633_600n,
  deployed: false,
  wrapped: true,
  innerSignature: '0x01',
  signature: '0x02',
}
