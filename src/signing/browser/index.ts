/**
 * Browser signers: a WebAuthn passkey over @simplewebauthn/browser and an EIP-1193 wallet.
 * Structural types only (no DOM library): the app passes the real functions and providers.
 */
export * from './webauthn-types'
export * from './passkey'
export * from './wallet'
