/**
 * The contract between the signers feature (features/signers: wallets, passkeys, local
 * keys, installation keys kept in this browser) and the features that sign with them
 * (features/compose: the signing playground, the inbox tasks; features/edit). Features
 * never import each other: the providers layer (src/app/providers.tsx) puts the signers
 * feature's registry in a context typed here (./app-context.ts), and they read it there.
 *
 * Secrets never appear here: an AppSigner carries a Signer (src/signing), whose key
 * material, if any, stays inside it.
 */
import type { MemberId } from '../../core/types'
import type { Signer } from '../../signing/signers'

/** Where a signer comes from. */
export type AppSignerSource =
  | 'wallet' // a browser wallet found by EIP-6963 and connected through wagmi (personal_sign)
  | 'passkey' // a WebAuthn credential created in this browser (@simplewebauthn/browser)
  | 'local-ethereum' // a secp256k1 key generated or imported, kept only in this browser
  | 'installation' // an Ed25519 installation key generated and kept in this browser
  | 'smart-wallet' // a smart contract wallet (ERC-1271/6492) on a configured chain

export interface AppSigner {
  /** Stable in this browser: `${source}:${identifier text}` (a wallet: per account). */
  readonly id: string
  readonly source: AppSignerSource
  /** What the user calls it, e.g. "E2E Wallet 0xf39f…2266" or "passkey ‘laptop’". */
  readonly label: string
  /** The member this signer stands for (spec section 3 identifier). */
  readonly identifier: MemberId
  /** Signs a signature text; for wallets and passkeys this opens the prompt. */
  readonly signer: Signer
  /** True when signing shows a prompt (wallet, passkey); false for local keys. */
  readonly interactive: boolean
}

/** What the signers feature offers the composer besides the list. */
export interface SignerRegistry {
  /** Every signer available now, wallets first, then passkeys, local keys, installation keys. */
  readonly signers: readonly AppSigner[]
  /** False until the keys kept in this browser (IndexedDB) have been read. */
  readonly ready: boolean
  /** A new Ed25519 installation key kept in this browser (the composer's "new installation key"). */
  newInstallationKey(label?: string): Promise<AppSigner>
  /** A new local Ethereum key kept in this browser. */
  newEthereumKey(label?: string): Promise<AppSigner>
  /** A new passkey through the browser's WebAuthn prompt. */
  newPasskey(label?: string): Promise<AppSigner>
  /**
   * Set when keys kept in this browser live in memory only (IndexedDB unavailable, e.g.
   * private browsing): why, and that they are lost on reload. Null or absent otherwise.
   */
  readonly storageNotice?: string | null
}
