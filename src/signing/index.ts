/**
 * src/signing: building new identity updates. Signers (wallet key, installation key,
 * passkey, smart contract wallet) and drafts: draft, dry-run, sign.
 */
export * from './signers'
export * from './draft'
export * from './replay-key'
export * from './address'
