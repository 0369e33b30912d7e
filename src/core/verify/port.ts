/**
 * The smart contract wallet port (spec section 7). The core never imports a chain
 * client: src/chain implements this with viem; unit tests use a test double.
 *
 * `verify` answers 'valid' or 'invalid' for an ERC-6492 universal signature
 * validation of `signature` by `account` over `hash` at `blockNumber` (IDENT-060),
 * and throws ChainUnreachableError when it cannot obtain a result: no route for the
 * chain, a transport failure, a timeout, a node error (IDENT-061).
 */
import type { EthAddress } from '../types'

export interface SmartWalletRequest {
  readonly chainId: bigint
  readonly account: EthAddress
  readonly blockNumber: bigint
  /** The personal-message hash (EIP-191) of the signature text. */
  readonly hash: Uint8Array
  readonly signature: Uint8Array
}

export interface SmartWalletVerifier {
  verify(request: SmartWalletRequest): Promise<'valid' | 'invalid'>
}
