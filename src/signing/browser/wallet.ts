/**
 * An EIP-1193 wallet Signer: `personal_sign` with params `[hex of the UTF-8 text, address]`
 * (EIP-1193, EIP-191 version 0x45), a 65-byte r || s || v answer → an erc_191 WireSignature.
 * The identifier is the address lowercased (IDENT-013); the wallet is asked with the
 * address as it gave it. wagmi (EIP-6963 discovery, connect) belongs to the UI; this
 * adapter takes the provider's `request` function, or a connector's.
 *
 * A wallet may sign with another account than the one asked (the user switched accounts):
 * collectSignatures verifies every signature and names the account that signed.
 */
import { bytesToHex, hexToBytes, utf8 } from '../../crypto'
import { SignerError, toSignerError } from '../errors'
import type { Signer } from '../signers'

/** EIP-1193 `request`, structurally. */
export type Eip1193Request = (args: {
  readonly method: string
  readonly params?: readonly unknown[] | object
}) => Promise<unknown>

export interface Eip1193ProviderLike {
  request: Eip1193Request
}

export interface WalletSigner extends Signer {
  readonly kind: 'erc_191'
  /** The address as the wallet gave it (maybe EIP-55 checksummed). */
  readonly address: string
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** `0x` + the lowercase hex of the UTF-8 bytes of `text` (viem's stringToHex). */
export function utf8Hex(text: string): string {
  return `0x${bytesToHex(utf8(text))}`
}

/** A Signer for one account of an EIP-1193 wallet. */
export function walletSigner(provider: Eip1193ProviderLike | Eip1193Request, address: string): WalletSigner {
  if (!ADDRESS.test(address)) throw new Error(`wallet address ${JSON.stringify(address)} is not 0x + 40 hex characters`)
  const request = typeof provider === 'function' ? provider : provider.request.bind(provider)
  return {
    kind: 'erc_191',
    identifier: { kind: 'ethereum', text: address.toLowerCase() },
    address,
    async sign(text) {
      let result: unknown
      try {
        result = await request({ method: 'personal_sign', params: [utf8Hex(text), address] })
      } catch (e) {
        throw toSignerError(e)
      }
      if (typeof result !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(result)) {
        throw new SignerError(
          'bad_response',
          `personal_sign answered ${typeof result === 'string' ? `${result.length} characters` : typeof result}, not 0x + 65 bytes of hex`,
        )
      }
      return { kind: 'erc_191', bytes: hexToBytes(result) }
    },
  }
}

/**
 * Asks the wallet for its accounts (`eth_requestAccounts`, which prompts when the site is
 * not yet authorized) and returns a Signer for each.
 */
export async function requestWalletSigners(provider: Eip1193ProviderLike | Eip1193Request): Promise<WalletSigner[]> {
  const request = typeof provider === 'function' ? provider : provider.request.bind(provider)
  let accounts: unknown
  try {
    accounts = await request({ method: 'eth_requestAccounts' })
  } catch (e) {
    throw toSignerError(e)
  }
  if (!Array.isArray(accounts) || !accounts.every((a) => typeof a === 'string' && ADDRESS.test(a))) {
    throw new SignerError('bad_response', 'eth_requestAccounts did not answer a list of addresses')
  }
  return (accounts as string[]).map((a) => walletSigner(request, a))
}
