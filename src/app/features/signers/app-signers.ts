/**
 * AppSigners (src/app/model/app-signer.ts) from each source: a connected wallet account,
 * a passkey created here, a local Ethereum key, an installation key. Pure builders, no
 * React: the registry hook composes them, tests call them with fakes.
 *
 * Ids are `${source}:${identifier text}`; a wallet account is listed once even when two
 * wallets expose it (the first connection wins).
 */
import type { AppSigner, AppSignerSource } from '../../model/app-signer'
import { shortId } from '../../ui/format'
import type { LocalKey } from '../../../signing/local-keys'
import { passkeySignerFromStored, type WebAuthnFunctions } from '../../../signing/browser/passkey'
import { walletSigner, type Eip1193Request } from '../../../signing/browser/wallet'
import { SignerError } from '../../../signing/errors'
import type { PasskeyRecord } from './storage'

const SOURCE_ORDER: readonly AppSignerSource[] = ['wallet', 'passkey', 'local-ethereum', 'installation', 'smart-wallet']

export const SOURCE_LABEL: Record<AppSignerSource, string> = {
  wallet: 'browser wallet',
  passkey: 'passkey',
  'local-ethereum': 'local Ethereum key',
  installation: 'installation key',
  'smart-wallet': 'smart contract wallet',
}

const named = (label: string) => (label ? ` ‘${label}’` : '')

/** `local-ethereum:<address>` or `installation:<public key hex>`. */
export function localKeyAppId(key: Pick<LocalKey, 'kind' | 'identifier'>): string {
  return `${key.kind === 'ethereum' ? 'local-ethereum' : 'installation'}:${key.identifier.text}`
}

/** The AppSigner of a local key (Ethereum: erc_191; installation: installation_key). */
export function localKeyAppSigner(key: LocalKey): AppSigner {
  const source: AppSignerSource = key.kind === 'ethereum' ? 'local-ethereum' : 'installation'
  const text = key.identifier.text
  return Object.freeze({
    id: localKeyAppId(key),
    source,
    label:
      key.kind === 'ethereum'
        ? `local key${named(key.label)} ${shortId(text)}`
        : `installation key${named(key.label)} ${shortId(text)}`,
    identifier: key.identifier,
    signer: key.signer(),
    interactive: false,
  })
}

/** The AppSigner of a passkey created here; signing opens the browser's WebAuthn prompt. */
export function passkeyAppSigner(
  record: PasskeyRecord,
  fns: Pick<WebAuthnFunctions, 'startAuthentication'>,
): AppSigner {
  const signer = passkeySignerFromStored(fns, record)
  return Object.freeze({
    id: record.id,
    source: 'passkey' as const,
    label: `passkey${named(record.label)} ${shortId(record.publicKey)}`,
    identifier: signer.identifier,
    signer,
    interactive: true,
  })
}

/** What the registry needs of a wagmi connection (structurally: wagmi's Connection fits). */
export interface WalletConnectionLike {
  readonly accounts: readonly string[]
  readonly connector: {
    readonly id: string
    readonly name: string
    getProvider(): Promise<unknown>
  }
}

/** personal_sign through the connector's own EIP-1193 provider, fetched when signing. */
function connectorRequest(connector: WalletConnectionLike['connector']): Eip1193Request {
  return async (args) => {
    let provider: unknown
    try {
      provider = await connector.getProvider()
    } catch (e) {
      throw new SignerError(
        'signer_error',
        `${connector.name}: its provider could not be reached: ${e instanceof Error ? e.message : String(e)}`,
        { cause: e },
      )
    }
    const request = (provider as { request?: unknown } | undefined)?.request
    if (typeof request !== 'function')
      throw new SignerError('signer_error', `${connector.name} offers no EIP-1193 provider (was the wallet removed?)`)
    return (request as Eip1193Request).call(provider, args)
  }
}

/**
 * One AppSigner per connected account, in connection order. `cache` keeps the same object
 * for the same connector and account across renders (pass one Map per registry).
 */
export function walletAppSigners(
  connections: readonly WalletConnectionLike[],
  cache: Map<string, AppSigner> = new Map(),
): AppSigner[] {
  const out: AppSigner[] = []
  const seen = new Set<string>()
  for (const c of connections) {
    for (const account of c.accounts) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(account)) continue
      const id = `wallet:${account.toLowerCase()}`
      if (seen.has(id)) continue
      seen.add(id)
      const key = `${c.connector.id}|${account}`
      let s = cache.get(key)
      if (!s) {
        const signer = walletSigner(connectorRequest(c.connector), account)
        s = Object.freeze({
          id,
          source: 'wallet' as const,
          label: `${c.connector.name} ${shortId(account.toLowerCase())}`,
          identifier: signer.identifier,
          signer,
          interactive: true,
        })
        cache.set(key, s)
      }
      out.push(s)
    }
  }
  return out
}

/** Wallets first, then passkeys, local Ethereum keys, installation keys; one entry per id. */
export function orderSigners(groups: readonly (readonly AppSigner[])[]): AppSigner[] {
  const all = groups.flat()
  const seen = new Set<string>()
  const unique = all.filter((s) => (seen.has(s.id) ? false : (seen.add(s.id), true)))
  const rank = (s: AppSigner) => SOURCE_ORDER.indexOf(s.source)
  return unique
    .map((s, i) => ({ s, i }))
    .sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i)
    .map((x) => x.s)
}
