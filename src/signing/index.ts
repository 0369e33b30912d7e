/**
 * src/signing: building new identity updates. Signers (wallet key, installation key,
 * passkey, smart contract wallet) and drafts: draft, dry-run, sign; collecting signatures
 * from several signers; registering an installation; local keys. Browser adapters
 * (WebAuthn passkey, EIP-1193 wallet) are in ./browser.
 */
export * from './signers'
export * from './draft'
export * from './replay-key'
export * from './address'
export * from './errors'
export * from './clock'
export * from './roles'
export * from './dry-run'
export * from './collect'
export * from './registration'
export * from './local-keys'
