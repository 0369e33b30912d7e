/**
 * The command line's smart contract wallet verifier (spec section 7), loaded on first use:
 * src/chain's ChainVerifier pulls in viem (about 0.7 MB of the bundle), which a replay
 * without `--chain`, or whose logs hold no erc_6492 signature, never needs. In the bundle
 * (scripts/build-cli.mjs, code splitting) it is a separate chunk read only here.
 */
import type { SmartWalletVerifier } from '../core/verify/port'

/** A verifier for `routes` (chain id → RPC URL) that imports src/chain/verifier on its first request. */
export function lazyChainVerifier(routes: ReadonlyMap<bigint, string>): SmartWalletVerifier {
  let loaded: Promise<SmartWalletVerifier> | undefined
  return {
    verify: async (request) => {
      loaded ??= import('../chain/verifier').then(({ ChainVerifier }) => new ChainVerifier(routes))
      return (await loaded).verify(request)
    },
  }
}
