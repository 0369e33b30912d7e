/**
 * Test helpers for the signing modules (used by tests only): deterministic keys, real
 * states built by signing, decoding, verifying and applying updates with the core, and a
 * smart contract wallet double.
 */
import { bytesToHex, concatBytes, equalBytes, sha256, utf8 } from '../crypto'
import { applyUpdate } from '../core/apply/update'
import { decodeUpdate } from '../core/decode/update'
import type { AssociationState } from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import { verifyUpdate } from '../core/verify/update'
import { signUpdate, type DraftInput, type SignedUpdate } from './draft'
import { chainBoundSmartWalletSigner, type ChainBoundSigner } from './roles'
import { ethKeySigner, installationKeySigner } from './signers'

export const testKey = (label: string): Uint8Array => sha256(utf8(`signing testkit key ${label}`))
export const T0 = 1712750400000000000n

/** The signing tests' wallets and installations, from the keys `w1`…`w3` and `i1`…`i3`. */
export const W1 = ethKeySigner(testKey('w1'))
export const W2 = ethKeySigner(testKey('w2'))
export const W3 = ethKeySigner(testKey('w3'))
export const I1 = installationKeySigner(testKey('i1'))
export const I2 = installationKeySigner(testKey('i2'))
export const I3 = installationKeySigner(testKey('i3'))

/** Applies signed bytes with the core (decode → verify → apply) at `sequenceId`. */
export async function applySigned(
  state: AssociationState | null,
  signed: SignedUpdate,
  sequenceId: bigint,
  smartWallets?: SmartWalletVerifier,
): Promise<AssociationState> {
  const v = await verifyUpdate(decodeUpdate(signed.bytes), smartWallets ? { smartWallets } : {})
  return applyUpdate(state, v, sequenceId).state
}

/** Signs each input in turn and applies it: the state after the last, as a client would derive it. */
export async function buildState(
  inputs: readonly ((state: AssociationState | null) => DraftInput)[],
  smartWallets?: SmartWalletVerifier,
): Promise<AssociationState> {
  let state: AssociationState | null = null
  let seq = 1n
  for (const make of inputs) {
    state = await applySigned(state, await signUpdate(make(state)), seq++, smartWallets)
  }
  if (!state) throw new Error('buildState: no input')
  return state
}

const walletSig = (hash: Uint8Array, account: string): Uint8Array =>
  sha256(concatBytes(hash, utf8(account.toLowerCase())))

/** A smart wallet verifier double: valid exactly when signature = sha256(hash || account). */
export const fakeSmartWallets: SmartWalletVerifier = {
  async verify(r) {
    return equalBytes(r.signature, walletSig(r.hash, r.account)) ? 'valid' : 'invalid'
  },
}

/** A smart contract wallet on `chainId` whose signatures fakeSmartWallets accepts. */
export function testSmartWallet(label: string, chainId: bigint): ChainBoundSigner {
  const address = `0x${bytesToHex(sha256(utf8(`smart wallet ${label}`))).slice(0, 40)}`
  return chainBoundSmartWalletSigner({
    chainId,
    address,
    blockNumber: 100n,
    signature: (hash) => walletSig(hash, address),
  })
}
