/**
 * src/crypto: the project's only door to @noble/curves and @noble/hashes.
 * Everything else imports from here (or from the individual modules).
 */
export * from './errors'
export * from './bytes'
export * from './hash'
export * from './keccak'
export * from './eip191'
export * from './ed25519ph'
export * from './p256'
export * from './secp256k1-key'
export * from './backend'
export * from './noble-backend'
