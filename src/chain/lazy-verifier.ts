/**
 * A ChainVerifier (./verifier.ts) that loads it, and viem with it, on its first
 * verification (IDENT-060). The app's providers hold one over the chain routes from the
 * first screen on; most logs have no smart-contract-wallet signature and never ask it, so
 * viem stays out of the first screen's JavaScript.
 */
import { ChainUnreachableError } from '../core/errors'
import type { SmartWalletRequest, SmartWalletVerifier } from '../core/verify/port'
import type { ChainVerifierOptions } from './verifier'

type VerifierModule = typeof import('./verifier')

export class LazyChainVerifier implements SmartWalletVerifier {
  private inner: Promise<SmartWalletVerifier> | null = null

  constructor(
    private readonly routes: ReadonlyMap<bigint, string>,
    private readonly options: ChainVerifierOptions = {},
    /** How the verifier's module is imported (the app's tries a failed chunk by a URL of its own). */
    private readonly importVerifier: () => Promise<VerifierModule> = () => import('./verifier'),
  ) {}

  /** The real verifier, loaded once (a failed load is tried again on the next call). */
  load(): Promise<SmartWalletVerifier> {
    this.inner ??= this.importVerifier().then(
      (m) => new m.ChainVerifier(this.routes, this.options),
      (e: unknown) => {
        this.inner = null
        throw e
      },
    )
    return this.inner
  }

  async verify(req: SmartWalletRequest): Promise<'valid' | 'invalid'> {
    let v: SmartWalletVerifier
    try {
      v = await this.load()
    } catch (e) {
      // Pending (IDENT-061), like any chain that could not be asked: the code that asks it did not load.
      throw new ChainUnreachableError(req.chainId, `the chain verifier's code did not load (${(e as Error).message})`)
    }
    return v.verify(req)
  }
}
